"""``wordlebot bench web``: a server's pages (issue 41) rendered through the real aiohttp
application in this process, over a real socket, on SQLite and on PostgreSQL when one is
named.

    wordlebot bench web [--players 200] [--days 365] [--passes 5] [--database URL|embedded]

The server: ``--players`` players, each playing most days of a year of Wordle dailies
(bulk-loaded through storage, with the coach's skill), a third of them named. Every page is
read: each board in every period, and every player's page. A first pass warms the caches and
is not counted; then ``--passes`` passes. The figures: p50 and p99 of the time the server
spent on a page (from its handler's start to its body, the middlewares aside), of the whole
round trip beside it, and the largest page's weight with its charts (inline SVG) and the
style sheet.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from datetime import timedelta
from typing import Any

import numpy as np

from bot import event_loop
from bot.cli.service_bench import SEED, bench_databases

GUILD = 4242
FIRST_PLAYER = 10_000


async def _fill(services: Any, players: int, days: int, seed: int) -> None:
    rng = random.Random(seed)
    today = services.daily.today()
    rows = [
        (FIRST_PLAYER + p, GUILD, "wordle:daily", (today - timedelta(days=back)).isoformat(),
         won, rng.randint(2, 6) if won else 6, rng.randrange(30, 99), rng.randrange(100))
        for back in range(days, 0, -1)
        for p in range(players) if rng.random() < 0.8
        for won in [rng.random() < 0.9]
    ]  # fmt: skip
    await services.storage.bulk_results(rows)
    for p in range(0, players, 3):
        await services.storage.web_pages.set_named(FIRST_PLAYER + p, f"player{p}", True)


async def _paths(services: Any, slug: str) -> list[str]:
    from bot.commands.web import WEB_PERIODS
    from bot.services.stats import METRICS
    from bot.services.web import HANDLES, LABELS, shown_players
    from bot.storage.periods import STREAK_METRICS

    boards = [f"/s/{slug}?metric={m}&period={p}" for m in METRICS
              for p in (WEB_PERIODS if m not in STREAK_METRICS else ("all",))]  # fmt: skip
    ids = await services.storage.web_pages.players(GUILD)
    names = await services.storage.web_pages.names(ids)
    shown = shown_players(names, ids, GUILD, services.daily.key(LABELS),
                          services.daily.key(HANDLES))  # fmt: skip
    return boards + [f"/s/{slug}/p/{shown[p].ref}" for p in ids]


async def measure(url: str, players: int, days: int, passes: int, seed: int) -> dict[str, Any]:
    from aiohttp import web
    from aiohttp.test_utils import TestClient, TestServer

    from bot.services import open_services
    from bot.settings import load_settings
    from bot.web.app import make_app
    from bot.web.html import STYLE

    services = await open_services(load_settings(database_url=url, daily_seed=SEED))
    spent: list[float] = []

    @web.middleware
    async def timed(request: web.Request, handler: Any) -> web.StreamResponse:
        began = time.perf_counter()
        response: web.StreamResponse = await handler(request)
        spent.append(time.perf_counter() - began)
        return response

    try:
        await _fill(services, players, days, seed)
        slug = await services.web.turn_on(GUILD)
        app = make_app(services, per_minute=10**9)
        app.middlewares.append(timed)  # the innermost: the page's own work
        client = TestClient(TestServer(app))
        await client.start_server()
        try:
            paths = await _paths(services, slug)
            style = len(await (await client.get(STYLE)).read())
            heaviest, heaviest_path, trips = 0, "", []
            for run in range(passes + 1):  # the first warms the caches
                if run == 1:
                    spent.clear()
                for path in paths:
                    began = time.perf_counter()
                    answer = await client.get(path)
                    body = await answer.read()
                    if run:
                        trips.append(time.perf_counter() - began)
                    if answer.status != 200:
                        raise RuntimeError(f"{path} answered {answer.status}")
                    if len(body) > heaviest:
                        heaviest, heaviest_path = len(body), path
        finally:
            await client.close()
    finally:
        await services.close()
    server, trip = np.array(spent) * 1000, np.array(trips) * 1000
    return {
        "players": players,
        "days": days,
        "pages": len(paths),
        "reads": len(spent),
        "server_p50_ms": round(float(np.percentile(server, 50)), 2),
        "server_p99_ms": round(float(np.percentile(server, 99)), 2),
        "round_trip_p50_ms": round(float(np.percentile(trip, 50)), 2),
        "round_trip_p99_ms": round(float(np.percentile(trip, 99)), 2),
        "largest_page_kb": round(heaviest / 1024, 1),
        "largest_page": heaviest_path.replace(slug, "SLUG"),
        "with_style_sheet_kb": round((heaviest + style) / 1024, 1),
    }


def cmd_bench_web(args: argparse.Namespace) -> int:
    figures: dict[str, Any] = {}
    with bench_databases(args.web_database) as engines:
        for engine, url in engines.items():
            figures[engine] = event_loop.run(
                measure(url, args.players, args.days, args.passes, args.seed))  # fmt: skip
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    for engine, f in figures.items():
        print(
            f"{engine}: {f['pages']} pages x {args.passes} passes ({f['players']} players, "
            f"{f['days']} days): server p50 {f['server_p50_ms']} ms, p99 "
            f"{f['server_p99_ms']} ms (round trip p50 {f['round_trip_p50_ms']} ms, p99 "
            f"{f['round_trip_p99_ms']} ms); largest page {f['largest_page_kb']} KB "
            f"({f['largest_page']}), {f['with_style_sheet_kb']} KB with the style sheet"
        )
    return 0
