"""The aiohttp application serving servers' pages. Each request to a page becomes a visitor's
:class:`~bot.commands.model.Caller` and a command of :mod:`bot.commands.web`, through the same
services as the bot's other front ends; bot/web/html.py renders what it returns.

Routes::

    GET /                 what this server is (no list of pages: a page is found by its link)
    GET /s/{slug}         a server's boards: ?game=&variant=&metric=&period=&page=
    GET /s/{slug}/p/{ref} a player's page (their handle or label): ?game=&variant=
                          (either: &contrast=more, the high-contrast palette)
    GET /static/site.css  the pages' style sheet

Every answer carries the security headers (:data:`SECURITY_HEADERS`); a page is ``noindex``
unless its server asked to be indexed. Each client has a token bucket (429 with Retry-After
once it is empty). A page's ETag is its standings' version (bot/services/web.py) with the
language and the query: a matching If-None-Match is answered 304 without reading a board.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from importlib.resources import files
from typing import Any

from aiohttp import web

from bot.commands.model import Reply
from bot.commands.web import PAGES, BoardsView, PlayerView, visitor
from bot.i18n import SOURCE, _, reader_locale, use_locale
from bot.services import Services
from bot.storage.database import StorageBusy
from bot.web.activity import ACTIVITY, WINDOW_PATH, Activity, add_routes
from bot.web.html import STYLE, boards_page, message_page, not_found
from bot.web.limits import RateLimit, retry_after
from bot.web.player_html import player_page

SERVICES = web.AppKey("services", Services)
LIMIT = web.AppKey("limit", RateLimit)
FORWARDED = web.AppKey("forwarded", bool)

SECURITY_HEADERS = {
    # Only the page's own origin, no script at all, never inside another site's frame.
    "Content-Security-Policy": "default-src 'self'; script-src 'none'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
NOINDEX = "noindex, nofollow"
QUERY = ("game", "metric", "period", "variant")  # a boards page's options, beside ``page``
PLAYER_QUERY = ("game", "variant")


def make_app(services: Services, *, per_minute: float = 60, trust_forwarded: bool = False,
             limit: RateLimit | None = None, activity: Activity | None = None
             ) -> web.Application:  # fmt: skip
    """The pages, and with ``activity`` the game window's requests."""
    app = web.Application(middlewares=[_headers, _rate_limited])
    if activity is not None:
        add_routes(app, activity)
    app[SERVICES] = services
    app[LIMIT] = limit or RateLimit(per_minute)
    app[FORWARDED] = trust_forwarded
    app.router.add_get("/", _home)
    app.router.add_get("/s/{slug}", _boards)
    app.router.add_get("/s/{slug}/p/{ref}", _player)
    app.router.add_get(STYLE, _style)
    return app


@web.middleware
async def _headers(request: web.Request, handler: Any) -> web.StreamResponse:
    try:
        response: web.StreamResponse = await handler(request)
    except web.HTTPException as exc:  # aiohttp's own answers (405, an unknown route's 404)
        locale = reader_locale(request.headers.get("Accept-Language"), SOURCE)
        with use_locale(locale):
            response = _html(message_page(locale, exc.reason, exc.reason), exc.status)
            if exc.status == 404:
                response = _html(not_found(locale), 404)
    except StorageBusy:
        response = web.Response(text="The database is busy: try again shortly.", status=503,
                                headers={"Retry-After": "5"})  # fmt: skip
    activity = request.app.get(ACTIVITY) if request.path.startswith("/activity/") else None
    for name, value in (SECURITY_HEADERS if activity is None else activity.headers).items():
        response.headers.setdefault(name, value)
    response.headers.setdefault("X-Robots-Tag", NOINDEX)
    return response


@web.middleware
async def _rate_limited(request: web.Request, handler: Any) -> web.StreamResponse:
    if request.path.startswith(WINDOW_PATH):  # the game window: every player comes through
        answer: web.StreamResponse = await handler(request)  # Discord's proxy, so counted by
        return answer  # player and by instance, not by address (bot/web/activity.py)
    wait = request.app[LIMIT].take(client_of(request))
    if wait:
        locale = reader_locale(request.headers.get("Accept-Language"), SOURCE)
        with use_locale(locale):
            text = message_page(locale, _("Too many requests"),
                                _("Too many pages asked for at once: wait a moment."))  # fmt: skip
        response = _html(text, 429)
        response.headers["Retry-After"] = retry_after(wait)
        return response
    answer = await handler(request)
    return answer


def client_of(request: web.Request) -> str:
    """Who is asking: the peer's address, or behind a trusted proxy the address it saw."""
    if request.app[FORWARDED]:
        forwarded = request.headers.get("X-Forwarded-For", "")
        last = forwarded.rsplit(",", 1)[-1].strip()
        if last:
            return last
    return request.remote or "?"


def _html(text: str, status: int = 200) -> web.Response:
    return web.Response(text=text, status=status, content_type="text/html", charset="utf-8")


async def _home(request: web.Request) -> web.Response:
    locale = reader_locale(request.headers.get("Accept-Language"), SOURCE)
    with use_locale(locale):
        return _html(message_page(locale, "wordlebot", _(
            "This is where wordlebot serves its servers' pages. Each page has a link of its "
            "own, which the server's admins give out.")))  # fmt: skip


async def _boards(request: web.Request) -> web.Response:
    return await _page(request, "boards")


async def _player(request: web.Request) -> web.Response:
    return await _page(request, "player")


async def _page(request: web.Request, name: str) -> web.Response:
    """A page of a server's (``name``: a command of :data:`PAGES`), or 404 for no server or
    no such player there."""
    services = request.app[SERVICES]
    page = await services.web.page(request.match_info["slug"])
    locale = reader_locale(request.headers.get("Accept-Language"),
                           SOURCE if page is None else page.locale)  # fmt: skip
    with use_locale(locale):
        if page is None:  # never was, replaced or turned off: told apart for nobody
            return _html(not_found(locale), 404)
        version = await services.web.version(page)
        asked = f"{locale}\x00{request.path}\x00{request.query_string}".encode()
        tag = f'"{version}-{hashlib.sha256(asked).hexdigest()[:12]}"'
        headers = {"ETag": tag, "Cache-Control": "no-cache", "Vary": "Accept-Language"}
        if page.indexed:
            headers["X-Robots-Tag"] = "all"
        if tag in _tags(request.headers.get("If-None-Match", "")):
            return web.Response(status=304, headers=headers)
        known = QUERY if name == "boards" else PLAYER_QUERY
        options: dict[str, Any] = {k: request.query[k] for k in known if k in request.query}
        if name == "boards":
            number = request.query.get("page", "1")
            if not number.isdigit() or not 1 <= int(number) <= 9999:
                return _refused(locale, _("A page is a number from 1 to {most}, not {page}")
                                .format(most=9999, page=repr(number[:20])))  # fmt: skip
            options["number"] = int(number)
        else:
            options["ref"] = request.match_info["ref"]
        view = await PAGES[name](services, visitor(page, locale), page, **options)
        if view is None:  # no such player here (never was, or deleted)
            return _html(not_found(locale), 404)
        if isinstance(view, Reply):
            return _refused(locale, view.text)
        contrast = request.query.get("contrast") == "more"
        if isinstance(view, BoardsView):
            text = boards_page(replace(view, contrast=contrast), locale)
        else:
            assert isinstance(view, PlayerView)
            text = player_page(replace(view, contrast=contrast), locale)
        response = _html(text)
        response.headers.update(headers)
        return response


def _refused(locale: str, text: str) -> web.Response:
    return _html(message_page(locale, _("This server's boards"), text), 400)


def _tags(header: str) -> set[str]:
    return {t.strip().removeprefix("W/") for t in header.split(",") if t.strip()}


_STYLE_TEXT = files("bot.web").joinpath("static/site.css").read_text(encoding="utf-8")


async def _style(request: web.Request) -> web.Response:
    return web.Response(text=_STYLE_TEXT, content_type="text/css", charset="utf-8",
                        headers={"Cache-Control": "public, max-age=3600"})  # fmt: skip
