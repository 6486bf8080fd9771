import asyncio
import contextlib
import itertools
import json
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import date

import asyncpg
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.storage import (
    BUSY_TIMEOUT_MS,
    LATEST,
    GuildSettings,
    Result,
    Storage,
    StorageBusy,
    counts,
    periods,
)
from bot.storage.digests import unfinished_query
from bot.storage.migrations import MIGRATIONS, SQLITE_MIGRATIONS
from bot.storage.periods import PRIOR_GAMES
from bot.storage.postgres import MIGRATION_LOCK
from bot.storage.records import GLOBAL
from bot.storage.sqlite import Migrated, drive, statements

TODAY = date(2026, 11, 22)  # the puzzle day shares are recorded on
NUMBER = (TODAY - date(2021, 6, 19)).days  # its NYT Wordle number


async def fill(storage: Storage, version: int) -> None:
    """Rows of every table that exists at ``version``, written as that version's code would."""
    await storage._write("INSERT INTO players (id, name, created_at) VALUES (7, 'ann', 'x')")
    await storage._write(
        "INSERT INTO games (id, player_id, scope, kind, puzzle, state, version, status, "
        "created_at, updated_at) VALUES (1, 7, 3, 'wordle:daily', '2026-01-01', '{}', 2, 'won', "
        "'x', 'x')"
    )
    await storage._write(
        "INSERT INTO results (game_id, player_id, scope, kind, day, won, guesses, finished_at) "
        "VALUES (1, 7, 3, 'wordle:daily', '2026-01-01', 1, 4, 'x')"
    )
    if version >= 2:
        await storage._write(
            "INSERT INTO standings (scope, player_id, kind, played, wins, win_guesses, "
            "current_streak, max_streak, last_day) VALUES (3, 7, 'wordle:daily', 1, 1, 4, 1, 1, "
            "'2026-01-01')"
        )
    if version >= 3:
        await storage._write(
            "INSERT INTO share_results (player_id, game, puzzle, won, guesses, hard, grid, "
            "recorded_at) VALUES (7, 'wordle', 1000, 1, 3, 0, 'g', 'x')"
        )
    if version >= 7:
        await storage._write(
            "INSERT INTO period_standings (scope, kind, period, player_id, played, wins, "
            "win_guesses) VALUES (3, 'wordle:daily', 'month:2026-01', 7, 1, 1, 4)"
        )


@pytest.mark.parametrize("version", range(1, LATEST))
async def test_a_database_migrates_from_every_earlier_version(tmp_path, version: int) -> None:
    path = str(tmp_path / f"v{version}.sqlite3")
    old = await Storage.open(path, migrate=False)
    assert await old.migrate(target=version) == list(range(1, version + 1))
    await fill(old, version)
    await old.close()

    storage = await Storage.open(path)
    assert await storage.schema_version() == LATEST
    export = await storage.export_player(7)
    assert export["player"]["name"] == "ann"
    assert export["player"]["palette"] == "standard"  # version 10: the default colours
    assert [r["guesses"] for r in export["results"]] == [4]
    assert (
        await storage.record_share(7, "quordle", 5, True, 8, False, "q", scope=5, today=TODAY)
    ) == "new"
    _, total = await storage.leaderboard(3, "wordle:daily", "wins", today=date(2026, 1, 2))
    assert total == (1 if version >= 2 else 0)
    # The period boards arrived in version 7, counted from the results already there.
    [entry], _ = await storage.leaderboard(3, "wordle:daily", "wins", period="month:2026-01",
                                           today=date(2026, 1, 2))  # fmt: skip
    assert (entry.rank, entry.row["player_id"], entry.value) == (1, 7, 1.0)
    await storage.close()


def test_migrations_are_numbered_in_order() -> None:
    assert LATEST == len(MIGRATIONS) >= 4


async def everything(storage: Storage) -> list[tuple]:
    """A SQLite database's schema, every row of every table (sqlite_sequence's included),
    its version and whether foreign keys are on."""
    tables = "SELECT name FROM sqlite_master WHERE type = 'table'"
    names = [r[0] for r in await storage._all(tables)]
    found = [("master", *r) for r in await storage._all("SELECT type, name, tbl_name, sql FROM "
                                                        "sqlite_master")]  # fmt: skip
    for name in names:
        found += [(name, *r) for r in await storage._all(f'SELECT * FROM "{name}"')]
    found += [("pragma", (await storage._one(f"PRAGMA {pragma}"))[0])
              for pragma in ("user_version", "foreign_keys")]  # fmt: skip
    return sorted(found, key=repr)


async def migrated_one_by_one(path: str) -> Storage:
    """A new file taken through every migration in turn (a new database taken to the latest
    version at once is made whole instead: these are what it must equal)."""
    storage = await Storage.open(path, migrate=False)
    assert await storage.migrate(target=LATEST - 1) == list(range(1, LATEST))
    assert await storage.migrate() == [LATEST]
    return storage


async def test_a_new_database_is_the_one_every_migration_makes(tmp_path) -> None:
    """New databases, files or in memory, are made at the latest version at once from one
    migrated in memory (a new database costs a few milliseconds, not 60): each has the
    schema, settings and rows a file gets from every migration, and each is its own."""
    reference = await migrated_one_by_one(str(tmp_path / "steps.sqlite3"))
    file = await Storage.open(str(tmp_path / "new.sqlite3"))
    first, second = await Storage.open(":memory:"), await Storage.open(":memory:")
    try:
        expected = await everything(reference)
        assert any(row[0] == "sqlite_sequence" for row in expected)  # rows to copy: checked
        for made in (file, first, second):
            assert await everything(made) == expected
        await first.record_share(7, "quordle", 5, True, 8, False, "q", scope=5, today=TODAY)
        assert [tuple(r) for r in await first._all("SELECT player_id FROM share_results")] == [(7,)]
        assert await second._all("SELECT player_id FROM share_results") == []
        assert await file._all("SELECT player_id FROM share_results") == []
    finally:
        for storage in (reference, file, first, second):
            await storage.close()


def test_a_database_made_whole_keeps_the_next_ids_of_its_autoincrement_tables(tmp_path) -> None:
    """What a new file is made from copies rows, views and triggers, and the next id of an
    AUTOINCREMENT table: once, not also counted again from the rows it copies."""
    source = sqlite3.connect(":memory:", isolation_level=None)
    source.executescript(
        "CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, v TEXT);"
        "INSERT INTO t (v) VALUES ('a'), ('b'), ('c'); DELETE FROM t WHERE v = 'c';"
        "CREATE TABLE log (v TEXT); CREATE VIEW vs AS SELECT v FROM t;"
        "CREATE TRIGGER logged AFTER INSERT ON t BEGIN INSERT INTO log VALUES (new.v); END;"
    )
    whole = Migrated.of(source)
    with contextlib.closing(sqlite3.connect(tmp_path / "new.sqlite3", isolation_level=None)) as new:
        new.execute("BEGIN IMMEDIATE")
        assert drive(new, whole.create()) is True
        new.execute("COMMIT")
        new.execute("INSERT INTO t (v) VALUES ('d')")
        assert new.execute("SELECT * FROM sqlite_sequence").fetchall() == [("t", 4)]
        assert new.execute("SELECT id, v FROM t").fetchall() == [(1, "a"), (2, "b"), (4, "d")]
        assert new.execute("SELECT v FROM log").fetchall() == [("d",)]
        assert new.execute("SELECT count(*) FROM vs").fetchone() == (3,)
        assert new.execute("PRAGMA user_version").fetchone() == (LATEST,)
        new.execute("BEGIN IMMEDIATE")  # a second making finds it made and changes nothing
        assert drive(new, whole.create()) is False
        new.execute("COMMIT")


async def test_a_new_file_another_process_migrated_meanwhile_is_left_as_it_made_it(
    tmp_path, caplog: pytest.LogCaptureFixture
) -> None:
    """Two processes make one new file at once: the second waits for the first's lock, then
    finds the file migrated and applies nothing (its tables are not made twice)."""
    path = str(tmp_path / "new.sqlite3")
    storage = await Storage.open(path, migrate=False)
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")
        migrating = asyncio.create_task(storage.migrate())
        for _ in range(500):  # until the wait is logged
            if migrating.done() or "waiting up to" in caplog.text:
                break
            await asyncio.sleep(0.01)
        assert not migrating.done(), migrating.exception()
        for migration in SQLITE_MIGRATIONS:  # the other process's, one by one
            for statement in statements(migration):
                other.execute(statement)
        other.execute(f"PRAGMA user_version = {LATEST}")
        other.execute("COMMIT")
        assert await migrating == []
    reference = await migrated_one_by_one(str(tmp_path / "steps.sqlite3"))
    try:
        assert await everything(storage) == await everything(reference)
    finally:
        await storage.close()
        await reference.close()


@pytest.mark.parametrize("where", ["memory", "file"])
async def test_a_transaction_cancelled_while_it_begins_leaves_none_open(tmp_path, where) -> None:
    """A stop (a task cancelled) while ``BEGIN`` waits its turn on the database thread: the
    BEGIN still runs there, and the transaction is ended, not left open for every later
    write to fail on ("cannot start a transaction within a transaction": the winners' roles
    of a whole midnight, seen under load)."""
    import threading

    from bot.storage.sqlite import thread_call

    storage = await Storage.open(":memory:" if where == "memory" else str(tmp_path / "x.db"))
    try:
        busy, run = threading.Event(), thread_call(storage.db._db)
        blocker = asyncio.ensure_future(run(lambda: busy.wait(10)))  # the thread kept busy

        async def write() -> None:
            async with storage.db.transaction() as tx:
                await tx.execute("INSERT INTO players (id, name, created_at) VALUES (9, 'x', 'x')")

        writing = asyncio.create_task(write())
        await asyncio.sleep(0)  # its BEGIN queued behind the blocker
        writing.cancel()
        busy.set()
        await blocker
        with pytest.raises(asyncio.CancelledError):
            await writing
        await storage.ensure_player(1, "ann")  # a write after it works
        assert not storage.db._db._conn.in_transaction
        assert [tuple(r) for r in await storage._all("SELECT id FROM players")] == [(1,)]
    finally:
        await storage.close()


async def test_file_databases_use_wal_foreign_keys_and_a_busy_timeout(tmp_path) -> None:
    storage = await Storage.open(str(tmp_path / "db.sqlite3"))
    assert (await storage._one("PRAGMA journal_mode"))[0] == "wal"
    assert (await storage._one("PRAGMA foreign_keys"))[0] == 1
    assert (await storage._one("PRAGMA busy_timeout"))[0] == BUSY_TIMEOUT_MS < 3000  # the window
    assert (await storage._one("PRAGMA secure_delete"))[0] == 1
    await storage.close()


async def test_the_same_paste_records_once_and_a_correction_replaces_it(database_url) -> None:
    storage = await Storage.open(database_url)
    await storage.ensure_player(1, "ann")
    assert (
        await storage.record_share(
            1, "wordle", NUMBER, True, 4, False, "grid", scope=5, today=TODAY
        )
        == "new"
    )
    assert (
        await storage.record_share(
            1, "wordle", NUMBER, True, 4, False, "grid", scope=5, today=TODAY
        )
        == "same"
    )
    assert (
        await storage.record_share(
            1, "wordle", NUMBER, True, 3, True, "grid2", scope=5, today=TODAY
        )
        == "replaced"
    )
    shares = await storage.shares(1)
    assert len(shares) == 1 and shares[0]["guesses"] == 3 and shares[0]["hard"] == 1
    await storage.close()


async def test_export_then_delete_removes_everything_of_a_player(database_url) -> None:
    storage = await Storage.open(database_url)
    await storage.bulk_results([(1, 5, "wordle:daily", "2026-01-01", True, 3)])
    await storage.record_share(1, "wordle", NUMBER, True, 3, False, "g", scope=5, today=TODAY)
    data = await storage.export_player(1)
    assert json.loads(json.dumps(data))["results"][0]["guesses"] == 3
    assert await storage.delete_player(1)
    for table in ("players", "games", "results", "standings", "share_results"):
        assert (await storage._one(f"SELECT COUNT(*) FROM {table}"))[0] == 0
    await storage.close()


async def test_a_players_palette_is_kept_and_goes_with_the_player(database_url) -> None:
    storage = await Storage.open(database_url)
    assert await storage.palette(8) == "standard"  # nobody stored yet
    await storage.set_palette(8, "bob", "high-contrast")  # a new player, stored with it
    await storage.ensure_player(8, "robert")  # a later name change keeps the colours
    assert await storage.palette(8) == "high-contrast"
    await storage.ensure_player(9, "cat")
    await storage.set_palette(9, "", "high-contrast")
    await storage.set_palette(9, "", "standard")
    assert (await storage.palette(9), await storage.palette(8)) == ("standard", "high-contrast")
    assert (await storage.export_player(8))["player"]["palette"] == "high-contrast"
    assert await storage.delete_player(8) and await storage.palette(8) == "standard"
    await storage.close()


async def test_a_guild_reset_clears_its_board_only(database_url) -> None:
    storage = await Storage.open(database_url)
    await storage.bulk_results([(1, 5, "wordle:practice", None, True, 3)])
    await storage.save_guild_settings(GuildSettings(5, "Europe/Paris", False))
    assert await storage.reset_guild_board(5) == 1
    today = date(2026, 1, 1)
    assert (await storage.leaderboard(5, "wordle:practice", "wins", today=today))[1] == 0
    assert (await storage.leaderboard(-1, "wordle:practice", "wins", today=today))[1] == 1
    assert (await storage.guild_settings(5)).timezone == "Europe/Paris"
    await storage.close()


async def test_a_brief_lock_by_another_process_is_waited_out(tmp_path, lock_database) -> None:
    path = str(tmp_path / "db.sqlite3")
    storage = await Storage.open(path)
    await storage.ensure_player(1)
    game = await storage.insert_game(1, 0, "wordle:practice", None, {"v": 0})
    locker = lock_database(path, 0.5)
    saved = await storage.save_game(game, {"v": 1}, "playing")
    locker.wait()
    assert saved is not None and (await storage.game(game.id)).state == {"v": 1}
    await storage.close()


async def test_a_long_lock_fails_cleanly_and_changes_nothing(tmp_path, lock_database) -> None:
    path = str(tmp_path / "db.sqlite3")
    storage = await Storage.open(path, busy_timeout_ms=200)
    await storage.ensure_player(1)
    game = await storage.insert_game(1, 0, "wordle:practice", None, {"v": 0})
    locker = lock_database(path, 1.5)
    with pytest.raises(StorageBusy):
        await storage.save_game(game, {"v": 1}, "won", Result(True, 3, None))
    locker.wait()
    stored = await storage.game(game.id)
    assert stored.state == {"v": 0} and stored.version == 0 and stored.status == "playing"
    assert (await storage._one("SELECT COUNT(*) FROM results"))[0] == 0
    await storage.close()


async def test_one_statement_under_a_long_lock_is_refused_as_busy(tmp_path, lock_database):
    """A write outside a transaction (one statement) meets another process's lock past the
    busy timeout: StorageBusy, and nothing is written."""
    path = str(tmp_path / "db.sqlite3")
    storage = await Storage.open(path, busy_timeout_ms=200)
    locker = lock_database(path, 0.8)
    with pytest.raises(StorageBusy):
        await storage._write("INSERT INTO recent_pings (target_id, created_at) VALUES (2, 'x')")
    locker.wait()
    assert (await storage._one("SELECT COUNT(*) FROM recent_pings"))[0] == 0
    await storage.close()


@contextlib.asynccontextmanager
async def migrating_elsewhere(url: str) -> AsyncIterator[Callable[[], Awaitable[None]]]:
    """Another process in the middle of migrating the database at ``url``: it holds what a
    migration holds (SQLite's write lock, on a file one migration behind, whose last step
    it applies; PostgreSQL's migration lock, on an empty database) until the function
    yielded is awaited, which finishes its migration."""
    if "://" not in url:
        storage = await Storage.open(url, migrate=False)
        await storage.migrate(LATEST - 1)
        await storage.close()
        with contextlib.closing(sqlite3.connect(url, isolation_level=None)) as other:
            other.execute("BEGIN IMMEDIATE")

            async def finish() -> None:
                for statement in statements(SQLITE_MIGRATIONS[LATEST - 1]):
                    other.execute(statement)
                other.execute(f"PRAGMA user_version = {LATEST}")
                other.execute("COMMIT")

            yield finish
        return
    other = await asyncpg.connect(url)
    try:
        migration = other.transaction()
        await migration.start()
        await other.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        yield migration.commit
    finally:
        await other.close()


async def test_a_start_waits_for_another_process_migrating_then_runs(
    shared_url, caplog: pytest.LogCaptureFixture
) -> None:
    """Two processes started at once on one database: the second waits for the first's
    migration (well past its busy timeout, saying so in its log), then opens on the schema
    the first migrated, applying nothing twice. It never gives up as busy."""
    async with migrating_elsewhere(shared_url) as finish:
        opening = asyncio.create_task(Storage.open(shared_url, busy_timeout_ms=200))
        for _ in range(500):  # until the wait is logged, or the open gave up
            if opening.done() or "waiting up to" in caplog.text:
                break
            await asyncio.sleep(0.01)
        await asyncio.wait([opening], timeout=1.0)  # five busy timeouts more
        assert not opening.done(), opening.exception()
        assert "waiting up to 60 s" in caplog.text
        await finish()
        storage = await opening
    assert await storage.schema_version() == LATEST
    await storage.ensure_player(1)  # a working database
    await storage.close()


async def test_a_stale_version_writes_nothing(database_url) -> None:
    storage = await Storage.open(database_url)
    await storage.ensure_player(1)
    game = await storage.insert_game(1, 0, "wordle:practice", None, {"v": 0})
    assert await storage.save_game(game, {"v": 1}, "playing") is not None
    assert await storage.save_game(game, {"v": 2}, "playing") is None  # same old version
    assert (await storage.game(game.id)).state == {"v": 1}
    await storage.close()


async def test_backup_is_a_working_copy(tmp_path) -> None:
    storage = await Storage.open(str(tmp_path / "live.sqlite3"))
    await storage.bulk_results([(1, 5, "wordle:daily", "2026-01-01", True, 3)])
    await storage.backup(str(tmp_path / "copy.sqlite3"))
    await storage.close()
    copy = sqlite3.connect(tmp_path / "copy.sqlite3")
    assert copy.execute("SELECT COUNT(*) FROM results").fetchone()[0] == 1
    assert copy.execute("PRAGMA user_version").fetchone()[0] == LATEST


def test_concurrent_event_loops_do_not_share_a_storage() -> None:
    async def main() -> int:
        storage = await Storage.open(":memory:")
        version = await storage.schema_version()
        await storage.close()
        return version

    assert asyncio.run(main()) == LATEST


# A board: each player's games, as (won, guesses); few distinct records, so ties abound.
BOARDS = st.dictionaries(
    st.integers(1, 40),
    st.lists(st.tuples(st.booleans(), st.integers(2, 4)), min_size=1, max_size=6),
    min_size=1,
    max_size=25,
)
_boards = itertools.count()
LEVELS, GROUP_ROWS = counts.LEVELS, periods.GROUP_ROWS


def fair_ranks(games: dict[int, list[tuple[bool, int]]], fail: int) -> list[tuple[int, int]]:
    """The fair-average board worked out by hand: (rank, player) from best to worst."""
    rows = {p: (len(g), sum(w for w, _ in g), sum(n for w, n in g if w)) for p, g in games.items()}
    played, wins, win_guesses = (sum(r[i] for r in rows.values()) for i in range(3))
    prior = PRIOR_GAMES * ((win_guesses + (played - wins) * fail) / played)
    value = {p: (prior + (wg + (n - w) * fail)) / (PRIOR_GAMES + n)
             for p, (n, w, wg) in rows.items()}  # fmt: skip
    order = sorted(value, key=lambda p: (value[p], p))
    return [(1 + sum(value[q] < value[p] for q in value), p) for p in order]


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(games=BOARDS, per_page=st.integers(1, 7), fail=st.sampled_from([7, 9]),
       read=st.sampled_from(["groups", "bounded groups", "plain average"]))  # fmt: skip
@example(  # the best (six 3s) comes after two lucky 2s by plain average: past the rows read
    games={1: [(True, 2)], 2: [(True, 2)], 3: [(True, 3)] * 6, 4: [(False, 4)] * 6},
    per_page=1,
    fail=7,
    read="plain average",
)
@example(  # one group: every page reads the group as far as the page
    games={1: [(True, 3)], 2: [(True, 2)], 3: [(False, 4)]}, per_page=1, fail=7, read="groups"
)
@example(  # a bound from the groups' first rows: group 2's best lies past the first read
    games={1: [(True, 2)], 2: [(True, 2)] * 2, 3: [(True, 2), (True, 3)], 4: [(True, 3)] * 2},
    per_page=2,
    fail=7,
    read="bounded groups",
)
def test_every_page_of_the_fair_average_board_is_the_board_worked_out_whole(
    database_url, monkeypatch, games, per_page, fail, read
) -> None:
    """Fail score 7 reads only the rows that can be on a page: the best of each group of
    players with as many games (at once, or bounded by a first read of a few of each);
    or, on a board with players past the levels the counts keep (here, any player), the
    first rows by plain average (here at most 1 row past them before ranking the whole
    board). Another fail score ranks the whole board. Each gives each page of the hand-made
    board. (Set for each example: hypothesis runs them all in one test.)"""
    monkeypatch.setattr(periods, "WALK_ROWS", 1)
    monkeypatch.setattr(periods, "GROUP_ROWS", 0 if read == "bounded groups" else GROUP_ROWS)
    monkeypatch.setattr(counts, "LEVELS", 1 if read == "plain average" else LEVELS)
    kind = f"board{next(_boards)}"  # a board of its own on a database the examples share
    expected = fair_ranks(games, fail)
    scope = [5, GLOBAL][len(games) % 2]  # a server's board, everyone's: the same games

    async def pages() -> list[tuple[int, int]]:
        storage = await Storage.open(database_url)
        await storage.bulk_results(
            (p, 5, kind, None, won, n) for p, g in games.items() for won, n in g
        )
        seen: list[tuple[int, int]] = []
        for page in range(1, len(games) // per_page + 3):  # one past the last page, too
            rows, total = await storage.leaderboard(scope, kind, "average", page=page,
                                                    per_page=per_page, fail_score=fail,
                                                    today=date(2026, 3, 1))  # fmt: skip
            assert total == len(games)
            seen += [(r.rank, int(r.row["player_id"])) for r in rows]
        await storage.close()
        return seen

    assert asyncio.run(pages()) == expected


async def test_a_player_gone_between_a_boards_counts_and_its_rows_leaves_a_page_short(
    database_url, monkeypatch
) -> None:
    """The counts and the rows are read one after the other: a player deleted in between
    leaves the last page empty, not an error."""
    storage = await Storage.open(database_url)
    await storage.bulk_results([(p, 5, "wordle:daily", None, True, p + 1) for p in (1, 2, 3)])
    read_counts = counts.totals

    async def then_delete(*board):
        found = await read_counts(*board)
        await storage.delete_player(3)  # the last on the board
        return found

    monkeypatch.setattr(counts, "totals", then_delete)
    rows, total = await storage.leaderboard(5, "wordle:daily", "average", page=3, per_page=1,
                                            today=date(2026, 3, 1))  # fmt: skip
    assert (rows, total) == ([], 3)
    await storage.close()


async def test_the_live_boards_still_playing_read_walks_an_index(database_url) -> None:
    """ "Still playing" (the live board, each refresh) reads the games in progress of one day
    here through ``games_playing_day``, never a scan of every game ever played."""
    storage = await Storage.open(database_url)
    numbers = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) "
    await storage._write(numbers + "INSERT INTO players (id, name, created_at) "
                         "SELECT i, 'p', 'x' FROM n")  # fmt: skip
    await storage._write(  # 3000 games over 30 servers and 100 days, a third in progress
        numbers + "INSERT INTO games (player_id, scope, kind, puzzle, state, version, status, "
        "created_at, updated_at) SELECT i, i % 30, 'wordle:daily', 'day' || (i % 100), '{}', "
        "1, CASE WHEN i % 3 = 0 THEN 'playing' ELSE 'won' END, 'x', 'x' FROM n"
    )
    await storage._write("ANALYZE")
    kinds = ("wordle:daily", "primel:daily")
    explain = "EXPLAIN " if storage.db.for_update else "EXPLAIN QUERY PLAN "
    rows = await storage._all(explain + unfinished_query(len(kinds)), (3, *kinds, "day3"))
    plan = " ".join(str(tuple(row)) for row in rows)
    assert "games_playing_day" in plan, plan
    found = await storage.digests.unfinished(3, "day3", kinds)
    assert [start.player_id for start in found["wordle:daily"]] == [3, 303, 603, 903, 1203,
                                                                    1503, 1803, 2103, 2403,
                                                                    2703]  # fmt: skip
    await storage.close()


# Issue 38, point 4: a server's shares move off the bot's daily's boards onto their own.
SHARED_DAY = date(2026, 3, 1)
SHARED_NUMBER = (SHARED_DAY - date(2021, 6, 19)).days
# (player, scope, kind, won, guesses) of the dailies played with the bot on SHARED_DAY
PLAYED = [(1, 5, "wordle:daily", True, 2), (2, 5, "wordle:daily", True, 5),
          (4, 6, "wordle:daily", False, 6)]  # fmt: skip
# (player, scope, game, won, guesses, counted at version 28): ann's came after her game and
# bob's before his (a game took a share's place: uncounted), cat's 1/6 alone (counted on the
# bot's board), dan's Primel in a server of 14-day seasons.
SHARES = [(1, 5, "wordle", True, 4, 0), (2, 5, "wordle", True, 3, 0),
          (3, 5, "wordle", True, 1, 1), (4, 6, "primel", True, 3, 1)]  # fmt: skip


async def _board_rows(storage: Storage) -> tuple[list[tuple], ...]:
    """Every standings and period board row holding a result, and every board's counts."""
    rows = await storage._all(
        "SELECT scope, kind, player_id, played, wins, win_guesses, current_streak, max_streak, "
        "last_day FROM standings WHERE played > 0 ORDER BY scope, kind, player_id"
    )
    periods_ = await storage._all(
        "SELECT scope, kind, period, player_id, played, wins, win_guesses, skilled, skill_total "
        "FROM period_standings ORDER BY scope, kind, period, player_id"
    )
    totals = await storage._all(
        "SELECT scope, kind, period, measure, level, SUM(players), SUM(played), SUM(wins), "
        "SUM(win_guesses) FROM board_counts GROUP BY scope, kind, period, measure, level "
        "HAVING SUM(players) != 0 ORDER BY scope, kind, period, measure, level"
    )
    return tuple([tuple(r) for r in table] for table in (rows, periods_, totals))


async def _play_and_share(storage: Storage, *, old: bool) -> None:
    """The games of PLAYED, and SHARES: recorded by today's code, or (``old``) as version 28
    stored and counted them (on the bot's daily's boards, uncounted by a game)."""
    from bot.storage import shares as share_rows

    await storage.save_guild_settings(GuildSettings(6, "UTC", False, season_days=14))
    for player in range(1, 5):
        await storage.ensure_player(player, f"p{player}")
    for player, scope, kind, won, guesses in PLAYED:
        game = await storage.insert_game(player, scope, kind, SHARED_DAY.isoformat(), {})
        result = Result(won, guesses, SHARED_DAY.isoformat())
        assert await storage.save_game(game, {}, "won" if won else "lost", result) is not None
    for player, scope, game, won, guesses, counted in SHARES:
        number = SHARED_NUMBER if game == "wordle" else 77
        if not old:
            assert await storage.record_share(player, game, number, won, guesses, False, "g",
                                              scope=scope, today=SHARED_DAY) == "new"  # fmt: skip
            continue
        await storage._write(
            "INSERT INTO share_results (player_id, game, puzzle, won, guesses, hard, grid, "
            "recorded_at, scope, day, counted, posted_at) "
            "VALUES (?, ?, ?, ?, ?, 0, 'g', 'x', ?, ?, ?, 'x')",
            (player, game, number, int(won), guesses, scope, SHARED_DAY.isoformat(), counted),
        )
        if counted:  # what version 28's shares._count did: the bot's daily's boards
            day = SHARED_DAY.isoformat()
            count = share_rows._count(scope, player, f"{game}:daily", day, won, guesses, 1)
            await storage.db.run(count)


async def test_migration_29_moves_shares_onto_their_own_boards_with_nothing_lost(
    empty_url, tmp_path
) -> None:
    """From a database of version 28, where shares counted on the bot's daily's boards and a
    game took a share's place: after migrating, every board (standings, every period, their
    counts) is what today's code counts from the same games and shares, row for row; a typed
    1/6 that led the bot's Wordle board leads only the shares' board."""
    old = await Storage.open(empty_url, migrate=False)
    await old.migrate(target=28)
    await _play_and_share(old, old=True)
    top, _ = await old.leaderboard(5, "wordle:daily", "average", today=SHARED_DAY)
    assert top[0].row["player_id"] == 3  # the typed 1/6, on the bot's board at version 28
    assert (await old.migrate())[0] == 29  # (and any later one)
    assert await old.get_meta("shares_apart") is None  # the moves made, once
    assert await old.migrate() == []
    migrated = await _board_rows(old)
    shared, _ = await old.leaderboard(5, "wordle:shared", "wins", today=SHARED_DAY)
    ours, _ = await old.leaderboard(5, "wordle:daily", "wins", today=SHARED_DAY)
    assert [r.row["player_id"] for r in ours] == [1, 2]  # the bot's games only
    assert sorted(r.row["player_id"] for r in shared) == [1, 2, 3]  # those a game had uncounted
    await old.close()

    fresh = await Storage.open(str(tmp_path / "fresh.sqlite3"))
    await _play_and_share(fresh, old=False)
    assert migrated == await _board_rows(fresh)
    await fresh.close()
