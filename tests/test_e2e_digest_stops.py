"""End to end, a digest is posted once whatever stops the process (issue 39): the real
`wordlebot run` process against the Discord stand-in, stopped at each step of the digest of
1 March (claimed, its post sent and unanswered, its post made but the answer lost, the
winner's role being moved), by SIGKILL or by SIGTERM; a process started after it ends the
day with exactly one digest in the channel and the role moved once.

The day is played and the digest set up in the database beforehand (the services, in this
process); the bot's clock (CLOCK_START, tests only) starts after 1 March is over."""

import asyncio
import signal
from datetime import timedelta
from typing import Any

import pytest
from bot_process import GUILDS, SEED, BotProcess, started
from clock import at
from discord_server import DiscordServer

from bot.services import Player

GUILD = GUILDS[0]
CHANNEL, WINNERS = GUILD + 1, GUILD + 11  # (discord_gateway.default_roles: below the bot's)
ADMIN, ANN = 20, Player(21, "ann")
DAY = "2026-03-01"
POST = "POST /channels/{channel_id}/messages"
GIVE = "PUT /guilds/{guild_id}/members/{user_id}/roles/{role_id}"
# The lease lapses a second after its process stops renewing it; the second start's clock is
# a minute later (its first look finds the lease lapsed, the post's nonce still holding).
FAST = {"digest_delay_seconds": "1", "jobs_interval_seconds": "0.1",
        "digest_lease_seconds": "1", "log_level": "DEBUG"}  # fmt: skip
FIRST, SECOND = "2026-03-02T00:05:00+00:00", "2026-03-02T00:06:00+00:00"
MOVED_ONCE = [(GUILD, ANN.id, WINNERS, "+")]


async def prepared(opened: Any, database: str) -> None:
    """Ann wins 1 March in the server, whose digest goes to CHANNEL with the winner's role."""
    services = await opened(database, at("2026-03-01T12:00"), daily_seed=SEED)
    await services.storage.digests.set_channel(GUILD, CHANNEL, ADMIN)
    await services.storage.winner_roles.set_role(GUILD, WINNERS)
    assert (await services.games.start(ANN, GUILD, daily=True)).ok
    answer = services.daily.answer("wordle", at(DAY).date())
    assert (await services.games.guess(ANN, GUILD, answer, kind="wordle:daily")).ok
    await services.close()


async def until(condition: Any, what: str, bot: BotProcess, timeout: float = 60) -> None:
    for _ in range(int(timeout * 50)):
        if condition():
            return
        await asyncio.sleep(0.02)
    said = [line for line in bot.logged().splitlines() if "DEBUG" not in line]
    pytest.fail(f"never: {what}\n" + "\n".join(said)[-3000:])


def unhold(server: DiscordServer, hold: Any) -> None:
    """A held request goes through now (Discord got it late); later ones are not held."""
    server.holds.remove(hold)
    hold.release.set()


async def first_run(server: DiscordServer, database: str, **settings: str) -> BotProcess:
    server.identified.clear()
    bot = BotProcess(server, database, clock_start=FIRST, **FAST | settings)
    await started(server, bot)
    return bot


async def ends_with_one_digest(server: DiscordServer, database: str) -> None:
    """Started again: the day ends with exactly one digest and the role moved once, and
    further rounds of the jobs change nothing."""
    server.identified.clear()
    bot = BotProcess(server, database, clock_start=SECOND, **FAST)
    await started(server, bot)
    await until(lambda: server.holders(GUILD, WINNERS) == {ANN.id}, "the role moved", bot)
    await bot.more_job_rounds(3)
    [(where, body, _files)] = server.posts
    assert where == CHANNEL and "👑 1/6: <@21>" in body["content"]
    assert server.role_changes == MOVED_ONCE
    code, err = await bot.stop()
    assert code == 0, err[-2000:]


async def test_a_digest_claimed_by_a_killed_process_is_taken_over(server, tmp_path, opened):
    """Killed once it claimed the day (or built the digest, which is kept nowhere): its lease
    lapses and the next start makes the digest from the start."""
    database = str(tmp_path / "bot.sqlite3")
    await prepared(opened, database)
    services = await opened(database, at(FIRST))
    lease = await services.storage.digests.claim(GUILD, DAY, CHANNEL, "a-killed-process",
                                                 at(FIRST), timedelta(seconds=1))  # fmt: skip
    assert lease is not None and lease.step == "claimed"
    await services.close()
    await ends_with_one_digest(server, database)


@pytest.mark.parametrize("answered", [False, True], ids=["unanswered", "made-answer-lost"])
async def test_a_process_killed_while_its_post_waits_on_discord(
    server, shared_url, opened, answered
):
    """Killed while the post waits on Discord: before Discord made it, or after (its answer
    lost). The next start sends it again with the same nonce, and Discord returns the message
    made: one digest."""
    await prepared(opened, shared_url)
    hold = server.hold(POST, answered=answered)
    bot = await first_run(server, shared_url)
    await asyncio.wait_for(hold.held.wait(), 60)
    bot.kill()
    unhold(server, hold)
    if answered:
        assert len(server.posts) == 1
    await ends_with_one_digest(server, shared_url)


async def test_a_process_killed_while_the_role_is_being_moved(server, shared_url, opened):
    """Killed once the digest is posted, while the winner's role is being given: the next
    start posts nothing more and gives the role."""
    await prepared(opened, shared_url)
    hold = server.hold(GIVE)
    bot = await first_run(server, shared_url)
    await asyncio.wait_for(hold.held.wait(), 60)
    assert len(server.posts) == 1
    bot.kill()
    server.holds.remove(hold)  # the killed one's request goes nowhere until the end
    try:
        await ends_with_one_digest(server, shared_url)
    finally:
        hold.release.set()


async def test_a_clean_stop_lets_the_digest_being_posted_finish(server, tmp_path, opened):
    """SIGTERM while the post waits on Discord: the stop waits for it (within its drain), the
    role moves, the exit is clean; a later start finds the day done."""
    database = str(tmp_path / "bot.sqlite3")
    await prepared(opened, database)
    hold = server.hold(POST)
    bot = await first_run(server, database)
    await asyncio.wait_for(hold.held.wait(), 60)
    bot.process.send_signal(signal.SIGTERM)
    await until(lambda: "and the background jobs finish before closing" in bot.logged(),
                "the stop draining the jobs", bot)  # fmt: skip
    unhold(server, hold)
    code, err = await bot.stop()
    assert code == 0, err[-2000:]
    assert len(server.posts) == 1 and server.role_changes == MOVED_ONCE
    await ends_with_one_digest(server, database)


async def test_a_clean_stop_past_its_drain_leaves_the_digest_to_the_next_start(
    server, tmp_path, opened
):
    """SIGTERM while Discord holds the post past the drain: the round is cancelled, its lease
    given back, the exit clean; the next start resumes with the same nonce."""
    database = str(tmp_path / "bot.sqlite3")
    await prepared(opened, database)
    hold = server.hold(POST)
    bot = await first_run(server, database, drain_seconds="1")  # its length is not the point
    await asyncio.wait_for(hold.held.wait(), 60)
    code, err = await bot.stop()  # waits out the drain
    assert code == 0, err[-2000:]
    assert "the background jobs still running after 1 s: cancelled" in err
    assert "Traceback" not in err, err[-3000:]
    unhold(server, hold)  # Discord made it after all
    await ends_with_one_digest(server, database)
