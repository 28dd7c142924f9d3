"""The statement runner (``db.connection.Connection``) gives the repositories the same answers
on both backends: rows as SQLite gives them, the rows a write touched (summed over a batch,
which ``write_actions`` compares with the number of its writes), a refused write as a
conflict that changes nothing."""

from __future__ import annotations

import pytest
from sqlalchemy import (
    BigInteger,
    Column,
    MetaData,
    Table,
    Text,
    bindparam,
    func,
    insert,
    select,
    text,
)
from sqlalchemy import update as sa_update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.schema import CreateTable

from db import Store
from db.errors import Conflict

_probe = Table(
    "statement_probe",
    MetaData(),
    Column("id", BigInteger, primary_key=True, autoincrement=False),
    Column("n", BigInteger, nullable=False),
    Column("note", Text),
)
_INSERT = insert(_probe)
_BUMP = sa_update(_probe).where(_probe.c.id == bindparam("id")).values(n=_probe.c.n + 1)
_SUM = select(func.sum(_probe.c.n), func.avg(_probe.c.n), func.count())
_BIG = 2**63 - 1


@pytest.fixture
async def probe(database):
    store = await Store.open(database)
    try:
        async with store._database.write() as conn:
            await conn.execute(CreateTable(_probe))
        yield store._database
    finally:
        await store.close()


async def test_a_batch_of_updates_counts_the_rows_it_touched(probe):
    async with probe.write() as conn:
        inserted = await conn.executemany(
            _INSERT, [{"id": i, "n": i * 10, "note": f"row {i}"} for i in (1, 2, 3)]
        )
        assert inserted.rowcount == 3
        bumped = await conn.executemany(_BUMP, [{"id": 1}, {"id": 3}, {"id": 99}])
        assert bumped.rowcount == 2  # the set naming no row touched none
        one = await conn.execute(_BUMP, {"id": 2})
        assert one.rowcount == 1
    rows = await probe.fetchall(select(_probe.c.id, _probe.c.n).order_by(_probe.c.id))
    assert rows == [(1, 11), (2, 21), (3, 31)]


async def test_sums_and_averages_come_back_as_python_numbers(probe):
    async with probe.write() as conn:
        await conn.executemany(
            _INSERT, [{"id": i, "n": n, "note": None} for i, n in ((1, 1), (2, 2), (3, 4))]
        )
        total, average, count = (await conn.execute(_SUM)).all()[0]
    assert (total, count) == (7, 3)
    assert type(total) is int
    assert average == pytest.approx(7 / 3)
    assert type(average) is float


async def test_a_64_bit_id_and_a_null_round_trip(probe):
    async with probe.write() as conn:
        await conn.execute(_INSERT, {"id": _BIG, "n": -_BIG, "note": None})
    assert await probe.fetchall(select(_probe)) == [(_BIG, -_BIG, None)]


async def test_a_text_write_tells_the_rows_it_touched(probe):
    async with probe.write() as conn:
        await conn.executemany(_INSERT, [{"id": i, "n": 0, "note": None} for i in (1, 2)])
        cursor = await conn.execute(text("UPDATE statement_probe SET n = n + :step"), {"step": 5})
        assert cursor.rowcount == 2
        assert (await conn.execute(text("SELECT max(n) FROM statement_probe"))).scalar() == 5


async def test_a_refused_insert_in_a_batch_changes_nothing(probe):
    async with probe.write() as conn:
        await conn.execute(_INSERT, {"id": 1, "n": 1, "note": None})
    with pytest.raises(Conflict):
        async with probe.write() as conn:
            await conn.executemany(
                _INSERT, [{"id": 2, "n": 2, "note": None}, {"id": 1, "n": 9, "note": None}]
            )
    assert await probe.fetchall(select(_probe.c.id, _probe.c.n)) == [(1, 1)]


async def test_an_insert_that_skips_a_conflict_counts_only_what_it_inserted(probe):
    make = pg_insert if probe.dialect == "postgresql" else sqlite_insert
    skip = make(_probe).on_conflict_do_nothing(index_elements=[_probe.c.id])
    async with probe.write() as conn:
        await conn.execute(_INSERT, {"id": 1, "n": 1, "note": None})
        cursor = await conn.executemany(
            skip, [{"id": 1, "n": 5, "note": None}, {"id": 2, "n": 2, "note": None}]
        )
        assert cursor.rowcount == 1
    assert await probe.fetchall(select(_probe.c.id, _probe.c.n).order_by(_probe.c.id)) == [
        (1, 1),
        (2, 2),
    ]
