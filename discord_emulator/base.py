"""What the emulator's parts share: option types, allowed responses, the timeout error."""


from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .models import (
    EmuChannel,
    EmulatorError,
    EmuRole,
    EmuUser,
)

if TYPE_CHECKING:
    pass

log = logging.getLogger("discord_emulator")

#: Option types of application commands.
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = range(3, 12)

#: Which callback types each interaction type accepts (2 = command, 3 = component, 5 = modal).
#: 4 = autocomplete.
ALLOWED_RESPONSES = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}


class EmulatorTimeout(EmulatorError, TimeoutError):
    """A wait on the emulator (``wait_for``, settling a handler, startup) ran out of time."""


@dataclass
class BotErrorRecord:
    at: float
    text: str
    interaction_id: int | None
    reported: bool = False


def jsonable(options: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in options.items():
        if isinstance(value, EmuUser | EmuChannel | EmuRole):
            out[key] = {"id": str(value.id), "name": value.name}
        elif isinstance(value, tuple):
            out[key] = str(value[0])
        else:
            out[key] = value
    return out


def current_test() -> str | None:
    return os.environ.get("PYTEST_CURRENT_TEST")
