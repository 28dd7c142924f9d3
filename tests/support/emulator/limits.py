"""Discord's message limits, checked on every message the bot creates or edits.

Each problem is a ``(field path, message)`` pair, worded like Discord's "Invalid Form Body"
errors; the emulator answers such a request with HTTP 400 / code 50035 (or 50006 for an empty
message) exactly as Discord would, and records a violation.
"""

from __future__ import annotations

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

Problem = tuple[str, str]


def _length(value: Any) -> int:
    return len(value) if isinstance(value, str) else 0


def check_embeds(embeds: list[dict[str, Any]]) -> list[Problem]:
    problems: list[Problem] = []
    if len(embeds) > MAX_EMBEDS:
        problems.append(("embeds", f"Must be {MAX_EMBEDS} or fewer in length."))
    total = 0
    for i, embed in enumerate(embeds):
        path = f"embeds.{i}"
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
    if creating and not (content or embeds or components or has_files or payload.get("poll")):
        problems.append(("", "Cannot send an empty message"))
    return problems
