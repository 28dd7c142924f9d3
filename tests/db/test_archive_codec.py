"""The compact form of an ended game's log (db/logcodec.py): lossless whatever the rows hold,
refusing what it cannot keep exactly, and readable forever (a blob written today decodes)."""

from __future__ import annotations

import json
import random
import struct
import zlib

import pytest

from db.logcodec import (
    ArchiveError,
    decode_log,
    decode_points,
    encode_log,
    encode_points,
)

CARDS = [r + s for s in "CDHS" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")]


def dumps(data: object) -> str:
    return json.dumps(data, separators=(",", ":"))


def random_log(rng: random.Random, count: int) -> list[tuple[int, int, str, float]]:
    """Actions of every kind at human and computer paces, to the millisecond."""
    at = round(1.7e9 + rng.random() * 1e6, 3)
    rows = []
    for seq in range(1, count + 1):
        kind = rng.choice(["cut", "discard", "play", "claim", "muggins", "let_go"])
        action: dict[str, object] = {"type": kind}
        if kind == "cut":
            action["depth"] = rng.randint(4, 48)
        elif kind == "discard":
            action["cards"] = rng.sample(CARDS, rng.choice((1, 2)))
        elif kind == "play":
            action["card"] = rng.choice(CARDS)
        elif kind == "claim":
            action["points"] = rng.randint(0, 29)
        at = round(at + rng.choice((0.002, rng.expovariate(1 / 4))), 3)
        rows.append((seq, rng.randrange(4), dumps(action), at))
    return rows


def roundtrip(rows, snapshot=None) -> None:
    decoded = decode_log(encode_log(rows, snapshot))
    assert decoded.snapshot == snapshot
    assert [(s, seat, a, at) for s, seat, a, at in decoded.actions] == [
        (s, seat, json.loads(text), at) for s, seat, text, at in rows
    ]
    for (*_, at), (*_, back) in zip(rows, decoded.actions, strict=True):
        assert struct.pack("<d", at) == struct.pack("<d", back)


def test_random_logs_come_back_exactly_and_small():
    rng = random.Random(12)
    for _ in range(50):
        rows = random_log(rng, rng.randint(0, 250))
        roundtrip(rows, (len(rows), '{"phase":"game over"}', "[3,3]"))
    rows = random_log(rng, 150)
    blob = encode_log(rows, None)
    assert len(blob) < 150 * 3.5  # about 1 byte per action and 2 per time


def test_what_the_short_forms_cannot_keep_is_kept_as_text():
    at = 1.7e9 + 0.5
    odd = [
        (1, 0, '{"type": "play", "card": "5H"}', at),  # other spacing: kept as written
        (2, 7, '{"type":"play","card":"5H"}', at),  # a seat past 3
        (5, 1, '{"type":"play","card":"XX"}', at),  # a gap in seq, not a card
        (6, 1, '{"depth":3,"type":"cut"}', at),  # other key order
        (7, 0, '{"type":"cut","depth":3.0}', at),  # a float
        (8, 0, '{"type":"cut","depth":true}', at),  # a bool
        (9, 0, '{"type":"discard","cards":"5H"}', at),  # not a list
        (10, 0, '{"type":"claim","points":-2,"x":1}', at),  # more keys
        (11, 0, '{"type":"hint","text":"é"}', at),  # an unknown kind, not ASCII
        (12, -1, "[1,2]", at),  # not an object
        (13, 0, '{"type":"let_go"}', at),
        (14, 0, '{"type":"hint","x":NaN}', at),  # Python's JSON reads NaN as one object
    ]
    roundtrip(odd)
    times = [5.0, 4.999, 0.0, -0.0, -3.5, 1e300, 1700000000.1234567, 2**60 + 0.0, 1e-9]
    roundtrip([(n + 1, 0, '{"type":"muggins"}', t) for n, t in enumerate(times)])


def test_a_log_that_would_not_come_back_is_refused():
    with pytest.raises(ArchiveError):
        encode_log([(1, 0, "not json", 1.0)], None)
    with pytest.raises(ArchiveError):
        encode_log([(1, 0, '{"type":"cut","depth":1}', "noon")], None)  # not a time


def test_points_come_back_exactly():
    rows = [
        (1, 0, 2, 8, 0, 0, 8, "5H 5C 5S JD|5D", None, None),
        (1, 1, 0, 4, 6, 2, 4, "AH 2C 3D 10S|5D", 6, "KH KS 10D 10C|5D"),
        (2, 0, 0, 0, 0, 0, None, "", None, "|"),
        (2, 1, -3, 1, 0, 0, 29, "5H  5C", 1.5, "zz|ÅH"),
    ]
    assert decode_points(encode_points(rows)) == rows
    assert decode_points(encode_points([])) == []
    with pytest.raises(ArchiveError):
        encode_points([(1, 0, 2)])


def test_damaged_blobs_are_refused():
    blob = encode_log([(1, 0, '{"type":"cut","depth":9}', 1.5)], (1, "{}", "[1,1]"))
    for bad in (b"", b"\x02" + blob[1:], blob[:-2], blob[:1] + b"\xff" * 9, blob + b"x"):
        with pytest.raises(ArchiveError):
            decode_log(bad)
    points = encode_points([(1, 0, 2, 8, 0, 0, 8, "5H", None, None)])
    with pytest.raises(ArchiveError):
        decode_points(points[:-3])
    extra = zlib.compressobj(9, zlib.DEFLATED, -15)
    with pytest.raises(ArchiveError):  # a valid stream holding something else
        decode_points(b"\x01" + extra.compress(b"\x05\x02[]") + extra.flush())


# A game's archive written by this version: every later version must read it back the same
# (db/logcodec.py's format 1 and its preset dictionary never change).
GOLDEN_LOG = "0162626451afc61a8e286163691e5bcb1a6da463140b108312a73260bf16aefef733699d0b00"
GOLDEN_POINTS = "016254898e368cd5893600622320b680b20da0ecbcd29c9cd858c09858e458b4c51905ff0300"


def test_a_blob_of_format_1_still_reads():
    log = decode_log(bytes.fromhex(GOLDEN_LOG))
    assert log.snapshot == (2, '{"phase":"game over","scores":[121,97]}', "[2,2]")
    assert log.actions == [
        (1, 0, {"type": "cut", "depth": 17}, 1700000000.125),
        (2, 1, {"type": "play", "card": "10H"}, 1700000004.5),
    ]
    assert decode_points(bytes.fromhex(GOLDEN_POINTS)) == [
        (1, 0, 2, 8, 0, 0, 8, "5H 5C 5S JD|5D", None, None)
    ]
