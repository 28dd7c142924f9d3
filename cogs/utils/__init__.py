"""Helpers of the extensions (``cogs.cribbage``, ``cogs.standings``): buttons, messages,
pictures."""
