"""The real ``python -m bot`` in a subprocess: clean shutdown on SIGTERM, a second process on
the same database carries the game on from the old buttons, commands synced only once."""

import asyncio
import signal
from pathlib import Path

import pytest

from discord_emulator import DiscordEmulator
from tests.support.discord_players import TOKEN, bot_environment


async def start_bot(emu: DiscordEmulator, database: Path) -> asyncio.subprocess.Process:
    process = await asyncio.create_subprocess_exec(
        *emu.launch_command(module="bot"),
        cwd=database.parent,
        env=bot_environment(database),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    try:
        await emu.wait_ready(timeout=60)
    except Exception:
        process.kill()
        output, _ = await process.communicate()
        raise AssertionError(f"the bot did not connect; it said:\n{output.decode()}") from None
    return process


async def stop_bot(process: asyncio.subprocess.Process) -> str:
    process.send_signal(signal.SIGTERM)
    output, _ = await asyncio.wait_for(process.communicate(), timeout=20)
    assert process.returncode == 0, output.decode()
    return output.decode()


def syncs(emu: DiscordEmulator) -> int:
    return sum(1 for r in emu.transcript.records if r.get("kind") == "command_sync")


@pytest.mark.slow  # two bot processes in turn
async def test_sigterm_then_a_new_process_carries_the_game_on(tmp_path):
    database = tmp_path / "cribbage.db"
    async with DiscordEmulator() as emu:
        guild = emu.add_guild("Club")
        channel = emu.add_text_channel(guild, "cribbage")
        alice = emu.add_user("alice")
        first = await start_bot(emu, database)
        try:
            assert syncs(emu) == 1
            await emu.slash(alice, channel, "cribbage start", computer="easy")
            lobby = emu.last_public(channel)
            await emu.click(alice, lobby, "Start")

            def table():
                places = (channel, *emu.threads_in(channel))  # the game plays in its thread
                for message in reversed([m for p in places for m in emu.public_messages(p)]):
                    if any(b.label == "Your hand" for b in message.buttons):
                        return message
                raise LookupError("no table yet")

            await emu.wait_for(table, what="the table")

            def dealt_hand():  # her hand, sent below the deal's table once both have cut
                for place in (channel, *emu.threads_in(channel)):
                    for message in reversed(emu.ephemerals_for(alice, place)):
                        picks = [b for b in message.buttons if b.custom_id.startswith("crib:s:")]
                        if picks and not message.deleted:
                            return message
                raise LookupError("no hand yet")

            def her_cut() -> bool:  # a tie: the cut for the deal is offered to her again
                shown = table()
                return f"<@{alice.id}>" in (shown.content or "") and any(
                    b.label == "Cut" for b in shown.buttons
                )

            def dealt_or_cut_again():
                try:
                    return dealt_hand()
                except LookupError:
                    if her_cut():
                        return "again"
                    raise

            for _ in range(10):  # the cut for the deal, on the table (again after a tie)
                await emu.click(alice, table(), "Cut")
                await emu.wait_for(dealt_or_cut_again, what="a hand with buttons")
                if dealt_or_cut_again() != "again":
                    break
            hand = dealt_hand()
        finally:
            output = await stop_bot(first)
        assert "Shutting down" in output and "closed" in output
        assert TOKEN not in output

        second = await start_bot(emu, database)
        try:
            assert syncs(emu) == 1  # unchanged commands are not synced again
            # the hand drawn by the first process still works: lay away two cards
            pick = next(b for b in hand.buttons if b.custom_id.startswith("crib:s:"))
            await emu.click(alice, hand, custom_id=pick.custom_id)
            await emu.wait_for(
                lambda: any("✔" in (b.emoji or "") for b in hand.buttons),
                what="the selection to show",
            )
        finally:
            await stop_bot(second)
