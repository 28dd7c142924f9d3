"""The names the repositories still import from here, until their import lines name
:mod:`db.connection`, where the statement runner lives."""

from .connection import REFUSED, Connection, Dialect

__all__ = ["REFUSED", "Connection", "Dialect"]
