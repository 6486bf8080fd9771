"""The game window's figures (issue 42, points 9 and 4): ``python tests/window_bench.py
[--opens N] [--guesses N] [--updates N] [--json]`` prints the first board's time, a guess's
round trip, the time another player's progress takes to reach a window and the size of the
client's built files, with the machine's load average at the start and the end.

It runs the set-up of tests/test_activity_browser.py: the bot's real web server and services
(on a fresh SQLite database in a temporary folder), the stand-in for Discord's API
(tests/discord_server.py), the stand-in for Discord's client at http://localhost:3333
(tests/discord_client.py, holding its port's lock) and Debian's Chromium
(tests/web_browser.py). One thing differs: the server's rate limits are lifted (as
`wordlebot bench web` lifts them), since every request comes from one address and one
player far faster than people come: the limit per address (the page, its files, the sign-in,
the players' stream; 60 a minute, bursts of 20) refused the fifth open in a row, and the
moves' limit per player (120 a minute) would refuse the guesses. Their cost (one token
bucket each) stays on the path. Every time is taken inside the browser
(``performance.now()``), so Playwright's own round trips to the browser are never counted:

- **First board**: each open is a new browser context (an empty cache, as a player's first
  open) whose page goes to the client stand-in's frame URL. A script Playwright adds to every
  document before it runs watches the Activity's document with a MutationObserver and notes
  the moment ``#board`` first holds a ``.tile``. Measured from the navigation start of the
  stand-in's page (its ``performance.timeOrigin``, the page opening) and from that of the
  Activity's own frame, the two documents' clocks joined by their ``timeOrigin`` (both epoch
  milliseconds of one browser on one machine). Between them: the stand-in's page loads and
  opens its relay to Python before it frames the Activity. The phases (the frame's own
  resource timings) show where the time goes. Each user opens once, so each open starts
  that user's daily; the first open after the server started is reported on its own (cold)
  and left out of the median.
- **A guess's round trip**: one player plays practice Wordles in one page, typing distinct
  random words of the guess list and starting a new practice game when one ends. Before each
  Enter, a listener (capture phase, on the frame's window) and a MutationObserver on
  ``#board`` are installed in the frame; the round trip runs from the Enter key event's
  ``timeStamp`` (when the browser made the event) to the observer's callback that first sees
  the new row's tiles carrying their marks (``data-mark``) in the DOM. The reveal
  animation that follows (0.5 s a tile, staggered by 0.12 s, none under reduced motion) is
  the design's, not counted. Also given: to the next animation frame after it (the frame
  that paints the row), and the ``api/command`` request alone (its resource timing).
- **Progress reaching another window**: Ann's window is open (a new context, in an instance of
  its own) on today's daily while bob1, bob2, ... of the same instance play it, five rows
  each (never the answer, so none finishes), through a second ``open_services`` on the same
  SQLite file: the services of another process of a deployment, which the web server never
  hears from, so what they write reaches Ann's window only through the database (the
  server re-reads it every ``EVERY`` s while a window watches: bot/web/together.py). Before
  each guess, a MutationObserver on ``#players`` is installed in Ann's frame; the time runs
  from the moment ``COMMANDS["guess"].run`` returns in Python (``time.time()``) to the
  observer's callback that first sees that Bob's ``li`` holding his new number of ``.mini``
  rows (``Date.now()``): both the machine's wall clock, whole milliseconds in the browser.
  That they are one clock is checked: the page's ``Date.now()`` read between two reads of
  ``time.time()`` falls between them (how far outside, if at all, is given), and
  ``performance.timeOrigin + performance.now()`` at the observer's moment is kept beside it
  (the largest gap between the two is given). Also given: to the next animation frame after it.
  Each guess waits first, one pause in each of ``updates`` even slices of 0 to 2 ``EVERY`` s
  in a random order, so the guesses fall at every moment of the server's rounds alike
  rather than just after the one that showed the last (30 plain random pauses bunched
  where a seed put them, and moved the p50 by 100 ms). The second services
  share the event loop with the server here, where another process would have its own.
- **Size**: app.js, app.css and index.html as built into bot/web/static/activity/, raw and
  gzipped at level 9; and how app.js was served in the first open (its resource timing: the
  bytes on the wire against the decoded bytes).

KB are 1,024 bytes, as `wordlebot bench web` counts them. Percentiles are nearest-rank: with
60 guesses the p99 is the slowest of them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gzip
import json
import math
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from activity_window import window_server
from bot_process import GUILDS
from discord_client import DiscordClient
from discord_server import DiscordServer
from web_browser import launched_async

from bot.commands import COMMANDS
from bot.commands.model import Caller
from bot.services import Player, Services, open_services
from bot.services.limits import Limit
from bot.settings import load_settings
from bot.web.activity import CLIENT
from bot.web.limits import RateLimit
from bot.web.together import EVERY
from engine.variants import get_variant

TARGET_ROUND_TRIP_P99_MS = 100
TARGET_GZIPPED_KB = 150
TARGET_FIRST_BOARD_MS = 1000
TARGET_PROGRESS_MS = 1000  # point 4: updates reach every participant within a second
FILES = ("index.html", "app.js", "app.css")  # what the window's page loads
SEED = "window-bench-5eed-7f6e5d4c3b2a1908f7e6d5c4b3a29180"
GUILD, CHANNEL = 850000000000000001, 850000000000000002
INSTANCE = f"i-1500000000000000001-gc-{GUILD}-{CHANNEL}"
PLAYER = 851000000000000001  # the one who guesses
OPENER = 852000000000000001  # the first of those who open the window, one each
ANN = 853000000000000001  # whose window shows the others' progress
BOB = 854000000000000000  # bob1, bob2, ... are BOB + 1, BOB + 2, ...
TOGETHER_CHANNEL = CHANNEL + 1
TOGETHER = f"i-1500000000000000002-gc-{GUILD}-{TOGETHER_CHANNEL}"  # Ann's and the Bobs'
ROWS_EACH = 5  # a Bob's rows of the daily (never the sixth: none finishes)
LIFTED = 10**9  # requests a minute: no limit this benchmark meets

# Added to every document before its own scripts: in the Activity's, the moment its board
# first holds a tile, and the start of the next animation frame (the one that paints it).
FIRST_BOARD = """
if (location.pathname.endsWith("/activity/")) {
  const observer = new MutationObserver(() => {
    if (window.__firstBoard === undefined && document.querySelector("#board .tile")) {
      window.__firstBoard = performance.now();
      observer.disconnect();
      requestAnimationFrame(() => { window.__firstBoardFrame = performance.now(); });
    }
  });
  observer.observe(document, {childList: true, subtree: true});
}
"""

# The frame's side of an open, once its board is there: its clock and resource timings.
OPEN_TIMES = """() => {
  const entry = (part) => performance.getEntriesByType("resource")
      .find((e) => e.name.includes(part));
  const span = (e) => e && {start: e.startTime, end: e.responseEnd,
                            transfer: e.transferSize, encoded: e.encodedBodySize,
                            decoded: e.decodedBodySize};
  const page = performance.getEntriesByType("navigation")[0];
  return {origin: performance.timeOrigin, board: window.__firstBoard,
          frame: window.__firstBoardFrame ?? null, page: page.responseEnd,
          script: span(entry("/activity/app.js")), sign_in: span(entry("api/session")),
          command: span(entry("api/command"))};
}"""

# Armed in the frame just before Enter: the key event's time, then the moment the board first
# holds ``expected`` marked tiles (the new row marked), then the next animation frame.
ARM = """(expected) => {
  performance.clearResourceTimings();
  const board = document.getElementById("board");
  window.__guess = new Promise((resolve, reject) => {
    let pressed = null;
    const key = (event) => {
      if (event.key === "Enter" && pressed === null) pressed = event.timeStamp;
    };
    addEventListener("keydown", key, {capture: true});
    const observer = new MutationObserver(() => {
      if (board.querySelectorAll(".tile[data-mark]").length < expected) return;
      const marked = performance.now();
      observer.disconnect();
      removeEventListener("keydown", key, {capture: true});
      const rows = [...board.querySelectorAll(".row")];
      const over = rows.every((row) => row.querySelector(".tile[data-mark]"));
      requestAnimationFrame(() => {
        const request = performance.getEntriesByType("resource")
            .find((e) => e.name.includes("api/command"));
        resolve({pressed, marked, frame: performance.now(), over,
                 request: request ? request.responseEnd - request.startTime : null});
      });
    });
    observer.observe(board, {childList: true, subtree: true, attributes: true});
    setTimeout(() => reject(new Error("no marked row: " +
                                      document.getElementById("note").textContent)), 30000);
  });
}"""

# Armed in Ann's frame just before a Bob's guess: the moment her #players first shows his
# ``rows`` rows, on the wall clock (Date.now(), the clock of Python's time.time()), and the
# next animation frame after it.
SEEN = """([name, rows]) => {
  const players = document.getElementById("players");
  const shown = () => [...players.querySelectorAll("li")].some((li) =>
      li.querySelector(".name")?.textContent === name &&
      li.querySelectorAll(".progress .mini").length === rows);
  window.__seen = new Promise((resolve, reject) => {
    const observer = new MutationObserver(() => {
      if (!shown()) return;
      const wall = Date.now(), now = performance.now();
      observer.disconnect();
      requestAnimationFrame(() => resolve({wall, origin: performance.timeOrigin + now,
                                           frame: wall + performance.now() - now}));
    });
    observer.observe(players, {childList: true, subtree: true});
    setTimeout(() => reject(new Error(`${name}'s row ${rows} never shown`)), 15000);
  });
}"""

MARKED = "() => document.querySelectorAll('#board .tile[data-mark]').length"


@contextlib.asynccontextmanager
async def web_server(services: Services, discord: DiscordServer) -> AsyncIterator[str]:
    """tests/test_activity_browser.py's server (tests/activity_window.py), its limits
    lifted: its URL."""
    async with window_server(services, discord, per_minute=LIFTED) as (url, activity):
        activity.limit = RateLimit(LIFTED)
        services.play_limit = Limit(10**9, 1.0)  # the play limit (5 in 10 s) too
        yield url


def percentile(values: list[float], p: float) -> float:
    """Nearest rank: the smallest value with at least ``p`` of them at or below it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p * len(ordered)) - 1)]


def spread(values: list[float]) -> dict[str, Any]:
    return {"p50": round(percentile(values, 0.5), 1), "p99": round(percentile(values, 0.99), 1),
            "max": round(max(values), 1), "median": round(statistics.median(values), 1),
            "values": [round(v, 1) for v in values]}  # fmt: skip


# -- the first board ---------------------------------------------------------------------------


async def open_window(
    browser: Any, client: DiscordClient, url: str, user_id: int
) -> dict[str, Any]:
    """One open in a new context: the times of its first board (ms)."""
    context = await browser.new_context()
    try:
        await context.add_init_script(FIRST_BOARD)
        page = await context.new_page()
        frame = client.open(url, INSTANCE, user_id)
        async with page.expect_event("framenavigated", lambda f: f.url.startswith(url)) as framed:
            await page.goto(frame.url)
        window = await framed.value
        await window.wait_for_function("() => window.__firstBoardFrame !== undefined",
                                       timeout=30_000)  # fmt: skip
        times = await window.evaluate(OPEN_TIMES)
        opened = await page.evaluate("performance.timeOrigin")
    finally:
        await context.close()
    framed_at = times["origin"] - opened  # the Activity's navigation start, in the page's time

    def at(ms: float | None) -> float | None:  # the frame's time -> the page's
        return None if ms is None else round(framed_at + ms, 1)

    phases = {"framed": round(framed_at, 1), "page": at(times["page"])}
    for name in ("script", "sign_in", "command"):
        span = times[name] or {}
        phases[f"{name}_start"], phases[f"{name}_end"] = at(span.get("start")), at(span.get("end"))
    phases["board"], phases["board_frame"] = at(times["board"]), at(times["frame"])
    script = times["script"] or {}
    return {"from_page_ms": phases["board"], "from_frame_ms": round(times["board"], 1),
            "phases": phases,
            "served": {"transfer": script.get("transfer"), "encoded": script.get("encoded"),
                       "decoded": script.get("decoded")}}  # fmt: skip


async def first_boards(browser: Any, client: DiscordClient, url: str, opens: int,
                       say: Callable[[str], None]) -> dict[str, Any]:  # fmt: skip
    cold = await open_window(browser, client, url, OPENER)
    say(f"cold open: first board at {cold['from_page_ms']:.0f} ms")
    timed = [await open_window(browser, client, url, OPENER + 1 + i) for i in range(opens)]
    phases = {name: round(statistics.median(o["phases"][name] for o in timed), 1)
              for name in timed[0]["phases"] if timed[0]["phases"][name] is not None}  # fmt: skip
    return {"opens": opens, "cold_ms": cold["from_page_ms"], "cold_phases": cold["phases"],
            "from_page_ms": spread([o["from_page_ms"] for o in timed]),
            "from_frame_ms": spread([o["from_frame_ms"] for o in timed]),
            "phases_median_ms": phases, "app_js_served": cold["served"]}  # fmt: skip


# -- a guess's round trip ----------------------------------------------------------------------


async def new_practice(window: Any) -> None:
    await window.locator('#games button[data-command="wordle practice"]').click()
    await window.wait_for_function(
        "() => document.querySelector('#games button[data-command=\"wordle practice\"]')"
        ".getAttribute('aria-pressed') === 'true' && !document.querySelector('#board "
        ".tile[data-mark]')", timeout=30_000)  # fmt: skip
    await window.locator("#board").click()  # the focus off the button: Enter is a guess


async def opened_window(context: Any, client: DiscordClient, url: str, instance: str,
                        user: int, drawn: str) -> tuple[Any, Any]:  # fmt: skip
    """A new page with the window of ``user`` in ``instance`` in it, once ``drawn`` shows:
    the page and the window's frame."""
    page = await context.new_page()
    async with page.expect_event("framenavigated", lambda f: f.url.startswith(url)) as framed:
        await page.goto(client.open(url, instance, user).url)
    window = await framed.value
    await window.locator(drawn).first.wait_for(timeout=30_000)
    return page, window


async def round_trips(browser: Any, client: DiscordClient, url: str, guesses: int,
                      say: Callable[[str], None], seed: int = 42) -> dict[str, Any]:  # fmt: skip
    words = get_variant("wordle").guesses.words
    draw = random.Random(seed)
    context = await browser.new_context()
    trips: list[dict[str, Any]] = []
    games = 0
    try:
        page, window = await opened_window(context, client, url, INSTANCE, PLAYER, "#board .tile")
        over, typed = True, []
        while len(trips) < guesses:
            if over:
                await new_practice(window)
                games += 1
                typed = draw.sample(words, 6)  # distinct words: none refused as played
            word = typed.pop()
            await page.keyboard.type(word)
            await window.wait_for_function(f"() => document.querySelectorAll('#board "
                                           f".tile.typed').length === {len(word)}")  # fmt: skip
            expected = await window.evaluate(MARKED) + len(word)
            await window.evaluate(ARM, expected)
            await page.keyboard.press("Enter")
            trip = await window.evaluate("window.__guess")
            trips.append(trip)
            over = trip["over"]
    finally:
        await context.close()
    say(f"{len(trips)} guesses in {games} practice games")
    requests = [t["request"] for t in trips if t["request"] is not None]
    return {"guesses": len(trips), "games": games,
            "marked_ms": spread([t["marked"] - t["pressed"] for t in trips]),
            "frame_ms": spread([t["frame"] - t["pressed"] for t in trips]),
            "request_ms": spread(requests) if requests else None}  # fmt: skip


# -- progress reaching another window --------------------------------------------------------


async def clock_off(window: Any) -> float:
    """How far the page's ``Date.now()`` falls outside Python's ``time.time()`` read just
    before and after it (ms; 0 if within, as for one clock), the worst of five reads."""
    off = 0.0
    for _ in range(5):
        before = time.time() * 1000
        page = await window.evaluate("Date.now()")  # whole ms, floored
        after = time.time() * 1000
        off = max(off, math.floor(before) - page, page - after)
    return round(off, 1)


async def progress(browser: Any, client: DiscordClient, url: str, other: Services, updates: int,
                   say: Callable[[str], None], seed: int = 7) -> dict[str, Any]:  # fmt: skip
    """Ann's window open on today's daily while the Bobs play it through ``other`` (the
    services of another process, on the same database): from each guess's commit to Ann's
    #players showing its row."""
    bobs = math.ceil(updates / ROWS_EACH)
    everyone = {ANN: "ann"} | {BOB + n: f"bob{n}" for n in range(1, bobs + 1)}
    client.launch(TOGETHER, TOGETHER_CHANNEL, everyone, guild_id=GUILD)
    words = get_variant("wordle").guesses.words
    draw = random.Random(seed)
    # Each guess after a pause: one in each of ``updates`` even slices of two rounds, in a
    # random order, so the guesses fall at every moment of the server's rounds alike rather
    # than just after the one that showed the last (or where a few random draws happen to).
    pauses = [(i + draw.random()) * 2 * EVERY / updates for i in range(updates)]
    draw.shuffle(pauses)
    context = await browser.new_context()
    seen: list[dict[str, float]] = []
    try:
        _page, window = await opened_window(context, client, url, TOGETHER, ANN, "#players li")
        clocks = await clock_off(window)
        for n in range(1, bobs + 1):
            bob = Caller(Player(BOB + n, f"bob{n}"), GUILD, place=TOGETHER_CHANNEL,
                         guild_id=GUILD)  # fmt: skip
            begun = await COMMANDS["wordle daily"].run(other, bob)
            answer = (await other.storage.game(begun.game.game_id)).state["answer"]
            typed = draw.sample([w for w in words if w != answer], ROWS_EACH)  # never done early
            for rows in range(1, min(ROWS_EACH, updates - len(seen)) + 1):
                await asyncio.sleep(pauses[len(seen)])
                await window.evaluate(SEEN, [bob.player.name, rows])
                reply = await COMMANDS["guess"].run(other, bob, word=typed[rows - 1])
                committed = time.time() * 1000  # epoch ms, as the page's Date.now()
                if reply.refused:
                    raise RuntimeError(f"bob{n}'s guess refused: {reply.text}")
                seen.append(await window.evaluate("window.__seen") | {"committed": committed})
    finally:
        await context.close()
    say(f"{len(seen)} updates from {bobs} players")
    return {"updates": len(seen), "players": bobs,
            "shown_ms": spread([s["wall"] - s["committed"] for s in seen]),
            "frame_ms": spread([s["frame"] - s["committed"] for s in seen]),
            "page_clock_off_ms": clocks,
            "clocks_apart_ms": max(round(abs(s["origin"] - s["wall"]), 1)
                                   for s in seen)}  # fmt: skip


# -- the built files ---------------------------------------------------------------------------


def sizes() -> dict[str, Any]:
    """The built files, raw and gzipped at level 9 (bytes), and their total in KB."""
    files = {}
    for name in FILES:
        data = (CLIENT / name).read_bytes()
        files[name] = {"raw": len(data), "gzip": len(gzip.compress(data, compresslevel=9))}
    raw = sum(f["raw"] for f in files.values())
    zipped = sum(f["gzip"] for f in files.values())
    return {"files": files, "raw_kb": round(raw / 1024, 1), "gzip_kb": round(zipped / 1024, 1)}


# -- the whole -------------------------------------------------------------------------------


async def measure(folder: Path, opens: int = 10, guesses: int = 60, updates: int = 30,
                  say: Callable[[str], None] = print) -> dict[str, Any]:  # fmt: skip
    """Every figure, on a fresh database in ``folder``."""
    load_start = os.getloadavg()
    settings = load_settings(database_url=str(folder / "window.sqlite3"), daily_seed=SEED)
    services: Services = await open_services(settings)
    other: Services = await open_services(settings)  # another process's, on the same file
    api = DiscordServer(GUILDS)
    await api.start()
    try:
        async with DiscordClient(api) as client, web_server(services, api) as url, \
                launched_async() as browser:  # fmt: skip
            everyone = {PLAYER: "player"} | {OPENER + i: f"opener{i}" for i in range(opens + 1)}
            client.launch(INSTANCE, CHANNEL, everyone, guild_id=GUILD)
            boards = await first_boards(browser, client, url, opens, say)
            trips = await round_trips(browser, client, url, guesses, say)
            reached = await progress(browser, client, url, other, updates, say)
    finally:
        await api.stop()
        await other.close()
        await services.close()
    if api.violations:  # the stand-in's answers or the server's calls off Discord's description
        say(f"the API stand-in saw {len(api.violations)} violations: {api.violations[:3]}")
    return {"load_average": {"start": list(load_start), "end": list(os.getloadavg())},
            "first_board": boards, "round_trip": trips, "progress": reached, "size": sizes(),
            "api_violations": api.violations,
            "targets": {"first_board_ms": TARGET_FIRST_BOARD_MS,
                        "round_trip_p99_ms": TARGET_ROUND_TRIP_P99_MS,
                        "progress_ms": TARGET_PROGRESS_MS,
                        "gzip_kb": TARGET_GZIPPED_KB}}  # fmt: skip


def verdict(held: bool) -> str:
    return "met" if held else "NOT MET"


def loads(averages: list[float]) -> str:
    return " ".join(f"{x:.2f}" for x in averages)


def table(report: dict[str, Any]) -> str:
    load = report["load_average"]
    board, trip, size = report["first_board"], report["round_trip"], report["size"]
    page, frame, ph = board["from_page_ms"], board["from_frame_ms"], board["phases_median_ms"]
    served = board["app_js_served"]
    lines = [
        f"load average (1, 5, 15 min): start {loads(load['start'])}, end {loads(load['end'])}",
        "",
        f"first board, {board['opens']} opens (a new context each), ms:",
        f"  from the page's navigation start   median {page['median']:>6.0f}  max "
        f"{page['max']:>6.0f}  (target <= {TARGET_FIRST_BOARD_MS}: "
        f"{verdict(page['max'] <= TARGET_FIRST_BOARD_MS)})",
        f"  from the Activity frame's start    median {frame['median']:>6.0f}  max "
        f"{frame['max']:>6.0f}",
        f"  the cold open (first after the server started): {board['cold_ms']:.0f}",
        "  medians from the page's start: the Activity framed {framed:.0f}, its HTML {page:.0f}, "
        "app.js {script_end:.0f}, sign-in {sign_in_start:.0f}-{sign_in_end:.0f}, "
        "the daily {command_start:.0f}-{command_end:.0f}, board {board:.0f}, "
        "its frame {board_frame:.0f}".format(**ph),
        "",
        f"a guess's round trip, {trip['guesses']} guesses in {trip['games']} practice games, ms:",
        "  {:<34} {:>6} {:>6} {:>6}".format("", "p50", "p99", "max"),
    ]
    for name, key in (("key press to marked row (DOM)", "marked_ms"),
                      ("key press to its next frame", "frame_ms"),
                      ("the request alone", "request_ms")):  # fmt: skip
        s = trip[key]
        if s is not None:
            lines.append(f"  {name:<34} {s['p50']:>6.1f} {s['p99']:>6.1f} {s['max']:>6.1f}")
    held = trip["marked_ms"]["p99"] <= TARGET_ROUND_TRIP_P99_MS
    lines += [f"  (target p99 <= {TARGET_ROUND_TRIP_P99_MS}: {verdict(held)})", ""]
    reached = report["progress"]
    lines += [f"progress reaching another window, {reached['updates']} guesses of "
              f"{reached['players']} players (another process's services), ms:",
              "  {:<34} {:>6} {:>6} {:>6}".format("", "p50", "p99", "max")]  # fmt: skip
    for name, key in (("commit to Ann's #players (DOM)", "shown_ms"),
                      ("commit to its next frame", "frame_ms")):  # fmt: skip
        s = reached[key]
        lines.append(f"  {name:<34} {s['p50']:>6.1f} {s['p99']:>6.1f} {s['max']:>6.1f}")
    lines.append(
        f"  (the page's Date.now() outside Python's time.time() by "
        f"{reached['page_clock_off_ms']} ms; its timeOrigin + now() off Date.now() by "
        f"at most {reached['clocks_apart_ms']} ms)"
    )
    held = reached["shown_ms"]["max"] <= TARGET_PROGRESS_MS
    lines += [f"  (target: each within {TARGET_PROGRESS_MS}: {verdict(held)})", "",
              "built files (bot/web/static/activity/), bytes:",
              "  {:<12} {:>9} {:>9}".format("", "raw", "gzip -9")]  # fmt: skip
    for name, f in size["files"].items():
        lines.append(f"  {name:<12} {f['raw']:>9,} {f['gzip']:>9,}")
    lines.append(
        f"  total: {size['raw_kb']} KB raw, {size['gzip_kb']} KB gzipped (target <= "
        f"{TARGET_GZIPPED_KB} KB: {verdict(size['gzip_kb'] <= TARGET_GZIPPED_KB)})"
    )
    if served["encoded"]:
        how = "as is" if served["encoded"] >= served["decoded"] else "compressed"
        lines.append(
            f"  app.js as served: {served['encoded']:,} bytes for {served['decoded']:,} ({how})"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--opens", type=int, default=10, help="page opens timed (after a cold one)")
    parser.add_argument("--guesses", type=int, default=60, help="guesses timed")
    parser.add_argument("--updates", type=int, default=30,
                        help="other players' guesses timed to a window")  # fmt: skip
    parser.add_argument("--json", action="store_true", help="the figures as a JSON object")
    args = parser.parse_args(argv)
    say = (lambda line: print(line, file=sys.stderr)) if args.json else print
    with tempfile.TemporaryDirectory() as folder:
        report = asyncio.run(measure(Path(folder), args.opens, args.guesses, args.updates, say))
    print(json.dumps(report, indent=2) if args.json else table(report))


if __name__ == "__main__":
    main()
