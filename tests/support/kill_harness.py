"""The kill tests' two halves: a worker server that forks one run per request, and the test's
handle on it, which kills a run at a chosen moment.

The worker (``python <worker script> --serve``) imports everything once and reads commands on
stdin: ``RUN <target> <seed>`` forks a run of ``main(target, seed, False)``, ``CHECK <target>``
one of ``main(target, 0, True)``, ``QUIT`` ends it. It answers ``CHILD <pid>`` at once and
``DEAD <pid> <status>`` (minus the signal's number when killed) when the run ends; a run's own
lines (:func:`say`, written straight to the file descriptor so that nothing is buffered when it
is killed) come in between.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import traceback
from collections.abc import Callable, Collection, Coroutine
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

Main = Callable[[str, int, bool], Coroutine[Any, Any, None]]


def say(*words: object) -> None:
    """One line to the test, unbuffered (a run may be killed right after it)."""
    os.write(1, (" ".join(str(w) for w in words) + "\n").encode())


def _child(main: Main, target: str, seed: int, check: bool) -> None:
    """The body of a forked run: never returns into the server's loop."""
    status = 0
    try:
        asyncio.run(main(target, seed, check))
    except BaseException as exc:  # reported (the traceback to stderr), and the exit status
        traceback.print_exc()
        sys.stderr.flush()
        say("CRASH", type(exc).__name__, str(exc).replace("\n", " ")[:300])
        status = 1
    os._exit(status)


def serve(main: Main) -> None:
    """The worker server: one forked run of ``main`` per command read from stdin."""
    for line in sys.stdin:
        words = line.split()
        if not words or words[0] == "QUIT":
            return
        check = words[0] == "CHECK"
        pid = os.fork()
        if pid == 0:
            _child(main, words[1], 0 if check else int(words[2]), check)
        say("CHILD", pid)
        _, status = os.waitpid(pid, 0)
        say("DEAD", pid, -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status))


class Worker:
    """The worker server of ``script`` in ``--serve`` mode; its stderr goes to ``log``."""

    def __init__(self, script: Path | str, log: Path) -> None:
        with log.open("ab") as errors:
            self.proc = subprocess.Popen(
                [sys.executable, str(script), "--serve"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=errors,
                cwd=ROOT,
            )

    def _send(self, line: str) -> int:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()
        words = self.proc.stdout.readline().decode().split()
        assert words[:1] == ["CHILD"], words
        return int(words[1])

    def _read(self) -> list[str]:
        assert self.proc.stdout is not None
        return self.proc.stdout.readline().decode().rstrip("\n").split(" ", 6)

    def _until_dead(self, pid: int, lines: list[list[str]]) -> int:
        while True:
            words = self._read()
            assert words != [""], "the worker server stopped"
            if words[0] == "DEAD" and int(words[1]) == pid:
                return int(words[2])
            lines.append(words)

    def run(
        self, target: Path | str, seed: int, quota: int | None, counted: Collection[str] = ()
    ) -> tuple[list[list[str]], int]:
        """One run, killed after ``quota`` lines once READY (only lines whose first word is in
        ``counted``, if given; None: at once, while it starts and resumes); every line it
        wrote, and how it died."""
        pid = self._send(f"RUN {target} {seed}")
        lines: list[list[str]] = []
        ready, count = False, 0
        while quota is not None and not (ready and count >= quota):
            words = self._read()
            assert words[0] != "DEAD", f"the run died by itself: {lines[-3:]}"
            lines.append(words)
            count += ready and (not counted or words[0] in counted)
            ready = ready or words[0] == "READY"
        os.kill(pid, signal.SIGKILL)
        return lines, self._until_dead(pid, lines)

    def check(self, target: Path | str) -> list[list[str]]:
        """A checking run to its end; its lines (it must exit 0)."""
        lines: list[list[str]] = []
        status = self._until_dead(self._send(f"CHECK {target}"), lines)
        assert status == 0, lines[-5:]
        return lines

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"QUIT\n")
        self.proc.stdin.close()
        self.proc.wait(timeout=10)
