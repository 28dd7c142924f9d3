"""The reference pages, written from the code at every ``mkdocs build`` (an MkDocs hook).

A page that holds a marker such as ``<!-- generated: commands -->`` gets the marker replaced by
what the code defines today, so the pages cannot fall behind it:

* ``commands``: every ``/cribbage`` subcommand and option, from the bot's own command tree (the
  :class:`cogs.cribbage.Cribbage` cog built on a :class:`bot.app.client.CribbageBot` that never
  connects, with the tournament and season groups other cogs add to it);
* ``cli``: every subcommand and argument of ``cribbage-bot`` / ``python -m bot``, from its
  argparse parser (``bot.__main__.build_parser()``);
* ``environment``: every environment variable the code reads (found in the source of ``bot/``,
  ``cogs/`` and ``db/``), described by its comment in ``.env.example``;
* ``server-settings``: every server setting, from :class:`db.settings.ServerSettings` (its
  fields, defaults and docstring) and the options of ``/cribbage settings``.

``tests/test_docs.py`` imports this file and checks that nothing the code defines is missing.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import functools
import re
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

MARKER = re.compile(r"<!--\s*generated:\s*([a-z-]+)\s*-->")
SOURCES = ("bot", "cogs", "db")
ENV_READ = re.compile(
    r"""(?:\.get|getenv|environ\.get|environ\[|setdefault)\(?\s*["']([A-Z][A-Z0-9]*_[A-Z0-9_]+)["']"""
)


# ---------------------------------------------------------------- the slash commands


@dataclass(frozen=True)
class Option:
    name: str
    type: str
    required: bool
    description: str
    default: str
    allowed: str


@dataclass(frozen=True)
class SlashCommand:
    name: str  # "cribbage start"
    description: str
    options: tuple[Option, ...]


def _allowed(parameter: Any) -> str:
    if parameter.choices:
        return ", ".join(f"`{choice.name}`" for choice in parameter.choices)
    low, high = parameter.min_value, parameter.max_value
    if low is not None and high is not None and high < 2**53:
        return f"{low} to {high}"
    if low is not None:
        return f"{low} or more"
    if parameter.autocomplete:
        return "suggested as you type"
    return ""


def _default(parameter: Any) -> str:
    if parameter.required:
        return "required"
    default = parameter.default
    if default is None or default is Ellipsis or repr(default).startswith("<"):
        return ""
    return f"`{default}`"


async def _build_commands() -> list[SlashCommand]:
    from discord import app_commands

    from bot.app.client import CribbageBot
    from bot.app.config import Config
    from bot.sessions import GameSessionManager
    from cogs.cribbage import Cribbage
    from cogs.standings.seasons import SeasonCommands
    from cogs.tournament.cog import Tournaments
    from db import Store

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "commands.db"
        store = await Store.open(path)
        try:
            bot = CribbageBot(Config(token="", database=path, guild_id=None), store=store)
            # setup_hook builds the manager and then connects; the commands need only the
            # manager to exist, so it is built here the same way, without connecting.
            bot._manager = GameSessionManager(store, strategy=lambda *_: None, coach=None)
            group = Cribbage(bot).app_command
            assert group is not None
            # the groups other cogs add to /cribbage when they load, built the same way
            tournaments = Tournaments(bot)
            group.add_command(tournaments.group)
            group.add_command(SeasonCommands(store.seasons, store.standings))
            found: list[SlashCommand] = []

            def walk(command: app_commands.Command[Any, ..., Any] | app_commands.Group) -> None:
                if isinstance(command, app_commands.Group):
                    for child in command.commands:
                        walk(child)
                    return
                options = tuple(
                    Option(
                        name=p.name,
                        type=p.type.name,
                        required=p.required,
                        description=p.description,
                        default=_default(p),
                        allowed=_allowed(p),
                    )
                    for p in command.parameters
                )
                found.append(SlashCommand(command.qualified_name, command.description, options))

            walk(group)
            return found
        finally:
            await store.close()


@functools.cache
def slash_commands() -> tuple[SlashCommand, ...]:
    """Every slash command of the bot, with its options, in the order Discord lists them."""
    return tuple(asyncio.run(_build_commands()))


def commands_markdown() -> str:
    lines: list[str] = []
    commands = slash_commands()
    lines.append("| command | what it does |")
    lines.append("| --- | --- |")
    for command in commands:
        anchor = command.name.replace(" ", "-")
        lines.append(f"| [`/{command.name}`](#{anchor}) | {command.description} |")
    for command in commands:
        anchor = command.name.replace(" ", "-")
        lines += ["", f"## `/{command.name}` {{#{anchor}}}", "", command.description + "."]
        if not command.options:
            lines += ["", "No options."]
            continue
        lines += ["", "| option | type | what it sets | allowed | default |"]
        lines.append("| --- | --- | --- | --- | --- |")
        for option in command.options:
            lines.append(
                f"| `{option.name}` | {option.type} | {_cell(option.description)} | "
                f"{option.allowed} | {option.default} |"
            )
    return "\n".join(lines)


# ---------------------------------------------------------------- the command line


@dataclass(frozen=True)
class Argument:
    names: str  # "--deal K" or "DB"
    help: str
    default: str


@dataclass(frozen=True)
class CliCommand:
    name: str  # "" for the program itself
    usage: str
    description: str
    arguments: tuple[Argument, ...]


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``cribbage-bot`` (``bot.__main__.build_parser``)."""
    import bot.__main__ as program

    return program.build_parser()  # type: ignore[no-any-return]


def _subparsers(parser: argparse.ArgumentParser) -> Iterator[tuple[str, str, Any]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
            seen: set[int] = set()
            for name, sub in action.choices.items():
                if id(sub) in seen:  # an alias
                    continue
                seen.add(id(sub))
                yield name, helps.get(name, ""), sub


def _arguments(parser: argparse.ArgumentParser) -> tuple[Argument, ...]:
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
            continue
        if action.help == argparse.SUPPRESS:
            continue
        names = parser._get_formatter()._format_action_invocation(action)
        default = action.default
        shown = (
            ""
            if default in (None, False, argparse.SUPPRESS) or action.nargs == 0
            else f"`{default}`"
        )
        help_text = (action.help or "") % {"default": default, "prog": parser.prog}
        found.append(Argument(names, help_text, shown))
    return tuple(found)


def cli_commands() -> list[CliCommand]:
    """The program and each of its subcommands, with their arguments."""
    parser = build_parser()
    found = [
        CliCommand("", parser.format_usage().strip(), parser.description or "", _arguments(parser))
    ]
    for name, help_text, sub in _subparsers(parser):
        found.append(
            CliCommand(
                name,
                sub.format_usage().strip(),
                sub.description or help_text,
                _arguments(sub),
            )
        )
    return found


def cli_markdown() -> str:
    commands = cli_commands()
    program, subcommands = commands[0], commands[1:]
    lines = ["```text", program.usage, "```", ""]
    if program.description:
        lines += [program.description, ""]
    if program.arguments:
        lines += _argument_table(program.arguments) + [""]
    lines += ["| subcommand | what it does |", "| --- | --- |"]
    for command in subcommands:
        lines.append(f"| [`{command.name}`](#{command.name}) | {_cell(command.description)} |")
    for command in subcommands:
        lines += ["", f"## `{command.name}` {{#{command.name}}}", ""]
        if command.description:
            lines += [command.description, ""]
        lines += ["```text", command.usage, "```"]
        if command.arguments:
            lines += [""] + _argument_table(command.arguments)
    return "\n".join(lines)


def _argument_table(arguments: tuple[Argument, ...]) -> list[str]:
    lines = ["| argument | meaning | default |", "| --- | --- | --- |"]
    for argument in arguments:
        lines.append(f"| `{argument.names}` | {_cell(argument.help)} | {argument.default} |")
    return lines


# ---------------------------------------------------------------- the environment


@dataclass(frozen=True)
class Variable:
    name: str
    example: str  # its value in .env.example ("" when it is not there)
    description: str  # its comment in .env.example
    read_in: tuple[str, ...]  # the files that read it


def _env_example() -> dict[str, tuple[str, str]]:
    """``.env.example``: each variable's value and the comment lines above it."""
    found: dict[str, tuple[str, str]] = {}
    comment: list[str] = []
    path = ROOT / ".env.example"
    if not path.exists():
        return found
    for raw in path.read_text().splitlines():
        line = raw.strip()
        assignment = re.fullmatch(r"#?\s*([A-Z][A-Z0-9_]*)=(.*)", line)
        if assignment:
            name, value = assignment.groups()
            found[name] = (value.strip(), " ".join(comment))
            comment = []
        elif line.startswith("#"):
            text = line.lstrip("#").strip()
            if text and not text.lower().startswith(("copy to .env", "never commit")):
                comment.append(text)
        else:
            comment = []
    return found


def environment_variables() -> list[Variable]:
    """Every environment variable the code reads, described from ``.env.example``."""
    readers: dict[str, set[str]] = {}
    for package in SOURCES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for name in ENV_READ.findall(path.read_text()):
                readers.setdefault(name, set()).add(str(path.relative_to(ROOT)))
    example = _env_example()
    names = list(example) + sorted(name for name in readers if name not in example)
    return [
        Variable(
            name,
            example.get(name, ("", ""))[0],
            example.get(name, ("", ""))[1] or _said_in(name, readers[name]),
            tuple(sorted(readers[name])),
        )
        for name in names
        if name in readers
    ]


def _said_in(name: str, paths: set[str]) -> str:
    """The first sentence of the code that reads ``name`` (its docstrings and comments) that
    names it, for a variable ``.env.example`` does not describe."""
    found = []
    for path in sorted(paths):
        text = " ".join((ROOT / path).read_text().split())
        for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z`(])|\"\"\"", text):
            if f"``{name}``" in sentence or f"`{name}`" in sentence:
                found.append(_plain(sentence.strip(" #")))
    if not found:
        return ""
    shortest = min(found, key=len)
    return shortest if len(shortest) <= 240 else shortest[:239].rsplit(" ", 1)[0] + " …"


def environment_markdown() -> str:
    lines = ["| variable | meaning | in `.env.example` | read in |", "| --- | --- | --- | --- |"]
    for variable in environment_variables():
        example = f"`{variable.example}`" if variable.example else ""
        readers = ", ".join(f"`{path}`" for path in variable.read_in)
        description = variable.description or "(not described in `.env.example`)"
        lines.append(f"| `{variable.name}` | {_cell(description)} | {example} | {readers} |")
    return "\n".join(lines)


# ---------------------------------------------------------------- the server settings

#: The option of ``/cribbage settings`` that sets a field of ``ServerSettings``, where the two
#: names differ.
OPTION_OF = {"turn_minutes": "turn_time", "computer_games_count": "computer_games"}


@dataclass(frozen=True)
class ServerSetting:
    name: str  # the field of ServerSettings
    option: str  # the option of /cribbage settings
    default: str
    meaning: str  # from ServerSettings' docstring
    option_help: str  # the option's description in Discord
    allowed: str


def _field_meanings(doc: str, names: tuple[str, ...]) -> dict[str, str]:
    """``{field: meaning}`` from a docstring that says "``field``: what it means; ..."."""
    text = " ".join(doc.split())
    fields = "|".join(re.escape(name) for name in names)
    parts = re.split(rf"``({fields})``:\s*", text)
    return {
        name: _plain(meaning).rstrip(" ;.")
        for name, meaning in zip(parts[1::2], parts[2::2], strict=True)
    }


def _plain(text: str) -> str:
    """reStructuredText's markup taken out: ``x`` and :role:`x` become x."""
    text = re.sub(r":\w+:`~?([^`]+)`", r"\1", text)
    return text.replace("``", "")


def server_settings() -> list[ServerSetting]:
    """Every server setting: its field, its option of ``/cribbage settings``, its default."""
    from db.settings import SETTING_NAMES, ServerSettings

    defaults = {f.name: f.default for f in dataclasses.fields(ServerSettings)}
    meanings = _field_meanings(ServerSettings.__doc__ or "", SETTING_NAMES)
    options = {
        option.name: option
        for command in slash_commands()
        if command.name == "cribbage settings"
        for option in command.options
    }
    found = []
    for name in SETTING_NAMES:
        option_name = OPTION_OF.get(name, name)
        option = options.get(option_name)
        default = defaults[name]
        if isinstance(default, bool) or default is None:
            shown = "on" if default else "off"
        else:
            shown = f"`{default}`"
        found.append(
            ServerSetting(
                name=name,
                option=option_name if option else "",
                default=shown,
                meaning=meanings.get(name, ""),
                option_help=option.description if option else "",
                allowed=option.allowed if option else "",
            )
        )
    return found


def server_settings_markdown() -> str:
    lines = [
        "| `/cribbage settings` option | default | allowed | what it does | stored as |",
        "| --- | --- | --- | --- | --- |",
    ]
    for setting in server_settings():
        option = f"`{setting.option}`" if setting.option else "(no option)"
        what = setting.meaning or setting.option_help
        lines.append(
            f"| {option} | {setting.default} | {setting.allowed or 'on, off'} | "
            f"{_cell(what)} | `{setting.name}` |"
        )
    return "\n".join(lines)


# ---------------------------------------------------------------- the hook

GENERATORS: dict[str, Callable[[], str]] = {
    "commands": commands_markdown,
    "cli": cli_markdown,
    "environment": environment_markdown,
    "server-settings": server_settings_markdown,
}


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def render(markdown: str) -> str:
    """``markdown`` with every marker replaced by what it names."""

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in GENERATORS:
            raise ValueError(f"unknown generated section {name!r} (known: {sorted(GENERATORS)})")
        return GENERATORS[name]()

    return MARKER.sub(replace, markdown)


def on_page_markdown(markdown: str, **_: Any) -> str:
    return render(markdown)
