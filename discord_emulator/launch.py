"""Run a bot in a subprocess against a running emulator.

    python -m discord_emulator.launch --url http://127.0.0.1:PORT -m bot [args...]
    python -m discord_emulator.launch --url http://127.0.0.1:PORT path/to/script.py [args...]

``--url`` defaults to ``$DISCORD_EMULATOR_URL``. The launcher points discord.py's REST base and
gateway at the emulator, makes ``guild_ready_timeout`` default to 0.05 s (override with
``--guild-ready-timeout``), then runs the module or script as ``__main__``. In the test, get the
argv from ``emu.launch_command(module="bot")`` and wait with ``await emu.wait_ready()``.
"""

from __future__ import annotations

import argparse
import os
import runpy
import sys
from typing import Any


def _default_guild_ready_timeout(seconds: float) -> None:
    from discord.state import ConnectionState

    original = ConnectionState.__init__

    def __init__(self: Any, *args: Any, **options: Any) -> None:
        options.setdefault("guild_ready_timeout", seconds)
        original(self, *args, **options)

    ConnectionState.__init__ = __init__  # type: ignore[method-assign]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=os.environ.get("DISCORD_EMULATOR_URL"))
    parser.add_argument("--guild-ready-timeout", type=float, default=0.05)
    parser.add_argument("-m", dest="module")
    parser.add_argument("rest", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    if not args.url:
        parser.error("--url or $DISCORD_EMULATOR_URL is required")
    if not args.module and not args.rest:
        parser.error("give -m MODULE or a script path")

    import yarl
    from discord.gateway import DiscordWebSocket
    from discord.http import Route

    url = args.url.rstrip("/")
    Route.BASE = f"{url}/api/v10"
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url.replace("http", "ws", 1) + "/gateway")
    _default_guild_ready_timeout(args.guild_ready_timeout)

    if args.module:
        sys.argv = [args.module, *args.rest]
        runpy.run_module(args.module, run_name="__main__", alter_sys=True)
    else:
        script, *rest = args.rest
        sys.argv = [script, *rest]
        runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
