"""A local stand-in for Discord (HTTP API v10 and the gateway) for end-to-end tests.

It serves the real bot process: login, ``GET /gateway/bot``, the gateway (``discord_gateway``),
INTERACTION_CREATE, interaction callbacks and follow-ups, message edits and deletes, channel
messages, DMs and command sync. Where it answers, it answers as Discord's API description
says (``discord_api/``): every request body the bot sends is checked against the description
of its route, and every answer the stand-in gives against the description of the answer.
It keeps each message's state (``discord_messages``), enforces one initial response per
interaction within 3 seconds and follow-ups within the token's 15 minutes, keeps the
visibility a deferral chose, honours Create Message's nonce with enforce_nonce (the message
made before is returned), and enforces Discord's rate limits as Discord does: the global 50
requests a second per bot token across every process (interaction answers aside), each
route's bucket with its headers, and the invalid-request count that bans at 10,000 in 10
minutes (``global_429s``, ``route_429s``, ``invalid_requests``, ``requests``, ``peak``).
``fail`` makes a route answer 429 (per route, or global) or 5xx a few times, ``hold`` leaves
one unanswered. What the bot does that Discord would refuse or show otherwise is recorded in
``violations``, which fails the test. Many servers, cheaply: ``guild_range``. Loopback only.
"""

from __future__ import annotations

import asyncio
import base64
import bisect
import contextlib
import hashlib
import heapq
import json
import math
import os
import secrets
import time
from array import array
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
from aiohttp import web
from discord_gateway import (
    ADMINISTRATOR,
    MANAGE_ROLES,
    Gateway,
    channels,
    guild_payload,
    guild_range,
)
from discord_messages import (
    APP_ID,
    BOT_ID,
    EPHEMERAL,
    LOADING,
    Messages,
    Upload,
    check_message,
    check_modal,
    snowflake,
    user,
)
from discord_spec import problems

__all__ = ["APP_ID", "BOT_ID", "DiscordServer", "Reply", "guild_payload", "guild_range",
           "snowflake", "user"]  # fmt: skip

WINDOW = 3.0  # seconds to the initial response
CONTENT_LIMIT = 2000  # characters in a message's content
USER_INSTALL_FOLLOWUPS = 5  # follow-ups an interaction gets where only a user installed the app
# The bot's permissions that posting needs (Discord's bits)
PERMISSIONS = {"view_channel": 1 << 10, "send_messages": 1 << 11, "embed_links": 1 << 14,
               "attach_files": 1 << 15, "read_message_history": 1 << 16}  # fmt: skip
ALL = 2251799813685247  # every permission
TOKEN_LIFETIME = 15 * 60.0  # seconds an interaction token serves follow-ups and edits
# Discord's rate limits (its "Rate Limits" topic): 50 requests a second per bot token across
# every process, interaction answers aside, held here over any sliding second (the strictest
# reading: a bot that passes it passes any fixed one); per-route buckets per major parameter;
# 10,000 invalid answers (401, 403, 429 but a shared-scope 429) in 10 minutes ban the address.
GLOBAL_LIMIT, GLOBAL_WINDOW = 50, 1.0
# This process's own lateness: a look every TICK seconds; a gap past TICK + STALL is a stall,
# during which requests wait and are then stamped together (see ``stalls``). A shorter gap,
# not recorded, crowds at most a fifth of a second's requests into the next: a bot keeping
# to 40 a second (tests/test_e2e_budget.py) still shows at most 48 in any second.
TICK, STALL = 0.05, 0.15
INVALID_LIMIT, INVALID_WINDOW = 10_000, 600.0
BAN_SECONDS = 3600.0  # Discord says "temporarily"; an hour is what banned bots report
RATE_LIMIT, RATE_WINDOW = 50, 1.0  # the bucket of a route Discord publishes nothing about
# The buckets of the routes the bot uses most, (name, requests, seconds) per major parameter.
# Discord publishes none of them; these are what its headers show bots: Create Message 5 per
# 5 s per channel (X-RateLimit-Limit 5, Reset-After 5, the 5/5 of discord-api-docs#20),
# Edit Message the same in a bucket of its own, a member's role (added or removed, one bucket)
# 10 per 10 s per server. Create DM and Get User: generous (``RATE_LIMIT``), as unknown.
BUCKETS: dict[str, tuple[str, int, float]] = {
    "POST /channels/{channel_id}/messages": ("create message", 5, 5.0),
    "PATCH /channels/{channel_id}/messages/{message_id}": ("edit message", 5, 5.0),
    "PUT /guilds/{guild_id}/members/{user_id}/roles/{role_id}": ("member role", 10, 10.0),
    "DELETE /guilds/{guild_id}/members/{user_id}/roles/{role_id}": ("member role", 10, 10.0),
}
MAJOR = ("channel_id", "guild_id", "webhook_token", "interaction_token")  # a bucket's resource
# How long Create Message's enforce_nonce returns the message a nonce made ("the past few
# minutes", Discord's docs: at least the bot's NONCE_WINDOW)
NONCE_SECONDS = 180.0

# (method, path as Discord's API description writes it, handler): the routes the bot calls
ROUTES = [
    ("GET", "/users/@me", "me"),
    ("GET", "/users/{user_id}", "get_user"),
    ("POST", "/users/@me/channels", "open_dm"),
    ("GET", "/oauth2/applications/@me", "application"),
    ("GET", "/applications/@me", "application"),
    ("GET", "/gateway/bot", "gateway_bot"),
    ("GET", "/applications/{application_id}/commands", "list_commands"),
    ("PUT", "/applications/{application_id}/commands", "sync"),
    ("GET", "/applications/{application_id}/guilds/{guild_id}/commands", "list_commands"),
    ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", "sync"),
    ("POST", "/interactions/{interaction_id}/{interaction_token}/callback", "callback"),
    ("POST", "/webhooks/{webhook_id}/{webhook_token}", "followup"),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original", "edit"),
    ("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/@original", "delete"),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", "edit"),
    ("POST", "/channels/{channel_id}/messages", "create_message"),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}", "edit"),
    ("PUT", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", "add_member_role"),
    ("DELETE", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", "remove_member_role"),
    ("GET", "/channels/{channel_id}/messages", "channel_history"),
    ("GET", "/channels/{channel_id}", "get_channel"),
    # The game window (an Activity): Discord's OAuth2 token exchange (its OAuth2 docs; the API
    # description leaves it out), and who is in an Activity instance.
    ("POST", "/oauth2/token", "oauth_token"),
    ("GET", "/applications/{application_id}/activity-instances/{instance_id}", "activity_instance"),
]
CLIENT_SECRET = "stand-in-client-secret"  # the application's OAuth2 secret, as the bot is told
# What an interaction of each type may be answered with (Discord's callback types)
ANSWERS = {2: {4, 5, 9, 12}, 3: {4, 5, 6, 7, 9, 12}, 5: {4, 5, 6, 7}}  # 12: launch the Activity


def interaction_user(payload: dict[str, Any]) -> str:
    """Who sent an interaction: the member's user in a server, else the user."""
    return str((payload.get("member") or {}).get("user", payload.get("user", {})).get("id"))


def permissions(command: dict[str, Any]) -> str | None:
    """A command's ``default_member_permissions`` as Discord answers it: a string."""
    value = command.get("default_member_permissions")
    return None if value is None else str(value)


@dataclass
class Reply:
    """What the bot sent for one interaction: its callback, and any follow-ups."""

    kind: int | None = None  # 4 message, 5 deferred, 6/7 update, 9 modal
    data: dict[str, Any] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)
    answer_files: list[str] = field(default_factory=list)  # those of :attr:`answer`
    followups: list[dict[str, Any]] = field(default_factory=list)
    edits: list[dict[str, Any]] = field(default_factory=list)  # of the original response
    latency: float | None = None  # seconds from dispatch to the callback
    settled_latency: float | None = None  # to the answer itself (past a deferral: its edit)
    message_id: str | None = None  # the original response: the message the callback made or
    # (6, 7) the component's message it updates

    @property
    def accepted(self) -> bool:
        """A public answer (a board, not a private refusal), in the callback or, past a
        public deferral, in the edit that followed it."""
        if self.kind == 4:
            return not self.flags & EPHEMERAL
        return self.kind == 5 and not self.flags & EPHEMERAL and bool(self.edits)

    @property
    def flags(self) -> int:
        return int(self.data.get("flags") or 0)

    # A bot rightly defers what runs past a second (a loaded host, a busy database): a test
    # that needs the answer reads it here, given at once or past a deferral, never asserting
    # which (a hidden timing check). ``interact(..., settle=True)`` waits for it.

    @property
    def answer(self) -> dict[str, Any]:
        """The message that carries the answer: the callback's (4, 7), or past a deferral (5,
        6) the edit of the original response, else the first follow-up (the deferred message)."""
        if self.kind in (5, 6):
            return (self.edits or self.followups or [{}])[-1 if self.edits else 0]
        return self.data

    @property
    def private(self) -> bool:
        """The answer is seen by its asker only: sent so, or deferred privately, or past a
        public "thinking..." (which then goes) a private follow-up."""
        if self.kind == 5 and not self.edits and self.followups:
            return bool(self.flags & EPHEMERAL or int(self.followups[0].get("flags") or 0)
                        & EPHEMERAL)  # fmt: skip
        return bool(self.flags & EPHEMERAL)

    @property
    def a_new_message(self) -> bool:
        """Answered with a message of its own (4), or one deferred to come (5)."""
        return self.kind in (4, 5)

    @property
    def an_update(self) -> bool:
        """Answered by updating the component's message (7), or past a deferred update (6)."""
        return self.kind in (6, 7)

    def text(self) -> str:
        parts = [self.data.get("content") or ""]
        for body in [self.data, *self.followups, *self.edits]:
            parts.append(body.get("content") or "")
            for embed in body.get("embeds") or []:
                parts += [embed.get("title") or "", embed.get("description") or ""]
        return "\n".join(p for p in parts if p)

    def custom_ids(self) -> list[str]:
        """The buttons of the answer (:attr:`answer`)."""
        return [c["custom_id"] for row in self.answer.get("components") or []
                for c in row.get("components", []) if "custom_id" in c]  # fmt: skip


@dataclass
class Fault:
    """A route's next ``times`` answers: 429 (``retry_after``, per route or global) or 5xx."""

    operation: str  # as in ROUTES: "POST /webhooks/{webhook_id}/{webhook_token}"
    status: int = 429
    retry_after: float = 0.5
    is_global: bool = False
    times: int = 1


@dataclass
class Hold:
    """Requests to ``operation`` wait, after the first ``passes``, until ``release`` is set
    (``held`` says one waits): a test lands a kill while the bot waits on Discord.
    ``answered``: the request takes effect first, and its answer waits (Discord did it; the
    bot never hears)."""

    operation: str
    passes: int = 0
    answered: bool = False
    held: asyncio.Event = field(default_factory=asyncio.Event)
    release: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class Sent:
    """An interaction the stand-in dispatched."""

    payload: dict[str, Any]
    at: float  # perf_counter at dispatch


class DiscordServer(Gateway):
    def __init__(
        self, guilds: list[int], heartbeat_ms: int = 1000, shards: int = 1,
        validate: bool = True, token_lifetime: float = TOKEN_LIFETIME,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:  # fmt: skip
        super().__init__(guilds, heartbeat_ms, shards)
        # The rate limits' time (seconds; a test may drive it), their buckets (a test may
        # make one faster: ``buckets[operation] = (name, requests, seconds)``), and what
        # they refused: every 429 sent, by scope, and the invalid answers (``invalid_requests``)
        self.clock = clock
        self.buckets = dict(BUCKETS)
        self.invalid_limit = INVALID_LIMIT
        self.route_429s = 0
        self.banned_until: float | None = None  # the address banned (Cloudflare) until then
        # Every request as it arrived, cheaply (8 bytes each): how many of each operation, and
        # the times of those the global limit counts and of the interaction answers (``peak``)
        self.requests: Counter[str] = Counter()
        self.arrivals, self.answer_arrivals = array("d"), array("d")
        self._global: dict[str, deque[float]] = {}  # token -> its counted requests' times
        self._invalid: deque[float] = deque()  # the invalid answers' times, 10 minutes' worth
        # Checking bodies against the API description costs this process 2-3 ms of CPU per
        # body with an embed: the ramp benchmark (400 interactions/s) should turn it off.
        self.validate = validate
        self.token_lifetime = token_lifetime
        self.violations: list[str] = []
        # Discord's 3 s for the first answer. A test of what must hold under a load this
        # machine cannot promise to carry in time (other processes may hold the cores for
        # seconds) lifts it: a late first answer is then taken and counted in ``late``, not
        # refused; `wordlebot bench discord` is where the window is measured.
        self.window = WINDOW
        self.late = 0
        # The stretches (``clock`` times) this process could not run for: a loaded machine's, when
        # the requests' times it stamps say more of it than of the bot.
        self.stalls: list[tuple[float, float]] = []
        self._global_429_times: list[float] = []  # ``clock`` times (``global_429s``, ``stalled``)
        self._watch: asyncio.Task[None] | None = None
        self.synced: list[tuple[str, list[dict[str, Any]]]] = []
        self.commands: dict[str, list[dict[str, Any]]] = {}  # by path, as synced
        self.replies: dict[str, Reply] = {}
        self.store = Messages()  # every message the bot made, in its current state
        self.edited: dict[str, list[dict[str, Any]]] = {}  # channel messages' edits, by id
        # Messages the bot posted in channels (not interaction replies): (channel, body, files)
        self.posts: list[tuple[int, dict[str, Any], list[str]]] = []
        self.deleted_channels: set[int] = set()  # posting there: 404 Unknown Channel
        self.deleted_messages: set[str] = set()  # deleted by a member: 404 Unknown Message
        # The bot's permissions in a channel (every one where none are set): see ``deny``.
        self.channel_permissions: dict[int, int] = {}
        # Channels the bot is no member of, learnt from interactions that came from there
        # through a user install alone (a server that never installed it, a group DM).
        self.out_of_reach: set[int] = set()
        self.dm_channels: dict[int, int] = {}  # DM channel -> the user it reaches
        # Each member's roles as the bot changed them, by (guild, user); members who left.
        self.member_roles: dict[tuple[int, int], set[int]] = {}
        self.role_changes: list[tuple[int, int, int, str]] = []  # (guild, user, role, +/-)
        self.departed: set[tuple[int, int]] = set()
        # Roles' permissions as Discord applies them, which the bot was never told of
        self.untold: dict[tuple[int, int], int] = {}
        self.faults: list[Fault] = []
        self.holds: list[Hold] = []
        # What members posted in a channel before now, as its history serves it (``seed``)
        self.history: dict[int, list[dict[str, Any]]] = {}
        self.log: list[tuple[float, str, int]] = []  # (perf_counter, operation, status)
        self.nonces: dict[str, tuple[float, str]] = {}  # nonce -> (monotonic, message id)
        # The game window: Activity instances launched (id -> (channel, guild, users)),
        # the codes the SDK's authorize gave (-> user), and the access tokens they became.
        self.activities_enabled = False  # turned on in the Developer Portal (enable_activities)
        self.instances: dict[str, tuple[int, int | None, set[int]]] = {}
        self.codes: dict[str, tuple[int, str]] = {}
        self.access_tokens: dict[str, tuple[int, str]] = {}
        self._sent: dict[str, Sent] = {}  # by interaction id
        self._tokens: dict[str, str] = {}  # interaction token -> interaction id
        self._waiters: dict[str, asyncio.Event] = {}
        self._buckets: dict[str, tuple[float, int]] = {}  # token:bucket:major -> (start, used)
        self._sweep_at = 10_000  # buckets kept before the expired ones are dropped
        self._operations: dict[Any, str] = {}  # aiohttp route -> operation
        self.app = web.Application(client_max_size=16 * 1024 * 1024, middlewares=[self._http])
        for method, path, handler in ROUTES:
            route = self.app.router.add_route(method, "/api/v10" + path, getattr(self, handler))
            self._operations[route] = f"{method} {path}"
        self.app.router.add_get("/gateway", self.gateway)
        self.app.router.add_route("*", "/{tail:.*}", self.unknown)
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

    @property
    def global_429s(self) -> int:
        return len(self._global_429_times)

    def watch_stalls(self) -> None:
        """Record this loop's stalls from now on (``stalls``, ``stalled()``): a task that
        runs until ``stop``, so a test asks for it (a test that waits for every task to end
        would wait on it for ever)."""
        self._watch = asyncio.create_task(self._watch_stalls())

    async def _watch_stalls(self) -> None:
        last = self.clock()
        while True:
            await asyncio.sleep(TICK)
            now = self.clock()
            if now - last > TICK + STALL:
                self.stalls.append((last, now))
            last = now

    def in_stall(self, at: float) -> bool:
        """Whether a request stamped ``at`` (``clock``) may have come earlier than stamped:
        during a stall of this loop, or in the second after one, when those that waited
        were stamped together. Discord would have counted them as they came."""
        return any(start < at < end + GLOBAL_WINDOW for start, end in self.stalls)

    @property
    def global_429s_clear_of_stalls(self) -> int:
        """The global 429s no stall of this loop can explain, the bot's own: those whose
        second (the one before the refusal) held a full limit of requests without those
        ``in_stall`` (the ones the clear ``peak`` leaves out too). A stall's crowd drains
        over a moment past its end, so a refusal a little over a second after the stall,
        with the last of that crowd in its second, is the stall's as well."""
        arrivals = self.arrivals
        return sum(
            sum(not self.in_stall(t) for t in arrivals[
                bisect.bisect_right(arrivals, at - GLOBAL_WINDOW):bisect.bisect_right(arrivals, at)
            ]) >= GLOBAL_LIMIT
            for at in self._global_429_times
        )  # fmt: skip

    def stalled(self) -> str:
        """This process's stalls, said in a line (for a failure under load)."""
        gaps = [end - start for start, end in self.stalls]
        after = self.global_429s - self.global_429s_clear_of_stalls
        return (f"the stand-in's loop stalled {len(gaps)} times, longest {max(gaps):.2f} s; "
                f"{after} of {self.global_429s} global 429s in a second it crowded"
                if gaps else "the stand-in's loop never stalled")  # fmt: skip

    async def stop(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
        if self._runner is not None:
            await self._runner.cleanup()
        report = os.environ.get("STANDIN_LIMITS_REPORT")
        if report:  # a run of the suite that wants each test's use of the limits, one line each
            with open(report, "a") as out:
                out.write(json.dumps(self.limits_used()) + "\n")

    def limits_used(self) -> dict[str, Any]:
        """What this stand-in saw of Discord's limits: the 429s by scope, the invalid
        answers, the peak of requests in a second (global ones; all), the requests by kind."""
        return {"test": os.environ.get("PYTEST_CURRENT_TEST", ""),
                "global_429s": self.global_429s, "route_429s": self.route_429s,
                "invalid": self.invalid_requests(), "peak": self.peak(),
                "peak_all": self.peak(counted=False),
                "requests": self.requests}  # fmt: skip

    def fail(self, operation: str, status: int = 429, *, retry_after: float = 0.5,
             is_global: bool = False, times: int = 1) -> None:  # fmt: skip
        """Answer the next ``times`` requests to ``operation`` with ``status``."""
        assert any(f"{m} {p}" == operation for m, p, _ in ROUTES), operation
        self.faults.append(Fault(operation, status, retry_after, is_global, times))

    def hold(self, operation: str, *, passes: int = 0, answered: bool = False) -> Hold:
        """Make requests to ``operation`` wait, after ``passes`` of them (see :class:`Hold`)."""
        assert any(f"{m} {p}" == operation for m, p, _ in ROUTES), operation
        self.holds.append(Hold(operation, passes, answered))
        return self.holds[-1]

    def seed(self, channel: int, messages: list[dict[str, Any]]) -> None:
        """Messages posted in ``channel`` in the past (``discord_messages.past_message``: an id
        that encodes its time, as Discord's do), served by its history."""
        self.history.setdefault(channel, []).extend(messages)
        self.history[channel].sort(key=lambda m: int(m["id"]))

    def deny(self, channel: int, *names: str) -> None:
        """Take permissions (``PERMISSIONS``' names) from the bot in ``channel``: its posts
        there are refused as Discord refuses them, and the interactions from there carry
        what is left as ``app_permissions``."""
        allowed = self.channel_permissions.get(channel, ALL)
        for name in names:
            allowed &= ~PERMISSIONS[name]
        self.channel_permissions[channel] = allowed

    async def deliver_message(self, message: dict[str, Any], *, event: str = "MESSAGE_CREATE",
                              guild_id: int | None = None) -> None:  # fmt: skip
        """A message posted in a channel (by a member, or forwarded: see ``forwarded``),
        on the gateway as Discord sends it."""
        data = dict(message)
        if guild_id is not None:
            data["guild_id"] = str(guild_id)
        await self.dispatch(event, data)

    async def delete_message(self, message_id: str | int, *, guild_id: int | None = None) -> None:
        """A message deleted in Discord by someone else (a moderator): gone from the channel,
        its edits answered 404 Unknown Message (10008), and MESSAGE_DELETE on the gateway."""
        message = self.store.by_id.pop(str(message_id))
        self.deleted_messages.add(str(message_id))
        event = {"id": str(message_id), "channel_id": message["channel_id"]}
        if guild_id is not None:
            event["guild_id"] = str(guild_id)
        await self.dispatch("MESSAGE_DELETE", event)

    def message(self, reply: Reply) -> dict[str, Any] | None:
        """The current state of an interaction's original response (None: none, or deleted)."""
        return None if reply.message_id is None else self.store.by_id.get(reply.message_id)

    # -- what every answer goes through -------------------------------------------------

    @web.middleware
    async def _http(self, request: web.Request, handler: Any) -> web.StreamResponse:
        operation = self._operations.get(request.match_info.route)
        if operation is None:  # the gateway, or a route the bot should not call
            return await handler(request)
        exempt = self._exempt(request, operation)
        self.requests[operation] += 1
        (self.answer_arrivals if exempt else self.arrivals).append(self.clock())
        if self.banned_until is not None and self.clock() < self.banned_until:
            # Cloudflare answers for Discord: its error 1015, plain text, no ``Via`` (which is
            # how discord.py tells a ban from Discord's own 429)
            return web.Response(status=429, text="error code: 1015", content_type="text/plain")
        hold = next((h for h in self.holds if h.operation == operation), None)
        if hold is not None and hold.passes:
            hold.passes -= 1
            hold = None
        if hold is not None and not hold.answered:
            hold.held.set()
            await hold.release.wait()
        fault = next((f for f in self.faults if f.operation == operation and f.times), None)
        refusal: web.Response | None = None
        headers: dict[str, str] = {}
        if fault is None or fault.status != 429:
            refusal, headers = self._rate_limit(request, operation, exempt)
        if fault is not None:
            fault.times -= 1
            response = self._fault(request, fault)
        else:
            response = refusal or await handler(request)
        if hold is not None and hold.answered:
            hold.held.set()
            await hold.release.wait()
        response.headers.update(headers)
        response.headers["Via"] = "1.1 google"  # on Discord's own answers (discord.py checks)
        self.log.append((time.perf_counter(), operation, response.status))
        self._count(response)
        return response

    # -- Discord's rate limits ------------------------------------------------------------

    def _exempt(self, request: web.Request, operation: str) -> bool:
        """Interaction answers (the callback, and follow-ups and edits through the
        interaction's token) are not bound by the global limit (Discord's docs)."""
        return operation.startswith("POST /interactions/") or (
            "webhook_token" in request.match_info
            and request.match_info["webhook_id"] == str(APP_ID)
        )

    def _rate_limit(self, request: web.Request, operation: str,
                    exempt: bool) -> tuple[web.Response | None, dict[str, str]]:  # fmt: skip
        """Take a place in the token's global second and in the route's bucket: a 429 as
        Discord sends it where either is full, else the bucket's headers for the answer."""
        now, token = self.clock(), request.headers.get("Authorization", "")
        window = self._global.setdefault(token, deque())
        if not exempt:
            while window and window[0] <= now - GLOBAL_WINDOW:
                window.popleft()
            if len(window) >= GLOBAL_LIMIT:
                return self._too_many(request, window[0] + GLOBAL_WINDOW - now, {
                    "X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"}), {}  # fmt: skip
        name, limit, seconds = self.buckets.get(operation, (operation, RATE_LIMIT, RATE_WINDOW))
        major = next((request.match_info[k] for k in MAJOR if k in request.match_info), "")
        key = f"{token}:{name}:{major}"  # a bucket is the token's own, as the global second
        if len(self._buckets) >= self._sweep_at and key not in self._buckets:
            self._sweep(now)
        start, used = self._buckets.get(key, (now, 0))
        if now - start >= seconds:
            start, used = now, 0
        after = start + seconds - now
        headers = {
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Remaining": str(max(0, limit - used - 1)),
            "X-RateLimit-Reset": f"{time.time() + after:.3f}",
            "X-RateLimit-Reset-After": f"{after:.3f}",
            "X-RateLimit-Bucket": self._bucket_hash(name),
        }
        if used >= limit:
            return self._too_many(request, after, {**headers, "X-RateLimit-Remaining": "0",
                                                   "X-RateLimit-Scope": "user"}), {}  # fmt: skip
        self._buckets[key] = (start, used + 1)
        if not exempt:
            window.append(now)
        return None, headers

    def _sweep(self, now: float) -> None:
        """Drop the buckets whose window is over (one per interaction token, per channel:
        a long run makes hundreds of thousands), as they would start afresh anyway."""
        longest = max([RATE_WINDOW, *(seconds for _, _, seconds in self.buckets.values())])
        self._buckets = {key: (start, used) for key, (start, used) in self._buckets.items()
                         if now - start < longest}  # fmt: skip
        self._sweep_at = 2 * len(self._buckets) + 10_000

    def _too_many(self, request: web.Request, retry_after: float,
                  headers: dict[str, str]) -> web.Response:  # fmt: skip
        """A 429 as Discord's docs show it: the body, and ``Retry-After`` in whole seconds."""
        body = {"message": "You are being rate limited.", "retry_after": round(retry_after, 3),
                "global": headers.get("X-RateLimit-Scope") == "global", "code": 0}  # fmt: skip
        response = self.answer(request, body, 429)
        response.headers.update({"Retry-After": str(max(1, math.ceil(retry_after))), **headers})
        return response

    def _count(self, response: web.StreamResponse) -> None:
        """Count the 429s by scope, and the invalid answers as Discord counts them: every 401,
        403 and 429 but a 429 of the shared scope; ``invalid_limit`` of them in 10 minutes
        ban the address for ``BAN_SECONDS``."""
        scope = response.headers.get("X-RateLimit-Scope") if response.status == 429 else None
        if scope == "global":
            self._global_429_times.append(self.clock())
        self.route_429s += scope == "user"
        if response.status in (401, 403) or (response.status == 429 and scope != "shared"):
            self._invalid.append(self.clock())
            if self.invalid_requests() >= self.invalid_limit:
                self.banned_until = self.clock() + BAN_SECONDS

    def invalid_requests(self) -> int:
        """The invalid answers (401, 403, 429) of the last 10 minutes, as Discord counts them."""
        while self._invalid and self._invalid[0] <= self.clock() - INVALID_WINDOW:
            self._invalid.popleft()
        return len(self._invalid)

    def peak(self, seconds: float = GLOBAL_WINDOW, *, counted: bool = True,
             clear_of_stalls: bool = False) -> int:  # fmt: skip
        """The most requests that arrived within any ``seconds`` (``counted``: those the
        global limit counts, interaction answers aside; ``clear_of_stalls``: those stamped
        where no stall of this loop may have crowded them, see ``in_stall``)."""
        times = list(self.arrivals if counted else heapq.merge(self.arrivals, self.answer_arrivals))
        if clear_of_stalls:
            times = [at for at in times if not self.in_stall(at)]
        most, first = 0, 0
        for last, at in enumerate(times):
            while times[first] <= at - seconds:
                first += 1
            most = max(most, last - first + 1)
        return most

    def _fault(self, request: web.Request, fault: Fault) -> web.Response:
        if fault.status != 429:
            return self.error(request, f"{fault.status}: Server Error", 0, fault.status)
        body = {"message": "You are being rate limited.", "retry_after": fault.retry_after,
                "global": fault.is_global, "code": 0}  # fmt: skip
        response = self.answer(request, body, 429)
        response.headers.update({
            "Retry-After": str(math.ceil(fault.retry_after)), "X-RateLimit-Limit": "1",
            "X-RateLimit-Remaining": "0", "X-RateLimit-Reset-After": str(fault.retry_after),
            "X-RateLimit-Reset": f"{time.time() + fault.retry_after:.3f}",
            "X-RateLimit-Scope": "global" if fault.is_global else "user",
        })  # fmt: skip
        if fault.is_global:
            response.headers["X-RateLimit-Global"] = "true"
        else:
            operation = self._operations[request.match_info.route]
            response.headers["X-RateLimit-Bucket"] = self._bucket_hash(
                self.buckets.get(operation, (operation,))[0]
            )
        return response

    @staticmethod
    def _bucket_hash(name: str) -> str:
        return hashlib.blake2s(name.encode(), digest_size=8).hexdigest()

    def answer(self, request: web.Request, data: Any, status: int = 200) -> web.Response:
        """JSON as Discord sends it (discord.py parses only an exact application/json type),
        checked against the API description of the answer: the stand-in's own self-check."""
        operation = self._operations.get(request.match_info.route)
        if self.validate and operation is not None:
            self.violations += [f"the stand-in's answer: {p}"
                                for p in problems(operation, data, status)]  # fmt: skip
        return web.Response(body=orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS), status=status,
                            headers={"Content-Type": "application/json"})  # fmt: skip

    def error(self, request: web.Request, message: str, code: int, status: int) -> web.Response:
        """A JSON error, as Discord answers: ``{"message", "code"}`` (e.g. 10008 Unknown
        Message, 10062 Unknown interaction, 40060 already acknowledged)."""
        return self.answer(request, {"message": message, "code": code}, status)

    async def _body(self, request: web.Request) -> tuple[dict[str, Any], list[Upload]]:
        """The request's JSON (or multipart ``payload_json`` and its files: (field, filename,
        size)), checked against the API description of the route."""
        body: Any = {}
        files: list[Upload] = []
        # The header read as is: aiohttp's parsed content_type goes through the email package,
        # which cost the stand-in a fifth of its time under the ramp's load.
        if request.headers.get("Content-Type", "").startswith("multipart/"):
            reader = await request.multipart()
            async for part in reader:  # type: ignore[union-attr]
                if part.name == "payload_json":
                    body = json.loads(await part.text())  # type: ignore[union-attr]
                else:
                    data = await part.read()  # type: ignore[union-attr]
                    files.append((part.name or "", part.filename or "", len(data)))  # type: ignore[union-attr]
        elif request.can_read_body:
            body = await request.json()
        operation = self._operations[request.match_info.route]
        if self.validate:
            self.violations += problems(operation, body)
        return body, files

    # -- the application, users, commands -----------------------------------------------

    # -- the game window (an Activity) ---------------------------------------------------

    def launch(self, instance_id: str, channel_id: int, users: set[int],
               guild_id: int | None = None) -> None:  # fmt: skip
        """An Activity instance running in ``channel_id`` with ``users`` connected (a user
        joining or leaving: call again)."""
        self.instances[instance_id] = (channel_id, guild_id, set(users))

    def enable_activities(self) -> dict[str, Any]:
        """Activities turned on in the Developer Portal: Discord makes the default Entry
        Point command, "Launch", which Discord itself handles by opening the window."""
        launch = {"id": snowflake(), "application_id": str(APP_ID), "version": snowflake(),
                  "type": 4, "name": "launch", "description": "", "handler": 2,
                  "contexts": [0, 1, 2], "integration_types": [0, 1], "nsfw": False,
                  "default_member_permissions": None, "dm_permission": True}  # fmt: skip
        self.commands.setdefault(f"/api/v10/applications/{APP_ID}/commands", []).append(launch)
        self.activities_enabled = True
        return launch

    def authorize(self, user_id: int, name: str = "player") -> str:
        """What the Embedded App SDK's ``authorize`` gives the window of ``user_id``: a code,
        good for one exchange."""
        code = secrets.token_urlsafe(16)
        self.codes[code] = (user_id, name)
        return code

    async def oauth_token(self, request: web.Request) -> web.Response:
        """The authorization-code exchange (Discord's OAuth2 docs): a form with the client's
        id and secret (or HTTP Basic), the grant type and the code, once."""
        form = await request.post()
        client_id, secret = form.get("client_id"), form.get("client_secret")
        if request.headers.get("Authorization", "").startswith("Basic "):
            pair = base64.b64decode(request.headers["Authorization"][6:]).decode()
            client_id, _, secret = pair.partition(":")
        if client_id != str(APP_ID) or secret != CLIENT_SECRET:
            return web.json_response({"error": "invalid_client"}, status=401)
        if form.get("grant_type") != "authorization_code":
            return web.json_response({"error": "unsupported_grant_type"}, status=400)
        who = self.codes.pop(str(form.get("code")), None)
        if who is None:
            return web.json_response({"error": "invalid_grant",
                                      "error_description": 'Invalid "code" in request.'},
                                     status=400)  # fmt: skip
        token = secrets.token_urlsafe(24)
        self.access_tokens[token] = who
        return web.json_response({"access_token": token, "token_type": "Bearer",
                                  "expires_in": 604800, "refresh_token": secrets.token_urlsafe(24),
                                  "scope": "identify"})  # fmt: skip

    async def activity_instance(self, request: web.Request) -> web.Response:
        if not request.headers.get("Authorization", "").startswith("Bot "):
            return self.error(request, "401: Unauthorized", 0, 401)
        instance_id = request.match_info["instance_id"]
        found = self.instances.get(instance_id)
        if request.match_info["application_id"] != str(APP_ID) or found is None:
            # Discord's docs name no error code for an instance that is not (or no longer) there
            return self.error(request, "404: Not Found", 0, 404)
        channel_id, guild_id, users = found
        location: dict[str, Any] = {
            "id": f"gc-{guild_id}-{channel_id}",
            "kind": "gc",
            "channel_id": str(channel_id),
            "guild_id": str(guild_id),
        }
        if guild_id is None:
            location = {"id": f"pc-{channel_id}", "kind": "pc", "channel_id": str(channel_id)}
        return self.answer(request, {"application_id": str(APP_ID), "instance_id": instance_id,
                                     "launch_id": str(abs(hash(instance_id))), "location": location,
                                     "users": [str(u) for u in sorted(users)]})  # fmt: skip

    async def me(self, request: web.Request) -> web.Response:
        authorization = request.headers.get("Authorization", "")
        if authorization.startswith("Bearer "):  # a player's token: who they are
            who = self.access_tokens.get(authorization.removeprefix("Bearer "))
            if who is None:
                return self.error(request, "401: Unauthorized", 0, 401)
            return self.answer(request, {**user(*who), "mfa_enabled": False,
                                         "locale": "en-US"})  # fmt: skip
        if not authorization.startswith("Bot "):
            return self.error(request, "401: Unauthorized", 0, 401)
        return self.answer(request, {**user(BOT_ID, "wordlebot", bot=True), "mfa_enabled": False,
                                     "locale": "en-US", "verified": True})  # fmt: skip

    async def application(self, request: web.Request) -> web.Response:
        return self.answer(request, {
            "id": str(APP_ID), "name": "wordlebot", "icon": None, "description": "", "type": None,
            "bot_public": True, "bot_require_code_grant": False, "verify_key": "0" * 64,
            "owner": user(1, "owner"), "flags": 0, "flags_new": "0", "team": None,
            "redirect_uris": [], "interactions_endpoint_url": None,
            "role_connections_verification_url": None, "approximate_guild_count": 3,
            "approximate_user_install_count": 0, "approximate_user_authorization_count": 0,
            "explicit_content_filter": 0, "eligible_oauth2_scopes": [],
        })  # fmt: skip

    async def gateway_bot(self, request: web.Request) -> web.Response:
        return self.answer(request, {
            "url": f"ws://127.0.0.1:{self.port}/gateway", "shards": self.shards,
            "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0,
                                    "max_concurrency": 1},
        })  # fmt: skip

    async def get_user(self, request: web.Request) -> web.Response:
        return self.answer(request, user(int(request.match_info["user_id"]), "admin"))

    async def open_dm(self, request: web.Request) -> web.Response:
        """POST /users/@me/channels {recipient_id}: the DM channel with that user."""
        body, _ = await self._body(request)
        recipient = int(body["recipient_id"])
        channel = recipient + 7
        self.dm_channels[channel] = recipient
        dm = {"id": str(channel), "type": 1, "last_message_id": None, "flags": 0,
              "recipients": [user(recipient, "admin")]}  # fmt: skip
        return self.answer(request, dm)

    async def sync(self, request: web.Request) -> web.Response:
        """A bulk overwrite: replaces the whole list there (checked against the description
        of ``ApplicationCommandUpdateRequest`` like every request)."""
        body, _ = await self._body(request)
        commands: list[dict[str, Any]] = body or []
        self.synced.append((request.path, commands))
        self.violations += [f"/{c.get('name')}: dm_permission beside contexts (deprecated: "
                            "contexts alone says where a command is offered)"
                            for c in commands
                            if "dm_permission" in c and "contexts" in c]  # fmt: skip
        guild = request.match_info.get("guild_id")
        before = self.commands.get(request.path, [])
        kept = {str(c.get("id")) for c in commands} | {c.get("name") for c in commands}
        if any(c["type"] == 4 and c["id"] not in kept and c["name"] not in kept for c in before):
            # The words Discord answers (as a bot's log recorded them; its docs give no code)
            refusal = ("You cannot remove this app's Entry Point command in a bulk update "
                       "operation. Please include the Entry Point command in your update "
                       "request or delete it separately.")  # fmt: skip
            return self.error(request, refusal, 0, 400)
        stored = [{"description": "", "options": [], "dm_permission": True, "type": 1,
                   "nsfw": False, **c, "id": str(c.get("id") or snowflake()),
                   "application_id": str(APP_ID),
                   "version": snowflake(), **({"guild_id": guild} if guild else {}),
                   "default_member_permissions": permissions(c)} for c in commands]  # fmt: skip
        self.commands[request.path] = stored
        return self.answer(request, stored)

    async def list_commands(self, request: web.Request) -> web.Response:
        """GET .../commands: the application commands last synced there, or none."""
        return self.answer(request, self.commands.get(request.path, []))

    async def unknown(self, request: web.Request) -> web.Response:
        self.violations.append(f"unexpected request {request.method} {request.path}")
        return web.json_response({"message": "404: Not Found", "code": 0}, status=404)

    # -- interactions -------------------------------------------------------------------

    # -- what Discord refuses of a message ------------------------------------------------

    def _refused(self, request: web.Request, body: dict[str, Any], files: list[Upload],
                 allowed: int, where: str) -> web.Response | None:  # fmt: skip
        """Discord's refusals of a message body: content past 2,000 characters (400, 50035),
        files without Attach Files or embeds without Embed Links (403, 50013), with
        ``allowed`` the bot's permissions there. Each is also a violation."""
        content = body.get("content") or ""
        if len(content) > CONTENT_LIMIT:
            self.violations.append(f"{where}: content of {len(content)} characters (2,000 at most)")
            return self.error(request, "Invalid Form Body: content: Must be 2000 or fewer in "
                              "length.", 50035, 400)  # fmt: skip
        for needed, present in (("attach_files", files), ("embed_links", body.get("embeds"))):
            if present and not allowed & PERMISSIONS[needed]:
                self.violations.append(f"{where}: without {needed.replace('_', ' ').title()}")
                return self.error(request, "Missing Permissions", 50013, 403)
        return None

    def _app_permissions(self, interaction: str) -> int:
        payload = self._sent[interaction].payload
        return int(payload.get("app_permissions", ALL))

    async def callback(self, request: web.Request) -> web.Response:
        interaction = request.match_info["interaction_id"]
        body, files = await self._body(request)
        sent = self._sent.get(interaction)
        if sent is None or sent.payload["token"] != request.match_info["interaction_token"]:
            self.violations.append(f"callback for an interaction never sent: {interaction}")
            return self.error(request, "Unknown interaction", 10062, 404)
        reply = self.replies.setdefault(interaction, Reply())
        if reply.kind is not None:
            self.violations.append(f"interaction {interaction} answered twice")
            return self.error(request, "Interaction has already been acknowledged.", 40060, 400)
        latency = time.perf_counter() - sent.at
        if latency > self.window:
            self.violations.append(f"interaction {interaction} answered after {latency:.1f} s")
            return self.error(request, "Unknown interaction", 10062, 404)
        self.late += latency > WINDOW
        kind, data = body.get("type"), body.get("data") or {}
        payload = sent.payload
        if kind not in ANSWERS.get(payload["type"], set()) or (
            kind in (6, 7) and "message" not in payload
        ):
            self.violations.append(f"callback type {kind} to interaction type {payload['type']}")
            return self.error(request, "Invalid Form Body", 50035, 400)
        self.violations += check_message(data, f"callback {kind}")
        if kind in (4, 7):
            refused = self._refused(request, data, files, self._app_permissions(interaction),
                                    f"interaction {interaction} callback {kind}")  # fmt: skip
            if refused is not None:  # not acknowledged: the bot may answer again
                return refused
        if kind == 9:
            self.violations += check_modal(data, "callback 9")
        if kind == 12 and not self.activities_enabled:
            self.violations.append("LAUNCH_ACTIVITY from an application without Activities")
            return self.error(request, "Activities are not enabled for this application", 0, 400)
        reply.kind, reply.data, reply.files = kind, data, [name for _, name, _ in files]
        if kind not in (5, 6):
            reply.answer_files = reply.files
        reply.latency = latency
        if kind not in (5, 6):
            reply.settled_latency = latency
        channel = payload.get("channel_id", "0")
        message: dict[str, Any] | None = None
        if kind == 4:
            message = self.store.create(data, files, channel_id=channel, webhook=True,
                                        flags=int(data.get("flags") or 0))  # fmt: skip
        elif kind == 5:  # "thinking...": the original response, visible as the deferral chose
            flags = (int(data.get("flags") or 0) & EPHEMERAL) | LOADING
            message = self.store.create({}, [], channel_id=channel, webhook=True, flags=flags)
        elif kind in (6, 7):
            message = self.store.adopt(payload["message"])
            if kind == 7:
                self.store.merge(message, data, files)
        if message is not None:
            reply.message_id = message["id"]
            self._images(message, f"callback {kind}")
        self._wake(interaction)
        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        answer: dict[str, Any] = {"interaction": {"id": interaction, "type": payload["type"]}}
        if message is not None and kind in (4, 5):
            answer["interaction"] |= {
                "response_message_id": message["id"], "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(message["flags"] & EPHEMERAL)}  # fmt: skip
        if message is not None and kind in (4, 7):
            answer["resource"] = {"type": kind, "message": message}
        if kind == 12:  # the window opens in the channel: an instance with its launcher in it
            instance = f"i-{interaction}-{channel}"
            guild = payload.get("guild_id")
            self.launch(instance, int(channel), {int(interaction_user(payload))},
                        int(guild) if guild else None)  # fmt: skip
            answer["resource"] = {"type": 12, "activity_instance": {"id": instance}}
        return self.answer(request, answer)

    def _by_token(self, request: web.Request) -> tuple[str | None, web.Response | None]:
        """The interaction a webhook token belongs to, or Discord's refusal of the token."""
        token = request.match_info["webhook_token"]
        interaction = self._tokens.get(token)
        if request.match_info["webhook_id"] != str(APP_ID) or interaction is None:
            self.violations.append(f"{request.method} {request.path}: not an interaction token")
            return None, self.error(request, "Unknown Webhook", 10015, 404)
        age = time.perf_counter() - self._sent[interaction].at
        if age > self.token_lifetime:
            self.violations.append(f"interaction {interaction}: token used {age:.0f} s after "
                                   "it was issued (it serves 15 minutes)")  # fmt: skip
            return None, self.error(request, "Invalid Webhook Token", 50027, 401)
        reply = self.replies.get(interaction)
        if reply is None or reply.kind is None:
            self.violations.append(f"interaction {interaction}: follow-up before its response")
            return None, self.error(request, "Unknown Webhook", 10015, 404)
        return interaction, None

    async def followup(self, request: web.Request) -> web.Response:
        body, files = await self._body(request)
        interaction, refusal = self._by_token(request)
        if refusal is not None or interaction is None:
            return refusal or web.Response(status=500)
        self.violations += check_message(body, "follow-up")
        reply = self.replies[interaction]
        where = f"interaction {interaction} follow-up"
        refused = self._refused(request, body, files, self._app_permissions(interaction), where)
        if refused is not None:
            return refused
        owners = self._sent[interaction].payload.get("authorizing_integration_owners") or {}
        if "0" not in owners and len(reply.followups) >= USER_INSTALL_FOLLOWUPS:
            self.violations.append(f"{where}: past {USER_INSTALL_FOLLOWUPS} follow-ups, where "
                                   "only a user installed the app")  # fmt: skip
            return self.error(request, "This interaction has hit the maximum number of follow "
                              "up messages", 40094, 400)  # fmt: skip
        original = self.message(reply)
        asked = int(body.get("flags") or 0) & EPHEMERAL
        if reply.kind == 5 and original is not None and original["flags"] & LOADING:
            # The first follow-up after a deferral is the deferred message: seen as the
            # deferral chose, whatever its own flags say.
            if asked and not original["flags"] & EPHEMERAL:
                self.violations.append(f"interaction {interaction}: a follow-up asked to be "
                                       "private after a public deferral: all see it")  # fmt: skip
            original["flags"] &= ~LOADING
            message = self.store.merge(original, body, files)
            if not reply.edits:
                reply.answer_files = [name for _, name, _ in files]
        else:
            channel = self._sent[interaction].payload.get("channel_id", "0")
            message = self.store.create(body, files, channel_id=channel, flags=asked,
                                        webhook=True)  # fmt: skip
        self._images(message, "follow-up")
        reply.followups.append(body)
        self._settled(interaction, reply)
        self._wake(interaction)
        return self.answer(request, message)

    async def edit(self, request: web.Request) -> web.Response:
        body, files = await self._body(request)
        self.violations += check_message(body, "edit")
        target = request.match_info.get("message_id")
        interaction = None
        if "webhook_token" in request.match_info:
            interaction, refusal = self._by_token(request)
            if refusal is not None or interaction is None:
                return refusal or web.Response(status=500)
            if target is None:  # @original
                target = self.replies[interaction].message_id
        message = None if target is None else self.store.by_id.get(target)
        if message is None and target in self.deleted_messages:  # the bot could not know
            return self.error(request, "Unknown Message", 10008, 404)
        if message is None:
            self.violations.append(f"{request.method} {request.path}: no such message")
            return self.error(request, "Unknown Message", 10008, 404)
        if interaction is not None:
            allowed = self._app_permissions(interaction)
        else:
            allowed = self.channel_permissions.get(int(message["channel_id"]), ALL)
            if not allowed & PERMISSIONS["view_channel"]:
                self.violations.append(f"{request.path}: the bot cannot see that channel")
                return self.error(request, "Missing Access", 50001, 403)
        refused = self._refused(request, body, files, allowed, f"edit of {message['id']}")
        if refused is not None:
            return refused
        if interaction is None and message["flags"] & EPHEMERAL:
            self.violations.append(f"{request.path}: an ephemeral message is edited only "
                                   "through its interaction's token")  # fmt: skip
            return self.error(request, "Unknown Message", 10008, 404)
        message["flags"] &= ~LOADING  # an edit of a deferral is its answer
        self.store.merge(message, body, files)
        self._images(message, "edit")
        if interaction is None:
            self.edited.setdefault(message["id"], []).append(body)
        elif request.match_info.get("message_id") is None:
            reply = self.replies[interaction]
            reply.edits.append(body)
            if reply.kind in (5, 6):
                reply.answer_files = [name for _, name, _ in files]
            self._settled(interaction, reply)
            self._wake(interaction)
        return self.answer(request, message)

    async def delete(self, request: web.Request) -> web.Response:
        """DELETE .../messages/@original."""
        interaction, refusal = self._by_token(request)
        if refusal is not None or interaction is None:
            return refusal or web.Response(status=500)
        reply = self.replies[interaction]
        if self.store.by_id.pop(reply.message_id or "", None) is None:
            self.violations.append(f"interaction {interaction}: deleting a missing response")
            return self.error(request, "Unknown Message", 10008, 404)
        return web.Response(status=204)

    async def create_message(self, request: web.Request) -> web.Response:
        body, files = await self._body(request)
        channel = int(request.match_info["channel_id"])
        if channel in self.deleted_channels:  # as Discord answers (JSON error code 10003)
            return self.error(request, "Unknown Channel", 10003, 404)
        self.violations += check_message(body, "message")
        allowed = self.channel_permissions.get(channel, ALL)
        if channel in self.out_of_reach or not allowed & PERMISSIONS["view_channel"]:
            self.violations.append(f"channel {channel}: the bot is no member there, or cannot "
                                   "see it")  # fmt: skip
            return self.error(request, "Missing Access", 50001, 403)
        if not allowed & PERMISSIONS["send_messages"]:
            self.violations.append(f"channel {channel}: without Send Messages")
            return self.error(request, "Missing Permissions", 50013, 403)
        refused = self._refused(request, body, files, allowed, f"channel {channel} message")
        if refused is not None:
            return refused
        if not (body.get("content") or body.get("embeds") or files or body.get("components")):
            self.violations.append("a message needs content, an embed, a file or components")
            return self.error(request, "Cannot send an empty message", 50006, 400)
        nonce = None if body.get("nonce") is None else str(body["nonce"])
        made = self.nonces.get(nonce or "")
        if (body.get("enforce_nonce") and made is not None
                and time.monotonic() - made[0] < NONCE_SECONDS
                and made[1] in self.store.by_id):  # fmt: skip
            # Discord's docs: a message made by the same author (here, always the bot) with
            # the same nonce in the past few minutes is returned; none is made.
            return self.answer(request, self.store.by_id[made[1]])
        message = self.store.create(body, files, channel_id=str(channel))
        if nonce is not None:
            message["nonce"] = body["nonce"]
            self.nonces[nonce] = (time.monotonic(), message["id"])
        self._images(message, "message")
        self.posts.append((channel, body, [name for _, name, _ in files]))
        return self.answer(request, message)

    # -- a member's roles -------------------------------------------------------------------

    def holders(self, guild: int, role: int) -> set[int]:
        """The members the bot has given ``role`` (and not taken back)."""
        return {user for (g, user), roles in self.member_roles.items()
                if g == guild and role in roles}  # fmt: skip

    async def set_role_permissions(self, guild: int, role: int, permissions: int, *,
                                   tell: bool = True) -> None:  # fmt: skip
        """An admin changes a role's permissions: GUILD_ROLE_UPDATE tells the bot (``tell``
        False: Discord applies it but the bot is never told, not even by a new GUILD_CREATE,
        as when its cache lags behind)."""
        if not tell:
            self.untold[(guild, role)] = permissions
            return
        [changed] = [r for r in self.roles_of(guild) if r["id"] == str(role)]
        changed["permissions"] = str(permissions)
        await self.dispatch("GUILD_ROLE_UPDATE", {"guild_id": str(guild), "role": changed})

    def _role_refusal(self, request: web.Request) -> web.Response | None:
        """What Discord answers a role change with when it refuses it: 404 for an unknown
        role (10011) or member (10007); 403 Missing Permissions (50013) without Manage Roles,
        for a role not below the bot's highest, or one an integration manages."""
        guild = int(request.match_info["guild_id"])
        member = int(request.match_info["user_id"])
        roles = {int(r["id"]): r for r in self.roles_of(guild)}
        role = roles.get(int(request.match_info["role_id"]))
        if role is None:
            return self.error(request, "Unknown Role", 10011, 404)
        if (guild, member) in self.departed:
            return self.error(request, "Unknown Member", 10007, 404)
        mine = [r for r in roles.values() if int(r["id"]) == guild
                or (r.get("tags") or {}).get("bot_id") == str(BOT_ID)]  # fmt: skip
        allowed = 0
        for r in mine:
            allowed |= self.untold.get((guild, int(r["id"])), int(r["permissions"]))
        highest = max(int(r["position"]) for r in mine)
        if (not allowed & (MANAGE_ROLES | ADMINISTRATOR) or int(role["position"]) >= highest
                or role["managed"]):  # fmt: skip
            if not any(g == guild for g, _ in self.untold):  # what the bot knew said it could not
                self.violations.append(f"role {role['name']}: changed without the right to")
            return self.error(request, "Missing Permissions", 50013, 403)
        return None

    async def add_member_role(self, request: web.Request) -> web.Response:
        refused = self._role_refusal(request)
        if refused is not None:
            return refused
        key = (int(request.match_info["guild_id"]), int(request.match_info["user_id"]))
        self._change_role(key, int(request.match_info["role_id"]), "+")
        return web.Response(status=204)

    def _change_role(self, member: tuple[int, int], role: int, change: str) -> None:
        """Give (+) or take (-) a member's role; a change that changes something is recorded
        (Discord answers 204 either way)."""
        roles = self.member_roles.setdefault(member, set())
        if (role in roles) != (change == "+"):
            self.role_changes.append((*member, role, change))
        (roles.add if change == "+" else roles.discard)(role)

    async def remove_member_role(self, request: web.Request) -> web.Response:
        refused = self._role_refusal(request)
        if refused is not None:
            return refused
        key = (int(request.match_info["guild_id"]), int(request.match_info["user_id"]))
        self._change_role(key, int(request.match_info["role_id"]), "-")
        return web.Response(status=204)

    async def get_channel(self, request: web.Request) -> web.Response:
        """Get Channel: a server's one text channel as it is now, the bot's permissions taken
        there (``deny``) as a member overwrite; 403 Missing Access without View Channel."""
        channel = int(request.match_info["channel_id"])
        guild = next((g for g in (channel - 1, channel - 2) if g in self.guild_set), None)
        if channel in self.deleted_channels or guild is None:
            return self.error(request, "Unknown Channel", 10003, 404)
        allowed = self.channel_permissions.get(channel, ALL)
        if not allowed & PERMISSIONS["view_channel"]:
            return self.error(request, "Missing Access", 50001, 403)
        [data] = [c for c in channels(guild) if c["id"] == str(channel)]
        if channel in self.channel_permissions:
            data["permission_overwrites"] = [{"id": str(BOT_ID), "type": 1, "allow": "0",
                                              "deny": str(ALL & ~allowed)}]  # fmt: skip
        return self.answer(request, {**data, "guild_id": str(guild), "flags": 0,
                                     "last_message_id": None, "nsfw": False,
                                     "rate_limit_per_user": 0, "topic": None,
                                     "parent_id": None})  # fmt: skip

    async def channel_history(self, request: web.Request) -> web.Response:
        """A channel's messages as Discord pages them: ``limit`` 1 to 100 (50 by default), at
        most one of ``before``, ``after``, ``around`` (message ids), newest first whichever
        is given (``after``: the oldest ``limit`` after it). Without View Channel, 403
        Missing Access; without Read Message History, no messages at all, and no error
        (Discord's docs, Get Channel Messages)."""
        channel = int(request.match_info["channel_id"])
        if channel in self.deleted_channels:
            return self.error(request, "Unknown Channel", 10003, 404)
        allowed = self.channel_permissions.get(channel, ALL)
        if not allowed & PERMISSIONS["view_channel"]:
            return self.error(request, "Missing Access", 50001, 403)
        query = request.query
        anchors = [k for k in ("before", "after", "around") if k in query]
        try:
            limit = int(query.get("limit", "50"))
            anchor = int(query[anchors[0]]) if anchors else None
        except ValueError:
            return self.error(request, "Invalid Form Body", 50035, 400)
        if not 1 <= limit <= 100 or len(anchors) > 1:
            self.violations.append(f"{request.path_qs}: limit 1-100, one of before/after/around")
            return self.error(request, "Invalid Form Body", 50035, 400)
        readable = allowed & PERMISSIONS["read_message_history"]
        oldest_first = self.history.get(channel, []) if readable else []
        ids = [int(m["id"]) for m in oldest_first]
        if not anchors:
            chosen = oldest_first[-limit:]
        elif anchors[0] == "before":
            chosen = [m for m, i in zip(oldest_first, ids, strict=True) if i < anchor][-limit:]
        elif anchors[0] == "after":
            chosen = [m for m, i in zip(oldest_first, ids, strict=True) if i > anchor][:limit]
        else:
            at = next((n for n, i in enumerate(ids) if i >= (anchor or 0)), len(ids))
            first = max(0, at - limit // 2)
            chosen = oldest_first[first : first + limit]
        served = [{k: v for k, v in m.items() if k not in ("guild_id", "member")}
                  for m in reversed(chosen)]  # fmt: skip
        return self.answer(request, served)

    def _images(self, message: dict[str, Any], where: str) -> None:
        self.violations += [f"{where}: an embed shows {url}, which the message does not hold"
                            for url in self.store.missing_images(message)]  # fmt: skip

    async def interact(self, payload: dict[str, Any], *, followups: int = 0,
                       timeout: float = 30.0, settle: bool = True) -> Reply:  # fmt: skip
        """Send INTERACTION_CREATE on the shard of its guild (shard 0 for a direct message)
        and wait for the callback (and ``followups`` more), and past a deferral for the edit
        or follow-up that carries the answer (``settle=False``: the callback alone, for a
        test of the deferral itself). If that shard has no live session, the event waits for
        a RESUME, or is lost: this then times out."""
        interaction = self.issue(payload)
        event = self._waiters[interaction] = asyncio.Event()
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

    def issue(self, payload: dict[str, Any]) -> str:
        """Know an interaction (its token, the time its 3 seconds start) before sending it.
        Where the server installed the app, ``app_permissions`` says what the bot may do in
        the channel (as ``deny`` left it); where only a user did, the bot is no member of the
        channel and cannot post there."""
        channel = int(payload.get("channel_id") or 0)
        owners = payload.get("authorizing_integration_owners") or {}
        if "0" in owners and channel in self.channel_permissions:
            payload["app_permissions"] = str(self.channel_permissions[channel])
        elif "0" not in owners and payload.get("context") != 1:  # not the bot's own DM
            self.out_of_reach.add(channel)
        self._tokens[payload["token"]] = payload["id"]
        self._sent[payload["id"]] = Sent(payload, time.perf_counter())
        return str(payload["id"])

    def issued_tokens(self) -> list[str]:
        """Every interaction token sent to the bot (secrets the bot must never log)."""
        return list(self._tokens)

    def _settled(self, interaction: str, reply: Reply) -> None:
        if reply.settled_latency is None and interaction in self._sent:
            reply.settled_latency = time.perf_counter() - self._sent[interaction].at

    def _wake(self, interaction: str) -> None:
        event = self._waiters.get(interaction)
        if event is not None:
            event.set()
