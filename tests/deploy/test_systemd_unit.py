"""deploy/cribbage-bot.service passes ``systemd-analyze verify`` with nothing to say, keeps the
sandbox it promises (``systemd-analyze security --offline``), and starts the console script.

``verify`` insists that ExecStart's program exists, so it checks a copy whose ExecStart is a
program of this machine; everything else is the unit as shipped."""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "deploy" / "cribbage-bot.service"
ANALYZE = shutil.which("systemd-analyze")
needs_analyze = pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")


def checkable(tmp_path: Path, text: str | None = None) -> Path:
    """A copy of the unit (or of ``text``) whose ExecStart names a program that exists here."""
    text = UNIT.read_text() if text is None else text
    runnable = shutil.which("true") or "/bin/true"
    copy = tmp_path / UNIT.name
    copy.write_text(re.sub(r"(?m)^ExecStart=\S+", f"ExecStart={runnable}", text))
    return copy


def verify(unit: Path) -> subprocess.CompletedProcess:
    assert ANALYZE is not None
    return subprocess.run(
        [ANALYZE, "verify", "--man=no", str(unit)], capture_output=True, text=True, timeout=60
    )


@needs_analyze
def test_the_unit_verifies_with_nothing_to_say(tmp_path):
    result = verify(checkable(tmp_path))
    said = (result.stdout + result.stderr).strip()
    assert result.returncode == 0 and said == "", said


@needs_analyze
@pytest.mark.parametrize(
    ("setting", "fault", "complaint"),
    [
        ("ProtectSystem=strict", "ProtectSytem=strict", "Unknown key"),
        ("Restart=on-failure", "Restart=sometimes", "restart specifier"),
        ("NoNewPrivileges=yes", "NoNewPrivileges=maybe", "boolean"),
    ],
)
def test_verify_reports_a_fault_planted_in_the_unit(tmp_path, setting, fault, complaint):
    """systemd ignores a line it cannot read, and ``verify`` still exits 0: only what it says
    tells a broken unit, which is why the test above wants it to say nothing."""
    text = UNIT.read_text()
    assert f"\n{setting}\n" in text
    result = verify(checkable(tmp_path, text.replace(f"\n{setting}\n", f"\n{fault}\n")))
    assert complaint in result.stderr, result.stderr


@needs_analyze
@pytest.mark.parametrize("weakened", [False, True])
def test_the_sandbox_keeps_the_exposure_low(tmp_path, weakened):
    """``systemd-analyze security`` scores what a compromised bot could reach, 0 (nothing) to 10
    (everything); the unit as shipped must stay at 1.5 or below. ``--threshold`` counts in
    tenths of that score and makes the command fail above it. Without ProtectSystem,
    ProtectHome, PrivateTmp and NoNewPrivileges the unit scores above 2."""
    assert ANALYZE is not None
    text = UNIT.read_text()
    if weakened:
        for setting in ("ProtectSystem", "ProtectHome", "PrivateTmp", "NoNewPrivileges"):
            text = re.sub(rf"(?m)^{setting}=.*\n", "", text)
    result = subprocess.run(
        [ANALYZE, "security", "--offline=true", "--threshold=15", "--no-pager",
         str(checkable(tmp_path, text))],
        capture_output=True, text=True, timeout=60,
    )
    assert (result.returncode != 0) == weakened, result.stdout[-2000:] + result.stderr


def test_the_unit_starts_the_console_script_with_its_own_state():
    settings = dict(
        line.split("=", 1) for line in UNIT.read_text().splitlines() if re.match(r"^\w+=", line)
    )
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert Path(settings["ExecStart"].split()[0]).name in scripts
    assert settings["EnvironmentFile"] == "/etc/cribbage-bot/env"
    state = f"/var/lib/{settings['StateDirectory']}"
    assert settings["Environment"] == f"CRIBBAGE_DB={state}/cribbage.db"
    assert settings["ReadWritePaths"] == state
    assert settings["User"] != "root"
