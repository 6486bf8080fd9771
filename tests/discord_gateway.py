"""The gateway half of the Discord stand-in (``discord_server.py``): sessions per shard,
HELLO, IDENTIFY, READY, GUILD_CREATE, heartbeats, RESUME, and the gateway's ways of sending a
client away: RECONNECT (op 7), INVALID_SESSION (op 9, resumable or not) and closing with a
code (4014 disallowed intents, 4004 bad token, 4000 unknown error).

Sharding as Discord does it: ``GET /gateway/bot`` says how many shards; each websocket is one
shard's session (IDENTIFY ``shard: [id, count]``), with its own session id, sequence numbers,
READY (that shard's guilds only) and events kept for RESUME; a guild's events go to shard
``(guild_id >> 22) % count``, direct messages to shard 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import zlib
from dataclasses import dataclass, field
from typing import Any

import orjson
from aiohttp import WSMsgType, web
from discord_messages import APP_ID, BOT_ID, snowflake, user


class Connection:
    """One websocket, zlib-stream compressed or not; frames go out in the order sent."""

    def __init__(self, ws: web.WebSocketResponse, compress: bool) -> None:
        self.ws = ws
        self.zlib: Any = zlib.compressobj() if compress else None
        self._lock = asyncio.Lock()  # one compressor: frames must leave in compression order
        self.kick: int | None = None  # a close code the handler should close with
        self._kicked = asyncio.Event()

    async def close(self, code: int) -> None:
        """Close with ``code``, from the handler's own task: closed from another, aiohttp
        drops the connection before the client's reply and the client sees 1006, not
        ``code``. A heartbeat request (op 1) makes the client send a frame at once, and the
        handler closes on reading it."""
        self.kick = code
        await self.send({"op": 1, "d": None, "s": None, "t": None})
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._kicked.wait(), 10)

    async def kicked(self) -> bool:
        """Close now if asked to (called by the handler on each frame)."""
        if self.kick is None:
            return False
        await self.ws.close(code=self.kick, message=b"closed")
        self._kicked.set()
        return True

    @property
    def open(self) -> bool:
        return not self.ws.closed

    async def send(self, payload: dict[str, Any]) -> None:
        await self.send_raw(orjson.dumps(payload, option=orjson.OPT_NON_STR_KEYS))

    async def send_raw(self, raw: bytes) -> None:
        """Send a payload already serialised (a dispatched event, as kept for RESUME)."""
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
    on it (kept for RESUME as (sequence, JSON): a fifth of the dict's memory, 10,000 servers'
    GUILD_CREATE in 20 MB). ``connection`` is None while nobody is connected to it."""

    shard: int
    count: int
    session_id: str = field(default_factory=lambda: "session-" + snowflake())
    connection: Connection | None = None
    seq: int = 0
    events: list[tuple[int, bytes]] = field(default_factory=list)

    @property
    def live(self) -> bool:
        return self.connection is not None and self.connection.open

    def next(self) -> int:
        self.seq += 1
        return self.seq

    async def send(self, payload: dict[str, Any]) -> None:
        if self.connection is not None:
            await self.connection.send(payload)

    async def send_raw(self, raw: bytes) -> None:
        if self.connection is not None:
            await self.connection.send_raw(raw)  # if closed, kept for RESUME in ``events``


class Gateway:
    """The gateway's state and handler; :class:`discord_server.DiscordServer` adds HTTP."""

    port: int
    violations: list[str]

    def __init__(self, guilds: list[int], heartbeat_ms: int, shards: int) -> None:
        self.refuse_identify: int | None = None  # a close code to answer IDENTIFY with
        self.guilds = guilds
        self.guild_set = frozenset(guilds)  # looked up per request: thousands of servers
        self.shards = shards  # the shard count ``GET /gateway/bot`` recommends and requires
        self.heartbeat_ms = heartbeat_ms  # short, so that tests see heartbeats and ACKs
        self.heartbeats = 0
        self.identified = asyncio.Event()  # set once every shard has identified
        self.resumed = asyncio.Event()
        self.sessions: dict[str, Session] = {}  # every session ever started, by id
        self.current: dict[int, Session] = {}  # each shard's newest session: where events go
        self.identifies: list[tuple[int, int]] = []  # [shard, count] of each IDENTIFY
        self.resumes = 0
        self._shard_ready = [asyncio.Event() for _ in range(shards)]  # READY/RESUMED, live
        self._shard_gone = [asyncio.Event() for _ in range(shards)]  # no live session
        for gone in self._shard_gone:
            gone.set()
        self.roles: dict[int, list[dict[str, Any]]] = {}  # each server's, once changed

    def roles_of(self, guild: int) -> list[dict[str, Any]]:
        """A server's roles as they now are (``default_roles`` until a test changes them)."""
        return self.roles.setdefault(guild, default_roles(guild))

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
                if await connection.kicked():
                    break
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
        for guild in guilds:  # roles stored only once a test changes them: light at 10,000
            payload = guild_payload(guild, self.roles.get(guild))
            await self._dispatch(session, "GUILD_CREATE", payload)
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
        for number, raw in session.events:
            if number > seq:
                await session.send_raw(raw)
        await session.send({"op": 0, "t": "RESUMED", "s": session.next(), "d": {}})
        self._changed(session.shard)
        self.resumes += 1
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
        number = session.next()
        raw = orjson.dumps({"op": 0, "t": event, "s": number, "d": data},
                           option=orjson.OPT_NON_STR_KEYS)  # fmt: skip
        # kept as a copy of its own size: orjson's bytes hold an 8 KB buffer whatever the length
        raw = bytes(memoryview(raw))
        session.events.append((number, raw))
        await session.send_raw(raw)

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
                await session.connection.close(4000)

    async def reconnect(self, shard: int = 0) -> None:
        """RECONNECT (op 7): the client should close and RESUME."""
        self.resumed.clear()
        session = self.current.get(shard)
        if session is not None:
            await session.send({"op": 7, "d": None, "s": None, "t": None})

    async def invalidate(self, resumable: bool, shard: int = 0) -> None:
        """INVALID_SESSION (op 9): resumable, the client should RESUME; not, IDENTIFY afresh
        (and a RESUME of this session is refused)."""
        self.resumed.clear()
        session = self.current.get(shard)
        if session is None:
            return
        if not resumable:
            del self.current[shard]
        await session.send({"op": 9, "d": resumable, "s": None, "t": None})

    async def close_gateway(self, code: int, shard: int = 0) -> None:
        """Close a live session with ``code`` (4014: an intent the portal does not allow);
        with ``refuse_identify`` set too, a fresh IDENTIFY is refused the same way."""
        session = self.current.get(shard)
        if session is not None and session.connection is not None:
            await session.connection.close(code)


ADMINISTRATOR, MANAGE_ROLES = 1 << 3, 1 << 28  # Discord's permission bits
EVERYONE_MAY = 2251799813685247 & ~ADMINISTRATOR & ~MANAGE_ROLES  # what @everyone may do


def default_roles(guild: int) -> list[dict[str, Any]]:
    """A server's roles as Discord sends them: @everyone (its id is the server's), the bot's
    own role (managed by its integration, holding Manage Roles), ``winners`` below it,
    ``moderators`` above it and ``helpers`` below ``winners`` (both with Manage Roles), and
    ``regulars`` above ``winners`` with no permission of their own."""

    def role(offset: int, name: str, position: int, permissions: int,
             managed: bool = False) -> dict[str, Any]:  # fmt: skip
        data = {"id": str(guild + offset), "name": name, "permissions": str(permissions),
                "position": position, "color": 0, "hoist": False, "managed": managed,
                "mentionable": False, "flags": 0}  # fmt: skip
        if managed:
            data["tags"] = {"bot_id": str(BOT_ID)}
        return data

    return [role(0, "@everyone", 0, EVERYONE_MAY), role(10, "wordlebot", 5, MANAGE_ROLES, True),
            role(11, "winners", 2, 0), role(12, "moderators", 8, MANAGE_ROLES),
            role(13, "helpers", 1, MANAGE_ROLES), role(14, "regulars", 3, 0)]  # fmt: skip


def guild_range(count: int, shards: int = 1, first: int = 0) -> list[int]:
    """``count`` server ids, consecutive in the bits Discord shards on: shard ``k`` of
    ``shards`` gets every ``shards``-th. Each id leaves room for its channels and roles
    (``guild_payload``: the id plus 1 to 14)."""
    top = (972000000000000000 >> 22) // shards * shards + first
    return [((top + n) << 22) | 0x2A for n in range(count)]


def channels(guild: int) -> list[dict[str, Any]]:
    """A server's text channels: ``games`` (id + 1, where its interactions come from) and
    ``digest`` (id + 2, a channel an admin may choose for the daily digest)."""
    return [{"id": str(guild + offset), "type": 0, "name": name, "position": offset - 1,
             "permission_overwrites": []}
            for offset, name in ((1, "games"), (2, "digest"))]  # fmt: skip


def guild_payload(guild: int, roles: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """GUILD_CREATE: the server, its roles (``default_roles``: ``winners`` one the bot may
    give), its channels (``channels``), and the bot's own member with its role (so the bot
    knows its permissions and highest role)."""
    roles = default_roles(guild) if roles is None else roles
    bot_roles = [r["id"] for r in roles if (r.get("tags") or {}).get("bot_id") == str(BOT_ID)]
    me = {"user": user(BOT_ID, "wordlebot", bot=True), "roles": bot_roles, "deaf": False,
          "mute": False, "flags": 0, "joined_at": "2026-01-01T00:00:00+00:00"}  # fmt: skip
    return {
        "id": str(guild), "name": f"guild {guild}", "owner_id": "1", "unavailable": False,
        "roles": roles,
        "channels": channels(guild),
        "members": [me], "emojis": [], "stickers": [], "features": [], "member_count": 2,
        "threads": [], "stage_instances": [], "guild_scheduled_events": [], "voice_states": [],
        "presences": [], "large": False, "joined_at": "2026-01-01T00:00:00+00:00",
    }  # fmt: skip
