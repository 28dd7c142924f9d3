"""``python -m bot``: start the Discord bot.  ``python -m bot play``: a game in the terminal."""

from __future__ import annotations

import logging
import sys


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["play"]:
        from bot.app.terminal import main as play

        return play(argv[1:])
    if argv and argv[0] in ("-h", "--help"):
        print("usage: python -m bot            start the Discord bot (reads .env)")
        print("       python -m bot play ...   play in the terminal (python -m bot play --help)")
        return 0

    from bot.app.config import ConfigError, load_config

    try:
        config = load_config()
    except ConfigError as err:
        print(err, file=sys.stderr)
        return 2
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    from bot.app.client import run

    return run(config)


if __name__ == "__main__":
    raise SystemExit(main())
