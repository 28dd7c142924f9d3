"""Running a benchmark script as a test: its process, its exit status, its figures.

Every benchmark prints each figure on its own line as ``name: value unit`` and exits 0 (the
developers' guide); :func:`run_benchmark` checks both and returns the figures by name."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIGURE = re.compile(r"^(\w+): (-?\d+(?:\.\d+)?) ?(\S*)$")


def run_benchmark(script: str, *arguments: str, timeout: float = 170) -> dict[str, float]:
    """Run ``benchmarks/<script>`` with ``arguments``; every line must be a figure."""
    run = subprocess.run(
        [sys.executable, f"benchmarks/{script}", *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    figures: dict[str, float] = {}
    for line in run.stdout.splitlines():
        match = FIGURE.match(line)
        assert match, f"not a 'name: value unit' line: {line!r}"
        figures[match[1]] = float(match[2])
    return figures
