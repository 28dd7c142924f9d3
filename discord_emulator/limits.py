"""Discord's limits, checked on every message the bot creates or edits and on every
application-command sync.

Each problem is a ``(field path, message)`` pair, worded like Discord's "Invalid Form Body"
errors; the emulator answers such a request with HTTP 400 / code 50035 (or 50006 for an empty
message) exactly as Discord would, and records a violation (``invalid_message`` or
``invalid_commands``).

Two sources of rules:

* the schema components of Discord's published OpenAPI description of its HTTP API
  (``openapi/openapi.json``; ``openapi/SOURCE`` says which commit, ``openapi/LICENSE`` its
  licence): every embed is checked against ``RichEmbed`` and every command sync against
  ``ApplicationCommandUpdateRequest`` (bulk overwrite), ``ApplicationCommandCreateRequest``
  or ``ApplicationCommandPatchRequestPartial``, by :func:`schema_problems` (the subset of JSON
  Schema those components use; a keyword it does not know is an error, never a pass);
* the developer docs, where they are stricter than the schema (a footer's ``text``, an
  author's ``name``, an option's name and description, ...): each rule below cites its page.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Any

from .models import FLAG_COMPONENTS_V2, walk_components

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TITLE = 256
MAX_EMBED_DESCRIPTION = 4096
MAX_EMBED_FIELDS = 25
MAX_FIELD_NAME = 256
MAX_FIELD_VALUE = 1024
MAX_FOOTER = 2048
MAX_AUTHOR = 256
MAX_EMBED_TOTAL = 6000
MAX_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_SELECT_OPTIONS = 25
MAX_V2_COMPONENTS = 40

# Application commands (developer docs, interactions/application-commands.mdx)
MAX_COMMAND_TEXT = 4000  # "Limits": name, description and value of a command, its options
# and choices together

Problem = tuple[str, str]

REQUIRED = "This field is required"


def _length(value: Any) -> int:
    return len(value) if isinstance(value, str) else 0


# --------------------------------------------------------------------------- the OpenAPI schema

SPEC = Path(__file__).with_name("openapi") / "openapi.json"


@lru_cache(maxsize=1)
def schemas() -> dict[str, Any]:
    """The schema components (``components.schemas``) of Discord's OpenAPI description."""
    with SPEC.open(encoding="utf-8") as spec:
        found: dict[str, Any] = json.load(spec)["components"]["schemas"]
    return found


def _is_integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


_TYPES: dict[str, Callable[[Any], bool]] = {
    "null": lambda v: v is None,
    "boolean": lambda v: isinstance(v, bool),
    "integer": _is_integer,
    "number": _is_number,
    "string": lambda v: isinstance(v, str),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
}
# words that describe and constrain nothing (``format`` is checked for "uri" only: the others
# the components use, int32/int64/double/snowflake/date-time, add nothing to their ``type``,
# bounds and ``pattern``)
# (``x-discord-union: oneOf`` marks an ``anyOf`` whose branches exclude each other by their
# ``type``: checked as the ``anyOf`` it is)
_ANNOTATIONS = {
    "title", "description", "format", "default", "deprecated", "examples", "x-discord-union",
}
_KEYWORDS = _ANNOTATIONS | {
    "$ref", "type", "const", "enum", "minimum", "maximum", "minLength", "maxLength", "pattern",
    "items", "minItems", "maxItems", "uniqueItems", "properties", "required",
    "additionalProperties", "maxProperties", "oneOf", "anyOf", "allOf",
}
# a URI has a scheme (RFC 3986, 3); Discord takes http(s) and attachment:// in embeds
_URI = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:\S+")

# an internal problem: (path, message, whether the value is of another kind than the schema
# wants -- the branch of a ``oneOf`` it was not meant for, when telling which branch failed)
_Found = tuple[str, str, bool]


def _join(path: str, key: str | int) -> str:
    return f"{path}.{key}" if path else str(key)


def _number_word(value: Any) -> str:
    return "int" if _is_integer(value) else "float"


# Discord takes a snowflake in a request as a JSON integer too (discord.py sends some so:
# allowed mentions' users, a reply's message_id, a DM's recipient_id); its answers always
# spell snowflakes as strings
_INTEGER_SNOWFLAKES: ContextVar[bool] = ContextVar("integer_snowflakes", default=False)


def _check_schema(value: Any, schema: dict[str, Any], path: str) -> list[_Found]:
    if (
        _INTEGER_SNOWFLAKES.get()
        and schema.get("format") == "snowflake"
        and _is_integer(value)
        and value >= 0
    ):
        value = str(value)
    ref = schema.get("$ref")
    if ref is not None:
        name = ref.removeprefix("#/components/schemas/")
        return _check_schema(value, schemas()[name], path) + _check_schema(
            value, {k: v for k, v in schema.items() if k != "$ref"}, path
        )
    unknown = set(schema) - _KEYWORDS
    if unknown:
        raise ValueError(f"the schema checker does not know {sorted(unknown)} (at {path!r})")
    kinds = schema.get("type")
    if kinds is not None:
        kinds = [kinds] if isinstance(kinds, str) else kinds
        if not any(_TYPES[kind](value) for kind in kinds):
            return [(path, f"Could not interpret {json.dumps(value)} as {kinds[0]}.", True)]
    found: list[_Found] = []
    for part in schema.get("allOf", ()):  # first: a named type's choices say the most
        found += _check_schema(value, part, path)
    if "const" in schema and value != schema["const"]:
        found.append((path, f"Value must be one of ({schema['const']}).", True))
    if "enum" in schema and value not in schema["enum"]:
        allowed = ", ".join(map(str, schema["enum"]))
        found.append((path, f"Value must be one of ({allowed}).", True))
    if _is_number(value):
        low, high = schema.get("minimum"), schema.get("maximum")
        if low is not None and value < low:
            word = _number_word(value)
            found.append((path, f"{word} value should be greater than or equal to {low}.", False))
        if high is not None and value > high:
            word = _number_word(value)
            found.append((path, f"{word} value should be less than or equal to {high}.", False))
    if isinstance(value, str):
        found += _check_string(value, schema, path)
    if isinstance(value, list):
        found += _check_array(value, schema, path)
    if isinstance(value, dict):
        found += _check_object(value, schema, path)
    if "anyOf" in schema:
        branches: list[list[_Found]] = [_check_schema(value, p, path) for p in schema["anyOf"]]
        if all(branches):
            nearest: list[_Found] = min(branches, key=lambda b: _rank(b, path))
            found += nearest
    choices = [part["const"] for part in schema.get("oneOf", ()) if set(part) - _ANNOTATIONS
               == {"const"}]
    if choices and len(choices) == len(schema["oneOf"]):  # an enumeration, each value named
        if value not in choices:
            found.append((path, f"Value must be one of ({', '.join(map(str, choices))}).", True))
    elif "oneOf" in schema:
        branches = [_check_schema(value, part, path) for part in schema["oneOf"]]
        passed = sum(not branch for branch in branches)
        if passed == 0:
            nearest = min(branches, key=lambda b: _rank(b, path))
            found += nearest
        elif passed > 1:
            found.append((path, "Matches more than one of the allowed forms.", False))
    return found


def _rank(found: list[_Found], path: str) -> tuple[int, int, int, int]:
    """Which failed branch to report: the one meant for a value of this kind -- fewest kind
    mismatches of the value itself, then of its own fields (a component's or a callback's
    ``type``), then anywhere below -- then the one with the fewest problems."""
    depth = path.count(".") + 1 if path else 0
    itself = sum(mismatch for where, _, mismatch in found if where == path)
    own = sum(
        mismatch for where, _, mismatch in found
        if where != path and where.count(".") <= depth
    )
    return itself, own, sum(mismatch for _, _, mismatch in found), len(found)


def _check_string(value: str, schema: dict[str, Any], path: str) -> list[_Found]:
    found: list[_Found] = []
    low, high = schema.get("minLength"), schema.get("maxLength")
    if (low is not None and len(value) < low) or (high is not None and len(value) > high):
        if low and high is not None:
            found.append((path, f"Must be between {low} and {high} in length.", False))
        elif low:
            found.append((path, f"Must be {low} or more in length.", False))
        else:
            found.append((path, f"Must be {high} or fewer in length.", False))
    pattern = schema.get("pattern")
    if pattern is not None and re.search(pattern, value) is None:
        found.append((path, f"String value did not match validation regex {pattern}.", False))
    if schema.get("format") == "uri" and _URI.fullmatch(value) is None:
        found.append((path, "Not a well formed URL.", False))
    return found


def _check_array(value: list[Any], schema: dict[str, Any], path: str) -> list[_Found]:
    found: list[_Found] = []
    low, high = schema.get("minItems"), schema.get("maxItems")
    if low is not None and len(value) < low:
        found.append((path, f"Must be {low} or more in length.", False))
    if high is not None and len(value) > high:
        found.append((path, f"Must be {high} or fewer in length.", False))
    if schema.get("uniqueItems"):
        seen = [json.dumps(item, sort_keys=True) for item in value]
        if len(set(seen)) < len(seen):
            found.append((path, "Items must be unique.", False))
    items = schema.get("items")
    if items is not None:
        for i, item in enumerate(value):
            found += _check_schema(item, items, _join(path, i))
    return found


def _check_object(value: dict[str, Any], schema: dict[str, Any], path: str) -> list[_Found]:
    found: list[_Found] = []
    for key in schema.get("required", ()):
        if key not in value:
            found.append((_join(path, key), REQUIRED, False))
    properties = schema.get("properties", {})
    for key, item in value.items():
        if key in properties:
            found += _check_schema(item, properties[key], _join(path, key))
    extra = schema.get("additionalProperties")
    if isinstance(extra, dict):
        for key, item in value.items():
            if key not in properties:
                found += _check_schema(item, extra, _join(path, key))
    most = schema.get("maxProperties")
    if most is not None and len(value) > most:
        found.append((path, f"Must be {most} or fewer in length.", False))
    return found


def schema_problems(
    value: Any, schema: dict[str, Any] | str, path: str = "", *, request: bool = True
) -> list[Problem]:
    """What Discord's OpenAPI schema (a component's name, or a schema) refuses in ``value``:
    a request body (``request``: snowflakes may be integers) or an answer."""
    if isinstance(schema, str):
        schema = {"$ref": f"#/components/schemas/{schema}"}
    problems: dict[str, str] = {}  # the first problem of each field, as Discord tells one
    token = _INTEGER_SNOWFLAKES.set(request)
    try:
        for where, message, _ in _check_schema(value, schema, path):
            problems.setdefault(where, message)
    finally:
        _INTEGER_SNOWFLAKES.reset(token)
    return list(problems.items())


def _missing(value: Any) -> bool:
    """Discord refuses an empty string where a field is required, as if it were missing."""
    return value is None or value == ""


def _embed_rules(embed: dict[str, Any], path: str) -> list[Problem]:
    """What the developer docs require of an embed beyond the OpenAPI schema (which lets
    every part of ``RichEmbed`` be null): resources/message.mdx, "Embed Object" and the
    structures below it."""
    problems: list[Problem] = []
    footer, author = embed.get("footer"), embed.get("author")
    # "Embed Footer Structure": text (string, footer text) is required
    if isinstance(footer, dict) and _missing(footer.get("text")):
        problems.append((f"{path}.footer.text", REQUIRED))
    # "Embed Author Structure": name (string, name of author) is required
    if isinstance(author, dict) and _missing(author.get("name")):
        problems.append((f"{path}.author.name", REQUIRED))
    # "Embed Image Structure", "Embed Thumbnail Structure": url is required
    for part in ("image", "thumbnail"):
        media = embed.get(part)
        if isinstance(media, dict) and _missing(media.get("url")):
            problems.append((f"{path}.{part}.url", REQUIRED))
    # "Embed Field Structure": name and value are required (the schema says so too, but
    # Discord refuses empty strings as well)
    for j, field in enumerate(embed.get("fields") or []):
        if isinstance(field, dict):
            for key in ("name", "value"):
                if key in field and _missing(field[key]):
                    problems.append((f"{path}.fields.{j}.{key}", REQUIRED))
    return problems


def embed_is_empty(embed: dict[str, Any]) -> bool:
    """An embed that shows nothing (no title, description, field, author, footer, image,
    thumbnail or video): Discord answers a message of nothing else "Cannot send an empty
    message" (50006)."""
    parts = ("title", "description", "fields", "author", "footer", "image", "thumbnail", "video")
    return not any(embed.get(part) for part in parts)


def check_embeds(embeds: list[dict[str, Any]]) -> list[Problem]:
    problems: list[Problem] = []
    if len(embeds) > MAX_EMBEDS:
        problems.append(("embeds", f"Must be {MAX_EMBEDS} or fewer in length."))
    total = 0
    for i, embed in enumerate(embeds):
        path = f"embeds.{i}"
        schema = schema_problems(embed, "RichEmbed", path)
        if schema:  # the hand-written limits below read the parts the schema checks
            problems += schema
            continue
        problems += _embed_rules(embed, path)
        limits = [
            ("title", embed.get("title"), MAX_EMBED_TITLE),
            ("description", embed.get("description"), MAX_EMBED_DESCRIPTION),
            ("footer.text", (embed.get("footer") or {}).get("text"), MAX_FOOTER),
            ("author.name", (embed.get("author") or {}).get("name"), MAX_AUTHOR),
        ]
        fields = embed.get("fields") or []
        if len(fields) > MAX_EMBED_FIELDS:
            problems.append((f"{path}.fields", f"Must be {MAX_EMBED_FIELDS} or fewer in length."))
        for j, f in enumerate(fields):
            limits.append((f"fields.{j}.name", f.get("name"), MAX_FIELD_NAME))
            limits.append((f"fields.{j}.value", f.get("value"), MAX_FIELD_VALUE))
        for name, value, limit in limits:
            total += _length(value)
            if _length(value) > limit:
                problems.append((f"{path}.{name}", f"Must be {limit} or fewer in length."))
    if total > MAX_EMBED_TOTAL:
        problems.append(("embeds", f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}"))
    return problems


def _check_interactive(component: dict[str, Any], path: str, seen: set[str]) -> list[Problem]:
    problems: list[Problem] = []
    kind = component.get("type")
    custom_id = component.get("custom_id")
    if kind == 2 and component.get("style") in (5, 6):
        return problems  # link / premium buttons carry no custom_id
    if kind in (2, 3, 4, 5, 6, 7, 8):
        if not custom_id:
            problems.append((f"{path}.custom_id", "This field is required"))
        elif len(custom_id) > MAX_CUSTOM_ID:
            problems.append((f"{path}.custom_id", f"Must be {MAX_CUSTOM_ID} or fewer in length."))
        elif custom_id in seen:
            problems.append((f"{path}.custom_id", "Component custom id cannot be duplicated"))
        else:
            seen.add(custom_id)
    if kind == 2 and _length(component.get("label")) > MAX_BUTTON_LABEL:
        problems.append((f"{path}.label", f"Must be {MAX_BUTTON_LABEL} or fewer in length."))
    if kind == 2 and not component.get("label") and not component.get("emoji"):
        problems.append((path, "A button needs a label or an emoji"))
    if kind == 3:
        options = component.get("options") or []
        if not options or len(options) > MAX_SELECT_OPTIONS:
            problems.append(
                (f"{path}.options", f"Must be between 1 and {MAX_SELECT_OPTIONS} in length.")
            )
    return problems


def check_components(components: list[dict[str, Any]], flags: int) -> list[Problem]:
    problems: list[Problem] = []
    seen: set[str] = set()
    if flags & FLAG_COMPONENTS_V2:
        everything = list(walk_components(components))
        if len(everything) > MAX_V2_COMPONENTS:
            problems.append(("components", f"Must be {MAX_V2_COMPONENTS} or fewer in total."))
        for i, component in enumerate(everything):
            problems += _check_interactive(component, f"components.{i}", seen)
        return problems
    if len(components) > MAX_ROWS:
        problems.append(("components", f"Must be {MAX_ROWS} or fewer in length."))
    for i, row in enumerate(components):
        if row.get("type") != 1:
            problems.append((f"components.{i}.type", "Top-level components must be action rows"))
            continue
        children = row.get("components") or []
        if not children:
            problems.append((f"components.{i}.components", "Must be between 1 and 5 in length."))
        if len(children) > MAX_BUTTONS_PER_ROW:
            problems.append(
                (f"components.{i}.components", f"Must be {MAX_BUTTONS_PER_ROW} or fewer in length.")
            )
        if any(c.get("type") != 2 for c in children) and len(children) > 1:
            problems.append((f"components.{i}.components", "A select menu needs a row of its own"))
        for j, child in enumerate(children):
            problems += _check_interactive(child, f"components.{i}.components.{j}", seen)
    return problems


def check_message(
    payload: dict[str, Any], *, creating: bool, has_files: bool, flags: int = 0
) -> list[Problem]:
    """Problems with a message create/edit payload (only the fields it sets are checked)."""
    problems: list[Problem] = []
    content = payload.get("content")
    if _length(content) > MAX_CONTENT:
        problems.append(("content", f"Must be {MAX_CONTENT} or fewer in length."))
    embeds = payload.get("embeds") or []
    problems += check_embeds(embeds)
    components = payload.get("components") or []
    v2 = (flags | int(payload.get("flags") or 0)) & FLAG_COMPONENTS_V2
    problems += check_components(components, v2)
    if v2 and (content or embeds):
        problems.append(("content", "Cannot send content or embeds with components v2"))
    shown = [embed for embed in embeds if isinstance(embed, dict) and not embed_is_empty(embed)]
    if creating and not (content or shown or components or has_files or payload.get("poll")):
        problems.append(("", "Cannot send an empty message"))
    return problems


# --------------------------------------------------------------------------- application commands

# the OpenAPI request body of each way to sync commands (paths ``/applications/{id}/commands``
# and ``.../guilds/{guild}/commands``: PUT a list, POST one, PATCH one by id)
COMMAND_BODIES: dict[str, dict[str, Any]] = {
    "bulk": {
        "type": ["array", "null"],
        "items": {"$ref": "#/components/schemas/ApplicationCommandUpdateRequest"},
        "maxItems": 130,
    },
    "create": {"$ref": "#/components/schemas/ApplicationCommandCreateRequest"},
    "edit": {"$ref": "#/components/schemas/ApplicationCommandPatchRequestPartial"},
}
CHAT_INPUT = 1
SUBCOMMANDS = (1, 2)  # SUB_COMMAND, SUB_COMMAND_GROUP


def _name_ok(name: str) -> bool:
    """Developer docs, interactions/application-commands.mdx, "Application Command Naming":
    CHAT_INPUT command and option names match ``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``
    and use the lowercase variant of any letter that has one. (Marks of any script pass here:
    a little more than Discord allows, never less.)"""
    return name == name.lower() and all(
        c in "-_'" or c.isalnum() or unicodedata.category(c) in ("Mn", "Mc") for c in name
    )


def _command_text(node: dict[str, Any]) -> int:
    """The characters of a command that count towards its 4000 ("Limits")."""
    total = sum(_length(node.get(key)) for key in ("name", "description"))
    for choice in node.get("choices") or []:
        if isinstance(choice, dict):
            value = choice.get("value")
            total += _length(choice.get("name")) + (_length(value) or len(str(value)))
    for option in node.get("options") or []:
        if isinstance(option, dict):
            total += _command_text(option)
    return total


def _option_rules(option: dict[str, Any], path: str) -> list[Problem]:
    problems: list[Problem] = []
    name = option.get("name")
    if isinstance(name, str) and not _name_ok(name):
        problems.append((f"{path}.name", "Command name is invalid"))
    # "Application Command Option Structure": min_value/max_value of an INTEGER or NUMBER
    # option; Discord refuses a range whose minimum is above its maximum
    low, high = option.get("min_value"), option.get("max_value")
    if isinstance(low, int | float) and isinstance(high, int | float) and low > high:
        problems.append((f"{path}.min_value", f"Must be less than or equal to {high}."))
    # min_length/max_length of a STRING option, likewise
    low, high = option.get("min_length"), option.get("max_length")
    if isinstance(low, int) and isinstance(high, int) and low > high:
        problems.append((f"{path}.min_length", f"Must be less than or equal to {high}."))
    # "Application Command Option Structure": required options come before optional ones
    options = [o for o in option.get("options") or [] if isinstance(o, dict)]
    optional = False
    for j, child in enumerate(options):
        if child.get("required") and optional:
            problems.append(
                (f"{path}.options.{j}.required", "Required options must be placed before "
                 "non-required options")
            )
        optional = optional or not child.get("required")
        problems += _option_rules(child, f"{path}.options.{j}")
    return problems


def _command_rules(command: dict[str, Any], path: str) -> list[Problem]:
    """What the developer docs require of a command beyond the OpenAPI schema."""
    if int(command.get("type") or CHAT_INPUT) != CHAT_INPUT:
        return []
    problems = _option_rules(command, path)
    # "Application Command Object": description, 1-100 characters for CHAT_INPUT commands
    if _missing(command.get("description")):
        problems.append((_join(path, "description"), REQUIRED))
    if _command_text(command) > MAX_COMMAND_TEXT:
        problems.append((path, f"Command exceeds maximum size ({MAX_COMMAND_TEXT})"))
    return problems


def check_commands(body: Any, way: str) -> list[Problem]:
    """Problems with a command-sync request body: ``way`` is "bulk" (PUT, a list of commands),
    "create" (POST, one) or "edit" (PATCH, the fields it changes)."""
    problems = schema_problems(body, COMMAND_BODIES[way])
    if problems:
        return problems
    if way == "bulk":
        for i, command in enumerate(body or []):
            problems += _command_rules(command, str(i))
    elif way == "create":
        problems += _command_rules(body, "")
    return problems
