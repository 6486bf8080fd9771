"""``wordlebot bench growth``: what a year of one server adds to the database, table by table
with its indexes, on SQLite and on PostgreSQL when one is named; then what the retention job
(bot/services/retention.py) leaves of it.

    wordlebot bench growth [--players 1000] [--days 365] [--sharers 0.05] [--real-days 2]
                           [--database URL|embedded] [--json]

The server: ``--players`` players, each playing the bot's Wordle daily on most days (85%),
a share of them (``--sharers``) also posting their NYT Wordle share; each day a digest and a
live board; some players with a reminder. The year's days but the last ``--real-days`` are
loaded in one bulk write (:meth:`bot.storage.Storage.bulk_days`: the rows the real path
writes, with each game's state made by the engine's own game from real guesses, the coach's
skill and luck, the standings and period boards the real path folds); the last days are
played through the services (``GameService``: starts, guesses, results, achievements, the
standings and period boards of each move), and the shares, digests, live boards and
reminders go through the storage calls the services make, every day.

Bytes: PostgreSQL's ``pg_total_relation_size`` (the table, its TOAST and its indexes) and
``pg_indexes_size``; SQLite's ``dbstat`` virtual table (the
pages of each table's b-tree and of each of its indexes, ``pgsize``), after ``VACUUM``.
PostgreSQL's year and what the purge keeps are measured after ``VACUUM FULL`` (compact, so
the two compare); the year after a plain ``VACUUM`` (the dead rows of standings updated in
place left as free space, as a running server has them) is printed beside. After a purge a
running server's files keep their size: the space freed is reused, the growth stops.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from datetime import UTC, date, datetime, timedelta
from typing import Any

from bot import event_loop
from bot.cli.service_bench import SEED, bench_databases, time_digest

GUILD, CHANNEL = 4242, 777
FIRST_PLAYER = 10_000
PLAYS = 0.85  # of the players, those who play on a given day
REMINDED = 0.05  # of the players, those with a reminder


def _state(variant: Any, answer: str, words: list[str], rng: random.Random) -> dict[str, Any]:
    """A finished game as the engine stores it: guesses from the answers until the answer
    (at 2 to 6) or six misses."""
    from engine.game import WordleGame

    game = WordleGame(variant, answer)
    solve_at = rng.choice((2, 3, 3, 4, 4, 4, 5, 5, 6, 7))  # 7: lost
    while not game.over:
        word = answer if len(game.rows) + 1 == solve_at else rng.choice(words)
        game.guess(word)
    return game.to_dict()


def _grid(state: dict[str, Any]) -> str:
    """A share's grid as the share reader stores it: each row's pattern as its number."""
    return ",".join(str(int(pattern, 3)) for _, pattern in state["rows"])


def _puzzle(day: date) -> int:
    from bot.storage.periods import EPOCH

    return (day - EPOCH).days


async def _year(services: Any, players: int, days: int, real_days: int, sharers: float,
                seed: int) -> dict[str, float]:  # fmt: skip
    """Fill the year; returns the seconds of each part."""
    from bot.services import Player
    from engine.variants import get_variant

    rng = random.Random(seed)
    variant = get_variant("wordle")
    words = list(variant.answers.words)
    storage = services.storage
    last = services.daily.today()
    first = last - timedelta(days=days - 1)
    ids = [FIRST_PLAYER + p for p in range(players)]
    sharing = ids[: round(players * sharers)]
    seconds: dict[str, float] = {}

    def bulk_days() -> Any:
        for n in range(days - real_days):
            day = first + timedelta(days=n)
            answer = services.daily.answer("wordle", day)
            rows = []
            for player in ids:
                if rng.random() < PLAYS:
                    state = _state(variant, answer, words, rng)
                    won = state["rows"][-1][0] == answer
                    text = day.isoformat()
                    rows.append((player, GUILD, "wordle:daily", text, won,
                                 len(state["rows"]) if won else 6, rng.randrange(30, 99),
                                 rng.randrange(100), json.dumps(state), text))  # fmt: skip
            yield rows

    began = time.perf_counter()
    await storage.bulk_days(bulk_days())
    seconds["bulk_load"] = time.perf_counter() - began

    began = time.perf_counter()
    for player in ids[: round(players * REMINDED)]:
        await storage.ensure_player(player, f"player{player}")
        await storage.reminders.set(GUILD, player, CHANNEL, 18 * 60)
    real_start = first + timedelta(days=days - real_days)
    for n in range(days):
        day = first + timedelta(days=n)
        noon = datetime(day.year, day.month, day.day, 12, tzinfo=UTC)
        services.daily.clock = lambda noon=noon: noon
        if day >= real_start:  # the last days: every move through the services
            answer = services.daily.answer("wordle", day)
            for player in ids:
                if rng.random() >= PLAYS:
                    continue
                who = Player(player, f"player{player}")
                await services.games.start(who, GUILD, daily=True)
                state = _state(variant, answer, words, rng)
                for guess, _ in state["rows"]:
                    await services.games.guess(who, GUILD, guess, kind="wordle:daily")
        for player in sharing:  # their NYT share, posted in the server's share channel
            state = _state(variant, services.daily.answer("wordle", day), words, rng)
            won = state["rows"][-1][1] == "2" * 5
            await storage.record_share(player, "wordle", _puzzle(day), won,
                                       len(state["rows"]), False, _grid(state), scope=GUILD,
                                       today=day, name=f"player{player}")  # fmt: skip
        lease = await storage.digests.claim(GUILD, day.isoformat(), CHANNEL, "bench", noon)
        if lease is not None:
            await storage.digests.sending(lease, noon)
            await storage.digests.posted(lease, 100_000 + n)
            await storage.digests.done(lease)
        if await storage.live_boards.claim(GUILD, day.isoformat(), CHANNEL):
            await storage.live_boards.posted(GUILD, day.isoformat(), 200_000 + n)
    seconds["real_days"] = time.perf_counter() - began
    return seconds


async def _sizes(db: Any, full: bool = False) -> dict[str, dict[str, int]]:
    """Each table's rows, bytes with its indexes, and its indexes' bytes."""
    from bot.storage.migrations import TABLES

    tables = (*TABLES, "board_counts")
    sizes: dict[str, dict[str, int]] = {}
    if db.engine == "postgresql":
        if full:
            await db.pool.execute("VACUUM FULL")
        await db.pool.execute("VACUUM ANALYZE")  # the visibility map index-only reads need
        for name in tables:
            row = await db.one(
                f"SELECT COUNT(*), pg_total_relation_size('{name}'), pg_indexes_size('{name}') "
                f"FROM {name}"
            )
            sizes[name] = {"rows": int(row[0]), "bytes": int(row[1]), "index_bytes": int(row[2])}
        return sizes
    await db.write("VACUUM")
    pages = {str(r[0]): int(r[1]) for r in await db.all(
        "SELECT name, SUM(pgsize) FROM dbstat GROUP BY name")}  # fmt: skip
    owner = {str(r[0]): str(r[1]) for r in await db.all(
        "SELECT name, tbl_name FROM sqlite_master WHERE type IN ('table', 'index')")}  # fmt: skip
    for name in tables:
        rows = int((await db.one(f"SELECT COUNT(*) FROM {name}"))[0])
        indexes = sum(size for index, size in pages.items()
                      if owner.get(index) == name and index != name)  # fmt: skip
        sizes[name] = {"rows": rows, "bytes": pages.get(name, 0) + indexes,
                       "index_bytes": indexes}  # fmt: skip
    return sizes


async def _reads(services: Any) -> dict[str, float]:
    """At this size: the slowest leaderboard page of the server's and everyone's boards
    (first pages, warm), and the digest of the last day (its reads, nothing posted)."""
    from bot.services.stats import METRICS
    from bot.storage.periods import PERIODS, STREAK_METRICS

    today = services.daily.today()
    slowest = 0.0
    for _ in range(2):  # the second pass: a server in use has its boards in memory
        slowest = 0.0
        for metric in METRICS:
            for period in PERIODS if metric not in STREAK_METRICS else ("all",):
                for guild in (GUILD, None):
                    began = time.perf_counter()
                    await services.stats.leaderboard("wordle:daily", metric, guild_id=guild,
                                                     today=today, period=period)  # fmt: skip
                    slowest = max(slowest, time.perf_counter() - began)
    return {"page_ms_max": round(slowest * 1000, 2), **await time_digest(services, GUILD, today)}


def _per_year(sizes: dict[str, dict[str, int]], players: int, days: int) -> dict[str, Any]:
    total = sum(s["bytes"] for s in sizes.values())
    year = 365 / days
    return {
        "bytes": total,
        "bytes_per_server_year": round(total * year),
        "bytes_per_player_year": round(total * year / players),
    }


async def measure(url: str, players: int, days: int, real_days: int, sharers: float,
                  seed: int) -> dict[str, Any]:  # fmt: skip
    from bot.services import open_services
    from bot.settings import load_settings

    settings = load_settings(database_url=url, daily_seed=SEED)
    services = await open_services(settings)
    began = time.perf_counter()
    try:
        empty = await _sizes(services.storage.db, full=True)
        seconds = await _year(services, players, days, real_days, sharers, seed)
        in_use = await _sizes(services.storage.db)  # as autovacuum leaves it
        year = await _sizes(services.storage.db, full=True)
        reads = await _reads(services)
        purge_began = time.perf_counter()
        retention = services.retention
        retention.batches = 10**9  # the whole backlog in one go, to measure what stays
        purged = await retention.run_due()
        seconds["purge"] = time.perf_counter() - purge_began
        kept = await _sizes(services.storage.db, full=True)
        reads_after = await _reads(services)
    finally:
        await services.close()
    grown = {name: {key: year[name][key] - empty[name][key] for key in year[name]} for name in year}
    kept_grown = {
        name: {key: kept[name][key] - empty[name][key] for key in kept[name]} for name in kept
    }
    return {
        "players": players,
        "days": days,
        "real_days": real_days,
        "sharers": sharers,
        "retention_days": settings.retention_days,
        "tables": grown,
        "year": _per_year(grown, players, days),
        "year_before_vacuum_full": _per_year(
            {name: {"bytes": in_use[name]["bytes"] - empty[name]["bytes"]} for name in in_use},
            players,
            days,
        ),
        "after_purge": {
            "tables": kept_grown,
            **_per_year(kept_grown, players, days),
            "purged": vars(purged),
        },
        "reads": reads,
        "reads_after_purge": reads_after,
        "seconds": {key: round(value, 1) for key, value in seconds.items()}
        | {"all": round(time.perf_counter() - began, 1)},
    }


def _mib(n: float) -> str:
    return f"{n / 2**20:,.2f} MiB"


def print_figures(engine: str, figures: dict[str, Any]) -> None:
    players, days = figures["players"], figures["days"]
    year = 365 / days
    print(f"{engine}: {players:,} players, {days} days ({figures['real_days']} through the "
          f"services), {figures['sharers']:.0%} posting shares")  # fmt: skip
    print(f"  {'table':<18} {'rows':>10} {'bytes':>14} {'of it indexes':>14} "
          f"{'B/player-year':>14} {'rows kept':>10} {'bytes kept':>14}")  # fmt: skip
    kept = figures["after_purge"]["tables"]
    for name, size in sorted(figures["tables"].items(), key=lambda kv: -kv[1]["bytes"]):
        if not size["rows"] and not size["bytes"]:
            continue
        print(f"  {name:<18} {size['rows']:>10,} {size['bytes']:>14,} "
              f"{size['index_bytes']:>14,} {size['bytes'] * year / players:>14,.0f} "
              f"{kept[name]['rows']:>10,} {kept[name]['bytes']:>14,}")  # fmt: skip
    whole, after = figures["year"], figures["after_purge"]
    print(f"  a server-year: {_mib(whole['bytes_per_server_year'])} "
          f"({whole['bytes_per_player_year']:,} bytes a player-year); after the purge "
          f"(RETENTION_DAYS={figures['retention_days']}): "
          f"{_mib(after['bytes_per_server_year'])} "
          f"({after['bytes_per_player_year']:,} bytes a player-year)")  # fmt: skip
    if figures["year_before_vacuum_full"]["bytes"] != whole["bytes"]:
        print(
            f"  (before VACUUM FULL, as a plain VACUUM leaves the year: "
            f"{_mib(figures['year_before_vacuum_full']['bytes_per_server_year'])})"
        )
    reads, later = figures["reads"], figures["reads_after_purge"]
    print(f"  slowest leaderboard page {reads['page_ms_max']} ms, the day's digest "
          f"{reads['digest_ms']} ms (its reads {reads['digest_reads_ms']} ms); after the "
          f"purge {later['page_ms_max']} ms, {later['digest_ms']} ms "
          f"({later['digest_reads_ms']} ms)")  # fmt: skip
    s = figures["seconds"]
    print(f"  took {s['all']} s: bulk load {s['bulk_load']} s, the days through the services "
          f"{s['real_days']} s, the purge {s['purge']} s")  # fmt: skip


def cmd_bench_growth(args: argparse.Namespace) -> int:
    """``wordlebot bench growth``: a server's year, table by table, on each engine."""
    began = time.perf_counter()
    results = {}
    with bench_databases(args.growth_database) as engines:
        for engine, url in engines.items():
            figures = event_loop.run(measure(url, args.players, args.days,
                                             min(args.real_days, args.days), args.sharers,
                                             args.seed))  # fmt: skip
            results[engine] = figures
            if not args.json:
                print_figures(engine, figures)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print(f"bench growth took {time.perf_counter() - began:.0f} s")
    return 0
