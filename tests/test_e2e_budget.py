"""End to end, the deployment's request budget (bot/services/request_budget.py): four real
`wordlebot run` processes, a shard each, on one PostgreSQL database, with a live board in each
of 300 busy servers, against the stand-in that enforces Discord's limits (50 requests a
second per token across connections, answers to interactions aside; the invalid-request
count). Every server's board is posted and shows its finish; not one global 429."""

from __future__ import annotations

import asyncio
from datetime import date, timedelta

import pytest
from bot_process import SEED, BotProcess, command, kill_running
from clock import at
from discord_gateway import guild_range
from discord_server import DiscordServer

from bot.services import Player

SHARDS, SERVERS = 4, 300
DAY = date(2026, 3, 1)
BOARD = "wordlebot Wordle #"  # a live board's heading
# The deployment's rate here, under the default 48: the stand-in stamps each request as this
# test's loop gets to it, which a loaded machine delays, crowding a few requests into one
# second that Discord would have seen apart. Four processes each alone at this rate, or
# all at once, would draw hundreds of global 429s.
RATE = 40


@pytest.fixture
async def server():
    s = DiscordServer(guild_range(SERVERS, shards=SHARDS), shards=SHARDS)
    await s.start()
    s.watch_stalls()
    yield s
    kill_running()
    await s.stop()
    assert s.violations == [], s.violations


def global_command(name: str, *path: str, user_id: int, guild: int, **options) -> dict:
    """A global slash command (a sharded deployment syncs none to a server)."""
    payload = command(name, *path, user_id=user_id, guild=guild, **options)
    del payload["data"]["guild_id"]
    return payload


def board_in(server: DiscordServer, channel: int) -> str:
    boards = [m["content"] for m in server.store.by_id.values()
              if m["channel_id"] == str(channel) and BOARD in m["content"]]  # fmt: skip
    return boards[-1] if boards else ""


async def test_four_processes_with_live_boards_in_300_busy_servers_draw_no_global_429(
    server, postgres_url, opened
) -> None:
    """300 servers each with a live board showing the day's finishes: when the day ends
    every board is edited at once to show its grids (each process its own shard's), 300
    edits in a moment, six times what Discord allows in a second. The four processes keep
    within it together, and every board shows its server's day closed."""
    services = await opened(postgres_url, at(f"{DAY}T12:00"), daily_seed=SEED)
    answer = services.daily.answer("wordle", DAY)
    guilds = server.guilds
    for n, guild in enumerate(guilds):  # the day: a player of each server finished
        player = Player(7000 + n, f"p{n}")
        assert (await services.games.start(player, guild, daily=True)).ok
        assert (await services.games.guess(player, guild, answer, kind="wordle:daily")).ok
        # and the board the bot posted in the server's games channel during the day
        await services.storage.live_boards.set_channel(guild, guild + 1)
        assert await services.storage.live_boards.claim(guild, DAY.isoformat(), guild + 1)
        board = server.store.create({"content": f"{BOARD}... 1/6 <@{7000 + n}>"}, [],
                                    channel_id=str(guild + 1))  # fmt: skip
        await services.storage.live_boards.posted(guild, DAY.isoformat(), int(board["id"]))
    began = asyncio.get_running_loop().time()
    processes = [BotProcess(server, postgres_url, dev_guild=False, shard_count=str(SHARDS),
                            shard_ids=str(shard), jobs_interval_seconds="1",
                            discord_requests_per_second=str(RATE),
                            clock_start=f"{DAY + timedelta(days=1)}T00:00:05+00:00")
                 for shard in range(SHARDS)]  # fmt: skip
    for shard, process in enumerate(processes):
        try:
            await server.shard_ready(shard, timeout=90)
        except TimeoutError:
            pytest.fail(f"shard {shard} never became ready: {process.kill()[1][-3000:]}")

    def unclosed() -> list[int]:  # the servers whose board does not show the day closed yet
        boards = {m["channel_id"]: m["content"] for m in list(server.store.by_id.values())
                  if BOARD in m["content"]}  # fmt: skip
        return [guild for n, guild in enumerate(guilds)
                if not all(part in boards.get(str(guild + 1), "")
                           for part in (f"1/6 <@{7000 + n}>", "🟩"))]  # fmt: skip

    for _ in range(600):  # (a bound of two minutes: the 300 edits take about 7 s; a look
        # every 0.2 s, as the stand-in serves them on this loop)
        missing = unclosed()
        if not missing:
            break
        await asyncio.sleep(0.2)
    took = asyncio.get_running_loop().time() - began
    for process in processes:
        await process.stop()
    assert not missing, f"{len(missing)} boards never showed their day closed"
    edits = server.requests.get("PATCH /channels/{channel_id}/messages/{message_id}", 0)
    # A stall of this test's loop (a loaded machine's) stamps the requests that waited
    # together: the 429s and the peak it made are the stand-in's, and counted apart.
    excused = server.global_429s - server.global_429s_clear_of_stalls
    print(f"{SERVERS} boards closed in {took:.1f} s from the start: {edits} edits, peak "
          f"{server.peak(1.0)} requests a second ({server.peak(1.0, clear_of_stalls=True)} "
          f"clear of stalls), {server.global_429s} global 429s ({excused} after a stall), "
          f"{server.invalid_requests()} invalid; {server.stalled()}")  # fmt: skip
    assert edits >= SERVERS
    assert server.global_429s_clear_of_stalls == 0, server.stalled()
    assert server.peak(1.0, clear_of_stalls=True) <= 50, server.stalled()
    assert server.invalid_requests() == excused, server.stalled()
