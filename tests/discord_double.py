"""A stand-in for Discord's side of interactions, for tests of the real bot objects.

Raw INTERACTION_CREATE payloads go through discord.py's own ``ConnectionState``, so the
real ``CommandTree``, views, dynamic items and modals handle them. Everything the bot sends
back passes through discord.py's webhook adapter, replaced here by one that records each
request and answers as Discord would (a callback result, or the message it created).
"""

from __future__ import annotations

import asyncio
import itertools
import json
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from discord.user import ClientUser
from discord.utils import time_snowflake
from discord.webhook.async_ import AsyncWebhookAdapter, async_context
from discord_messages import forwarded, submitted_form

from bot.discord_bot import JOBS_TASK

APP_ID, GUILD_ID, CHANNEL_ID = 900000000000000001, 900000000000000002, 900000000000000003
POSTED = "2026-11-21T00:00:00+00:00"  # when the stand-in's messages are posted
# Ids are snowflakes of that moment, as Discord's are of their creation (a message's
# created_at is read from its id).
_ids = itertools.count(time_snowflake(datetime.fromisoformat(POSTED)))
EVERYTHING, NOTHING = "2251799813685247", "0"  # permission bit sets


def snowflake() -> str:
    return str(next(_ids))


def user(user_id: int, name: str = "player") -> dict[str, Any]:
    return {"id": str(user_id), "username": name, "discriminator": "0", "global_name": name,
            "avatar": None}  # fmt: skip


@dataclass
class Sent:
    """One request the bot made: method, path, JSON body, and attached file names."""

    method: str
    path: str
    body: dict[str, Any]
    files: list[str] = field(default_factory=list)
    # An edit of a deferred response is seen as the deferral chose (Discord keeps the
    # "thinking..." message's visibility): recorded here, None for every other request.
    deferred_private: bool | None = None
    # The answer past a deferral (an edit of the original response, or a follow-up) is read
    # as the answer: this is the deferral it came after (5 "thinking...", 6 a deferred update).
    deferral: Sent | None = None

    @property
    def kind(self) -> int | None:
        """The interaction callback type (4 message, 5 deferred, 6 deferred update, 7 update,
        9 modal); for the answer past a deferral, the deferral's."""
        if self.deferral is not None:
            return self.deferral.kind
        return self.body.get("type") if self.path.endswith("/callback") else None

    @property
    def a_new_message(self) -> bool:
        """Answered with a message of its own (4), or past a deferral (5) in its edit."""
        return self.kind in (4, 5)

    @property
    def an_update(self) -> bool:
        """Answered by updating the component's message (7), or past a deferred update (6)."""
        return self.kind in (6, 7)

    @property
    def original(self) -> bool:
        """A request on the interaction's original response."""
        return self.path.endswith("/messages/@original")

    @property
    def follow_up(self) -> bool:
        return self.method == "POST" and self.path == "/webhooks/{webhook_id}/{webhook_token}"

    @property
    def data(self) -> dict[str, Any]:
        return self.body.get("data", self.body) if self.path.endswith("/callback") else self.body

    @property
    def ephemeral(self) -> bool:
        if self.deferred_private is not None:
            return self.deferred_private
        return bool(self.data.get("flags", 0) & 64)

    @property
    def text(self) -> str:
        """Everything a person would read: content, embed titles and descriptions."""
        data = self.data
        parts = [data.get("content") or ""]
        for embed in data.get("embeds") or []:
            parts += [embed.get("title") or "", embed.get("description") or ""]
        return "\n".join(p for p in parts if p)

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for row in self.data.get("components") or []
                for c in row.get("components", []) if "custom_id" in c]  # fmt: skip


class Recorder(AsyncWebhookAdapter):
    def __init__(self) -> None:
        super().__init__()
        self.sent: list[Sent] = []
        self.deferrals: dict[str | None, bool] = {}  # token -> the deferral was private

    async def request(self, route: Any, session: Any = None, *, payload: Any = None,
                      multipart: Any = None, files: Any = None, **_: Any) -> Any:  # fmt: skip
        body = payload or {}
        if multipart:
            body = json.loads(next(p["value"] for p in multipart if p["name"] == "payload_json"))
        sent = Sent(route.method, route.path, body, [f.filename for f in files or []])
        token = getattr(route, "webhook_token", None)
        if sent.kind == 5:
            self.deferrals[token] = sent.ephemeral
        elif route.method == "PATCH" and route.path.endswith("/@original"):
            sent.deferred_private = self.deferrals.get(token)
        self.sent.append(sent)
        if route.path.endswith("/callback"):
            return {"interaction": {"id": str(route.webhook_id), "type": 2,
                                    "response_message_id": snowflake()}}  # fmt: skip
        if route.method in ("POST", "PATCH"):
            return message(body)
        return {}


def message(body: dict[str, Any], author_id: int = APP_ID) -> dict[str, Any]:
    return {
        "id": snowflake(), "channel_id": str(CHANNEL_ID), "type": 0,
        "content": body.get("content") or "",
        "author": {**user(author_id, "wordlebot"), "bot": True},
        "embeds": body.get("embeds") or [], "components": body.get("components") or [],
        "attachments": [], "mentions": [], "mention_roles": [], "pinned": False,
        "mention_everyone": False, "tts": False, "timestamp": POSTED,
        "edited_timestamp": None, "flags": body.get("flags", 0),
    }  # fmt: skip


class DiscordDouble:
    """Feeds payloads to a bot and keeps what it sent."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.recorder = Recorder()
        self.app_permissions = EVERYTHING  # what the bot may do where interactions come from
        self.locale = "en-US"  # the language each player's Discord shows (a test may change it)
        # Players met as newcomers: the first-game guide is theirs to get (a test of the guide
        # adds them). Every other player is taken as one who met the bot before the test
        # began: the services are told they need no guide, without a row written for them
        # (a test of deletion or export sees what the player stored, nothing more), so the
        # replies other tests count are those a returning player sees.
        self.new_players: set[int] = set()
        guide = bot.services.guide
        first_use = getattr(guide, "real_first_use", guide.first_use)
        guide.real_first_use = first_use  # one double at a time decides (the latest made)

        async def newcomers_only(player: Any) -> bool:
            return player.id in self.new_players and await first_use(player)

        guide.first_use = newcomers_only
        # Players who earn achievements (a test of them adds them); the others earn none, so
        # the replies other tests count after a win are a game's own.
        self.achievers: set[int] = set()
        games = bot.services.games
        awards = getattr(games, "real_achievements", games.achievements)
        games.real_achievements = awards

        async def achievers_only(storage: Any, stored: Any, result: Any, hard: bool) -> list[str]:
            if stored.player_id not in self.achievers:
                return []
            return await awards(storage, stored, result, hard)

        games.achievements = achievers_only
        async_context.set(self.recorder)
        # What READY would have told the bot: who it is and its application.
        state = bot._connection
        state.user = ClientUser(
            state=state,
            data={**user(APP_ID, "wordlebot"), "bot": True, "mfa_enabled": False, "verified": True},
        )
        state.application_id = APP_ID
        state._add_guild_from_data({  # GUILD_CREATE: the server and its one channel
            "id": str(GUILD_ID), "name": "games club", "owner_id": "1", "roles": [
                {"id": str(GUILD_ID), "name": "@everyone", "permissions": EVERYTHING,
                 "position": 0, "color": 0, "hoist": False, "managed": False,
                 "mentionable": False, "flags": 0}],
            "channels": [{"id": str(CHANNEL_ID), "type": 0, "name": "games", "position": 0,
                          "permission_overwrites": []}],
            "members": [], "emojis": [], "stickers": [], "features": [], "member_count": 3,
            "unavailable": False,
        })  # fmt: skip

    @property
    def sent(self) -> list[Sent]:
        return self.recorder.sent

    def _base(self, kind: int, user_id: int, permissions: str, guild: bool) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "id": snowflake(), "application_id": str(APP_ID), "type": kind, "token": "tkn",
            "version": 1, "channel_id": str(CHANNEL_ID), "locale": self.locale,
            "app_permissions": self.app_permissions, "entitlements": [],
            "attachment_size_limit": 8388608,
            "authorizing_integration_owners": {"0": str(GUILD_ID)}, "context": 0 if guild else 1,
            "channel": {"id": str(CHANNEL_ID), "type": 0 if guild else 1, "name": "games",
                        "guild_id": str(GUILD_ID), "position": 0, "permission_overwrites": []},
        }  # fmt: skip
        if guild:
            payload["guild_id"] = str(GUILD_ID)
            payload["guild_locale"] = "en-US"
            payload["member"] = {"user": user(user_id), "roles": [], "joined_at":
                                 "2026-01-01T00:00:00+00:00", "deaf": False, "mute": False,
                                 "flags": 0, "permissions": permissions}  # fmt: skip
        else:
            payload["user"] = user(user_id)
        return payload

    async def command(self, name: str, *path: str, user_id: int, guild: bool = True,
                      permissions: str = EVERYTHING, **options: Any) -> list[Sent]:  # fmt: skip
        """A slash command: ``command("wordle", "practice", user_id=1, mode="hard")``."""
        leaf: list[dict[str, Any]] = [
            {"name": k, "type": _option_type(v), "value": v} for k, v in options.items()
        ]
        for sub in reversed(path):
            leaf = [{"name": sub, "type": 1, "options": leaf}]
        payload = self._base(2, user_id, permissions, guild)
        payload["data"] = {"id": snowflake(), "name": name, "type": 1, "options": leaf}
        return await self._dispatch(payload)

    async def message_command(
        self, name: str, target: dict[str, Any], *, user_id: int
    ) -> list[Sent]:
        """A message context-menu command used on ``target`` (a message payload)."""
        payload = self._base(2, user_id, EVERYTHING, True)
        payload["data"] = {"id": snowflake(), "name": name, "type": 3, "target_id": target["id"],
                           "resolved": {"messages": {target["id"]: target}}}  # fmt: skip
        return await self._dispatch(payload)

    async def post(self, content: str, *, user_id: int, edit_of: str | None = None,
                   at: str | None = None) -> str:  # fmt: skip
        """A member's message in the channel (MESSAGE_CREATE, or MESSAGE_UPDATE of ``edit_of``),
        posted (or edited) at ``at``, an ISO timestamp; by default the stand-in's fixed one."""
        data = message({"content": content}, author_id=user_id)
        if edit_of is not None:
            data["edited_timestamp"] = at or POSTED
        return await self._deliver(data, user_id=user_id, edit_of=edit_of, at=at)

    async def forward(self, original: dict[str, Any], *, user_id: int,
                      at: str | None = None) -> str:  # fmt: skip
        """``original`` (a message payload) forwarded into the channel by ``user_id`` at
        ``at``, as Discord delivers a forward: a message of the forwarder's with no text of
        its own, the original's copy in ``message_snapshots``."""
        data = forwarded(original, channel_id=CHANNEL_ID, author_id=user_id, guild_id=GUILD_ID)
        data["id"], data["timestamp"] = snowflake(), POSTED
        return await self._deliver(data, user_id=user_id, at=at)

    async def _deliver(self, data: dict[str, Any], *, user_id: int, edit_of: str | None = None,
                       at: str | None = None) -> str:  # fmt: skip
        if edit_of is None and at is not None:  # an id of that moment too (the counter: unique)
            data["timestamp"] = at
            data["id"] = str(time_snowflake(datetime.fromisoformat(at)) + next(_ids) % 2**22)
        data["author"] = {**user(user_id), "bot": False}
        data["guild_id"] = str(GUILD_ID)
        data["member"] = {"roles": [], "joined_at": "2026-01-01T00:00:00+00:00", "deaf": False,
                          "mute": False, "flags": 0}  # fmt: skip
        if edit_of is None:
            self.bot._connection.parse_message_create(data)
        else:
            data["id"] = edit_of
            self.bot._connection.parse_message_update(data)
        await settle()
        return data["id"]

    async def click(self, custom_id: str, *, user_id: int, on: Sent | None = None) -> list[Sent]:
        payload = self._base(3, user_id, EVERYTHING, True)
        payload["data"] = {"custom_id": custom_id, "component_type": 2}
        payload["message"] = message(on.data if on else {})
        return await self._dispatch(payload)

    async def submit(self, modal: Sent, values: dict[str, str], *, user_id: int) -> list[Sent]:
        """Submit a modal the bot opened, filling its inputs in order with ``values``."""
        payload = self._base(5, user_id, EVERYTHING, True)
        payload["data"] = {
            "custom_id": modal.data["custom_id"],
            "components": submitted_form(modal.data, list(values.values())),
        }
        payload["message"] = message({})
        return await self._dispatch(payload)

    async def _dispatch(self, payload: dict[str, Any]) -> list[Sent]:
        """What the interaction sent, each answer read the same whether it came at once or
        past a deferral: a bot rightly defers what runs past a second (a busy database, a
        loaded host), so no test sees a deferral it did not ask about (``Sent.deferral``)."""
        before = len(self.sent)
        self.bot._connection.parse_interaction_create(payload)
        await settle()
        return answers(self.sent[before:])


def answers(sent: list[Sent]) -> list[Sent]:
    """``sent`` with each deferral and the answer that followed it read as one: the edit of
    the original response, or a follow-up (the public "thinking..." it replaced deleted)."""
    read = list(sent)
    for at, deferral in enumerate(sent):
        if deferral.kind not in (5, 6):
            continue
        later = sent[at + 1 :]
        answer = next((s for s in later if (s.original and s.method == "PATCH") or s.follow_up),
                      None)  # fmt: skip
        if answer is None:
            continue
        read[read.index(deferral)] = replace(answer, deferral=deferral)
        read.remove(answer)
        gone = next((s for s in later[: later.index(answer)]
                     if s.original and s.method == "DELETE"), None)  # fmt: skip
        if answer.follow_up and gone is not None:
            read.remove(gone)
    return read


async def settle() -> None:
    """Let every task the dispatch started run to completion (but a view's timeout timer:
    discord.py gives views on ephemeral messages a 15-minute one, and the bot's background
    jobs, which run as long as it does)."""
    for _ in range(200):
        pending = [
            t for t in asyncio.all_tasks()
            if t is not asyncio.current_task() and not t.done() and t.get_name() != JOBS_TASK
            and "timeout_task" not in t.get_coro().__qualname__  # type: ignore[union-attr]
        ]  # fmt: skip
        if not pending:
            return
        await asyncio.wait(pending, timeout=10)


def _option_type(value: Any) -> int:
    if isinstance(value, bool):
        return 5
    if isinstance(value, int):
        return 4
    return 3


def only(sent: list[Any]) -> Any:
    """The one message a test expects an interaction to have sent."""
    assert len(sent) == 1, sent
    return sent[0]
