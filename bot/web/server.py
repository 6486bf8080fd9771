"""The web server's life: started on the bot's own event loop by ``wordlebot run`` and the
console when WEB_PORT is set, or alone by ``wordlebot web`` (beside sharded bot processes, on
the same database), and stopped before the database closes."""

from __future__ import annotations

import asyncio
import logging
import signal

from aiohttp import web

from bot.services import Services, open_services
from bot.settings import Settings
from bot.web.activity import Activity
from bot.web.activity_auth import DiscordAuth, Sessions
from bot.web.app import make_app

log = logging.getLogger("wordlebot.web")


class WebServer:
    """The pages' server on ``host:port`` (port 0: any free one, read back in :attr:`port`)."""

    def __init__(self, services: Services, settings: Settings) -> None:
        self.services = services
        self.settings = settings
        self.host = settings.web_host
        self.port = settings.web_port or 0
        self.runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = make_app(self.services, per_minute=self.settings.web_requests_per_minute,
                       trust_forwarded=self.settings.web_trust_forwarded,
                       activity=activity_of(self.services, self.settings))  # fmt: skip
        self.runner = web.AppRunner(app, access_log=None)  # no log of who read what
        await self.runner.setup()
        site = web.TCPSite(self.runner, self.host, self.port)
        await site.start()
        self.port = int(self.runner.addresses[0][1])
        if not self.settings.web_base_url:  # links name the port really bound
            self.services.web.base_url = self.local_url
        log.info("servers' pages are served at %s", self.local_url)

    @property
    def local_url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None


def activity_of(services: Services, settings: Settings) -> Activity | None:
    """The game window's side of the server, where the settings allow it: the OAuth2
    client's id and secret, and the bot's token (who is in an Activity is asked as the bot)."""
    secret, token = settings.discord_client_secret, settings.discord_token
    if settings.discord_client_id is None or secret is None:
        return None
    if token is None:
        log.warning("DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET are set without DISCORD_TOKEN: "
                    "the game window needs the bot's token, and is off")  # fmt: skip
        return None
    auth = DiscordAuth(settings.discord_client_id, secret.get_secret_value(),
                       token.get_secret_value(), settings.discord_api_base,
                       services.requests)  # fmt: skip
    return Activity(services, auth, Sessions(secret.get_secret_value()),
                    tuple(settings.activity_frame_origins))  # fmt: skip


async def start_if_set(services: Services, settings: Settings) -> WebServer | None:
    """The web server, started, if WEB_PORT is set; else None."""
    if settings.web_port is None:
        return None
    server = WebServer(services, settings)
    await server.start()
    return server


async def run_web(settings: Settings) -> int:
    """``wordlebot web``: the pages alone, until SIGINT/SIGTERM."""
    if settings.web_port is None:
        print("Set WEB_PORT (e.g. WEB_PORT=8080) to serve servers' pages: see .env.example")
        return 1
    services = await open_services(settings)
    server = WebServer(services, settings)
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stopping.set)
    try:
        await server.start()
        print(f"Serving servers' pages at {server.local_url}", flush=True)
        await stopping.wait()
    finally:
        await server.stop()
        await services.close()
    return 0
