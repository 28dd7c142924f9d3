"""Helpers that know no cog (the extensions ``cogs.cribbage`` and ``cogs.standings`` use them):
the base of every button and menu and the registry of who answers their clicks (items), names,
payloads, pictures, replies in time, command checks, and the background loops (ticker)."""
