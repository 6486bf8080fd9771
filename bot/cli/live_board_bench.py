"""The time of building a server's live daily board (:mod:`bot.services.live_board`), and the
queries it takes, on SQLite and on PostgreSQL when one is named.

    wordlebot bench liveboard [--players 100] [--builds 200] [--database URL|embedded]

The server's day: most players finish today's Wordle daily, some are still playing, some
post a Dordle share; other days and another server add rows the board must pass over.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from bot import event_loop
from bot.cli.service_bench import SEED, bench_databases

GUILD, OTHER = 100, 200


async def _fill(services: Any, players: int) -> None:
    from bot.services import Player

    today = services.daily.today()
    answer = services.daily.answer("wordle", today)
    for i in range(players):
        for scope in (GUILD, OTHER):
            player = Player(scope * 10_000 + i, f"p{i}")
            await services.games.start(player, scope, daily=True)
            for word in ("aahed", "zymic")[: i % 3]:
                await services.games.guess(player, scope, word, kind="wordle:daily")
            if i % 5:  # one in five still playing
                await services.games.guess(player, scope, answer, kind="wordle:daily")
            if i % 4 == 0:  # a Dordle share that counts here
                await services.storage.record_share(
                    player.id, "dordle", 1000 + i, True, 5, False, "1,2|3,242",
                    scope=scope, today=today, name=player.name,
                )  # fmt: skip


async def _measure(url: str, players: int, builds: int) -> dict[str, float]:
    from bot.services import open_services
    from bot.settings import load_settings

    services = await open_services(load_settings(database_url=url, daily_seed=SEED))
    try:
        await _fill(services, players)
        db = services.storage.digests.db
        queries = 0
        reads = {name: getattr(db, name) for name in ("all", "one")}

        def counted(read: Any) -> Any:
            async def run(*args: Any, **kwargs: Any) -> Any:
                nonlocal queries
                queries += 1
                return await read(*args, **kwargs)

            return run

        for name, read in reads.items():
            setattr(db, name, counted(read))
        day = services.daily.today()
        board = await services.live_boards.board(GUILD, day)  # warm
        queries = 0
        took = []
        cpu = time.process_time()  # the bot's threads too (aiosqlite's), not PostgreSQL's
        for _ in range(builds):
            began = time.perf_counter()
            await services.live_boards.board(GUILD, day)
            took.append(time.perf_counter() - began)
        cpu = time.process_time() - cpu
        shown = sum(len(g.finished) + len(g.playing) for g in board.games)
        return {
            "ms_median": statistics.median(took) * 1000,
            "ms_p90": statistics.quantiles(took, n=10)[-1] * 1000,
            "cpu_ms": cpu / builds * 1000,
            "queries": queries / builds,
            "shown": shown,
        }
    finally:
        await services.close()


def cmd_bench_live_board(args: argparse.Namespace) -> int:
    """``wordlebot bench liveboard``: the board's build time on SQLite (and PostgreSQL)."""
    with bench_databases(args.board_database) as engines:
        for engine, url in engines.items():
            figures = event_loop.run(_measure(url, args.players, args.builds))
            print(f"{engine}: a board of {figures['shown']:.0f} players in "
                  f"{figures['ms_median']:.2f} ms (median of {args.builds}; p90 "
                  f"{figures['ms_p90']:.2f} ms), {figures['cpu_ms']:.2f} ms of the bot's CPU, "
                  f"{figures['queries']:.0f} queries")  # fmt: skip
    return 0
