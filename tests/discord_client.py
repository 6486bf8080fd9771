"""A stand-in for Discord's client as an Activity sees it (issue 42, point 7), for a real browser.

Discord opens an Activity in an ``<iframe>`` whose URL carries the query parameters the
Embedded App SDK's constructor reads (``frame_id``, ``instance_id``, ``platform``, ...), and
answers the SDK's postMessage protocol from the parent window. This stand-in serves that
parent page at http://localhost:3333, an origin the SDK accepts messages from (its
``ALLOWED_ORIGINS``, src/Discord.ts of @discord/embedded-app-sdk 2.5.0). The page's script
only relays: what the Activity posts goes to Python over a WebSocket, and what Python answers
is posted into the frame, so the protocol lives here in one place and every message both ways
is recorded for the test (``Frame.messages``).

The protocol, from the SDK's source: messages are ``[opcode, payload]``, opcodes HANDSHAKE 0,
FRAME 1, CLOSE 2. The SDK sends ``[0, {v: 1, encoding, client_id, frame_id, sdk_version}]``
and waits for the READY dispatch; a command is ``[1, {cmd, args, nonce}]`` (SUBSCRIBE and
UNSUBSCRIBE add ``evt``) and its answer ``[1, {cmd, evt: null, nonce, data}]``, or
``evt: "ERROR"`` with ``data: {code, message}`` (the SDK rejects); an event is
``[1, {cmd: "DISPATCH", evt, nonce: null, data}]``. Each answer is shaped as the SDK's zod
schemas require (src/schema/*.ts, src/generated/schemas.ts), or the SDK refuses it.

Who is who comes from the API stand-in (tests/discord_server.py), as on Discord: AUTHORIZE
gives a code that ``DiscordServer.authorize`` made for the frame's user, AUTHENTICATE takes
only an access token the stand-in's token exchange issued for that user, and ``launch`` and
``set_participants`` tell both the API and the client who is in an instance.

Port 3333 is one per machine, and pytest-xdist's workers and other test runs on the machine
may each want it: ``start`` holds an exclusive lock on a file (fcntl) until ``stop``.
"""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar
from urllib.parse import urlencode, urlsplit

from aiohttp import WSMsgType, web
from discord_messages import APP_ID, snowflake, user
from discord_server import DiscordServer

PORT = 3333
ORIGIN = f"http://localhost:{PORT}"
# Machine-wide, as the port is (not in the session's folder, which another run on the machine
# does not share), where lock files live: a file under a lock is never removed, as a waiter
# could be locking it meanwhile, and the suite leaves nothing in the temporary folder.
LOCK = f"{'/run/lock' if os.path.isdir('/run/lock') else '/tmp'}/wordlebot-discord-{PORT}.lock"
HANDSHAKE, FRAME, CLOSE = 0, 1, 2  # the SDK's Opcodes
PARTICIPANTS_UPDATE = "ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE"
# RPCErrorCodes and RPCCloseCodes of the SDK's Constants.ts
INVALID_PAYLOAD, INVALID_COMMAND, INVALID_EVENT, INVALID_PERMISSIONS = 4000, 4002, 4004, 4006
INVALID_CLIENTID, INVALID_TOKEN, INVALID_VERSION = 4007, 4009, 4004
APPLICATION = {"id": str(APP_ID), "name": "wordlebot", "description": "", "icon": None}
# The RPC server's configuration in READY, as Discord's production client gives it
CONFIG = {"cdn_host": "cdn.discordapp.com", "api_endpoint": "//discord.com/api",
          "environment": "production"}  # fmt: skip
T = TypeVar("T")

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Discord (stand-in)</title>
<style>html, body {{ margin: 0; height: 100%; }}
iframe {{ display: block; border: 0; width: 100%; height: 100%; }}</style></head>
<body><iframe title="Activity"></iframe>
<script>
const activity = new URL({activity}), frame = document.querySelector("iframe");
const rpc = new WebSocket(`ws://${{location.host}}/frames/{frame_id}/rpc`);
// Discord listens to its own frame only, and posts to the Activity's origin only.
addEventListener("message", (event) => {{
  if (event.source === frame.contentWindow && event.origin === activity.origin
      && Array.isArray(event.data))  // the protocol's [opcode, payload]
    rpc.send(JSON.stringify(event.data));
}});
rpc.onmessage = (event) => frame.contentWindow.postMessage(JSON.parse(event.data), activity.origin);
// The SDK's handshake is posted as its script runs: the relay must be open by then.
rpc.onopen = () => {{ frame.src = activity.href; }};
</script></body></html>
"""


class Refusal(Exception):
    """A command Discord's client answers with an ERROR frame (the SDK's promise rejects)."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


@dataclass
class Instance:
    """An Activity instance: where it runs and who is in it (user id -> name)."""

    channel_id: int
    guild_id: int | None
    participants: dict[int, str]
    launch_id: str = field(default_factory=snowflake)

    @property
    def location_id(self) -> str:  # as the API stand-in's activity-instances answer names it
        if self.guild_id is None:
            return f"pc-{self.channel_id}"
        return f"gc-{self.guild_id}-{self.channel_id}"


@dataclass
class Frame:
    """One user's Discord client showing the Activity: the page a browser opens (``url``)."""

    id: str
    activity: str  # the Activity's URL with Discord's query parameters
    instance_id: str
    user_id: int
    name: str
    locale: str
    # Every message, in order: ("in", from the Activity) or ("out", to it), as [opcode, payload]
    messages: list[tuple[str, list[Any]]] = field(default_factory=list)
    scopes: list[str] = field(default_factory=list)  # what AUTHORIZE asked
    authenticated: bool = False
    subscriptions: set[str] = field(default_factory=set)
    closed: dict[str, Any] | None = None  # the Activity's CLOSE, if it sent one
    socket: web.WebSocketResponse | None = None

    @property
    def url(self) -> str:
        return f"{ORIGIN}/frames/{self.id}"

    def received(self, cmd: str | None = None) -> list[dict[str, Any]]:
        """The commands the Activity sent (``cmd`` alone, if given), as payloads."""
        return [p for d, (op, p) in self.messages
                if d == "in" and op == FRAME and cmd in (None, p.get("cmd"))]  # fmt: skip

    def sent(self, cmd: str | None = None, evt: str | None = None) -> list[dict[str, Any]]:
        """What the client posted to the Activity on FRAME: answers to ``cmd``, or
        dispatches of ``evt`` (``cmd="DISPATCH"``)."""
        return [p for d, (op, p) in self.messages if d == "out" and op == FRAME
                and cmd in (None, p["cmd"]) and evt in (None, p["evt"])]  # fmt: skip

    @property
    def logs(self) -> list[str]:
        """The Activity's console, which the SDK forwards once ready (CAPTURE_LOG)."""
        return [f"{p['args']['level']}: {p['args']['message']}"
                for p in self.received("CAPTURE_LOG")]  # fmt: skip


class DiscordClient:
    """Discord's client for one test: instances, and a frame per user who opens one."""

    def __init__(self, api: DiscordServer) -> None:
        self.api = api
        self.instances: dict[str, Instance] = {}
        self.frames: dict[str, Frame] = {}
        self._news = asyncio.Condition()  # notified on each message, for ``until``
        self._lock_fd: int | None = None
        self._runner: web.AppRunner | None = None
        self.app = web.Application()
        self.app.router.add_get("/frames/{frame_id}", self._page)
        self.app.router.add_get("/frames/{frame_id}/rpc", self._rpc)

    async def __aenter__(self) -> DiscordClient:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def start(self, lock_timeout: float = 240.0) -> None:
        """Take port 3333, waiting up to ``lock_timeout`` seconds for whoever holds it."""
        fd = os.open(LOCK, os.O_RDONLY | os.O_CREAT, 0o644)  # flock needs no write access
        deadline = time.monotonic() + lock_timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    os.close(fd)
                    raise TimeoutError(f"{LOCK}: port {PORT} taken {lock_timeout} s") from None
                await asyncio.sleep(0.05)  # another test holds it: poll, not block the loop
        self._lock_fd = fd
        try:
            self._runner = web.AppRunner(self.app)
            await self._runner.setup()
            await web.TCPSite(self._runner, "127.0.0.1", PORT).start()
        except BaseException:
            await self.stop()
            raise

    async def stop(self) -> None:
        for frame in self.frames.values():
            if frame.socket is not None:
                await frame.socket.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # releases the lock
            self._lock_fd = None

    # -- what a test does ------------------------------------------------------------------

    def launch(self, instance_id: str, channel_id: int, participants: dict[int, str],
               guild_id: int | None = None) -> Instance:  # fmt: skip
        """An Activity instance in ``channel_id`` with ``participants`` (user id -> name),
        known alike to the API stand-in (its activity-instances route) and to the client."""
        self.instances[instance_id] = Instance(channel_id, guild_id, dict(participants))
        self.api.launch(instance_id, channel_id, set(participants), guild_id)
        return self.instances[instance_id]

    def open(self, activity: str, instance_id: str, user_id: int, *, name: str | None = None,
             locale: str = "en-US", platform: str = "desktop") -> Frame:  # fmt: skip
        """A frame of ``activity`` (its URL) for ``user_id`` in the instance: point a
        browser's page at ``Frame.url``. The user need not be a participant (a test of one
        who is not)."""
        instance = self.instances[instance_id]
        frame_id = str(uuid.uuid4())
        query = {"instance_id": instance_id, "location_id": instance.location_id,
                 "launch_id": instance.launch_id, "channel_id": str(instance.channel_id),
                 "frame_id": frame_id, "platform": platform}  # fmt: skip
        if instance.guild_id is not None:  # in a server (not a DM)
            query["guild_id"] = str(instance.guild_id)
        joiner = "&" if urlsplit(activity).query else "?"
        name = name or instance.participants.get(user_id, "player")
        frame = Frame(frame_id, activity + joiner + urlencode(query), instance_id, user_id, name,
                      locale)  # fmt: skip
        self.frames[frame_id] = frame
        return frame

    async def set_participants(self, instance_id: str, participants: dict[int, str]) -> None:
        """Users join or leave the instance: the API stand-in learns it, and every frame
        of the instance subscribed to ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE is told."""
        instance = self.instances[instance_id]
        instance.participants = dict(participants)
        self.api.launch(instance_id, instance.channel_id, set(participants), instance.guild_id)
        for frame in self._frames_of(instance_id):
            if PARTICIPANTS_UPDATE in frame.subscriptions and frame.socket is not None:
                data = {"participants": self._participants(instance_id)}
                await self._post(frame, FRAME, dispatch(PARTICIPANTS_UPDATE, data))

    async def until(self, condition: Callable[[], T], timeout: float = 15.0) -> T:
        """Wait until ``condition()`` is truthy (checked at each message): its value."""
        async with asyncio.timeout(timeout), self._news:
            return await self._news.wait_for(condition)

    # -- the page and its relay ------------------------------------------------------------

    def _frames_of(self, instance_id: str) -> Iterator[Frame]:
        return (f for f in list(self.frames.values()) if f.instance_id == instance_id)

    def _participants(self, instance_id: str) -> list[dict[str, Any]]:
        return [user(user_id, name) for user_id, name
                in self.instances[instance_id].participants.items()]  # fmt: skip

    async def _page(self, request: web.Request) -> web.Response:
        frame = self.frames.get(request.match_info["frame_id"])
        if frame is None:
            raise web.HTTPNotFound()
        html = PAGE.format(activity=json.dumps(frame.activity), frame_id=frame.id)
        return web.Response(text=html, content_type="text/html")

    async def _rpc(self, request: web.Request) -> web.WebSocketResponse:
        frame = self.frames.get(request.match_info["frame_id"])
        if frame is None:
            raise web.HTTPNotFound()
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        frame.socket = socket  # a reloaded page replaces the last one
        async for message in socket:
            if message.type != WSMsgType.TEXT:
                continue
            opcode, payload = json.loads(message.data)
            await self._record(frame, "in", [opcode, payload])
            await self._handle(frame, opcode, payload)
        if frame.socket is socket:
            frame.socket = None
        return socket

    async def _record(self, frame: Frame, direction: str, message: list[Any]) -> None:
        frame.messages.append((direction, message))
        async with self._news:
            self._news.notify_all()

    async def _post(self, frame: Frame, opcode: int, payload: dict[str, Any]) -> None:
        assert frame.socket is not None
        await self._record(frame, "out", [opcode, payload])
        await frame.socket.send_str(json.dumps([opcode, payload]))

    # -- the protocol ----------------------------------------------------------------------

    async def _handle(self, frame: Frame, opcode: int, payload: dict[str, Any]) -> None:
        if opcode == HANDSHAKE:
            if payload.get("client_id") != str(APP_ID) or payload.get("frame_id") != frame.id:
                await self._post(frame, CLOSE, closing(INVALID_CLIENTID, "Invalid Client ID"))
            elif payload.get("v") != 1:
                await self._post(frame, CLOSE, closing(INVALID_VERSION, "Invalid Version"))
            else:
                # READY's user: its zod schema takes a string avatar or none, never null
                who = {"id": str(frame.user_id), "username": frame.name, "discriminator": "0"}
                await self._post(frame, FRAME, dispatch("READY", {"v": 1, "config": CONFIG,
                                                                  "user": who}))  # fmt: skip
        elif opcode == CLOSE:
            frame.closed = payload
        elif opcode == FRAME:
            cmd, nonce = payload["cmd"], payload["nonce"]
            try:
                data = self.answer(frame, cmd, payload.get("args") or {}, payload.get("evt"))
            except Refusal as refusal:
                error = {"code": refusal.code, "message": refusal.message}
                await self._post(frame, FRAME, {"cmd": cmd, "evt": "ERROR", "nonce": nonce,
                                                "data": error})  # fmt: skip
            else:
                await self._post(frame, FRAME, {"cmd": cmd, "evt": None, "nonce": nonce,
                                                "data": data})  # fmt: skip

    def answer(self, frame: Frame, cmd: str, args: dict[str, Any], evt: str | None) -> Any:
        """A command's ``data``, shaped as the SDK's response schema for ``cmd``."""
        if cmd == "AUTHORIZE":
            if args.get("client_id") != str(APP_ID):
                raise Refusal(INVALID_CLIENTID, "Invalid client id")
            scope = args.get("scope")
            if args.get("response_type", "code") != "code" or not isinstance(scope, list):
                raise Refusal(INVALID_PAYLOAD, "Invalid payload")
            frame.scopes = list(scope)
            return {"code": self.api.authorize(frame.user_id, frame.name)}
        if cmd == "AUTHENTICATE":
            token = str(args.get("access_token") or "")
            if self.api.access_tokens.get(token, (None,))[0] != frame.user_id:
                raise Refusal(INVALID_TOKEN, "Invalid access token")
            frame.authenticated = True
            expires = datetime.now(UTC) + timedelta(days=7)
            return {"access_token": token, "user": user(frame.user_id, frame.name),
                    "scopes": frame.scopes, "expires": expires.isoformat(),
                    "application": APPLICATION}  # fmt: skip
        # Who is in the instance is told to an authenticated user only (stricter than
        # needed, perhaps: the SDK's documented flow authenticates first anyway).
        who = cmd == "GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS" or evt == PARTICIPANTS_UPDATE
        if who and not frame.authenticated:
            raise Refusal(INVALID_PERMISSIONS, "Not authenticated or invalid scope")
        if cmd in ("SUBSCRIBE", "UNSUBSCRIBE"):
            if not evt:
                raise Refusal(INVALID_EVENT, "Invalid event")
            (frame.subscriptions.add if cmd == "SUBSCRIBE" else frame.subscriptions.discard)(evt)
            return {"evt": evt}
        if cmd == "GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS":
            return {"participants": self._participants(frame.instance_id)}
        if cmd == "USER_SETTINGS_GET_LOCALE":
            return {"locale": frame.locale}
        if cmd == "SET_CONFIG":
            return {"use_interactive_pip": bool(args.get("use_interactive_pip"))}
        if cmd == "ENCOURAGE_HW_ACCELERATION":
            return {"enabled": True}
        if cmd in ("CAPTURE_LOG", "SET_ORIENTATION_LOCK_STATE", "OPEN_SHARE_MOMENT_DIALOG"):
            return None  # recorded in ``messages``: there is nothing to answer
        if cmd == "SHARE_LINK":  # the user sent it to the channel
            return {"success": True, "didCopyLink": False, "didSendMessage": True}
        raise Refusal(INVALID_COMMAND, f"The stand-in does not answer {cmd}")


def dispatch(evt: str, data: dict[str, Any]) -> dict[str, Any]:
    return {"cmd": "DISPATCH", "evt": evt, "nonce": None, "data": data}


def closing(code: int, message: str) -> dict[str, Any]:
    return {"code": code, "message": message}
