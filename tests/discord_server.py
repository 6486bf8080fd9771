"""A local stand-in for Discord (HTTP API v10 and the gateway) for end-to-end tests.

It serves the real bot process: login, ``GET /gateway/bot``, the gateway handshake
(HELLO, IDENTIFY, READY, GUILD_CREATE), heartbeats, RESUME after a dropped connection,
INTERACTION_CREATE, interaction callbacks and follow-ups, message edits, and command sync.
Sharding as Discord does it: ``GET /gateway/bot`` says how many shards; each websocket is
one shard's session (IDENTIFY ``shard: [id, count]``), with its own session id, sequence
numbers, READY (that shard's guilds only) and events kept for RESUME; a guild's events go to
shard ``(guild_id >> 22) % count``, direct messages to shard 0.
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
    edits: list[dict[str, Any]] = field(default_factory=list)  # of the original response
    latency: float | None = None  # seconds from dispatch to the callback
    settled_latency: float | None = None  # to the answer itself (past a deferral: its edit)
    message_id: str | None = None  # of the message the callback created

    @property
    def accepted(self) -> bool:
        """A public answer (a board, not a private refusal), in the callback or, past a
        public deferral, in the edit that followed it."""
        if self.kind == 4:
            return not self.flags & 64
        return self.kind == 5 and not self.flags & 64 and bool(self.edits)

    @property
    def flags(self) -> int:
        return int(self.data.get("flags") or 0)

    def text(self) -> str:
        parts = [self.data.get("content") or ""]
        for body in [self.data, *self.followups, *self.edits]:
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


class Connection:
    """One websocket, zlib-stream compressed or not; frames go out in the order sent."""

    def __init__(self, ws: web.WebSocketResponse, compress: bool) -> None:
        self.ws = ws
        self.zlib: Any = zlib.compressobj() if compress else None
        self._lock = asyncio.Lock()  # one compressor: frames must leave in compression order

    @property
    def open(self) -> bool:
        return not self.ws.closed

    async def send(self, payload: dict[str, Any]) -> None:
        raw = json.dumps(payload).encode()
        async with self._lock:
            if self.ws.closed:
                return
            with contextlib.suppress(ConnectionError):  # the peer went away meanwhile
                if self.zlib is not None:
                    frame = self.zlib.compress(raw) + self.zlib.flush(zlib.Z_SYNC_FLUSH)
                    await self.ws.send_bytes(frame)
                else:
                    await self.ws.send_str(raw.decode())


@dataclass(eq=False)
class Session:
    """One shard's gateway session: its id, its sequence numbers and every event dispatched
    on it (kept for RESUME). ``connection`` is None while nobody is connected to it."""

    shard: int
    count: int
    session_id: str = field(default_factory=lambda: "session-" + snowflake())
    connection: Connection | None = None
    seq: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)

    @property
    def live(self) -> bool:
        return self.connection is not None and self.connection.open

    def next(self) -> int:
        self.seq += 1
        return self.seq

    async def send(self, payload: dict[str, Any]) -> None:
        if self.connection is not None:
            await self.connection.send(payload)  # if closed, kept for RESUME in ``events``


class DiscordServer:
    def __init__(self, guilds: list[int], heartbeat_ms: int = 1000, shards: int = 1) -> None:
        self.refuse_identify: int | None = None  # a close code to answer IDENTIFY with
        self.guilds = guilds
        self.shards = shards  # the shard count ``GET /gateway/bot`` recommends and requires
        self.heartbeat_ms = heartbeat_ms  # short, so that tests see heartbeats and ACKs
        self.heartbeats = 0
        self.violations: list[str] = []
        self.synced: list[tuple[str, list[dict[str, Any]]]] = []
        self.identified = asyncio.Event()  # set once every shard has identified
        self.resumed = asyncio.Event()
        self.sessions: dict[str, Session] = {}  # every session ever started, by id
        self.current: dict[int, Session] = {}  # each shard's newest session: where events go
        self.identifies: list[tuple[int, int]] = []  # [shard, count] of each IDENTIFY
        self._shard_ready = [asyncio.Event() for _ in range(shards)]  # READY/RESUMED, live
        self._shard_gone = [asyncio.Event() for _ in range(shards)]  # no live session
        for gone in self._shard_gone:
            gone.set()
        self.replies: dict[str, Reply] = {}
        self.edited: dict[str, list[dict[str, Any]]] = {}  # channel messages' edits, by id
        self._waiters: dict[str, asyncio.Event] = {}
        self._tokens: dict[str, str] = {}
        self._sent_at: dict[str, float] = {}
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
        self.app.router.add_get(f"{api}/users/{{user}}", self.get_user)
        self.app.router.add_post(f"{api}/users/@me/channels", self.open_dm)
        self.app.router.add_patch(f"{api}/channels/{{channel}}/messages/{{message}}", self.edit)
        self.app.router.add_route("*", "/{tail:.*}", self.unknown)
        self.messages: list[tuple[dict[str, Any], list[str]]] = []
        # Messages the bot posted in channels (not interaction replies): (channel, body, files)
        self.posts: list[tuple[int, dict[str, Any], list[str]]] = []
        self.deleted_channels: set[int] = set()  # posting there: 404 Unknown Channel
        self.dm_channels: dict[int, int] = {}  # DM channel -> the user it reaches
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
            "url": f"ws://127.0.0.1:{self.port}/gateway", "shards": self.shards,
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
        reply.message_id = snowflake()
        if kind not in (5, 6):
            reply.settled_latency = reply.latency
        self._wake(interaction)
        return _json({"interaction": {"id": interaction, "type": 2,
                                      "response_message_id": reply.message_id}})  # fmt: skip

    async def followup(self, request: web.Request) -> web.Response:
        body, _ = await self._body(request)
        self.violations += check_message(body, "follow-up")
        interaction = self._interaction_of(request.match_info["token"])
        if interaction is not None:
            reply = self.replies.setdefault(interaction, Reply())
            reply.followups.append(body)
            self._settled(interaction, reply)
            self._wake(interaction)
        return _json(self.message(body))

    async def edit(self, request: web.Request) -> web.Response:
        body, files = await self._body(request)
        self.violations += check_message(body, "edit")
        self.messages.append((body, files))
        if "channel" in request.match_info:  # a channel message's edit, by its id
            self.edited.setdefault(request.match_info["message"], []).append(body)
        token = request.match_info.get("token")
        interaction = None if token is None else self._interaction_of(token)
        if interaction is not None and request.match_info["message"] == "@original":
            reply = self.replies.setdefault(interaction, Reply())
            reply.edits.append(body)  # after a deferral
            self._settled(interaction, reply)
            self._wake(interaction)
        return _json(self.message(body))

    async def create_message(self, request: web.Request) -> web.Response:
        body, files = await self._body(request)
        channel = int(request.match_info["channel"])
        if channel in self.deleted_channels:  # as Discord answers (JSON error code 10003)
            return _json({"message": "Unknown Channel", "code": 10003}, status=404)
        self.violations += check_message(body, "message")
        if not (body.get("content") or body.get("embeds") or files or body.get("components")):
            self.violations.append("a message needs content, an embed, a file or components")
        self.messages.append((body, files))
        self.posts.append((channel, body, files))
        return _json(self.message(body))

    async def get_user(self, request: web.Request) -> web.Response:
        return _json(user(int(request.match_info["user"]), "admin"))

    async def open_dm(self, request: web.Request) -> web.Response:
        """POST /users/@me/channels {recipient_id}: the DM channel with that user."""
        recipient = int((await request.json())["recipient_id"])
        channel = recipient + 7
        self.dm_channels[channel] = recipient
        return _json({"id": str(channel), "type": 1, "last_message_id": None, "flags": 0,
                      "recipients": [user(recipient, "admin")]})  # fmt: skip

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

    def shard_of(self, guild_id: int | str | None) -> int:
        """Discord's routing: a guild's shard, shard 0 for direct messages."""
        return 0 if guild_id is None else (int(guild_id) >> 22) % self.shards

    def guilds_of(self, shard: int) -> list[int]:
        return [g for g in self.guilds if self.shard_of(g) == shard]

    def connected(self) -> set[int]:
        """The shards with a live session (a connection that has identified or resumed)."""
        return {shard for shard, session in self.current.items() if session.live}

    async def shard_ready(self, shard: int, timeout: float = 60.0) -> None:
        """Wait until ``shard`` has a live session that was sent READY (or RESUMED)."""
        await asyncio.wait_for(self._shard_ready[shard].wait(), timeout)

    async def shard_gone(self, shard: int, timeout: float = 30.0) -> None:
        """Wait until ``shard`` has no live session (its connection closed)."""
        await asyncio.wait_for(self._shard_gone[shard].wait(), timeout)

    @property
    def session_id(self) -> str | None:
        """Shard 0's current session id."""
        session = self.current.get(0)
        return None if session is None else session.session_id

    async def gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        connection = Connection(ws, request.query.get("compress") == "zlib-stream")
        session: Session | None = None
        await connection.send({"op": 10, "d": {"heartbeat_interval": self.heartbeat_ms},
                               "s": None, "t": None})  # fmt: skip
        try:
            async for frame in ws:
                if frame.type != WSMsgType.TEXT:
                    continue
                payload = json.loads(frame.data)
                op = payload.get("op")
                if op == 1:
                    self.heartbeats += 1
                    await connection.send({"op": 11, "d": None, "s": None, "t": None})
                elif op == 2:
                    if session is not None:
                        self.violations.append("IDENTIFY sent twice on one connection")
                    if self.refuse_identify is not None:  # Discord's fatal closes: 4004, 4014
                        await ws.close(code=self.refuse_identify, message=b"refused")
                        return ws
                    session = await self._identify(connection, payload.get("d") or {})
                    if session is None:
                        return ws
                elif op == 6:
                    session = await self._resume(connection, payload.get("d") or {})
        finally:
            if session is not None and session.connection is connection:
                session.connection = None  # its events now wait for a RESUME
                self._changed(session.shard)
        return ws

    async def _identify(self, connection: Connection, identify: dict[str, Any]) -> Session | None:
        if identify.get("token", "").startswith("Bot "):
            self.violations.append("IDENTIFY token must not carry the 'Bot ' prefix")
        shard, count = identify.get("shard") or [0, 1]
        self.identifies.append((shard, count))
        if count != self.shards or not 0 <= shard < count:
            self.violations.append(
                f"IDENTIFY with shard [{shard}, {count}]; the gateway said {self.shards} shards"
            )
            # Discord: 4011 sharding required, 4010 invalid shard
            code = 4011 if count == 1 and "shard" not in identify else 4010
            await connection.ws.close(code=code, message=b"invalid shard")
            return None
        if shard in self.connected():
            self.violations.append(f"shard {shard} identified twice at once")
        session = Session(shard, count, connection=connection)
        self.sessions[session.session_id] = session
        self.current[shard] = session  # a fresh session: an older one's events are lost
        guilds = self.guilds_of(shard)
        await self._dispatch(session, "READY", {
            "v": 10, "user": {**user(BOT_ID, "wordlebot", bot=True), "flags": 0,
                              "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
            "session_id": session.session_id,
            "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gateway",
            "application": {"id": str(APP_ID), "flags": 0}, "shard": [shard, count],
        })  # fmt: skip
        for guild in guilds:
            await self._dispatch(session, "GUILD_CREATE", guild_payload(guild))
        self._changed(shard)
        if self.connected() == set(range(self.shards)):
            self.identified.set()
        return session

    async def _resume(self, connection: Connection, resume: dict[str, Any]) -> Session | None:
        session = self.sessions.get(resume.get("session_id") or "")
        if session is None or self.current.get(session.shard) is not session:
            # unknown, or replaced by a fresh IDENTIFY: op 9, not resumable
            await connection.send({"op": 9, "d": False, "s": None, "t": None})
            return None
        if session.live:
            self.violations.append(f"shard {session.shard} resumed while still connected")
        session.connection = connection
        seq = resume.get("seq") or 0
        for event in session.events:
            if event["s"] > seq:
                await session.send(event)
        await session.send({"op": 0, "t": "RESUMED", "s": session.next(), "d": {}})
        self._changed(session.shard)
        self.resumed.set()
        return session

    def _changed(self, shard: int) -> None:
        """Keep the per-shard events in step with whether the shard has a live session."""
        session = self.current.get(shard)
        if session is not None and session.live:
            self._shard_ready[shard].set()
            self._shard_gone[shard].clear()
        else:
            self._shard_ready[shard].clear()
            self._shard_gone[shard].set()

    async def _dispatch(self, session: Session, event: str, data: dict[str, Any]) -> None:
        payload = {"op": 0, "t": event, "s": session.next(), "d": data}
        session.events.append(payload)
        await session.send(payload)

    async def dispatch(self, event: str, data: dict[str, Any], shard: int | None = None) -> None:
        """Dispatch an event on its shard (its guild's, or 0): to the live session, or kept
        for a RESUME; with no session for that shard at all, it is lost."""
        if shard is None:
            shard = self.shard_of(data.get("guild_id"))
        session = self.current.get(shard)
        if session is not None:
            await self._dispatch(session, event, data)

    async def drop_connection(self, shard: int | None = None) -> None:
        """Close the gateway (every shard's, or one) as a failing server would: the bot
        should RESUME."""
        self.resumed.clear()
        for number, session in list(self.current.items()):
            if (shard is None or number == shard) and session.connection is not None:
                await session.connection.ws.close(code=4000, message=b"unknown error")

    # -- interactions -------------------------------------------------------------------

    async def interact(self, payload: dict[str, Any], *, followups: int = 0,
                       timeout: float = 10.0, settle: bool = False) -> Reply:  # fmt: skip
        """Send INTERACTION_CREATE on the shard of its guild (shard 0 for a direct message)
        and wait for the callback (and ``followups`` more; ``settle``: past a deferral, for
        the edit or follow-up that carries the answer). If that shard has no live session,
        the event waits for a RESUME, or is lost: this then times out."""
        interaction = payload["id"]
        self._tokens[payload["token"]] = interaction
        event = self._waiters[interaction] = asyncio.Event()
        self._sent_at[interaction] = time.perf_counter()
        await self.dispatch("INTERACTION_CREATE", payload)
        deadline = time.perf_counter() + timeout
        while True:
            reply = self.replies.get(interaction)
            if (
                reply is not None
                and reply.kind is not None
                and len(reply.followups) >= followups
                and (not settle or reply.kind not in (5, 6) or reply.followups or reply.edits)
            ):
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

    def _settled(self, interaction: str, reply: Reply) -> None:
        if reply.settled_latency is None and interaction in self._sent_at:
            reply.settled_latency = time.perf_counter() - self._sent_at[interaction]

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
