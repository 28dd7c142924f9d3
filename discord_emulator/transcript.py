"""The emulator's transcript: an in-memory list of records, optionally appended to a JSONL file.

The schema is documented in the package docstring (``discord_emulator/__init__.py``).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import uuid
from collections import deque
from pathlib import Path
from typing import Any

from .models import EmuMessage, MessageVersion

ENV_VAR = "DISCORD_EMULATOR_TRANSCRIPT"


class Transcript:
    def __init__(self, path: str | os.PathLike[str] | None = None, keep: int | None = None):
        """``keep``: how many records to hold in memory (None = all; the file gets all)."""
        if path is None:
            path = os.environ.get(ENV_VAR) or None
        self.path = Path(path) if path else None
        self.run = uuid.uuid4().hex[:8]
        self.records: deque[dict[str, Any]] = deque(maxlen=keep)
        self._seq = 0

    def write(self, kind: str, at: float, **fields: Any) -> dict[str, Any]:
        self._seq += 1
        record = {
            "run": self.run,
            "seq": self._seq,
            "t": round(at, 4),
            "wall": dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds"),
            "kind": kind,
            **fields,
        }
        self.records.append(record)
        if self.path is not None:
            line = json.dumps(record, ensure_ascii=False, default=str)
            with self.path.open("a", encoding="utf-8") as fh:
                fh.write(line + "\n")
        return record

    def of_kind(self, kind: str) -> list[dict[str, Any]]:
        return [r for r in self.records if r["kind"] == kind]


def message_fields(message: EmuMessage, version: MessageVersion | None = None) -> dict[str, Any]:
    """The transcript fields describing one version of a message."""
    version = version or message.current
    return {
        "message_id": str(message.id),
        "channel_id": str(message.channel.id),
        "channel": message.channel.name,
        "visibility": "dm" if message.channel.is_dm else (
            "ephemeral" if message.ephemeral else "public"
        ),
        "visible_to": str(message.visible_to.id) if message.visible_to else None,
        "visible_to_name": message.visible_to.name if message.visible_to else None,
        "interaction_id": str(message.interaction_id) if message.interaction_id else None,
        "via": message.via,
        "version": version.version,
        "loading": bool(message.loading),
        "content": version.content,
        "embeds": list(version.embeds),
        "components": list(version.raw_components),
        "attachments": [
            {"filename": a.filename, "size": a.size}
            | ({"description": a.description} if a.description else {})  # its alt text
            for a in version.attachments
        ],
        "flags": version.flags,
    }
