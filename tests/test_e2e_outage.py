"""A database outage through the Discord stand-in and the real `wordlebot run` process
(issue 39, point 4): while PostgreSQL is down, every interaction is answered within
Discord's 3 seconds, with the "busy" message where nothing can be done, and play resumes
once the server is back, without a restart."""

from __future__ import annotations

import asyncio

import pytest
from bot_process import BotProcess, click, command, started
from conftest import admin, stoppable_postgres, with_database
from discord_server import WINDOW, Reply

from bot.discord_bot import DATABASE_BUSY

pytestmark = pytest.mark.asyncio(loop_scope="function")

NEWCOMERS = range(100, 116)  # 16 players the bot has not seen: their language is read now
REGULARS = range(1, 5)  # 4 players who played before the outage


@pytest.fixture
def crashable():
    """A PostgreSQL server of the test's own, stopped at once (``-m immediate``: every
    server process killed, as in a crash) and started again."""
    with stoppable_postgres("wordlebot-outage-", "immediate") as (url, ctl):
        admin(url, "CREATE DATABASE outage")
        yield with_database(url, "outage"), ctl


async def answers(server, payloads: list[dict]) -> tuple[list[Reply], int]:
    """Send every interaction at once: the replies, and how many got none at all."""
    got = await asyncio.gather(*(server.interact(p, settle=True) for p in payloads),
                               return_exceptions=True)  # fmt: skip
    replies = [r for r in got if isinstance(r, Reply)]
    assert all(isinstance(r, Reply | TimeoutError) for r in got), got
    return replies, len(got) - len(replies)


async def test_while_the_database_is_down_every_interaction_is_answered_busy(server, crashable):
    """Old code answered nobody whose language was due to be read (16 of 16 newcomers and
    the 4 who pressed a button): the read raised before any command's handler ran."""
    url, ctl = crashable
    process = BotProcess(server, url)
    await started(server, process)
    boards = {}
    for player in REGULARS:
        board = await server.interact(command("wordle", "practice", user_id=player))
        assert board.a_new_message and "Wordle" in board.text(), board.text()
        boards[player] = board

    await asyncio.to_thread(ctl, "stop")
    busy = DATABASE_BUSY
    presses = [click(next(i for i in boards[p].custom_ids() if ":guess:" in i), user_id=200 + p,
                     on=boards[p].data) for p in REGULARS]  # fmt: skip
    down = ([command("wordle", "practice", user_id=p) for p in NEWCOMERS]
            + [command("stats", user_id=p) for p in REGULARS] + presses)  # fmt: skip
    replies, unanswered = await answers(server, down)
    assert unanswered == 0, f"{unanswered} of {len(down)} interactions got no answer"
    for reply in replies:
        assert reply.latency is not None and reply.latency <= WINDOW
        assert busy in reply.text(), reply.text()

    await asyncio.to_thread(ctl, "start")
    back, unanswered = await answers(server, [command("wordle", "practice", user_id=p)
                                              for p in NEWCOMERS])  # fmt: skip
    assert unanswered == 0
    for reply in back:  # the first action after the restart may still find it busy
        assert "Wordle" in reply.text() or busy in reply.text(), reply.text()
    again = await server.interact(command("wordle", "practice", user_id=NEWCOMERS[0]))
    assert "Wordle" in again.text(), again.text()
    code, log = await process.stop()
    assert code == 0, log[-2000:]
