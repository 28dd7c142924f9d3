"""Standings and ratings in the store: counted once, in order, durably; the leaderboard's pages."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest
from sqlalchemy import func, select

import db.migrations
from bot.ratings import DEFAULT_RATING, RATER, Rating
from db import Store
from db import schema as t
from db.leaderboard import PROVISIONAL_GAMES
from db.standings import COMPUTER_PLAYERS
from tests.support.leaderboard import rated_copy, record_game

ALICE, BOB, CAROL, DAVE = 11, 12, 13, 14


@pytest.fixture
async def store(database):
    store = await Store.open(database)
    await store.standings.enable_ratings(RATER)
    yield store
    await store.close()


def rating(row) -> Rating:
    return Rating(row.mu, row.sigma)


async def board(store: Store, **kwargs):
    page = await store.standings.leaderboard(page_size=100, **kwargs)
    return {row.player: row for row in page.rows}


async def count_rows(store: Store, table: str) -> int:
    ((count,),) = await store._database.fetchall(
        select(func.count()).select_from(t.metadata.tables[table])
    )
    return count


# ---------------------------------------------------------------------- what a game counts


async def test_a_won_game_moves_ratings_and_totals_everywhere_and_in_its_server(store):
    await record_game(store, [ALICE, BOB], [121, 100], winner=0, guild_id=5)
    for scope in (0, 5):
        rows = await board(store, scope=scope)
        alice, bob = rows[ALICE], rows[BOB]
        assert rating(alice).mu > DEFAULT_RATING.mu > rating(bob).mu
        assert (alice.games, alice.wins, bob.games, bob.wins) == (1, 1, 1, 0)
        assert alice.rank == 1 and bob.rank == 2
        assert alice.provisional and PROVISIONAL_GAMES == 5
    assert await board(store, scope=6) == {}


async def test_skunks_are_counted_and_weigh_on_the_rating(store):
    await record_game(store, [ALICE, BOB], [121, 100], winner=0, guild_id=1)
    await record_game(store, [CAROL, DAVE], [121, 80], winner=0, guild_id=2)
    rows = await board(store)
    assert rows[CAROL].skunks_given == 1 and rows[DAVE].skunks_taken == 1
    assert rows[ALICE].skunks_given == 0
    assert rating(rows[CAROL]).mu > rating(rows[ALICE]).mu
    assert rating(rows[DAVE]).mu < rating(rows[BOB]).mu


async def test_three_and_four_handed_games_and_partnerships(store):
    await record_game(store, [ALICE, BOB, CAROL], [50, 61, 40], winner=1, target=61)
    rows = await board(store)
    assert rating(rows[BOB]).mu > rating(rows[ALICE]).mu > rating(rows[CAROL]).mu
    await record_game(
        store, [ALICE, BOB, CAROL, DAVE], [61, 45], winner=0, target=61, partnerships=True
    )
    rows = await board(store)
    assert rows[ALICE].wins == 1 and rows[CAROL].wins == 1  # partners win together
    assert rows[BOB].wins == 1 and rows[DAVE].wins == 0
    history = await store.standings.rating_history(CAROL)
    assert [h.game_id for h in history] == [1, 2]
    assert history[1].after[0] > history[1].before[0]


async def test_a_forfeit_is_a_loss_for_the_forfeiter_and_a_win_for_the_others(store):
    await record_game(store, [ALICE, BOB], [60, 40], forfeit_seat=0)
    rows = await board(store)
    assert (rows[ALICE].wins, rows[ALICE].forfeits) == (0, 1)
    assert rows[BOB].wins == 1
    assert rating(rows[BOB]).mu > DEFAULT_RATING.mu > rating(rows[ALICE]).mu
    await record_game(store, [ALICE, BOB, CAROL], [30, 50, 55], forfeit_seat=2, target=61)
    rows = await board(store)
    assert rows[CAROL].forfeits == 1 and rows[CAROL].wins == 0
    history = {p: (await store.standings.rating_history(p))[-1] for p in (ALICE, BOB, CAROL)}
    assert history[CAROL].after[0] < history[CAROL].before[0]  # ranked last despite its lead
    assert history[BOB].after[0] > history[BOB].before[0]


async def test_abandoned_games_are_not_rated(store):
    await record_game(store, [ALICE, BOB], [60, 40], abandoned=True)
    assert await board(store) == {}
    assert await count_rows(store, "rating_history") == 0


async def test_games_with_a_computer_are_kept_apart(store):
    await record_game(store, [ALICE, "expert"], [121, 90], winner=0)
    await record_game(store, [ALICE, BOB], [100, 121], winner=1)
    people = await board(store)
    assert set(people) == {ALICE, BOB} and people[ALICE].games == 1
    computers = await board(store, pool="computers")
    assert set(computers) == {ALICE, COMPUTER_PLAYERS["expert"]}
    assert computers[ALICE].wins == 1
    assert computers[COMPUTER_PLAYERS["expert"]].computer == "expert"


async def test_every_game_counts_in_the_pool_of_all_games(store):
    await record_game(store, [ALICE, "expert"], [121, 90], winner=0)
    await record_game(store, [ALICE, BOB], [100, 121], winner=1)
    everyone = await board(store, pool="all")
    assert set(everyone) == {ALICE, BOB, COMPUTER_PLAYERS["expert"]}
    assert (everyone[ALICE].games, everyone[ALICE].wins) == (2, 1)
    people = await board(store)
    assert rating(everyone[BOB]) != rating(people[BOB])  # a rating of its own


async def test_two_computers_of_one_level_count_once(store):
    await record_game(store, [ALICE, "easy", "easy"], [61, 50, 30], winner=0, target=61)
    computers = await board(store, pool="computers")
    easy = computers[COMPUTER_PLAYERS["easy"]]
    assert easy.games == 1 and easy.wins == 0
    assert rating(easy).mu < DEFAULT_RATING.mu


# ---------------------------------------------------------------------- once, in order, durably


async def test_ratings_are_counted_exactly_once_and_survive_a_restart(database):
    path = database
    store = await Store.open(path)
    await store.standings.enable_ratings(RATER)
    await record_game(store, [ALICE, BOB], [121, 100], winner=0)
    assert await store.standings.enable_ratings(RATER) == 0  # nothing left to catch up
    before = await board(store)
    await store.close()
    store = await Store.open(path)
    try:
        assert await store.standings.enable_ratings(RATER) == 0
        assert await board(store) == before
        # 2 players x (everywhere, the server) x (people, all)
        assert await count_rows(store, "rating_history") == 8
    finally:
        await store.close()


async def test_games_ended_without_ratings_are_caught_up_in_order(databases):
    games = [
        ([ALICE, BOB], [121, 100], 0),
        ([BOB, CAROL], [121, 70], 0),
        ([CAROL, ALICE], [121, 119], 0),
        ([ALICE, BOB, CAROL], [61, 40, 20], 0),
    ]
    live = await Store.open(databases("live"))
    await live.standings.enable_ratings(RATER)
    late = await Store.open(databases("late"))
    for i, (players, scores, winner) in enumerate(games):
        target = 61 if len(players) == 3 else 121
        for store in (live, late):
            await record_game(store, players, scores, winner=winner, now=10.0 * i, target=target)
    try:
        assert await board(late) == {}
        assert await late.standings.enable_ratings(RATER) == len(games)
        assert await board(late) == await board(live)
    finally:
        await live.close()
        await late.close()


async def test_a_failing_rater_never_stops_a_game_from_ending(store, caplog):
    def broken(sides, *, target):
        raise ZeroDivisionError("a bug in the model")

    broken.default = RATER.default  # type: ignore[attr-defined]
    await store.standings.enable_ratings(broken)
    game_id = await record_game(store, [ALICE, BOB], [121, 100], winner=0)
    assert await store.games.game_status(game_id) == "finished"
    assert [r.outcome for r in await store.games.results(game_id)] == ["won", "lost"]
    assert "Rating finished games failed" in caplog.text
    assert await board(store) == {}
    assert await store.standings.enable_ratings(RATER) == 1  # fixed: the game is rated now
    assert set(await board(store)) == {ALICE, BOB}


async def test_a_version_2_database_is_migrated_and_its_games_rated(tmp_path, monkeypatch):
    path = tmp_path / "old.db"
    monkeypatch.setattr(db.migrations, "MIGRATIONS", db.migrations.MIGRATIONS[:2])
    store = await Store.open(path)
    assert store.schema_version == 2
    await store.close()
    monkeypatch.undo()
    conn = sqlite3.connect(path)  # a game that ended before ratings existed, as v2 wrote it
    conn.executescript(
        f"""
        INSERT INTO games (id, guild_id, channel_id, status, players, target, host_id,
                           created_at, updated_at, ended_at, end_reason, winner_side)
            VALUES (1, 1, 9, 'finished', 2, 121, {ALICE}, 0, 5, 5, 'won', 0);
        INSERT INTO seats (game_id, seat, user_id, joined_at)
            VALUES (1, 0, {ALICE}, 0), (1, 1, {BOB}, 0);
        INSERT INTO results (game_id, seat, side, outcome, won, final_score)
            VALUES (1, 0, 0, 'won', 1, 121), (1, 1, 1, 'lost', 0, 100);
        """
    )
    conn.close()
    store = await Store.open(path)
    try:
        assert store.schema_version == db.migrations.LATEST_VERSION >= 3
        assert await store.standings.enable_ratings(RATER) == 1
        rows = await board(store)
        assert rows[ALICE].wins == 1 and rows[BOB].wins == 0
    finally:
        await store.close()


# ---------------------------------------------------------------------- the leaderboard


LEAGUE = list(range(1000, 1025))
NEWCOMER = 2000


async def _build_league(path) -> None:
    store = await Store.open(path)
    await store.standings.enable_ratings(RATER)
    for i, player in enumerate(LEAGUE):
        for step in (1, 2, 3):
            other = LEAGUE[(i + step) % len(LEAGUE)]
            first, second = sorted((player, other))
            score = 60 + (other % 7) * 5  # some skunks (below 91), some not
            await record_game(store, [first, second], [121, score], winner=0, now=float(i))
    await record_game(store, [NEWCOMER, LEAGUE[-1]], [121, 120], winner=0, now=99.0)
    await store.close()


@pytest.fixture(scope="module")
def league_file(tmp_path_factory):
    """25 players; each plays the next three in line, and the lower number always wins; and a
    newcomer with one game, won."""
    path = tmp_path_factory.mktemp("league") / "league.db"
    asyncio.run(_build_league(path))
    return path


@pytest.fixture(scope="module")
def league_url(postgres_server):
    """The league built once in a PostgreSQL database (the tests using it only read it)."""
    url = postgres_server.migrated_url()
    asyncio.run(_build_league(url))
    yield url
    postgres_server.give_back(url)


@pytest.fixture
def league_source(request, databases, tmp_path):
    """(the file to copy, where): the SQLite file built once, or the PostgreSQL database."""
    if request.node.callspec.params["databases"] == "sqlite":
        return request.getfixturevalue("league_file"), tmp_path / "league.db"
    return None, request.getfixturevalue("league_url")


@pytest.fixture
async def league(league_source):
    """The league, rated, built once: on SQLite a copy of the file; on PostgreSQL the database
    itself (the tests only read it; :func:`own_league` for one that writes)."""
    async with rated_copy(*league_source) as store:
        yield store


@pytest.fixture
async def own_league(league_file, database):
    """The league in the test's own database, which it may change."""
    if isinstance(database, str):
        await _build_league(database)
    async with rated_copy(None if isinstance(database, str) else league_file, database) as store:
        yield store


async def all_pages(store, **kwargs):
    rows, page = [], 0
    while True:
        board_page = await store.standings.leaderboard(page=page, **kwargs)
        rows += board_page.rows
        if page + 1 >= board_page.pages:
            return rows, board_page
        page += 1


async def test_pages_of_ten_cover_everyone_once(league):
    first = await league.standings.leaderboard(player=LEAGUE[0])
    assert (first.total, first.pages, len(first.rows)) == (26, 3, 10)
    rows, last = await all_pages(league)
    assert len(last.rows) == 6
    assert [r.rank for r in rows] == list(range(1, 27))
    assert sorted(r.player for r in rows) == [*LEAGUE, NEWCOMER]
    assert [r.player for r in rows if r.provisional] == [NEWCOMER]


@pytest.mark.parametrize(
    ("sort", "key"),
    [
        ("rating", lambda r: (-rating(r).ordinal, -r.games, r.player)),
        ("wins", lambda r: (-r.wins, -rating(r).ordinal, r.player)),
        ("win rate", lambda r: (r.provisional, -r.wins / r.games, -r.games, r.player)),
        ("skunks", lambda r: (-r.skunks_given, -r.wins, r.player)),
    ],
)
async def test_every_sort_orders_the_whole_board(league, sort, key):
    rows, _ = await all_pages(league, sort=sort)
    assert rows == sorted(rows, key=key)
    assert [r.rank for r in rows] == list(range(1, 27))
    if sort == "win rate":  # a single win does not top the established players
        assert rows[-1].player == NEWCOMER and rows[-2].player == LEAGUE[-1]  # 100% and 0%


async def test_the_callers_row_is_shown_wherever_it_ranks(league):
    rows, _ = await all_pages(league)
    last = rows[-1]
    page = await league.standings.leaderboard(page=0, player=last.player)
    assert last.player not in [r.player for r in page.rows]
    assert page.me == last and page.me.rank == 26
    on_page = await league.standings.leaderboard(page=0, player=rows[3].player)
    assert on_page.me == rows[3] and on_page.me in on_page.rows
    nobody = await league.standings.leaderboard(page=0, player=1)
    assert nobody.me is None and len(nobody.rows) == 10


async def test_a_page_past_the_end_is_empty_but_knows_the_total(league):
    page = await league.standings.leaderboard(page=7, player=LEAGUE[0])
    assert page.rows == () and page.total == 26 and page.me is not None


async def test_a_servers_board_holds_only_its_players(own_league):
    await record_game(own_league, [ALICE, BOB], [121, 100], winner=0, guild_id=77)
    here = await own_league.standings.leaderboard(scope=77)
    assert [r.player for r in here.rows] == [ALICE, BOB] and here.total == 2
    everywhere = await own_league.standings.leaderboard(scope=0, page=2)
    assert everywhere.total == 28


async def test_a_discord_sized_server_id_scopes_every_read(store):
    guild = 1_234_567_890_123_456_789  # a snowflake: beyond 32 bits
    await record_game(store, [ALICE, BOB], [121, 100], winner=0, guild_id=guild)
    page = await store.standings.leaderboard(scope=guild, player=BOB)
    assert [r.player for r in page.rows] == [ALICE, BOB] and page.me.rank == 2
    stats = await store.standings.player_stats(ALICE, scope=guild)
    assert (stats.games, stats.wins, stats.rank, stats.ranked_players) == (1, 1, 1, 2)
    (entry,) = await store.standings.player_history(BOB, scope=guild)
    assert entry.outcome == "lost" and [p.user_id for p in entry.opponents] == [ALICE]
    assert entry.rating_after is not None
    (change,) = await store.standings.rating_history(ALICE, scope=guild)
    assert change.after[0] > change.before[0]
    assert (await store.standings.player_stats(ALICE, scope=guild + 1)).games == 0


async def test_an_unknown_sort_is_refused(store):
    with pytest.raises(ValueError, match="No sort 'luck'"):
        await store.standings.leaderboard(sort="luck")
