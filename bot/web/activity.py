"""The game window's requests (the Discord Activity): a third front end of :mod:`bot.commands`
beside the cogs and the console. Each request of a signed-in player becomes a
:class:`~bot.commands.model.Caller` and one of the game's commands, so the same games,
dailies, limits, hints-off rule, achievements and boards hold in the window as in chat.

Routes (each ``api/`` one but the sign-in with ``Authorization: Bearer <session>``)::

    GET  /activity/             the window's page (bot/web/static/activity/, built from
                                web/activity/), and its app.js and app.css
    POST /activity/api/session  {code, instance_id, locale}: sign in (bot/web/activity_auth.py)
                                -> {session, access_token, user, language, strings, ...}
    POST /activity/api/locale   {locale}: the SDK's, once authenticated -> the session again
    POST /activity/api/command  {command, options, game, rows} -> the reply (window_json.py)
    POST /activity/api/together {kind}: the players beside you, streamed (together.py)
    POST /activity/api/share    {game}: a finished daily's squares, posted in the channel

``game`` and ``rows`` are the board the window shows: a guess goes to that game, and a guess
made on a board that changed since (a guess typed in chat meanwhile) plays nothing and gets
the board as it stands.
"""

from __future__ import annotations

import dataclasses
import functools
import gzip
import hashlib
import json
from collections.abc import Awaitable, Callable
from importlib.resources import files
from typing import Any

from aiohttp import web

from bot.commands import COMMANDS
from bot.commands.model import Caller, Command, Reply
from bot.i18n import N_, SOURCE, _, negotiate, reader_locale, use_locale
from bot.render.palette import STANDARD, Palette, palette_named
from bot.render.text import share_text
from bot.services import Player, Services
from bot.services.games import BUSY, ROLLED_BACK
from bot.services.kinds import KINDS
from bot.services.limits import slow_down
from bot.storage.database import StorageBusy
from bot.web.activity_auth import DiscordAuth, Refused, Session, Sessions
from bot.web.limits import RateLimit, retry_after
from bot.web.together import Together, watch
from bot.web.window_json import reply_json, window_strings

# The commands the window runs: playing and asking for help, not a server's settings.
WINDOW_COMMANDS = frozenset(
    path for path in COMMANDS
    if path.split()[0] in ("wordle", "primel", "absurdle", "dordle", "quordle", "octordle")
) | {"guess", "giveup", "hint", "stats", "streak"}  # fmt: skip
LIMITED = ("guess", "hint")  # held to the play limit, as /guess and /hint are in chat
TOO_MANY_MOVES = N_("Too many moves at once: wait a moment.")
MAX_BODY = 4096  # bytes: a command and its options
WINDOW_PATH = "/activity/"
COMMAND_PATH = "/activity/api/command"
MOVES_PER_MINUTE = 120  # a player's requests from the window (bursts of 20), by player
SIGN_INS_PER_MINUTE = 60  # sign-ins into one instance (each asks Discord three things)


class Activity:
    """What the window's routes need: the services, Discord, and the session keys."""

    def __init__(self, services: Services, auth: DiscordAuth, sessions: Sessions,
                 frame_origins: tuple[str, ...] = ()) -> None:  # fmt: skip
        self.services = services
        self.auth = auth
        self.sessions = sessions
        self.headers = window_headers(frame_origins)
        self.together = Together(auth)
        # By player (and sign-ins by instance), not by address: every window reaches the
        # server through Discord's proxy.
        self.limit = RateLimit(MOVES_PER_MINUTE)
        self.sign_ins = RateLimit(SIGN_INS_PER_MINUTE)
        # The built client, read once: its page told the application's id, its files
        self.page = (
            (CLIENT / "index.html")
            .read_text(encoding="utf-8")
            .replace("%CLIENT_ID%", str(auth.client_id))
        )
        self.assets = {name: Asset.read(name) for name in ASSETS}


ACTIVITY = web.AppKey("activity", Activity)


def window_headers(frame_origins: tuple[str, ...] = ()) -> dict[str, str]:
    """The window's security headers: its own origin alone for everything it loads (Discord's
    proxy blocks every other host anyway), framed only by Discord (and ``frame_origins``)."""
    ancestors = " ".join(("https://discord.com", "https://*.discord.com",
                          "https://*.discordsays.com", *frame_origins))  # fmt: skip
    return {
        "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; "
        "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
        f"form-action 'none'; frame-ancestors {ancestors}",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
    }


def add_routes(app: web.Application, activity: Activity) -> None:
    app[ACTIVITY] = activity
    app.router.add_get("/activity/", _page)
    app.router.add_get("/activity/{name:app\\.(?:js|css)}", _asset)
    app.router.add_post("/activity/api/session", _sign_in)
    app.router.add_post(COMMAND_PATH, _command)
    app.router.add_post("/activity/api/together", _together)
    app.router.add_post("/activity/api/share", _share)
    app.router.add_post("/activity/api/locale", _locale)
    app.on_shutdown.append(_stop_watching)
    app.on_cleanup.append(_close)


CLIENT = files("bot.web") / "static" / "activity"  # built from web/activity/ (its README)
ASSETS = {"app.js": "text/javascript", "app.css": "text/css"}


@dataclasses.dataclass(frozen=True)
class Asset:
    """A file of the built client, read once: as is and gzipped, and its tag."""

    name: str
    body: bytes
    gzipped: bytes
    etag: str

    @classmethod
    def read(cls, name: str) -> Asset:
        body = (CLIENT / name).read_bytes()
        tag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
        return cls(name, body, gzip.compress(body, 9, mtime=0), tag)


async def _page(request: web.Request) -> web.Response:
    """The window's page: the built client, told the application's id."""
    return web.Response(text=request.app[ACTIVITY].page, content_type="text/html",
                        charset="utf-8", headers={"Cache-Control": "no-cache"})  # fmt: skip


async def _asset(request: web.Request) -> web.Response:
    """app.js and app.css: gzipped where the browser takes it, and asked again each time but
    answered 304 while unchanged (a new build has a new tag)."""
    asset = request.app[ACTIVITY].assets[request.match_info["name"]]
    headers = {"Cache-Control": "no-cache", "ETag": asset.etag, "Vary": "Accept-Encoding"}
    if request.headers.get("If-None-Match") == asset.etag:
        return web.Response(status=304, headers=headers)
    body = asset.body
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        body, headers["Content-Encoding"] = asset.gzipped, "gzip"
    return web.Response(body=body, content_type=ASSETS[asset.name], charset="utf-8",
                        headers=headers)  # fmt: skip


async def _stop_watching(app: web.Application) -> None:
    app[ACTIVITY].together.stopping.set()


async def _close(app: web.Application) -> None:
    await app[ACTIVITY].auth.close()


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def window_route(handler: Handler) -> Handler:
    """A route of the window: it speaks the reader's language (their session's, the SDK's,
    else their browser's: a sign-in, a lapsed session; the player's own choice first where
    a handler reads it), and a refusal or a database that does not answer is said in it."""

    @functools.wraps(handler)
    async def route(request: web.Request) -> web.StreamResponse:
        try:
            locale = negotiate(session_of(request).locale)
        except Refused:
            locale = reader_locale(request.headers.get("Accept-Language"), SOURCE)
        with use_locale(locale):
            try:
                return await handler(request)
            except Refused as refusal:
                return _refused(refusal.status, refusal.said())
            except StorageBusy:
                return _refused(503, _(BUSY))

    return route


def _refused(status: int, reason: str) -> web.Response:
    return web.json_response({"error": reason}, status=status)


async def _body(request: web.Request) -> dict[str, Any]:
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise Refused(413, "That request is too long.")
    raw = await request.content.read(MAX_BODY + 1)
    try:
        body = json.loads(raw) if len(raw) <= MAX_BODY else None
    except (ValueError, UnicodeDecodeError):
        body = None
    if not isinstance(body, dict):
        raise Refused(400, "The request is not a JSON object of at most 4 KB.")
    return body


@window_route
async def _sign_in(request: web.Request) -> web.Response:
    activity = request.app[ACTIVITY]
    body = await _body(request)
    code, instance = body.get("code"), body.get("instance_id")
    if not (isinstance(code, str) and isinstance(instance, str) and code and instance):
        raise Refused(400, "A sign-in needs the code and the instance_id the SDK gave.")
    if activity.sign_ins.take(instance[:200]):
        raise Refused(429, N_("Too many sign-ins into this Activity at once: wait a moment."))
    locale = body.get("locale")
    session, token = await activity.auth.sign_in(
        code[:200], instance[:200], activity.sessions, locale if isinstance(locale, str) else ""
    )
    return web.json_response({"access_token": token, **await _session_json(activity, session)})


async def _session_json(activity: Activity, session: Session) -> dict[str, Any]:
    """A session as the window holds it: its token, the player, their language (the one they
    chose with /settings me, else their Discord's) with the window's words in it, and their
    colours (/settings me palette)."""
    chosen = await _chosen_locale(activity.services, session.user_id)
    with use_locale(negotiate(chosen or session.locale)) as language:
        strings = window_strings()
    palette = await _palette(activity.services, session.user_id)
    return {
        "session": activity.sessions.issue(session),
        "user": {"id": str(session.user_id), "name": session.name},
        "expires": session.expires,
        "language": language,
        "strings": strings,
        "high_contrast": palette.high_contrast,
    }


@window_route
async def _locale(request: web.Request) -> web.Response:
    """The SDK's locale, known once the window has authenticated: the session again, in it."""
    session = session_of(request)
    locale = (await _body(request)).get("locale")
    if not isinstance(locale, str):
        raise Refused(400, "Give the locale the SDK said.")
    session = dataclasses.replace(session, locale=locale[:16])
    return web.json_response(await _session_json(request.app[ACTIVITY], session))


def session_of(request: web.Request) -> Session:
    header = request.headers.get("Authorization", "")
    if not header.startswith("Bearer "):
        raise Refused(401, N_("Sign in first."))
    sessions: Sessions = request.app[ACTIVITY].sessions
    return sessions.read(header.removeprefix("Bearer ").strip())


def caller_of(session: Session, shown: int | None = None) -> Caller:
    """The player in the window, where the Activity runs: a server's channel (the server's
    games and boards) or a private channel (that channel's own, as in chat)."""
    scope = session.guild_id if session.guild_id is not None else session.channel_id
    return Caller(Player(session.user_id, session.name), scope, place=session.channel_id,
                  front="activity", shown=shown, guild_id=session.guild_id,
                  locale=session.locale)  # fmt: skip


@window_route
async def _command(request: web.Request) -> web.Response:
    services = request.app[ACTIVITY].services
    session = session_of(request)
    wait = request.app[ACTIVITY].limit.take(str(session.user_id))
    if wait:
        response = _refused(429, _(TOO_MANY_MOVES))
        response.headers["Retry-After"] = retry_after(wait)
        return response
    body = await _body(request)
    chosen = await _chosen_locale(services, session.user_id)
    with use_locale(negotiate(chosen or session.locale)):  # their choice first
        try:
            return web.json_response(reply_json(await run(services, session, body)))
        except Refused as refusal:  # said in their choice, not the window's
            return _refused(refusal.status, refusal.said())


@window_route
async def _together(request: web.Request) -> web.StreamResponse:
    """The players beside this one and their progress, then each change (bot/web/together.py):
    ``{kind}`` names the daily (``wordle:daily`` unless said)."""
    activity = request.app[ACTIVITY]
    session = session_of(request)
    kind = (await _body(request)).get("kind") or "wordle:daily"
    game = kind.removesuffix(":daily") if isinstance(kind, str) and kind.endswith(":daily") else ""
    if game not in KINDS or not KINDS[game].daily:
        raise Refused(400, "Progress is shown for a daily game.")
    return await watch(request, activity.services, activity.together, session, kind)


@window_route
async def _share(request: web.Request) -> web.Response:
    """A finished daily's squares (no letters: the share the game itself writes), posted in
    the Activity's channel by the bot, once: a second click sends the same nonce."""
    activity = request.app[ACTIVITY]
    session = session_of(request)
    game_id = (await _body(request)).get("game")
    if not isinstance(game_id, int) or isinstance(game_id, bool):
        raise Refused(400, "Name the game to share.")
    game = await activity.services.games.game(game_id)
    if game is None or game.player_id != session.user_id:
        raise Refused(403, N_("That game is not yours."))
    if not game.over or not game.daily:
        raise Refused(400, N_("A daily is shared once it is over."))
    palette = await _palette(activity.services, session.user_id)
    who = f"<@{session.user_id}>"
    await activity.auth.post(session.channel_id, f"{who}\n{share_text(game, palette)}",
                             nonce=f"wb-share-{game.game_id}")  # fmt: skip
    return web.json_response({"shared": True})


async def _palette(services: Services, player_id: int) -> Palette:
    """The player's colours (/settings me palette); the standard ones if the database is busy."""
    try:
        return palette_named(await services.storage.palette(player_id))
    except StorageBusy:
        return STANDARD


async def _chosen_locale(services: Services, player_id: int) -> str | None:
    try:
        return await services.storage.player_locale(player_id)
    except StorageBusy:  # the window's own language serves
        return None


async def run(services: Services, session: Session, body: dict[str, Any]) -> Reply:
    """The command the window asked for, run as the session's player."""
    path = body.get("command")
    if not isinstance(path, str) or path not in WINDOW_COMMANDS:
        raise Refused(400, "The window does not run that command.")
    spec = COMMANDS[path]
    options = _typed(spec, body.get("options"))
    game, rows = body.get("game"), body.get("rows")
    shown = game if isinstance(game, int) and not isinstance(game, bool) else None
    if path == "guess" and shown is not None and isinstance(rows, int):
        stale = await _changed(services, session, shown, rows)
        if stale is not None:
            return stale
    if path in LIMITED and (wait := services.play_limit.retry_after(session.user_id)):
        return Reply.refuse(slow_down(wait))  # the chat's limit: one count for both
    return await spec.run(services, caller_of(session, shown), **options)


async def _changed(services: Services, session: Session, game_id: int, rows: int) -> Reply | None:
    """The board as stored, if it is not the one the window shows (``rows`` rows)."""
    view = await services.games.game(game_id)
    if view is None or view.player_id != session.user_id:
        raise Refused(403, N_("That game is not yours."))
    if len(view.rows) == rows:
        return None
    return Reply(_(ROLLED_BACK), private=True, game=view, refused=True,
                 extra={"rolled_back": True})  # fmt: skip


def _typed(spec: Command, given: Any) -> dict[str, Any]:
    """The options as JSON gives them, checked against the command's: each of its kind,
    a choice among its choices, text no longer than Discord would carry."""
    if given is None:
        given = {}
    if not isinstance(given, dict):
        raise Refused(400, "The options are not a JSON object.")
    params = {param.name: param for param in spec.params}
    values: dict[str, Any] = {}
    for name, value in given.items():
        param = params.get(name)
        if param is None:
            raise Refused(400, f"/{spec.path} has no option {name[:32]!r}.")
        if param.kind is bool:
            ok = isinstance(value, bool)
        elif param.kind is int:
            ok = isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**53
        elif param.kind is str:
            ok = isinstance(value, str) and len(value) <= 100 and value.isprintable()
            ok = ok and (not param.choices or value in param.choices)
        else:  # a channel, a role or a user: not the window's to name
            ok = False
        if not ok:
            raise Refused(400, f"The option {name!r} of /{spec.path} cannot take that value.")
        values[name] = value
    missing = [p.name for p in spec.params if p.required and p.name not in values]
    if missing:
        raise Refused(400, f"/{spec.path} needs {', '.join(missing)}.")
    return values
