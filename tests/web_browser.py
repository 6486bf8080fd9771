"""A real browser for the servers' pages (issue 41): Debian's Chromium driven by Playwright's
Python API (pointed at the system's browser: Playwright's own browser builds are never
downloaded), axe-core from npm (tests/browser/, installed by `npm ci`), and the real
application over real storage with a season of games, served on a free port of this machine
by an event loop in a thread of its own, so that the tests drive the browser synchronously.

Used by tests/test_web_browser.py and by docs/make_web_screenshots.py (the docs' pictures).
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import shutil
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from clock import Clock, at

from bot.commands import COMMANDS, Caller
from bot.services import Player, Services, open_services
from bot.settings import load_settings
from bot.web.app import make_app
from engine.variants import get_variant

ROOT = Path(__file__).resolve().parents[1]
AXE = ROOT / "tests" / "browser" / "node_modules" / "axe-core" / "axe.min.js"
SEED = "web-browser-5eed-0a1b2c3d4e5f60718293a4b5c6d7e8f9"
START = at("2026-03-02T12:00")
DAYS = 10
GUILD = 760000000000000001
ADMIN = Player(761000000000000001, "admin")
# Eleven players, more than a board's page: four chose to be named, the others are labels.
NAMES = ("Annabel", "Bobbity", "Clementine", "Dorian", *(f"anon{i}" for i in range(7)))
PLAYERS = [Player(762000000000000001 + i, name) for i, name in enumerate(NAMES)]
NAMED = 4
# The four pictures of the docs: (name, viewport, prefers-contrast).
SHOTS = (
    ("web-phone", (390, 844), "no-preference"),
    ("web-desktop", (1280, 800), "no-preference"),
    ("web-phone-contrast", (390, 844), "more"),
    ("web-desktop-contrast", (1280, 800), "more"),
)


def chromium_path() -> str:
    """Debian's Chromium (or WORDLEBOT_CHROMIUM); the test fails, never skips, without it."""
    path = os.environ.get("WORDLEBOT_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(path).is_file():
        pytest.fail(
            f"No Chromium at {path}: the browser tests need Debian's package "
            "(apt-get install chromium; .ci/run installs it) or WORDLEBOT_CHROMIUM=/path",
            pytrace=False,
        )
    return path


def axe_source() -> str:
    """axe-core's script; the test fails, never skips, when npm has not installed it."""
    if not AXE.is_file():
        pytest.fail(
            f"No axe-core at {AXE}: npm ci --prefix tests/browser (.ci/run does)",
            pytrace=False,
        )
    return AXE.read_text(encoding="utf-8")


@contextmanager
def launched() -> Iterator[Any]:
    """One headless Chromium (the system's), closed at the end."""
    from playwright.sync_api import sync_playwright

    executable = chromium_path()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable)
        try:
            yield browser
        finally:
            browser.close()


@asynccontextmanager
async def launched_async() -> AsyncIterator[Any]:
    """The same browser for a test on an event loop (the game window's, whose servers
    share the test's loop)."""
    from playwright.async_api import async_playwright

    executable = chromium_path()
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=executable)
        try:
            yield browser
        finally:
            await browser.close()


# -- the site: a season of games on a server whose page is on --------------------------------


async def _settings(services: Services, command: str, caller: Caller, **options: Any) -> str:
    return (await COMMANDS[command].run(services, caller, **options)).text


async def play_season(services: Services, clock: Clock) -> str:
    """Ten days of the daily Wordle by eleven players (wins in two to six, a few losses; on
    the last day, still open, some finished, one half-way and some not yet); returns the
    reply of ``/settings server web:on``."""
    allowed = get_variant("wordle").guesses.words
    for player in PLAYERS[:NAMED]:
        await _settings(services, "settings me", Caller(player, GUILD), web_name="on")
    for day in range(DAYS):
        answer = services.daily.answer("wordle", services.daily.today())
        misses_of = random.Random(f"{SEED}{day}").sample([w for w in allowed if w != answer], 6)
        last = day == DAYS - 1
        for index, player in enumerate(PLAYERS):
            if (last and index > 6) or (day + index) % 5 == 4:  # a day off
                continue
            misses = (day * 3 + index * 5) % 7  # six: a lost game
            words = misses_of[:misses] + [answer] * (misses < 6)
            if last and index == 6:  # still playing
                words = misses_of[:2]
            assert (await services.games.start(player, GUILD, daily=True)).ok
            for word in words:
                assert (await services.games.guess(player, GUILD, word, kind="wordle:daily")).ok
        if not last:
            clock.now += timedelta(days=1)
    admin = Caller(ADMIN, GUILD, place=GUILD, guild_id=GUILD, manages_server=True)
    return await _settings(services, "settings server", admin, web="on")


@contextmanager
def served(database_url: str) -> Iterator[str]:
    """The server's page over ``database_url`` after a season of games: yields its URL."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="web-site", daemon=True)
    thread.start()

    def call(coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, loop).result(timeout=240)

    async def open_site() -> tuple[Services, web.AppRunner, str]:
        services = await open_services(load_settings(database_url=database_url, daily_seed=SEED))
        clock = Clock(START)
        services.daily.clock = clock
        reply = await play_season(services, clock)
        slug = re.search(r"/s/([A-Za-z0-9_-]+)", reply)
        assert slug is not None, reply
        runner = web.AppRunner(make_app(services, per_minute=10**6))
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        host, port = runner.addresses[0][:2]
        return services, runner, f"http://{host}:{port}/s/{slug.group(1)}"

    async def close_site(services: Services, runner: web.AppRunner) -> None:
        await runner.cleanup()
        await services.close()

    try:
        services, runner, url = call(open_site())
        try:
            yield url
        finally:
            call(close_site(services, runner))
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=30)
        loop.close()


# -- what a test does with a page ---------------------------------------------------------------

SERIOUS = ("serious", "critical")


def axe_violations(page: Any, source: str) -> list[str]:
    """axe-core's serious and critical violations on the page, one line each (rule, impact,
    what to do, where). The page's content security policy allows no script; axe is run
    through the DevTools protocol's evaluation, which the policy does not govern."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(source)
    found = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']}))"
                          ".violations.map(v => [v.id, v.impact, v.help,"
                          " v.nodes.map(n => n.target.join(' ')).slice(0, 3)])")  # fmt: skip
    return [f"{rule} ({impact}): {help_} at {where}" for rule, impact, help_, where in found
            if impact in SERIOUS]  # fmt: skip


def screenshots(browser: Any, url: str, folder: Path) -> dict[str, Path]:
    """The four pictures of a page (phone and desktop, normal and high-contrast palettes),
    as PNG files in ``folder``, each checked by axe-core and for its width."""
    source = axe_source()
    taken = {}
    for name, (width, height), contrast in SHOTS:
        context = browser.new_context(viewport={"width": width, "height": height},
                                      color_scheme="light", contrast=contrast)  # fmt: skip
        try:
            page = context.new_page()
            assert page.goto(url).status == 200
            assert page.evaluate(f"matchMedia('(prefers-contrast: {contrast})').matches")
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= width, f"{name}: the page is {wide} px wide in a {width} px window"
            assert axe_violations(page, source) == [], name
            path = folder / f"{name}.png"
            page.screenshot(path=str(path))
            taken[name] = path
        finally:
            context.close()
    return taken
