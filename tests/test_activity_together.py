"""The players beside you in the game window (issue 42.4): their progress streamed from the
database, whichever process a move went through; colours only once you have finished the
same puzzle, letters never; a stop that a watching window does not hold up."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from activity_window import (
    ANN,
    BOB,
    CHANNEL,
    GUILD,
    INSTANCE,
    answer_of,
    lines_until,
    served,
    window,
)

from bot.commands import COMMANDS
from bot.commands.model import Caller
from bot.services import Player

SEED = "5d0c3b9e7a2f4e6c8b1d3f5a7c9e0b2d-together"
__all__ = ["window"]  # the fixture, used by name


async def test_players_see_each_others_progress_and_never_their_letters(window):
    """Bob plays two rows: Ann's window shows his rows, not their colours, until she has
    finished the same daily; his letters never reach her, in any line sent."""
    ann, bob = await window.session(ANN, "ann"), await window.session(BOB, "bob")
    _, ann_daily = await window.run(ann, "wordle daily")
    answer = await answer_of(window, ann_daily["game"]["id"])
    words = [w for w in ("slate", "pious", "crane") if w != answer][:2]
    response = await window.http.post("/activity/api/together", json={},
                                      headers={"Authorization": f"Bearer {ann}"})  # fmt: skip
    assert response.status == 200
    seen: list[dict[str, Any]] = []
    first = await lines_until(response, lambda s: True, seen)
    assert [(p["id"], p["status"]) for p in first["players"]] == [
        (str(ANN), "playing"), (str(BOB), "waiting")]  # fmt: skip
    _, bob_daily = await window.run(bob, "wordle daily")
    for n, word in enumerate(words):
        await window.run(bob, "guess", options={"word": word}, game=bob_daily["game"]["id"], rows=n)
    bobs = lambda s: next(p for p in s["players"] if p["id"] == str(BOB))  # noqa: E731
    progress = await lines_until(response, lambda s: bobs(s)["rows"] == 2, seen)
    assert "marks" not in bobs(progress)  # Ann has not finished: no colours of Bob's
    await window.run(ann, "guess", options={"word": answer}, game=ann_daily["game"]["id"], rows=0)
    done = await lines_until(response, lambda s: "marks" in bobs(s), seen)
    assert len(bobs(done)["marks"]) == 2 and all(set(m) <= set("012") for m in bobs(done)["marks"])
    assert next(p for p in done["players"] if p["id"] == str(ANN))["score"] == 1
    response.close()
    sent = json.dumps(seen).lower()
    assert not any(word in sent for word in words)  # Bob's letters: never
    # Not a daily: refused. Ann gone from the instance: refused once Discord's list of its
    # users is read again (it is trusted for 2 s)
    practice = await window.http.post("/activity/api/together", json={"kind": "wordle:practice"},
                                      headers={"Authorization": f"Bearer {ann}"})  # fmt: skip
    assert practice.status == 400
    window.discord.launch(INSTANCE, CHANNEL, {BOB}, guild_id=GUILD)
    async with asyncio.timeout(30):
        while True:
            gone = await window.http.post("/activity/api/together", json={},
                                          headers={"Authorization": f"Bearer {ann}"})  # fmt: skip
            if gone.status == 403:
                break
            gone.close()
            await asyncio.sleep(0.1)  # a condition polled, not a wait for its own sake


async def test_progress_made_through_another_process_reaches_the_window(shared_url, opened):
    """Two processes on one database: Bob plays in chat through one (a bot process), Ann
    watches in the window served by the other (`wordlebot web`, say): his rows reach her."""
    bots, pages = await opened(shared_url), await opened(shared_url)
    async with served(pages) as window:
        ann = await window.session(ANN, "ann")
        response = await window.http.post("/activity/api/together", json={},
                                          headers={"Authorization": f"Bearer {ann}"})  # fmt: skip
        seen: list[dict[str, Any]] = []
        await lines_until(response, lambda s: True, seen)
        caller = Caller(Player(BOB, "bob"), GUILD, place=CHANNEL, guild_id=GUILD)
        await COMMANDS["wordle daily"].run(bots, caller)
        await COMMANDS["guess"].run(bots, caller, word="crane")
        bob = await lines_until(response, lambda s: s["players"][1]["rows"] == 1, seen)
        assert bob["players"][1] == {"id": str(BOB), "name": "bob", "you": False, "rows": 1,
                                     "status": "playing"}  # fmt: skip
        response.close()


async def test_a_window_watching_does_not_hold_up_a_stop(window):
    """The server stops (SIGTERM): the progress stream of a window watching ends at once,
    not after aiohttp's minute of waiting for open requests."""
    ann = await window.session(ANN)
    response = await window.http.post("/activity/api/together", json={},
                                      headers={"Authorization": f"Bearer {ann}"})  # fmt: skip
    await lines_until(response, lambda s: True, [])
    stopping = asyncio.ensure_future(window.http.server.runner.cleanup())
    async with asyncio.timeout(30):  # well inside the minute a watch would otherwise hold it
        assert await response.content.readline() == b""  # the stream ended
        await stopping
