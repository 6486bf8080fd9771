"""The game window's server side for a test: the Discord stand-in with an Activity instance
running (Ann and Bob in it), the bot's web server with the window on, and an HTTP client of
it, on the services a test gives (tests/test_activity*.py); and the same web server on a
port of its own for a browser (tests/test_activity_browser.py, tests/window_bench.py)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from discord_client import ORIGIN
from discord_messages import APP_ID
from discord_server import CLIENT_SECRET, DiscordServer

from bot.commands import COMMANDS
from bot.commands.model import Caller
from bot.services import Player
from bot.web.activity import Activity
from bot.web.activity_auth import DiscordAuth, Sessions
from bot.web.app import make_app

GUILD, CHANNEL, OTHER_CHANNEL = 810000000000000001, 810000000000000002, 810000000000000003
ANN, BOB, EVE = 111, 222, 333
INSTANCE = "i-1234567890-gc-810000000000000001-810000000000000002"


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Window:
    """The stand-in for Discord, the services, and an HTTP client of the bot's web server."""

    discord: DiscordServer
    services: Any
    http: TestClient
    clock: Clock
    auth: DiscordAuth

    async def sign_in(self, user_id: int, name: str = "player", instance: str = INSTANCE,
                      code: str | None = None) -> tuple[int, dict[str, Any]]:  # fmt: skip
        code = code if code is not None else self.discord.authorize(user_id, name)
        response = await self.http.post("/activity/api/session",
                                        json={"code": code, "instance_id": instance})  # fmt: skip
        return response.status, await response.json()

    async def session(self, user_id: int, name: str = "player") -> str:
        status, body = await self.sign_in(user_id, name)
        assert status == 200, body
        return str(body["session"])

    async def run(self, session: str, command: str, **body: Any) -> tuple[int, dict[str, Any]]:
        response = await self.http.post(
            "/activity/api/command", json={"command": command, **body},
            headers={"Authorization": f"Bearer {session}"},
        )  # fmt: skip
        return response.status, await response.json()

    async def chat(self, user_id: int, path: str, **options: Any) -> Any:
        """The same command typed in the channel (the cogs' front end)."""
        caller = Caller(Player(user_id, "player"), GUILD, place=CHANNEL, guild_id=GUILD,
                        manages_server=True)  # fmt: skip
        return await COMMANDS[path].run(self.services, caller, **options)


@contextlib.asynccontextmanager
async def served(services: Any, guild: int = GUILD, channel: int = CHANNEL):
    """The window on ``services``: the Discord stand-in with the instance running in
    ``channel`` of ``guild`` (Ann and Bob in it), and an HTTP client of the web server."""
    discord = DiscordServer([guild])
    await discord.start()
    discord.launch(INSTANCE, channel, {ANN, BOB}, guild_id=guild)
    clock = Clock()
    auth = DiscordAuth(APP_ID, CLIENT_SECRET, "a-bot-token", discord.api_base)
    activity = Activity(services, auth, Sessions(CLIENT_SECRET, clock=clock))
    http = TestClient(TestServer(make_app(services, activity=activity)))
    await http.start_server()
    try:
        yield Window(discord, services, http, clock, auth)
    finally:
        await http.close()
        await discord.stop()
    assert discord.violations == [], discord.violations


@pytest.fixture
async def window(tmp_path, opened):
    services = await opened(str(tmp_path / "bot.sqlite3"), answers={"wordle": "cigar"})
    async with served(services) as made:
        yield made


async def answer_of(window: Window, game_id: int) -> str:
    """The answer, as stored (the test's knowledge, never the window's)."""
    return str((await window.services.storage.game(game_id)).state["answer"]).lower()


async def lines_until(response: Any, condition: Any, seen: list[dict[str, Any]]) -> dict[str, Any]:
    """Read the progress stream (recording every line in ``seen``) until ``condition``."""
    async with asyncio.timeout(30):
        while True:
            line = await response.content.readline()
            assert line, "the stream ended"
            seen.append(json.loads(line))
            if condition(seen[-1]):
                return seen[-1]


@contextlib.asynccontextmanager
async def window_server(
    services: Any, discord: DiscordServer, clock: Callable[[], float] = time.time,
    per_minute: float = 60,
) -> AsyncIterator[tuple[str, Activity]]:  # fmt: skip
    """The bot's web server on a free port with the window on, framed by the client
    stand-in's origin (its sessions on ``clock``; ``per_minute``: the pages' limit per
    address): the window's URL, and the window's side of the server."""
    auth = DiscordAuth(APP_ID, CLIENT_SECRET, "a-bot-token", discord.api_base)
    activity = Activity(services, auth, Sessions(CLIENT_SECRET, clock=clock), (ORIGIN,))
    runner = web.AppRunner(make_app(services, per_minute=per_minute, activity=activity))
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}/activity/", activity
    finally:
        await runner.cleanup()
