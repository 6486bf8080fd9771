"""The game window in a real browser (issue 42): our client (bot/web/static/activity/, built
from web/activity/) in Debian's Chromium, inside the stand-in for Discord's client
(tests/discord_client.py) at http://localhost:3333, signing in through the stand-in for
Discord's API, and playing on the bot's real web server and services."""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from activity_window import window_server
from discord_client import DiscordClient
from discord_server import DiscordServer
from web_browser import launched_async

from bot.commands import COMMANDS
from bot.commands.model import Caller
from bot.services import Player

SEED = "0b9e8d7c6a5f4e3d2c1b0a9f8e7d6c5b-window"
GUILD, CHANNEL = 840000000000000001, 840000000000000002
ANN, BOB = 841000000000000001, 841000000000000002
INSTANCE = "i-1400000000000000001-gc-840000000000000001-840000000000000002"


@contextlib.asynccontextmanager
async def web_server(services: Any, discord: DiscordServer,
                     clock: Any = time.time) -> AsyncIterator[str]:  # fmt: skip
    """The bot's web server with the window on (tests/activity_window.py): its URL."""
    async with window_server(services, discord, clock) as (url, _activity):
        yield url


async def chat(services: Any, user_id: int, path: str, **options: Any) -> Any:
    caller = Caller(Player(user_id, "ann"), GUILD, place=CHANNEL, guild_id=GUILD)
    return await COMMANDS[path].run(services, caller, **options)


async def window_of(page: Any, url: str) -> Any:
    """The Activity's frame inside the client's page, once its board is drawn."""
    for _ in range(300):
        frame = next((f for f in page.frames if f.url.startswith(url)), None)
        if frame is not None and await frame.locator("#board .tile").count():
            return frame
        await page.wait_for_timeout(50)
    pytest.fail("the window never drew its board")


async def test_a_daily_begun_in_chat_is_finished_in_the_window(
    server: DiscordServer, discord_client: DiscordClient, opened: Any, tmp_path: Any
) -> None:
    services = await opened(str(tmp_path / "bot.sqlite3"))
    begun = await chat(services, ANN, "wordle daily")
    await chat(services, ANN, "guess", word="crane")
    answer = (await services.storage.game(begun.game.game_id)).state["answer"]
    discord_client.launch(INSTANCE, CHANNEL, {ANN: "ann", BOB: "bob"}, guild_id=GUILD)
    async with web_server(services, server) as url, launched_async() as browser:
        page = await browser.new_page()
        frame = discord_client.open(url, INSTANCE, ANN)
        await page.goto(frame.url)
        window = await window_of(page, url)
        # The board as the chat left it: CRANE in the first row, its tiles marked
        first = window.locator("#board .row").first
        assert (await first.inner_text()).replace("\n", "").lower() == "crane"
        assert await first.locator(".tile[data-mark]").count() == 5
        assert "CRANE" in (await window.locator("#board").get_attribute("aria-label") or "")
        assert "ann" in await window.locator("#players").inner_text()
        # The answer typed on the physical keyboard, then Enter: the row turns over
        await window.locator("#board").click()
        began = time.perf_counter()
        await page.keyboard.type(answer)
        await page.keyboard.press("Enter")
        await window.locator("#status", has_text=answer.upper()).wait_for(timeout=15_000)
        took = time.perf_counter() - began
        second = window.locator("#board .row").nth(1)
        assert await second.locator('.tile[data-mark="2"]').count() == 5
        # Shared to the channel, as squares, by the bot
        await window.locator("#share").click()
        await window.locator("#share[disabled]").wait_for(timeout=15_000)
        [(channel, body, _files)] = server.posts
        assert channel == CHANNEL and "🟩🟩🟩🟩🟩" in body["content"]
        # Bob opens the window beside her: he sees Ann finished in two, and (not having
        # finished it himself) neither her colours nor, ever, her letters
        other = await browser.new_page()
        await other.goto(discord_client.open(url, INSTANCE, BOB).url)
        bobs = await window_of(other, url)
        ann = bobs.locator("#players li", has_text="ann")
        await ann.locator(".score", has_text="✓ 2").wait_for(timeout=15_000)
        assert await ann.locator(".mini i").count() == 10
        assert await ann.locator(".mini i[data-mark='-']").count() == 10
        assert answer not in (await bobs.locator("body").inner_text()).lower()
        # Ann's window shows her own rows' colours
        mine = window.locator("#players li", has_text="ann")
        await mine.locator(".mini i[data-mark='2']").first.wait_for(timeout=15_000)
    game = await services.games.game(begun.game.game_id)
    assert game.over and game.status == "won" and [w for w, _ in game.rows] == ["crane", answer]
    assert took < 60  # the round trip is measured by the benchmark, not held to here


SHOTS = (("phone", (390, 844)), ("desktop", (1280, 800)))


async def test_the_window_at_a_phone_and_a_desktop_in_two_languages_and_both_palettes(
    server: DiscordServer, discord_client: DiscordClient, opened: Any, tmp_path: Any
) -> None:
    """Each view fits its width and axe-core finds no serious or critical violation in it: in
    English with the normal colours, in German (the SDK's locale) with the high-contrast
    ones the player chose. The pictures are written to the test's folder (docs/window-*.png
    are two of them)."""
    from web_browser import SERIOUS, axe_source

    source = axe_source()
    services = await opened(str(tmp_path / "bot.sqlite3"))
    await chat(services, ANN, "wordle daily")
    await chat(services, ANN, "guess", word="crane")
    german = await chat(services, ANN, "wordle daily", language="de")  # German's daily opens
    await services.games.guess(Player(ANN, "ann"), GUILD, "raten", game_id=german.game.game_id)
    discord_client.launch(INSTANCE, CHANNEL, {ANN: "ann", BOB: "bob"}, guild_id=GUILD)
    async with web_server(services, server) as url, launched_async() as browser:
        for locale, palette, word in (("en-US", "standard", "Today's puzzle"),
                                      ("de", "high-contrast", "Heutiges Rätsel")):  # fmt: skip
            await services.storage.set_palette(ANN, "ann", palette)
            for size, (width, height) in SHOTS:
                context = await browser.new_context(viewport={"width": width, "height": height})
                page = await context.new_page()
                await page.goto(discord_client.open(url, INSTANCE, ANN, locale=locale).url)
                window = await window_of(page, url)
                await window.locator("#games", has_text=word).wait_for(timeout=15_000)
                classes = await window.evaluate("document.documentElement.className")
                assert ("contrast" in classes) == (palette == "high-contrast")
                wide = await window.evaluate("document.documentElement.scrollWidth")
                assert wide <= width, f"{size}: {wide} px wide in {width}"
                await window.evaluate(source)
                found = await window.evaluate(
                    "async () => (await axe.run(document, {resultTypes: ['violations']}))"
                    ".violations.map(v => [v.id, v.impact, v.help, v.nodes.map(n =>"
                    " n.target.join(' ') + ': ' + (n.any[0] || {}).message).slice(0, 6)])"
                )
                assert [v for v in found if v[1] in SERIOUS] == [], (size, locale)
                await window.locator("#board .tile[data-mark]").first.wait_for()  # a row in
                await page.screenshot(path=str(tmp_path / f"window-{size}-{locale}.png"))
                await context.close()


async def test_a_quordle_in_the_window_draws_its_four_boards(
    server: DiscordServer, discord_client: DiscordClient, opened: Any, tmp_path: Any
) -> None:
    """The menu's Quordle: four boards side by side, a guess marked on each, the keyboard's
    keys in the state that holds on every unsolved board (as the images draw it)."""
    services = await opened(str(tmp_path / "bot.sqlite3"))
    discord_client.launch(INSTANCE, CHANNEL, {ANN: "ann"}, guild_id=GUILD)
    async with web_server(services, server) as url, launched_async() as browser:
        page = await browser.new_page(viewport={"width": 1280, "height": 900})
        await page.goto(discord_client.open(url, INSTANCE, ANN).url)
        window = await window_of(page, url)
        await window.locator("#games button", has_text="Quordle").click()
        await window.locator("#board .grid").nth(3).wait_for(timeout=15_000)
        assert await window.locator("#board .grid").count() == 4
        await window.locator("#board").click()
        await page.keyboard.type("crane")
        await page.keyboard.press("Enter")
        marked = window.locator("#board .grid .row:first-child .tile[data-mark]")
        await marked.nth(19).wait_for(timeout=15_000)  # five tiles on each of four boards
        assert "CRANE" in (await window.locator("#board").get_attribute("aria-label") or "")


async def test_a_lapsed_session_is_renewed_and_the_move_goes_through(
    server: DiscordServer, discord_client: DiscordClient, opened: Any, tmp_path: Any
) -> None:
    """A session lasts 15 minutes: a guess made after that signs the window in again (the
    SDK's authorize, unseen by the player) and is played."""
    from bot.web.activity_auth import SESSION_SECONDS

    now = [time.time()]
    services = await opened(str(tmp_path / "bot.sqlite3"))
    discord_client.launch(INSTANCE, CHANNEL, {ANN: "ann"}, guild_id=GUILD)
    async with web_server(services, server, lambda: now[0]) as url, launched_async() as browser:
        page = await browser.new_page()
        frame = discord_client.open(url, INSTANCE, ANN)
        await page.goto(frame.url)
        window = await window_of(page, url)
        assert len(frame.received("AUTHORIZE")) == 1
        now[0] += SESSION_SECONDS + 1  # the session lapses
        await window.locator("#board").click()
        await page.keyboard.type("crane")
        await page.keyboard.press("Enter")
        first = window.locator("#board .row").first.locator(".tile[data-mark]")
        await first.nth(4).wait_for(timeout=15_000)
        assert len(frame.received("AUTHORIZE")) >= 2  # signed in again
