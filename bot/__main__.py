"""``cribbage-bot`` / ``python -m bot``: the Discord bot (the default command, ``run``), ``play``
in the terminal, ``replay`` and ``review`` of a finished game, and the operator's ``backup``,
``check``, ``prune`` and ``migrate``; the parser and its commands are :mod:`bot.app.cli`."""

from __future__ import annotations

from bot.app.cli import build_parser, main

__all__ = ["build_parser", "entry", "main"]


def entry() -> None:
    """The ``cribbage-bot`` console script."""
    raise SystemExit(main())


if __name__ == "__main__":
    entry()
