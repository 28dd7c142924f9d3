"""The compact form of an ended game's log: its actions, their times, its last snapshot and its
points per deal, as two small compressed blobs (:mod:`db.archive` stores them).

Lossless by construction, whatever the rows hold: :func:`encode_log` and :func:`encode_points`
decode what they produced and raise :class:`ArchiveError` unless it is exactly the input (the
archive step then keeps the rows as they are). The store knows rows, not rules: an action the
short forms below do not reproduce to the byte is kept as its JSON text.

Log blob, format 1: the byte ``0x01``, then raw deflate (preset dictionary :data:`ZDICT_V1`) of

* ``varint`` the number of actions;
* the snapshot: ``0`` (none) or ``1``, ``varint`` its seq, then its state and its ready list as
  ``varint`` length + UTF-8 JSON text each (stored text, unchanged);
* one record per action (a new deflate block): a byte ``kind << 2 | seat`` for the short forms
  (the next seq, seat 0-3): ``cut`` + varint depth, ``discard`` + varint n + n card bytes,
  ``play`` + card byte, ``claim`` + varint points, ``muggins``, ``let_go``; else the byte
  ``0xFF``, varint seq step, varint seat, varint length and the action's JSON text;
* one varint per action time (a new block), when it is a whole number of milliseconds: its
  ``delta`` in milliseconds from the previous such time, as ``2 * delta`` when not negative,
  else ``1 - 2 * delta``; any other time as ``1`` and the 8 bytes of the double.

Points blob, format 1: ``0x01`` then raw deflate of ``varint`` the number of rows, ``varint``
the length of the JSON list of the number columns (deal, seat, pegging, hand, crib, heels, hand
value, crib value), that list, then (a new block) the hand cards and crib cards columns as card
bytes (:func:`_card_text`).

Varints are little-endian base-128; zigzag maps 0, -1, 1, -2, ... to 0, 1, 2, 3, ...

>>> rows = [(1, 0, '{"type":"cut","depth":17}', 1700000000.125),
...         (2, 1, '{"type":"cut","depth":3}', 1700000004.5)]
>>> blob = encode_log(rows, (2, '{"phase":"game over"}', '[2,2]'))
>>> decoded = decode_log(blob)
>>> decoded.actions[1], decoded.snapshot
((2, 1, {'type': 'cut', 'depth': 3}, 1700000004.5), (2, '{"phase":"game over"}', '[2,2]'))
"""

from __future__ import annotations

import functools
import json
import math
import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

FORMAT = 1

#: One logged action as the ``actions`` table holds it: seq, seat, JSON text, time.
ActionRow = tuple[int, int, str, float]
#: A game's snapshot as the ``snapshots`` table holds it: seq, state text, ready text.
SnapshotRow = tuple[int, str, str]
#: One ``deal_points`` row: deal, seat, pegging, hand, crib, heels, hand value, hand cards,
#: crib value, crib cards.
PointsRow = tuple[Any, ...]

_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_CARDS = tuple(rank + suit for suit in "CDHS" for rank in _RANKS)
_CARD_BYTE = {code: n for n, code in enumerate(_CARDS)}

_CUT, _DISCARD, _PLAY, _CLAIM, _MUGGINS, _LET_GO = range(6)
_POINTS_WIDTH = 10  # deal, seat, pegging, hand, crib, heels, hand value, hand cards, ...
_CARD_COLUMNS = (7, 9)  # hand cards, crib cards
_NONE, _LITERAL = 0xFF, 0xFE
_GENERIC = 0xFF
_DOUBLE = struct.Struct("<d")

#: The preset dictionary of format 1 (never change it: old blobs need it to decompress). Text
#: an ended game's snapshot is made of; deflate prefers the nearest, so the commonest is last.
ZDICT_V1 = (
    '"muggins":true,"claims":[],"missed":[],"claimed":null,"counting":null,'
    '"variant":{"players":4,"partnerships":true,"target":61},'
    '"variant":{"players":3,"partnerships":false,"target":121},'
    + "".join(f'"{code}",' for code in _CARDS)
    + '{"version":1,"variant":{"players":2,"partnerships":false,"target":121},"seed":"'
    '","phase":"game over","dealer":0,"first_dealer":1,"deal_number":1,"scores":[121,'
    '],"winner":0,"cut_round":0,"cutting":[],"cut_cards":{},"cut_pack":[],"pack":["'
    '"],"hands":[[],[]],"kept":[["'
    '"]],"crib":["'
    '"],"discarded":[0,1],"laid_away":[["'
    '"]],"starter":"'
    '","count":0,"pile":[],"played":[[0,"'
    '"],[1,"'
    '"]],"turn":null,"gone":[]}[0,0]'
).encode()


class ArchiveError(ValueError):
    """A log or its points cannot be put in the compact form without losing something (or a
    blob does not decode): the archive step keeps the rows as they are."""


@dataclass(frozen=True, slots=True)
class DecodedLog:
    """What a log blob holds: the actions (seq, seat, action, time) and the snapshot."""

    actions: list[tuple[int, int, dict[str, Any], float]]
    snapshot: SnapshotRow | None


# ---------------------------------------------------------------------- the log


def encode_log(rows: Sequence[ActionRow], snapshot: SnapshotRow | None) -> bytes:
    """The log blob of ``rows`` (in seq order) and the game's ``snapshot``; checked by decoding
    it again. Raises :class:`ArchiveError` if it would not give back exactly these rows."""
    try:
        blob = _encode_log(rows, snapshot)
        decoded = decode_log(blob)
        same = decoded.snapshot == (None if snapshot is None else tuple(snapshot)) and len(
            decoded.actions
        ) == len(rows)
        for (seq, seat, text, at), (seq2, seat2, action, at2) in zip(
            rows, decoded.actions, strict=False
        ):
            # A short form gives back its text's types (checked once per text by _short_body);
            # any other action is its own text: equal values are then the same values.
            same = same and (seq, seat) == (seq2, seat2) and action == _parsed(text)
            same = same and _DOUBLE.pack(at) == _DOUBLE.pack(at2)  # 0.0 and -0.0 apart
    except (ValueError, TypeError, OverflowError) as err:
        raise ArchiveError(f"the log cannot be put in the compact form ({err})") from err
    if not same:
        raise ArchiveError("the compact log would not give back the logged rows")
    return blob


def _encode_log(rows: Sequence[ActionRow], snapshot: SnapshotRow | None) -> bytes:
    head = bytearray()
    _varint(len(rows), head)
    if snapshot is None:
        head.append(0)
    else:
        seq, state, ready = snapshot
        head.append(1)
        _varint(_zigzag(seq), head)
        _text(state, head)
        _text(ready, head)
    actions = bytearray()
    times = bytearray()
    seq, ms = 0, 0
    for row_seq, seat, text, at in rows:
        short = _short_body(text) if row_seq == seq + 1 and 0 <= seat <= 3 else None
        if short is None:
            actions.append(_GENERIC)
            _varint(_zigzag(row_seq - seq), actions)
            _varint(_zigzag(seat), actions)
            _text(text, actions)
        else:
            actions.append(short[0] << 2 | seat)
            actions += short[1:]
        seq = row_seq
        ms = _time(at, ms, times)
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, ZDICT_V1)
    blob = bytes([FORMAT]) + deflate.compress(bytes(head)) + deflate.flush(zlib.Z_BLOCK)
    blob += deflate.compress(bytes(actions)) + deflate.flush(zlib.Z_BLOCK)
    return blob + deflate.compress(bytes(times)) + deflate.flush()


def decode_log(blob: bytes) -> DecodedLog:
    """The actions and snapshot held by a log blob. Raises :class:`ArchiveError` on a blob
    that is not one."""
    data = _inflate(blob, ZDICT_V1)
    try:
        return _parse_log(data)
    except (IndexError, UnicodeDecodeError, json.JSONDecodeError, struct.error) as err:
        raise ArchiveError(f"a damaged log blob ({err})") from err


def _parse_log(data: bytes) -> DecodedLog:
    reader = _Reader(data)
    count = reader.varint()
    snapshot: SnapshotRow | None = None
    if reader.byte():
        seq = _unzigzag(reader.varint())
        snapshot = (seq, reader.text(), reader.text())
    steps: list[tuple[int, int, dict[str, Any]]] = []
    seq = 0
    for _ in range(count):
        head = reader.byte()
        if head == _GENERIC:
            seq += _unzigzag(reader.varint())
            seat = _unzigzag(reader.varint())
            action = json.loads(reader.text())
        else:
            seq += 1
            seat = head & 3
            action = _read_short(head >> 2, reader)
        steps.append((seq, seat, action))
    actions = []
    ms = 0
    for seq, seat, action in steps:
        code = reader.varint()
        if code == 1:
            at = _DOUBLE.unpack(reader.take(8))[0]
        else:
            ms += code >> 1 if not code & 1 else -(code >> 1)
            at = ms / 1000
        actions.append((seq, seat, action, at))
    if not reader.done:
        raise ArchiveError("a log blob with bytes left over")
    return DecodedLog(actions, snapshot)


@functools.lru_cache(maxsize=8192)
def _short_body(text: str) -> bytes | None:
    """The short form of an action's JSON text: its kind byte (the seat is added to it) and
    what follows; ``None`` when only the text itself keeps the action exact."""
    try:
        action = json.loads(text)
        kind = action.get("type") if isinstance(action, dict) else None
        if kind == "cut":
            out = bytearray((_CUT,))
            _varint(_zigzag(action["depth"]), out)
        elif kind == "discard":
            out = bytearray((_DISCARD,))
            _varint(len(action["cards"]), out)
            out += bytes(_CARD_BYTE[code] for code in action["cards"])
        elif kind == "play":
            out = bytearray((_PLAY, _CARD_BYTE[action["card"]]))
        elif kind == "claim":
            out = bytearray((_CLAIM,))
            _varint(_zigzag(action["points"]), out)
        elif kind in ("muggins", "let_go"):
            out = bytearray((_MUGGINS if kind == "muggins" else _LET_GO,))
        else:
            return None
        back = _read_short(out[0], _Reader(bytes(out[1:])))
    except (KeyError, TypeError, ValueError):  # not JSON, not a card code, not an int, ...
        return None
    return bytes(out) if _dumps(back) == text else None


@functools.lru_cache(maxsize=8192)
def _parsed(text: str) -> Any:
    """An action's JSON text as ``load_actions`` gives it (shared: only compared)."""
    return json.loads(text)


def _read_short(kind: int, reader: _Reader) -> dict[str, Any]:
    if kind == _CUT:
        return {"type": "cut", "depth": _unzigzag(reader.varint())}
    if kind == _DISCARD:
        count = reader.varint()
        return {"type": "discard", "cards": [_CARDS[reader.byte()] for _ in range(count)]}
    if kind == _PLAY:
        return {"type": "play", "card": _CARDS[reader.byte()]}
    if kind == _CLAIM:
        return {"type": "claim", "points": _unzigzag(reader.varint())}
    if kind == _MUGGINS:
        return {"type": "muggins"}
    if kind == _LET_GO:
        return {"type": "let_go"}
    raise ArchiveError(f"a log blob with an unknown action kind {kind}")


def _time(at: float, previous_ms: int, out: bytearray) -> int:
    """Append ``at``; the millisecond count the next time is a delta from."""
    if isinstance(at, float) and math.isfinite(at) and abs(at) < 2**52 / 1000:
        ms = round(at * 1000)
        if _DOUBLE.pack(ms / 1000) == _DOUBLE.pack(at):
            delta = ms - previous_ms  # later: even; earlier (a clock set back): odd, from 3
            _varint(2 * delta if delta >= 0 else 1 - 2 * delta, out)
            return ms
    out.append(1)
    out += _DOUBLE.pack(float(at))
    return previous_ms


# ---------------------------------------------------------------------- points per deal


def encode_points(rows: Sequence[PointsRow]) -> bytes:
    """The points blob of a game's ``deal_points`` rows (in deal, seat order); checked by
    decoding it again. Raises :class:`ArchiveError` if it would not give back these rows."""
    try:
        if any(len(row) != _POINTS_WIDTH for row in rows):
            raise ArchiveError(f"points rows of {_POINTS_WIDTH} values were expected")
        columns = [list(column) for column in zip(*rows, strict=True)] or [
            [] for _ in range(_POINTS_WIDTH)
        ]
        numbers = _dumps([c for n, c in enumerate(columns) if n not in _CARD_COLUMNS]).encode()
        cards = bytearray()
        for n in _CARD_COLUMNS:
            for value in columns[n]:
                _card_text(value, cards)
        head = bytearray()
        _varint(len(rows), head)
        _varint(len(numbers), head)
        deflate = zlib.compressobj(9, zlib.DEFLATED, -15, 9)
        blob = bytes([FORMAT]) + deflate.compress(bytes(head) + numbers)
        blob += deflate.flush(zlib.Z_BLOCK) + deflate.compress(bytes(cards)) + deflate.flush()
        back = decode_points(blob)
        same = back == [tuple(row) for row in rows] and _dumps(back) == _dumps(rows)
    except (TypeError, ValueError, OverflowError) as err:  # ArchiveError included
        raise ArchiveError(f"the points cannot be put in the compact form ({err})") from err
    if not same:
        raise ArchiveError("the compact points would not give back the rows")
    return blob


def decode_points(blob: bytes) -> list[PointsRow]:
    """The ``deal_points`` rows held by a points blob."""
    reader = _Reader(_inflate(blob, None))
    try:
        count = reader.varint()
        numbers = iter(json.loads(reader.take(reader.varint())))
        texts = {n: [_read_card_text(reader) for _ in range(count)] for n in _CARD_COLUMNS}
        columns = [texts[n] if n in _CARD_COLUMNS else next(numbers) for n in range(_POINTS_WIDTH)]
        if not reader.done:
            raise ArchiveError("a points blob with bytes left over")
        return list(zip(*columns, strict=True))
    except (IndexError, ValueError, TypeError, StopIteration) as err:
        raise ArchiveError(f"a damaged points blob ({err})") from err


def _card_text(value: str | None, out: bytearray) -> None:
    """Cards as ``deal_points`` shows them, e.g. ``"5H 5C 5S JD|5D"``: the number of
    ``|``-separated parts, then per part its number of cards and their bytes; any other text
    as ``_LITERAL`` + its length and bytes; ``None`` as ``_NONE``."""
    if value is None:
        out.append(_NONE)
        return
    parts = value.split("|")
    if len(parts) < _LITERAL and all(len(p.split(" ")) < _LITERAL for p in parts):
        try:
            codes = [[_CARD_BYTE[c] for c in part.split(" ")] if part else [] for part in parts]
        except KeyError:
            pass
        else:
            shown = "|".join(" ".join(_CARDS[b] for b in part) for part in codes)
            if shown == value:
                out.append(len(codes))
                for part in codes:
                    out.append(len(part))
                    out += bytes(part)
                return
    out.append(_LITERAL)
    _text(value, out)


def _read_card_text(reader: _Reader) -> str | None:
    parts = reader.byte()
    if parts == _NONE:
        return None
    if parts == _LITERAL:
        return reader.text()
    return "|".join(" ".join(_CARDS[b] for b in reader.take(reader.byte())) for _ in range(parts))


# ---------------------------------------------------------------------- bytes


def _inflate(blob: bytes, zdict: bytes | None) -> bytes:
    if not blob or blob[0] != FORMAT:
        raise ArchiveError(f"an archive blob of an unknown format ({blob[:1].hex() or 'empty'})")
    inflate = zlib.decompressobj(-15, zdict) if zdict is not None else zlib.decompressobj(-15)
    try:
        data = inflate.decompress(blob[1:]) + inflate.flush()
    except zlib.error as err:
        raise ArchiveError(f"a damaged archive blob ({err})") from err
    if not inflate.eof or inflate.unused_data:
        raise ArchiveError("a truncated archive blob, or one with bytes after its end")
    return data


def _dumps(data: Any) -> str:
    """JSON as the store writes it (``db.game_reads.dumps``)."""
    return json.dumps(data, separators=(",", ":"))


def _zigzag(n: int) -> int:
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"not an integer: {n!r}")
    return n << 1 if n >= 0 else ((-n) << 1) - 1


def _unzigzag(n: int) -> int:
    return n >> 1 if not n & 1 else -((n + 1) >> 1)


def _varint(n: int, out: bytearray) -> None:
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)


def _text(text: str, out: bytearray) -> None:
    data = text.encode()
    _varint(len(data), out)
    out += data


class _Reader:
    """Reads what :func:`_varint` and :func:`_text` wrote."""

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._at = 0

    @property
    def done(self) -> bool:
        return self._at == len(self._data)

    def byte(self) -> int:
        value = self._data[self._at]
        self._at += 1
        return value

    def take(self, count: int) -> bytes:
        if self._at + count > len(self._data):
            raise IndexError("a blob cut short")
        data = self._data[self._at : self._at + count]
        self._at += count
        return data

    def varint(self) -> int:
        value, shift = 0, 0
        while True:
            byte = self.byte()
            value |= (byte & 0x7F) << shift
            if byte < 0x80:
                return value
            shift += 7

    def text(self) -> str:
        return self.take(self.varint()).decode()
