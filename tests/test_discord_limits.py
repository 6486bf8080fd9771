"""Discord's rate limits as the stand-in enforces them (issue 43, point 2): the global limit
per bot token (50 requests in any second, interaction answers aside), the per-route buckets
with their headers, the invalid-request count and its ban, and many servers served to
several shards. The stand-in is called directly here, as a bot would call Discord; the
limits' time is a clock the test drives, so nothing waits on the wall clock but the test of
discord.py's own pacing."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from bot_process import GUILDS, command
from discord_server import APP_ID, BAN_SECONDS, DiscordServer

CHANNEL, OTHER_CHANNEL = GUILDS[0] + 1, GUILDS[1] + 1
MESSAGES = "POST /channels/{channel_id}/messages"
TOKEN = "Bot e2e-token"


class Clock:
    """The stand-in's rate-limit clock: still until the test moves it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def stand_in() -> AsyncIterator[tuple[DiscordServer, Clock, aiohttp.ClientSession]]:
    clock = Clock()
    server = DiscordServer(GUILDS, clock=clock)
    await server.start()
    async with aiohttp.ClientSession() as session:
        yield server, clock, session
    await server.stop()


async def call(session: aiohttp.ClientSession, server: DiscordServer, method: str, path: str,
               body: Any = None, auth: str | None = TOKEN) -> tuple[int, Any, Any]:  # fmt: skip
    """One request: its status, headers and body (JSON, or the text of a non-JSON answer)."""
    headers = {"Authorization": auth} if auth else {}
    async with session.request(method, server.api_base + path, json=body,
                               headers=headers) as response:  # fmt: skip
        if response.status == 204:
            return response.status, response.headers, None
        if response.content_type == "application/json":
            return response.status, response.headers, await response.json()
        return response.status, response.headers, await response.text()


def post(channel: int, content: str = "hello") -> tuple[str, str, dict[str, str]]:
    return "POST", f"/channels/{channel}/messages", {"content": content}


async def test_past_fifty_requests_in_a_second_the_token_gets_global_429s(stand_in) -> None:
    """60 requests at once: 50 pass, 10 are refused with Discord's global 429 (its body, and
    Retry-After, X-RateLimit-Global and X-RateLimit-Scope); another token is not held back,
    and a second later the token is served again."""
    server, clock, session = stand_in
    answers = await asyncio.gather(*(call(session, server, "GET", f"/users/{100 + n}")
                                     for n in range(60)))  # fmt: skip
    refused = [(headers, body) for status, headers, body in answers if status == 429]
    assert sorted(status for status, _, _ in answers) == [200] * 50 + [429] * 10
    for headers, body in refused:
        assert body == {"message": "You are being rate limited.", "retry_after": 1.0,
                        "global": True, "code": 0}  # fmt: skip
        assert headers["Retry-After"] == "1"
        assert headers["X-RateLimit-Global"] == "true"
        assert headers["X-RateLimit-Scope"] == "global"
    assert (server.global_429s, server.route_429s) == (10, 0)
    assert (await call(session, server, "GET", "/users/7", auth="Bot another-token"))[0] == 200
    clock.now += 0.999
    assert (await call(session, server, "GET", "/users/7"))[0] == 429
    clock.now += 0.001
    assert (await call(session, server, "GET", "/users/7"))[0] == 200
    assert server.peak() == 62 and server.requests == {"GET /users/{user_id}": 63}


async def test_a_stall_of_the_stand_in_excuses_only_the_second_after_it(stand_in) -> None:
    """Requests that waited out a stall of the stand-in's own loop are stamped together:
    the global 429s and the peak of the second after a stall are counted apart, and every
    other 429 still counts as the bot's."""
    server, clock, session = stand_in
    server.watch_stalls()
    burst = [call(session, server, "GET", f"/users/{100 + n}") for n in range(55)]
    assert sorted(status for status, _, _ in await asyncio.gather(*burst))[-1] == 429
    clock.now += 1.3  # the loop's clock jumps between two of the watch's looks: a stall
    for _ in range(1000):  # (the watch looks every 50 ms)
        if server.stalls:
            break
        await asyncio.sleep(0.01)
    assert server.stalls == [(1000.0, 1001.3)]
    burst = [call(session, server, "GET", f"/users/{100 + n}") for n in range(60)]
    await asyncio.gather(*burst)
    assert (server.global_429s, server.global_429s_clear_of_stalls) == (15, 5)
    assert server.stalled() == ("the stand-in's loop stalled 1 times, longest 1.30 s; "
                                "10 of 15 global 429s in a second it crowded")  # fmt: skip
    assert (server.peak(), server.peak(clear_of_stalls=True)) == (60, 55)


async def test_a_refusal_whose_second_holds_a_stalls_crowd_is_the_stalls(stand_in) -> None:
    """The crowd a stall held drains over a moment past its end: a global 429 a little over
    a second after the stall, whose second still holds the last of that crowd, is excused;
    one whose second holds a full limit of requests clear of any stall is the bot's."""
    server, clock, session = stand_in

    async def burst(count: int, first: int) -> list[int]:
        calls = [call(session, server, "GET", f"/users/{first + n}") for n in range(count)]
        return sorted(status for status, _, _ in await asyncio.gather(*calls))

    server.stalls.append((1000.0, 1001.3))  # as the watch records one (the test above)
    clock.now += 1.3
    assert await burst(30, 100) == [200] * 30  # the crowd, stamped as the loop came back
    clock.now += 0.1
    assert await burst(10, 200) == [200] * 10  # its last, a moment later
    clock.now = 1002.35  # past the second after the stall, with those 10 in this second
    assert await burst(41, 300) == [200] * 40 + [429]
    assert (server.global_429s, server.global_429s_clear_of_stalls) == (1, 0)
    clock.now = 1003.5  # clear of it all: a full second of the bot's own
    assert await burst(51, 400) == [200] * 50 + [429]
    assert (server.global_429s, server.global_429s_clear_of_stalls) == (2, 1)


async def test_interaction_answers_are_never_held_by_the_global_limit(stand_in) -> None:
    """With the token's second full, 60 interactions are still answered: each deferred
    (the callback) and its response edited through the interaction's token, 120 requests
    the global limit does not count; the next ordinary request is refused."""
    server, _, session = stand_in
    for n in range(50):
        assert (await call(session, server, "GET", f"/users/{100 + n}"))[0] == 200
    payloads = [command("wordle", "practice", user_id=200 + n) for n in range(60)]
    for payload in payloads:
        server.issue(payload)
    deferred = await asyncio.gather(*(
        call(session, server, "POST", f"/interactions/{p['id']}/{p['token']}/callback",
             {"type": 5, "data": {}}) for p in payloads))  # fmt: skip
    edited = await asyncio.gather(*(
        call(session, server, "PATCH", f"/webhooks/{APP_ID}/{p['token']}/messages/@original",
             {"content": "answered"}) for p in payloads))  # fmt: skip
    assert [status for status, _, _ in deferred] == [204] * 60
    assert [status for status, _, _ in edited] == [200] * 60
    status, headers, _ = await call(session, server, "GET", "/users/1")
    assert status == 429 and headers["X-RateLimit-Scope"] == "global"
    assert server.peak() == 51 and server.peak(counted=False) == 171
    assert server.global_429s == 1 and server.violations == []


async def test_a_full_bucket_answers_a_scoped_429_with_its_headers(stand_in) -> None:
    """Create Message: 5 per 5 seconds in a channel. The headers count them down; the sixth
    gets a 429 of the ``user`` scope (not global) with the bucket's headers; another channel
    has its own bucket; once the window is over the channel is served again."""
    server, clock, session = stand_in
    remaining, buckets = [], set()
    for n in range(5):
        status, headers, _ = await call(session, server, *post(CHANNEL, f"message {n}"))
        assert status == 200 and headers["X-RateLimit-Limit"] == "5"
        remaining.append(headers["X-RateLimit-Remaining"])
        buckets.add(headers["X-RateLimit-Bucket"])
    assert remaining == ["4", "3", "2", "1", "0"]
    clock.now += 1.5
    status, headers, body = await call(session, server, *post(CHANNEL))
    assert status == 429
    assert body == {"message": "You are being rate limited.", "retry_after": 3.5,
                    "global": False, "code": 0}  # fmt: skip
    assert headers["Retry-After"] == "4" and headers["X-RateLimit-Scope"] == "user"
    assert headers["X-RateLimit-Limit"] == "5" and headers["X-RateLimit-Remaining"] == "0"
    assert headers["X-RateLimit-Reset-After"] == "3.500"
    assert float(headers["X-RateLimit-Reset"]) == pytest.approx(time.time() + 3.5, abs=1)
    assert {headers["X-RateLimit-Bucket"]} == buckets and "X-RateLimit-Global" not in headers
    assert (await call(session, server, *post(OTHER_CHANNEL)))[0] == 200
    clock.now += 3.5
    assert (await call(session, server, *post(CHANNEL)))[0] == 200
    assert (server.route_429s, server.global_429s) == (1, 0)
    assert len(server.posts) == 7


async def test_a_members_roles_share_one_bucket_per_server(stand_in) -> None:
    """Adding and removing a member's role: 10 per 10 seconds in a server, one bucket for
    both; another server has its own."""
    server, _, session = stand_in
    guild, winners = GUILDS[0], GUILDS[0] + 11
    path = f"/guilds/{guild}/members/{{}}/roles/{winners}"
    statuses = [(await call(session, server, method, path.format(30 + n)))[0]
                for n in range(5) for method in ("PUT", "DELETE")]  # fmt: skip
    assert statuses == [204] * 10
    status, headers, _ = await call(session, server, "PUT", path.format(50))
    assert status == 429 and headers["X-RateLimit-Scope"] == "user"
    assert headers["X-RateLimit-Limit"] == "10"
    other = f"/guilds/{GUILDS[1]}/members/50/roles/{GUILDS[1] + 11}"
    assert (await call(session, server, "PUT", other))[0] == 204


async def test_invalid_requests_are_counted_for_ten_minutes_and_ban_at_the_limit(
    stand_in,
) -> None:
    """Every 401, 403 and 429 answer counts as invalid, as Discord counts them, for 10
    minutes. At the limit (10,000 on Discord, 6 here) the address is banned: every request
    gets Cloudflare's refusal (429, error 1015, no ``Via``) until the ban is over."""
    server, clock, session = stand_in
    server.deny(CHANNEL, "send_messages")
    assert (await call(session, server, *post(CHANNEL)))[0] == 403
    assert (await call(session, server, "GET", "/users/@me", auth=None))[0] == 401
    assert (await call(session, server, "GET", "/users/@me"))[0] == 200
    assert (await call(session, server, "GET", "/channels/1"))[0] == 404  # not invalid
    assert server.invalid_requests() == 2
    clock.now += 300
    for n in range(6):
        assert (await call(session, server, *post(OTHER_CHANNEL, f"{n}")))[0] == (
            200 if n < 5 else 429
        )
    assert server.invalid_requests() == 3
    clock.now += 300  # the first two are 10 minutes old
    assert server.invalid_requests() == 1
    server.invalid_limit = 6
    server.violations.clear()
    for _ in range(4):
        assert (await call(session, server, *post(CHANNEL)))[0] == 403
    assert server.invalid_requests() == 5
    assert (await call(session, server, "GET", "/users/@me", auth="Bearer unknown"))[0] == 401
    status, headers, body = await call(session, server, "GET", "/users/@me")
    assert (status, body) == (429, "error code: 1015") and "Via" not in headers
    clock.now += BAN_SECONDS
    assert (await call(session, server, "GET", "/users/@me"))[0] == 200


async def test_discord_py_reading_the_headers_draws_no_429(monkeypatch) -> None:
    """discord.py's HTTPClient (the bot's) posts 200 messages at once in one channel and
    gets not one 429: it reads X-RateLimit-Remaining and Reset-After and waits, and stays
    under 50 a second. A client that ignores them, posting 20 at once, is refused. (Create
    Message's bucket is made 5 per 0.125 s here, so that 200 messages take 5 s, not the 200
    s of Discord's 5 per 5 s.)"""
    server = DiscordServer(GUILDS)
    server.buckets[MESSAGES] = ("create message", 5, 0.125)
    await server.start()
    try:
        monkeypatch.setattr(discord.http.Route, "BASE", server.api_base)
        http = discord.http.HTTPClient(asyncio.get_running_loop())
        await http.static_login("e2e-token")
        try:

            async def send(n: int) -> None:
                with discord.http.handle_message_parameters(content=f"message {n}") as params:
                    await http.send_message(CHANNEL, params=params)

            await asyncio.gather(*(send(n) for n in range(200)))
        finally:
            await http.close()
        assert sum(channel == CHANNEL for channel, _, _ in server.posts) == 200
        assert (server.route_429s, server.global_429s) == (0, 0) and server.peak() <= 45
        async with aiohttp.ClientSession() as session:
            careless = await asyncio.gather(*(call(session, server, *post(OTHER_CHANNEL))
                                              for _ in range(20)))  # fmt: skip
        assert 429 in [status for status, _, _ in careless] and server.route_429s > 0
    finally:
        await server.stop()
    assert server.violations == []


async def read_shard(server: DiscordServer, shard: int, count: int) -> list[dict[str, Any]]:
    """Identify as ``shard`` of ``count`` and read READY and every GUILD_CREATE it gets."""
    expected = len(server.guilds_of(shard))
    created: list[dict[str, Any]] = []
    async with aiohttp.ClientSession() as session, session.ws_connect(
        f"ws://127.0.0.1:{server.port}/gateway", max_msg_size=0
    ) as ws:  # fmt: skip
        assert (await ws.receive_json())["op"] == 10
        await ws.send_json({"op": 2, "d": {"token": "e2e-token", "intents": 513,
                                           "shard": [shard, count],
                                           "properties": {}}})  # fmt: skip
        ready = await ws.receive_json()
        assert ready["t"] == "READY" and len(ready["d"]["guilds"]) == expected
        while len(created) < expected:
            event = await ws.receive_json()
            if event["t"] == "GUILD_CREATE":
                created.append(event["d"])
    return created


async def test_ten_thousand_servers_reach_four_shards_each_on_its_own() -> None:
    """10,000 servers made at once (``guild_range``), sent to 4 shards: each shard's one
    connection gets GUILD_CREATE for its own servers (``(id >> 22) % 4``), a quarter each,
    every server with its games and digest channels, a winners role below the bot's (which
    may manage it) and the bot as a member."""
    from discord_server import guild_range  # the helper of point 4, new with it

    started = time.perf_counter()
    guilds = guild_range(10_000, shards=4)
    server = DiscordServer(guilds, shards=4, validate=False)
    await server.start()
    built = time.perf_counter() - started
    try:
        started = time.perf_counter()
        shards = await asyncio.gather(*(read_shard(server, n, 4) for n in range(4)))
        sent = time.perf_counter() - started
    finally:
        await server.stop()
    print(f"\n10,000 servers: built in {built:.2f} s, sent to 4 shards in {sent:.2f} s")
    assert [len(created) for created in shards] == [2_500] * 4
    assert sorted(int(g["id"]) for created in shards for g in created) == sorted(guilds)
    for shard, created in enumerate(shards):
        for guild in created:
            assert (int(guild["id"]) >> 22) % 4 == shard
            assert [c["name"] for c in guild["channels"]] == ["games", "digest"]
            roles = {r["name"]: r for r in guild["roles"]}
            assert roles["winners"]["position"] < roles["wordlebot"]["position"]
            assert int(roles["wordlebot"]["permissions"]) & (1 << 28)  # Manage Roles
            assert guild["members"][0]["roles"] == [roles["wordlebot"]["id"]]
    assert server.violations == []
