"""The documentation site against the code: nothing the code defines is missing from the
reference pages, the engine page's examples run, the pictures exist and are described, the README
stays short and its links resolve, and nothing points outside the repository."""

from __future__ import annotations

import argparse
import asyncio
import doctest
import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


reference = _load("docs_reference_hook", DOCS / "hooks" / "reference.py")


def page(relative: str) -> str:
    """A page of the site as MkDocs renders it: its markers replaced by the generated text."""
    return reference.render((DOCS / relative).read_text())


def section(text: str, heading: str) -> str:
    """The part of ``text`` from the heading ``heading`` to the next heading of its level."""
    start = text.index(heading)
    following = re.search(r"^## ", text[start + len(heading) :], re.MULTILINE)
    return text[start : start + len(heading) + following.start()] if following else text[start:]


# ---------------------------------------------------------------- the slash commands


async def _tree_commands() -> list[tuple[str, list[str]]]:
    """Every leaf command of the bot's tree and its options, walked with discord.py's own API."""
    import tempfile

    from discord import app_commands

    from bot.app.client import CribbageBot
    from bot.app.config import Config
    from bot.sessions import GameSessionManager
    from cogs.cribbage import Cribbage
    from db import Store

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "tree.db"
        store = await Store.open(path)
        try:
            bot = CribbageBot(Config(token="", database=path, guild_id=None), store=store)
            bot._manager = GameSessionManager(store, strategy=lambda *_: None, coach=None)
            group = Cribbage(bot).app_command
            assert group is not None
            return [
                (command.qualified_name, [p.name for p in command.parameters])
                for command in group.walk_commands()
                if isinstance(command, app_commands.Command)
            ]
        finally:
            await store.close()


def test_every_slash_command_and_option_is_in_the_reference():
    text = page("reference/commands.md")
    commands = asyncio.run(_tree_commands())
    assert len(commands) >= 14  # the /cribbage group as a player knows it
    for name, options in commands:
        heading = f"## `/{name}`"
        assert heading in text, f"/{name} is missing from docs/reference/commands.md"
        body = section(text, heading)
        for option in options:
            assert f"| `{option}` |" in body, f"/{name}'s option {option} is not documented"


def test_the_players_pages_name_every_command():
    players = "\n".join(p.read_text() for p in (DOCS / "players").glob("*.md"))
    players += (DOCS / "admin" / "settings.md").read_text()
    for name, _ in asyncio.run(_tree_commands()):
        assert f"/{name}" in players, f"no player's or admin's page explains /{name}"


# ---------------------------------------------------------------- the command line


def _cli() -> list[tuple[str, list[str]]]:
    import bot.__main__ as program

    parser = program.build_parser()
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                options = [
                    flag
                    for a in sub._actions
                    if not isinstance(a, argparse._HelpAction) and a.help != argparse.SUPPRESS
                    for flag in (a.option_strings or [str(a.metavar or a.dest)])
                ]
                found.append((name, options))
    return found


def test_every_subcommand_and_argument_is_in_the_reference():
    text = page("reference/cli.md")
    subcommands = _cli()
    names = {name for name, _ in subcommands}
    assert {"run", "play", "replay", "review", "backup", "check", "prune", "migrate"} <= names
    for name, options in subcommands:
        heading = f"## `{name}`"
        assert heading in text, f"cribbage-bot {name} is missing from docs/reference/cli.md"
        body = section(text, heading)
        for option in options:
            assert option in body, f"cribbage-bot {name} {option} is not documented"


# ---------------------------------------------------------------- configuration and settings

ENV_NAME = re.compile(r"""["']((?:DISCORD|CRIBBAGE|LOG)_[A-Z0-9_]+)["']""")


def test_every_environment_variable_is_in_the_reference():
    text = page("reference/configuration.md")
    read = set()
    for package in ("bot", "cogs", "db"):
        for path in (ROOT / package).rglob("*.py"):
            for line in path.read_text().splitlines():
                if re.search(r"environ|getenv|\benv\b", line):  # a line that reads the environment
                    read |= set(ENV_NAME.findall(line))
    lines = (ROOT / ".env.example").read_text()
    example = set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]+)=", lines, re.MULTILINE))
    assert {"DISCORD_TOKEN", "CRIBBAGE_DB", "DISCORD_GUILD_ID"} <= read
    for name in sorted(read | example):
        assert f"| `{name}` |" in text, f"{name} is missing from docs/reference/configuration.md"


def test_every_server_setting_is_documented():
    from db.settings import SETTING_NAMES

    text = page("reference/configuration.md")
    settings = page("admin/settings.md")
    for setting in reference.server_settings():
        assert setting.name in SETTING_NAMES
        assert f"`{setting.name}` |" in text, f"server setting {setting.name} is not documented"
        assert setting.option, f"server setting {setting.name} has no /cribbage settings option"
        assert f"`{setting.option}`" in settings
        assert setting.meaning, f"ServerSettings' docstring does not say what {setting.name} does"
    assert {s.name for s in reference.server_settings()} == set(SETTING_NAMES)


def test_an_unknown_generated_section_fails_the_build():
    with pytest.raises(ValueError, match="unknown generated section"):
        reference.render("<!-- generated: nothing-of-the-kind -->")


# ---------------------------------------------------------------- pages, pictures, links


def test_the_engine_page_examples_run():
    result = doctest.testfile(
        str(DOCS / "developers" / "engine.md"),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
    )
    assert result.attempted >= 20 and result.failed == 0


def test_every_picture_exists_and_has_alt_text():
    images = _load("docs_images_script", ROOT / "scripts" / "docs_images.py")
    used = set()
    for path in [ROOT / "README.md", *DOCS.rglob("*.md")]:
        for alt, target in re.findall(r"!\[([^\]]*)\]\(([^)]+)\)", path.read_text()):
            picture = (path.parent / target).resolve()
            assert picture.exists(), f"{path.relative_to(ROOT)}: {target} does not exist"
            assert alt.strip(), f"{path.relative_to(ROOT)}: {target} has no alt text"
            if picture.name in images.ALT:
                assert alt == images.ALT[picture.name], f"{picture.name}: alt text differs"
            used.add(picture.name)
    assert set(images.PICTURES) == set(images.ALT)
    assert set(images.ALT) <= used, "a picture made by make docs-images is used nowhere"


def test_the_readme_is_short_and_its_links_resolve():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.encode()) <= 12_000 and readme.count("\n") <= 150
    assert "make run" in readme and "make test" in readme
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme):
        if not target.startswith(("http://", "https://")):
            assert (ROOT / target).exists(), f"README.md links to {target}, which does not exist"
    assert "docs/players/without-discord.md" in readme


def test_the_home_page_links_play_without_discord():
    home = (DOCS / "index.md").read_text()
    assert "[Play without Discord](players/without-discord.md)" in home


def _tracked() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    return [ROOT / name for name in listed.split("\0") if name]


def test_nothing_tracked_points_outside_the_repository():
    outside = "../" + "shared"  # written so that no grep for the path finds this file
    found = []
    for path in _tracked():
        if not path.is_file() or path.suffix in {".png", ".db", ".gz", ".zip"}:
            continue
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue
        if outside in text or "/work/" + "shared" in text:  # the brief's two spellings
            found.append(str(path.relative_to(ROOT)))
    assert not found, f"these files point outside the repository: {found}"


def test_the_docs_and_the_library_cite_the_docs_not_outside_files():
    names = ("RULES" + ".md", "DESIGN" + ".md")
    places = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *DOCS.rglob("*.md")]
    for package in ("bot", "cogs", "db", "tests", "benchmarks", "scripts"):
        places += list((ROOT / package).rglob("*.py"))
    for path in places:
        text = path.read_text()
        for name in names:
            assert name not in text, f"{path.relative_to(ROOT)} cites {name}, not in the repository"


def test_the_code_says_what_and_why_not_its_history():
    """No issue numbers in code or tests, and measurement histories live on the research pages
    (a constant's docstring links them), not in the library's docstrings."""
    issue = re.compile(r"\b[Ii]ssue [0-9]+")
    numbered = []
    plus_minus = 0
    for package in ("bot", "cogs", "db", "tests"):
        for path in (ROOT / package).rglob("*.py"):
            text = path.read_text()
            numbered += [f"{path.relative_to(ROOT)}: {m.group()}" for m in issue.finditer(text)]
            if package == "bot":
                plus_minus += text.count("±")
    assert not numbered, numbered
    assert plus_minus <= 5
