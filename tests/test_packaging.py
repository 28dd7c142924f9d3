"""requirements.lock keeps pyproject.toml's word: the container image installs the lock with
``pip install --require-hashes`` and then the project with ``--no-deps``, so a runtime
dependency missing from the lock, or pinned outside the range pyproject declares, would ship an
image that fails at import or runs on a version nobody promised. ``make lock`` regenerates it."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements.lock"


def project() -> dict:
    with (ROOT / "pyproject.toml").open("rb") as file:
        return tomllib.load(file)["project"]


def lock_entries(text: str) -> list[tuple[Requirement, list[str]]]:
    """Each requirement of a pip requirements file with its ``--hash`` options, continuation
    lines joined and comments dropped."""
    logical: list[str] = []
    pending = ""
    for raw in text.splitlines():
        line = raw.split(" #", 1)[0].strip() if not raw.lstrip().startswith("#") else ""
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        pending += line
        if pending.strip():
            logical.append(pending.strip())
        pending = ""
    entries = []
    for line in logical:
        words = line.split()
        hashes = [w.removeprefix("--hash=") for w in words if w.startswith("--hash=")]
        spec = " ".join(w for w in words if not w.startswith("--hash="))
        entries.append((Requirement(spec), hashes))
    return entries


def pinned(requirement: Requirement) -> str:
    (specifier,) = requirement.specifier
    assert specifier.operator == "==", f"{requirement} is not pinned to one version"
    return specifier.version


def test_the_parser_reads_pins_markers_and_hashes():
    text = (
        "# a comment\n"
        "audioop-lts==0.2.2 ; python_full_version >= '3.13' \\\n"
        "    --hash=sha256:aa \\\n"
        "    --hash=sha256:bb\n"
        "    # via discord-py\n"
        "yarl==1.25.1 --hash=sha256:cc\n"
    )
    (first, first_hashes), (second, second_hashes) = lock_entries(text)
    assert (first.name, pinned(first)) == ("audioop-lts", "0.2.2")
    assert first_hashes == ["sha256:aa", "sha256:bb"]
    assert str(first.marker) == 'python_full_version >= "3.13"'
    assert (second.name, pinned(second), second_hashes) == ("yarl", "1.25.1", ["sha256:cc"])


@pytest.fixture(scope="module")
def locked() -> dict[str, list[tuple[Requirement, list[str]]]]:
    by_name: dict[str, list[tuple[Requirement, list[str]]]] = {}
    for requirement, hashes in lock_entries(LOCK.read_text(encoding="utf-8")):
        by_name.setdefault(canonicalize_name(requirement.name), []).append((requirement, hashes))
    return by_name


def test_every_entry_is_one_version_with_the_hashes_of_its_files(locked):
    assert locked, "requirements.lock pins nothing"
    for entries in locked.values():
        for requirement, hashes in entries:
            pinned(requirement)
            assert hashes, f"{requirement} has no --hash: pip --require-hashes would refuse it"
            assert all(h.startswith("sha256:") for h in hashes), requirement


@pytest.mark.parametrize("declared", project()["dependencies"])
def test_each_runtime_dependency_is_locked_inside_its_declared_range(declared, locked):
    requirement = Requirement(declared)
    entries = locked.get(canonicalize_name(requirement.name))
    assert entries, f"{requirement.name} is a dependency but not in requirements.lock: make lock"
    for entry, _ in entries:
        version = pinned(entry)
        assert requirement.specifier.contains(version, prereleases=True), (
            f"requirements.lock pins {requirement.name}=={version}, outside {declared!r}: make lock"
        )


def test_the_lock_holds_no_development_tool(locked):
    """The image runs the bot, so it carries no test runner, linter or type checker."""
    extras = project()["optional-dependencies"]
    tools = {
        canonicalize_name(Requirement(line).name)
        for lines in extras.values()
        for line in lines
        if canonicalize_name(Requirement(line).name) != canonicalize_name(project()["name"])
    }
    assert tools, "no development tools declared: the check would prove nothing"
    assert sorted(tools & set(locked)) == []


def test_discord_py_reads_and_writes_json_with_orjson():
    """orjson is a dependency for discord.py's sake alone: it must be the one discord.py uses."""
    import discord.utils

    assert discord.utils.HAS_ORJSON
    assert discord.utils._from_json('{"a": [1, "x"]}') == {"a": [1, "x"]}
