"""The store's exceptions. Messages are written for the operator who starts the bot."""

from __future__ import annotations


class StoreError(Exception):
    """Base class of every error the store raises on purpose."""


class NotACribbageDatabase(StoreError):
    """The file is not a cribbage-bot database (another app's SQLite file, a text file, ...).

    Raised before anything is written: the file is left exactly as it was.
    """


class DatabaseTooNew(StoreError):
    """The database was written by a newer cribbage-bot; this version will not touch it."""


class Conflict(StoreError):
    """A write broke a uniqueness rule (a second open game in a channel, a taken seat, ...)."""
