"""A local stand-in for Discord (HTTP API v10 and the gateway) for end-to-end tests.

It serves the real bot process: login, ``GET /gateway/bot``, the gateway handshake
(HELLO, IDENTIFY, READY, GUILD_CREATE), heartbeats, RESUME after a dropped connection,
INTERACTION_CREATE, interaction callbacks and follow-ups, message edits, and command sync.
Everything the bot sends is checked against Discord's documented limits; a violation is
recorded and fails the test. Loopback only.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
import zlib
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

APP_ID, BOT_ID = 950000000000000001, 950000000000000001
_ids = itertools.count(960000000000000000)


def snowflake() -> str:
    return str(next(_ids))


def user(user_id: int, name: str = "player", bot: bool = False) -> dict[str, Any]:
    return {"id": str(user_id), "username": name, "discriminator": "0", "global_name": name,
            "avatar": None, "bot": bot}  # fmt: skip


@dataclass
class Reply:
    """What the bot sent for one interaction: its callback, and any follow-ups."""

    kind: int | None = None  # 4 message, 5 deferred, 6/7 update, 9 modal
    data: dict[str, Any] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)
    followups: list[dict[str, Any]] = field(default_factory=list)
    latency: float | None = None  # seconds from dispatch to the callback

    @property
    def flags(self) -> int:
        return int(self.data.get("flags") or 0)

    def text(self) -> str:
        parts = [self.data.get("content") or ""]
        for body in [self.data, *self.followups]:
            parts.append(body.get("content") or "")
            for embed in body.get("embeds") or []:
                parts += [embed.get("title") or "", embed.get("description") or ""]
        return "\n".join(p for p in parts if p)

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for row in self.data.get("components") or []
                for c in row.get("components", []) if "custom_id" in c]  # fmt: skip


def _json(data: Any, status: int = 200) -> web.Response:
    """JSON as Discord sends it: discord.py parses only an exact application/json type."""
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json"})  # fmt: skip


def check_message(body: dict[str, Any], where: str) -> list[str]:
    """Discord's limits on a message body."""
    problems = []
    if len(body.get("content") or "") > 2000:
        problems.append(f"{where}: content over 2000 characters")
    embeds = body.get("embeds") or []
    if len(embeds) > 10:
        problems.append(f"{where}: more than 10 embeds")
    total = 0
    for embed in embeds:
        title, description = embed.get("title") or "", embed.get("description") or ""
        if len(title) > 256 or len(description) > 4096:
            problems.append(f"{where}: embed title or description too long")
        total += len(title) + len(description)
    if total > 6000:
        problems.append(f"{where}: embeds over 6000 characters")
    rows = body.get("components") or []
    if len(rows) > 5:
        problems.append(f"{where}: more than 5 action rows")
    for row in rows:
        if row.get("type") != 1 or len(row.get("components", [])) > 5:
            problems.append(f"{where}: an action row must hold 1 to 5 components")
        for component in row.get("components", []):
            if len(component.get("custom_id", "")) > 100 or len(component.get("label", "")) > 80:
                problems.append(f"{where}: custom_id over 100 or label over 80 characters")
    return problems


class DiscordServer:
    def __init__(self, guilds: list[int], heartbeat_ms: int = 1000) -> None:
        self.refuse_identify: int | None = None  # a close code to answer IDENTIFY with
        self.guilds = guilds
        self.heartbeat_ms = heartbeat_ms  # short, so that tests see heartbeats and ACKs
        self.heartbeats = 0
        self.violations: list[str] = []
        self.synced: list[tuple[str, list[dict[str, Any]]]] = []
        self.identified = asyncio.Event()
        self.resumed = asyncio.Event()
        self.replies: dict[str, Reply] = {}
        self._waiters: dict[str, asyncio.Event] = {}
        self._tokens: dict[str, str] = {}
        self._sent_at: dict[str, float] = {}
        self._ws: web.WebSocketResponse | None = None
        self._zlib: Any = None
        self._seq = 0
        self._events: list[dict[str, Any]] = []
        self.session_id = "session-" + snowflake()
        self.app = web.Application(client_max_size=16 * 1024 * 1024)
        api = "/api/v10"
        self.app.router.add_get(f"{api}/users/@me", self.me)
        self.app.router.add_get(f"{api}/oauth2/applications/@me", self.application)
        self.app.router.add_get(f"{api}/gateway/bot", self.gateway_bot)
        self.app.router.add_get("/gateway", self.gateway)
        self.app.router.add_put(f"{api}/applications/{{app}}/guilds/{{guild}}/commands", self.sync)
        self.app.router.add_put(f"{api}/applications/{{app}}/commands", self.sync)
        self.app.router.add_get(
            f"{api}/applications/{{app}}/guilds/{{guild}}/commands", self.list_commands
        )
        self.app.router.add_get(f"{api}/applications/{{app}}/commands", self.list_commands)
        self.commands: dict[str, list[dict[str, Any]]] = {}  # by path, as synced
        self.app.router.add_post(f"{api}/interactions/{{id}}/{{token}}/callback", self.callback)
        self.app.router.add_post(f"{api}/webhooks/{{app}}/{{token}}", self.followup)
        self.app.router.add_patch(
            f"{api}/webhooks/{{app}}/{{token}}/messages/{{message}}", self.edit
        )
        self.app.router.add_post(f"{api}/channels/{{channel}}/messages", self.create_message)
        self.app.router.add_patch(f"{api}/channels/{{channel}}/messages/{{message}}", self.edit)
        self.app.router.add_route("*", "/{tail:.*}", self.unknown)
        self.messages: list[tuple[dict[str, Any], list[str]]] = []
        self._runner: web.AppRunner | None = None
        self.port = 0

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    async def start(self) -> None:
        self._runner = web.AppRunner(self.app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    # -- HTTP ---------------------------------------------------------------------------

    async def me(self, request: web.Request) -> web.Response:
        if not request.headers.get("Authorization", "").startswith("Bot "):
            return _json({"message": "401: Unauthorized", "code": 0}, status=401)
        return _json({**user(BOT_ID, "wordlebot", bot=True), "flags": 0,
                                  "verified": True, "mfa_enabled": False})  # fmt: skip

    async def application(self, request: web.Request) -> web.Response:
        return _json({
            "id": str(APP_ID), "name": "wordlebot", "icon": None, "description": "",
            "bot_public": True, "bot_require_code_grant": False, "verify_key": "0" * 64,
            "owner": user(1, "owner"), "flags": 0, "team": None,
        })  # fmt: skip

    async def gateway_bot(self, request: web.Request) -> web.Response:
        return _json({
            "url": f"ws://127.0.0.1:{self.port}/gateway", "shards": 1,
            "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0,
                                    "max_concurrency": 1},
        })  # fmt: skip

    async def sync(self, request: web.Request) -> web.Response:
        commands = await request.json()
        for command in commands:
            if (
                not 1 <= len(command.get("name", "")) <= 32
                or len(command.get("description", "")) > 100
            ):
                self.violations.append(f"command {command.get('name')!r}: bad name or description")
        self.synced.append((request.path, commands))
        stored = [{"description": "", "type": 1, "options": [], "dm_permission": True,
                   "default_member_permissions": None, "nsfw": False, **c, "id": snowflake(),
                   "application_id": str(APP_ID), "version": "1"} for c in commands]  # fmt: skip
        self.commands[request.path] = stored  # a bulk overwrite replaces the whole list
        return _json(stored)

    async def list_commands(self, request: web.Request) -> web.Response:
        """GET .../commands: the application commands last synced there, or none."""
        return _json(self.commands.get(request.path, []))

    async def _body(self, request: web.Request) -> tuple[dict[str, Any], list[str]]:
        if request.content_type.startswith("multipart/"):
            body, files = {}, []
            reader = await request.multipart()
            async for part in reader:  # type: ignore[union-attr]
                if part.name == "payload_json":
                    body = json.loads(await part.text())
                else:
                    files.append(part.filename or "")
                    await part.read()
            return body, files
        return (await request.json() if request.can_read_body else {}), []

    async def callback(self, request: web.Request) -> web.Response:
        interaction = request.match_info["id"]
        body, files = await self._body(request)
        data = body.get("data") or {}
        kind = body.get("type")
        self.violations += check_message(data, f"callback {kind}")
        if kind == 9 and len(data.get("title", "")) > 45:
            self.violations.append("modal title over 45 characters")
        reply = self.replies.setdefault(interaction, Reply())
        if reply.kind is not None:
            self.violations.append(f"interaction {interaction} answered twice")
        reply.kind, reply.data, reply.files = kind, data, files
        reply.latency = time.perf_counter() - self._sent_at.get(interaction, time.perf_counter())
        if reply.latency > 3.0:
            self.violations.append(
                f"interaction {interaction} answered after {reply.latency:.1f} s"
            )
        self._wake(interaction)
        return _json({"interaction": {"id": interaction, "type": 2,
                                                  "response_message_id": snowflake()}})  # fmt: skip

    async def followup(self, request: web.Request) -> web.Response:
        body, _ = await self._body(request)
        self.violations += check_message(body, "follow-up")
        interaction = self._interaction_of(request.match_info["token"])
        if interaction is not None:
            self.replies.setdefault(interaction, Reply()).followups.append(body)
            self._wake(interaction)
        return _json(self.message(body))

    async def edit(self, request: web.Request) -> web.Response:
        body, files = await self._body(request)
        self.violations += check_message(body, "edit")
        self.messages.append((body, files))
        return _json(self.message(body))

    async def create_message(self, request: web.Request) -> web.Response:
        body, files = await self._body(request)
        self.violations += check_message(body, "message")
        if not (body.get("content") or body.get("embeds") or files or body.get("components")):
            self.violations.append("a message needs content, an embed, a file or components")
        self.messages.append((body, files))
        return _json(self.message(body))

    async def unknown(self, request: web.Request) -> web.Response:
        self.violations.append(f"unexpected request {request.method} {request.path}")
        return _json({"message": "404: Not Found", "code": 0}, status=404)

    def message(self, body: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": snowflake(), "channel_id": "1", "type": 0, "content": body.get("content") or "",
            "author": user(BOT_ID, "wordlebot", bot=True), "embeds": body.get("embeds") or [],
            "components": body.get("components") or [], "attachments": [], "mentions": [],
            "mention_roles": [], "pinned": False, "mention_everyone": False, "tts": False,
            "timestamp": "2026-11-21T00:00:00+00:00", "edited_timestamp": None, "flags": 0,
        }  # fmt: skip

    # -- the gateway --------------------------------------------------------------------

    async def gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self._ws = ws
        self._zlib = zlib.compressobj() if request.query.get("compress") == "zlib-stream" else None
        await self._send({"op": 10, "d": {"heartbeat_interval": self.heartbeat_ms},
                          "s": None, "t": None})  # fmt: skip
        async for frame in ws:
            if frame.type != WSMsgType.TEXT:
                continue
            payload = json.loads(frame.data)
            op = payload.get("op")
            if op == 1:
                self.heartbeats += 1
                await self._send({"op": 11, "d": None, "s": None, "t": None})
            elif op == 2:
                if self.refuse_identify is not None:  # Discord's fatal closes: 4004, 4014
                    await ws.close(code=self.refuse_identify, message=b"refused")
                    return ws
                await self._ready(payload["d"])
            elif op == 6:
                seq = payload["d"].get("seq") or 0
                for event in self._events:
                    if event["s"] > seq:
                        await self._send(event)
                await self._send({"op": 0, "t": "RESUMED", "s": self._next(), "d": {}})
                self.resumed.set()
        return ws

    async def _ready(self, identify: dict[str, Any]) -> None:
        if identify.get("token", "").startswith("Bot "):
            self.violations.append("IDENTIFY token must not carry the 'Bot ' prefix")
        await self.dispatch("READY", {
            "v": 10, "user": {**user(BOT_ID, "wordlebot", bot=True), "flags": 0,
                              "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g), "unavailable": True} for g in self.guilds],
            "session_id": self.session_id, "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gateway",
            "application": {"id": str(APP_ID), "flags": 0}, "shard": [0, 1],
        })  # fmt: skip
        for guild in self.guilds:
            await self.dispatch("GUILD_CREATE", guild_payload(guild))
        self.identified.set()

    def _next(self) -> int:
        self._seq += 1
        return self._seq

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        payload = {"op": 0, "t": event, "s": self._next(), "d": data}
        self._events.append(payload)
        await self._send(payload)

    async def _send(self, payload: dict[str, Any]) -> None:
        if self._ws is None or self._ws.closed:
            return  # sent again on RESUME
        raw = json.dumps(payload).encode()
        if self._zlib is not None:
            await self._ws.send_bytes(
                self._zlib.compress(raw) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
            )
        else:
            await self._ws.send_str(raw.decode())

    async def drop_connection(self) -> None:
        """Close the gateway as a failing server would: the bot should RESUME."""
        self.resumed.clear()
        if self._ws is not None:
            await self._ws.close(code=4000, message=b"unknown error")

    # -- interactions -------------------------------------------------------------------

    async def interact(self, payload: dict[str, Any], *, followups: int = 0,
                       timeout: float = 10.0) -> Reply:  # fmt: skip
        """Send INTERACTION_CREATE and wait for the callback (and ``followups`` more)."""
        interaction = payload["id"]
        self._tokens[payload["token"]] = interaction
        event = self._waiters[interaction] = asyncio.Event()
        self._sent_at[interaction] = time.perf_counter()
        await self.dispatch("INTERACTION_CREATE", payload)
        deadline = time.perf_counter() + timeout
        while True:
            reply = self.replies.get(interaction)
            if reply is not None and reply.kind is not None and len(reply.followups) >= followups:
                return reply
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise TimeoutError(f"no answer to interaction {interaction}")
            event.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), remaining)

    def issued_tokens(self) -> list[str]:
        """Every interaction token sent to the bot (secrets the bot must never log)."""
        return list(self._tokens)

    def _interaction_of(self, token: str) -> str | None:
        return self._tokens.get(token)

    def _wake(self, interaction: str) -> None:
        event = self._waiters.get(interaction)
        if event is not None:
            event.set()


def guild_payload(guild: int) -> dict[str, Any]:
    return {
        "id": str(guild), "name": f"guild {guild}", "owner_id": "1", "unavailable": False,
        "roles": [{"id": str(guild), "name": "@everyone", "permissions": "2251799813685247",
                   "position": 0, "color": 0, "hoist": False, "managed": False,
                   "mentionable": False, "flags": 0}],
        "channels": [{"id": str(guild + 1), "type": 0, "name": "games", "position": 0,
                      "permission_overwrites": []}],
        "members": [], "emojis": [], "stickers": [], "features": [], "member_count": 2,
        "threads": [], "stage_instances": [], "guild_scheduled_events": [], "voice_states": [],
        "presences": [], "large": False, "joined_at": "2026-01-01T00:00:00+00:00",
    }  # fmt: skip
