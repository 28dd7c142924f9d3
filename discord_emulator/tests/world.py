"""The smallest world the emulator's own tests need: a guild with #cribbage, alice and bob."""

from __future__ import annotations

from discord_emulator import DiscordEmulator, EmuChannel, EmuUser


class World:
    def __init__(self, emu: DiscordEmulator) -> None:
        self.emu = emu
        self.guild = emu.add_guild("Test")
        self.channel: EmuChannel = emu.add_text_channel(self.guild, "cribbage")
        self.alice: EmuUser = emu.add_user("alice")
        self.bob: EmuUser = emu.add_user("bob")
