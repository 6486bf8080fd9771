"""Who plays in the game window (the Activity), as Discord says it, never as the window does.

The way Discord prescribes (its Activities docs): the Embedded App SDK's ``authorize`` gives
the window a code; the server exchanges it at Discord's token endpoint with the client secret;
with the access token the server asks Discord who the user is (``/users/@me``), and with the
bot's token where the window is and who is in it (the activity-instances endpoint: the
location's server and channel, the users connected). A user not in the instance is refused.

What the server learnt becomes a short session: a token signed with a key drawn from the
client secret (every process of a deployment has it, so any of them reads the token), that
names the user, the instance, the server and channel, and when it lapses. Nothing else the
window sends says who or where it is.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

import aiohttp

from bot.i18n import N_, _
from bot.services.request_budget import RequestBudget

DISCORD_API = "https://discord.com/api/v10"
SESSION_SECONDS = 15 * 60  # then the window authorizes again (prompt: none, unseen)
REQUEST_SECONDS = 10.0  # a call to Discord that takes longer is a failure


class Refused(Exception):
    """The window's request is refused: ``status`` (401: who it is is not known, 403: not
    theirs to do, 502: Discord did not answer) and a line that says why. What a player can
    meet is marked for the catalogs (``N_``) and said in their language (:meth:`said`); what
    only a hand-made request meets (a malformed body) stays in English."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason

    def said(self) -> str:
        return _(self.reason)


@dataclass(frozen=True)
class Session:
    """A player in an Activity instance, as Discord told the server."""

    user_id: int
    name: str
    instance_id: str
    channel_id: int
    guild_id: int | None  # None: a private channel (a DM or a group DM)
    expires: float  # Unix time
    locale: str = ""  # the window's (the SDK's) language, as Discord names it


class Sessions:
    """Issues and reads session tokens: ``payload.signature``, both base64url, the signature
    an HMAC-SHA256 of the payload under a key drawn from the client secret."""

    def __init__(self, secret: str, *, clock: Callable[[], float] = time.time,
                 lifetime: float = SESSION_SECONDS) -> None:  # fmt: skip
        self.key = hmac.new(secret.encode(), b"wordlebot activity session", hashlib.sha256).digest()
        self.clock = clock
        self.lifetime = lifetime

    def issue(self, session: Session) -> str:
        payload = _b64(json.dumps(asdict(session), separators=(",", ":")).encode())
        return f"{payload}.{_b64(self._sign(payload))}"

    def read(self, token: str) -> Session:
        payload, _, signature = token.partition(".")
        try:
            good = hmac.compare_digest(_unb64(signature), self._sign(payload))
            data = json.loads(_unb64(payload)) if good else None
            session = Session(**data) if isinstance(data, dict) else None
        except (ValueError, TypeError):
            session = None
        if session is None:
            raise Refused(401, "This session is not one the server gave.")
        if session.expires <= self.clock():
            raise Refused(401, N_("This session has lapsed: sign in again."))
        return session

    def lapses(self) -> float:
        return self.clock() + self.lifetime

    def _sign(self, payload: str) -> bytes:
        return hmac.new(self.key, payload.encode(), hashlib.sha256).digest()


class DiscordAuth:
    """The window's calls to Discord: the three of a sign-in, and a share's post."""

    def __init__(self, client_id: int, client_secret: str, bot_token: str,
                 api_base: str | None = None,
                 budget: RequestBudget | None = None) -> None:  # fmt: skip
        self.client_id = client_id
        # The deployment's budget, which the calls made as the bot wait for (those made
        # with a player's token are not the bot's to count)
        self.budget = budget
        self.client_secret = client_secret
        self.bot_token = bot_token
        self.api = (api_base or DISCORD_API).rstrip("/")
        self._http: aiohttp.ClientSession | None = None

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()
            self._http = None

    async def sign_in(self, code: str, instance_id: str, sessions: Sessions,
                      locale: str = "") -> tuple[Session, str]:  # fmt: skip
        """The session of the user ``code`` was given to, in ``instance_id``, and their
        access token (the window hands it to the SDK's ``authenticate``)."""
        token = await self.exchange(code)
        (user_id, name), (users, channel_id, guild_id) = await asyncio.gather(
            self.user(token), self.instance(instance_id)
        )
        if user_id not in users:
            raise Refused(403, N_("You are not in this Activity."))
        session = Session(user_id, name, instance_id, channel_id, guild_id,
                          sessions.lapses(), locale[:16])  # fmt: skip
        return session, token

    async def exchange(self, code: str) -> str:
        form = {"client_id": str(self.client_id), "client_secret": self.client_secret,
                "grant_type": "authorization_code", "code": code}  # fmt: skip
        data = await self._call("POST", "/oauth2/token", data=form, refused="This sign-in code")
        token = data.get("access_token")
        if not isinstance(token, str) or data.get("token_type", "").lower() != "bearer":
            raise Refused(502, "Discord's answer to the sign-in was not understood.")
        return token

    async def user(self, access_token: str) -> tuple[int, str]:
        data = await self._call("GET", "/users/@me", bearer=access_token, refused="This token")
        name = data.get("global_name") or data.get("username") or ""
        return int(data["id"]), str(name)

    async def instance(self, instance_id: str) -> tuple[set[int], int, int | None]:
        """Who is in the instance, its channel and (in a server) its server."""
        path = f"/applications/{self.client_id}/activity-instances/{instance_id}"
        data = await self._call("GET", path, bot=True, refused="This Activity")
        location = data.get("location") or {}
        guild = location.get("guild_id")
        return ({int(u) for u in data.get("users", [])}, int(location["channel_id"]),
                int(guild) if guild else None)  # fmt: skip

    async def post(self, channel_id: int, content: str, nonce: str) -> None:
        """A message in the channel, as the bot. ``nonce`` with enforce_nonce: a retry, or a
        second click, within Discord's few minutes returns the first message, not another."""
        body = {"content": content, "nonce": nonce, "enforce_nonce": True,
                "allowed_mentions": {"parse": []}}  # fmt: skip
        try:
            await self._call("POST", f"/channels/{channel_id}/messages", json=body, bot=True,
                             refused="This channel")  # fmt: skip
        except Refused as refusal:
            if refusal.status == 403:  # no Send Messages there, or no channel at all
                raise Refused(403, N_("The bot may not post in this channel.")) from None
            raise

    async def _call(
        self, method: str, path: str, *, refused: str, data: dict[str, str] | None = None,
        json: dict[str, Any] | None = None, bearer: str = "", bot: bool = False,
    ) -> dict[str, Any]:  # fmt: skip
        """One call: its JSON object, or :class:`Refused` (what Discord would not know is
        ``refused``'s fault: 403; Discord failing or away: 502)."""
        if self._http is None:
            self._http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(REQUEST_SECONDS))
        if bot and self.budget is not None:
            await self.budget.turn()
        headers = {}
        if bot or bearer:
            headers["Authorization"] = f"Bot {self.bot_token}" if bot else f"Bearer {bearer}"
        try:
            async with self._http.request(method, self.api + path, data=data, json=json,
                                          headers=headers) as response:  # fmt: skip
                if response.status in (400, 401, 403, 404):
                    raise Refused(403, f"{refused} is not known to Discord.")
                if response.status != 200:
                    raise Refused(502, N_("Discord could not be reached: try again in a moment."))
                answer = await response.json()
        except (aiohttp.ClientError, TimeoutError, ValueError):
            raise Refused(502, N_("Discord could not be reached: try again in a moment.")) from None
        if not isinstance(answer, dict):
            raise Refused(502, "Discord's answer was not understood.")
        return answer


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
