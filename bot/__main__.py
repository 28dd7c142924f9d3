"""``python -m bot``: start the Discord bot.  ``python -m bot play``: a game in the terminal.
``python -m bot backup PATH`` / ``check [DB]`` / ``prune --days N``: the operator's commands
(:mod:`bot.app.operations`, :mod:`bot.app.retention`). ``replay DB GAME`` / ``review DB GAME``:
a finished game deal by deal, and a player's review (:mod:`bot.app.replay_cli`,
:mod:`bot.app.review_cli`)."""

from __future__ import annotations

import logging
import sys


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["play"]:
        from bot.app.terminal import main as play

        return play(argv[1:])
    if argv[:1] == ["backup"]:
        from bot.app.operations import backup_main

        return backup_main(argv[1:])
    if argv[:1] == ["check"]:
        from bot.app.operations import check_main

        return check_main(argv[1:])
    if argv[:1] == ["replay"]:
        from bot.app.replay_cli import replay_main

        return replay_main(argv[1:])
    if argv[:1] == ["review"]:
        from bot.app.review_cli import review_main

        return review_main(argv[1:])
    if argv[:1] == ["prune"]:
        from bot.app.retention import prune_main

        return prune_main(argv[1:])
    if argv and argv[0] in ("-h", "--help"):
        print("usage: python -m bot              start the Discord bot (reads .env)")
        print("       python -m bot play ...     play in the terminal (python -m bot play --help)")
        print("       python -m bot backup PATH  copy the database (safe while the bot runs)")
        print("       python -m bot check [DB]   check the database and replay every game")
        print("       python -m bot prune --days N  drop the moves of games older than N days")
        print("       python -m bot replay DB GAME [--deal K]  a finished game, deal by deal")
        print("       python -m bot review DB GAME [--seat N | --user ID]  a game's review")
        return 0
    if argv:
        print(
            f"python -m bot: unknown command {argv[0]!r}; commands: play, backup, check, prune, "
            "replay, review "
            "(python -m bot --help). Started without arguments, it runs the Discord bot.",
            file=sys.stderr,
        )
        return 2

    from bot.app.config import ConfigError, load_config

    try:
        config = load_config()
    except ConfigError as err:
        print(err, file=sys.stderr)
        return 2
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    from bot.app.logs import install

    install(config.token)  # no token, webhook URL or interaction payload in any log line
    from bot.app.client import run

    return run(config)


def entry() -> None:
    """The ``cribbage-bot`` console script."""
    raise SystemExit(main())


if __name__ == "__main__":
    entry()
