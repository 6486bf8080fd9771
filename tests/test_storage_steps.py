"""Transactions written as steps (bot.storage.database.Steps): each engine answers each
statement alike, a failure anywhere (a unique rule, the work itself) rolls back the whole,
and SQLite runs a finishing game in one trip to its database thread (its one write
lock held for the statements alone)."""

import asyncio
from datetime import date

import pytest

from bot.storage import GLOBAL, Duplicate, GuildSettings, Result, Storage, sqlite
from bot.storage.database import Steps, execute, fetch_all, one, value
from bot.storage.periods import season_of

INSERT = "INSERT INTO players (id, name, created_at) VALUES (?, ?, 'x')"


def insert_then_read(player_id: int) -> Steps[tuple[int, list[str]]]:
    changed = yield execute(INSERT, (player_id, "ann"))
    rows = yield fetch_all("SELECT name FROM players WHERE id = ?", (player_id,))
    return changed, [row[0] for row in rows]


def insert_then_duplicate(player_id: int, taken: int) -> Steps[None]:
    yield execute(INSERT, (player_id, "gone"))
    yield execute(INSERT, (taken, "again"))


def count_players() -> Steps[int]:
    return int((yield value("SELECT COUNT(*) FROM players")))


def insert_then_fail(player_id: int) -> Steps[None]:
    yield execute(INSERT, (player_id, "gone"))
    row = yield one("SELECT name FROM players WHERE id = ?", (player_id,))
    assert row is not None and row[0] == "gone"  # seen inside the transaction
    raise RuntimeError("the work failed after its first statement")


@pytest.fixture(params=["sqlite", "sqlite without one trip", "postgresql"])
def engine_url(request: pytest.FixtureRequest, tmp_path, monkeypatch) -> str:
    """Each engine, and SQLite as it runs steps if aiosqlite ever lacks a call for a
    function on its thread: one statement a trip."""
    if request.param == "postgresql":
        return str(request.getfixturevalue("postgres_url"))
    if request.param == "sqlite without one trip":
        monkeypatch.setattr(sqlite, "thread_call", lambda db: None)
    return str(tmp_path / "db.sqlite3")


async def test_steps_answer_each_statement_and_a_failure_rolls_back_the_whole(engine_url):
    storage = await Storage.open(engine_url)
    try:
        assert await storage.db.run(insert_then_read(1)) == (1, ["ann"])
        with pytest.raises(Duplicate):
            await storage.db.run(insert_then_duplicate(2, taken=1))
        with pytest.raises(RuntimeError, match="failed after its first"):
            await storage.db.run(insert_then_fail(2))
        assert await storage._one("SELECT 1 FROM players WHERE id = 2") is None
        # Inside a transaction awaited statement by statement, the same steps, the same way
        async with storage.transaction() as tx:
            assert await tx.run(insert_then_read(3)) == (1, ["ann"])
            assert await tx.run(count_players()) == 2
    finally:
        await storage.close()


async def test_a_finishing_game_is_one_trip_to_the_sqlite_thread(tmp_path):
    """BEGIN, every statement of the result, its standings and period boards, and COMMIT in
    one call on the writer's thread: awaited one by one they held the write lock across a
    pass of a busy event loop each, and finishing games queued for seconds."""
    storage = await Storage.open(str(tmp_path / "db.sqlite3"))
    try:
        await storage.ensure_player(1)
        game = await storage.insert_game(1, 5, "wordle:practice", None, {"v": 0})
        writer = storage.db._db
        trips = 0
        real = writer._execute

        async def counted(fn, *args, **kwargs):
            nonlocal trips
            trips += 1
            return await real(fn, *args, **kwargs)

        writer._execute = counted
        saved = await storage.save_game(game, {"v": 1}, "won", Result(True, 3, None))
        writer._execute = real
        assert saved is not None and trips == 1
        assert (await storage._one("SELECT COUNT(*) FROM period_standings"))[0] == 8
    finally:
        await storage.close()


async def test_games_finishing_at_once_each_count_once(database_url):
    """Forty players finish at once: every result is in the standings and period boards of
    its server and of everyone, once."""
    storage = await Storage.open(database_url)
    try:
        games = []
        for player in range(1, 41):
            await storage.ensure_player(player)
            games.append(await storage.insert_game(player, 5, "wordle:practice", None, {}))
        results = [Result(p % 3 != 0, 3 + p % 4, None, "2026-11-23") for p in range(1, 41)]
        saved = await asyncio.gather(*(
            storage.save_game(g, {"v": 1}, "won" if r.won else "lost", r)
            for g, r in zip(games, results, strict=True)
        ))  # fmt: skip
        assert all(s is not None for s in saved)
        wins = sum(r.won for r in results)
        guesses = sum(r.guesses for r in results if r.won)
        for scope in (5, GLOBAL):
            totals = await storage._one(
                "SELECT SUM(played), SUM(wins), SUM(win_guesses) FROM standings WHERE scope = ?",
                (scope,),
            )
            assert tuple(totals) == (40, wins, guesses)
            periods = await storage._all(
                "SELECT period, SUM(played), SUM(wins) FROM period_standings WHERE scope = ? "
                "GROUP BY period",
                (scope,),
            )
            assert len(periods) == 4 and all(tuple(p)[1:] == (40, wins) for p in periods)
    finally:
        await storage.close()


async def test_one_player_finishing_in_two_servers_at_once_counts_twice_everywhere(
    database_url,
):
    """The player's row of everyone's boards is rewritten by both finishes at once (locked
    on PostgreSQL, so neither overwrites the other), and each server's season is its own."""
    storage = await Storage.open(database_url)
    try:
        await storage.save_guild_settings(GuildSettings(5, season_days=7))
        await storage.ensure_player(1)
        games = [await storage.insert_game(1, g, "wordle:practice", None, {}) for g in (5, 6)]
        result = Result(True, 4, None, "2026-11-23")
        saved = await asyncio.gather(*(storage.save_game(g, {}, "won", result) for g in games))
        assert all(s is not None for s in saved)
        rows = await storage._all(
            "SELECT scope, played, wins, win_guesses, current_streak FROM standings ORDER BY scope"
        )
        assert [tuple(r) for r in rows] == [(GLOBAL, 2, 2, 8, 2), (5, 1, 1, 4, 1), (6, 1, 1, 4, 1)]
        day = date(2026, 11, 23)
        seasons = {
            (int(r[0]), r[1]): int(r[2])
            for r in await storage._all(
                "SELECT scope, period, played FROM period_standings WHERE period LIKE 'season:%'"
            )
        }
        assert seasons == {
            (GLOBAL, season_of(day, 28).key): 2,
            (5, season_of(day, 7).key): 1,
            (6, season_of(day, 28).key): 1,
        }
    finally:
        await storage.close()
