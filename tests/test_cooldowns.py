"""Cooldowns where a command pings someone or creates something public: /challenge per
setter and per player named, /race per host and per channel. Enforced by the services on
what the database stores, so the console, a second process and Discord all obey; a refusal
says when the command works again and stores nothing. Time is a clock the tests move."""

from datetime import UTC, datetime
from typing import Any

import pytest
from discord_double import DiscordDouble, user

from bot.console import Console
from bot.services import Player, Services
from bot.services.cooldowns import wait_text

SEED = "4b8d2f6a0c4e8b2d6f0a4c8e2b6d0f4a-cooldowns"
GUILD, CHANNEL = 100, 555
START = datetime(2026, 3, 2, 12, tzinfo=UTC)
ANN, BOB, CAT, DAN = (Player(i, n) for i, n in enumerate(("ann", "bob", "cat", "dan"), 1))


@pytest.fixture
def opened(opened):
    """conftest's factory, every practice answer CIGAR."""
    return lambda url, clock: opened(url, clock, answers="cigar")


async def count(services: Services, table: str) -> int:
    return (await services.storage._one(f"SELECT COUNT(*) FROM {table}"))[0]


def test_a_wait_reads_in_seconds_then_minutes() -> None:
    assert wait_text(START.replace(second=45), START) == "in 45 s"
    assert wait_text(START.replace(minute=4, second=10), START) == "in 4 min 10 s"
    assert wait_text(START.replace(minute=10), START) == "in 10 min"
    assert wait_text(START, START) == "in 1 s"  # never "in 0 s"


async def test_a_setter_makes_three_challenges_in_ten_minutes(services, clock) -> None:
    challenges = services.challenges
    for _ in range(3):
        assert (await challenges.create(ANN, GUILD, 7, "cigar")).challenge is not None
        clock.advance(60)
    refused = await challenges.create(ANN, GUILD, 7, "cigar")  # 3 minutes after the first
    assert refused.challenge is None
    assert refused.message == "You can set another challenge in 7 min (at most 3 in 10 minutes)"
    assert await count(services, "challenges") == 3  # a refusal stores nothing
    clock.advance(7 * 60)  # the first is ten minutes old: one more
    assert (await challenges.create(ANN, GUILD, 7, "cigar")).challenge is not None
    again = await challenges.create(ANN, GUILD, 7, "cigar")
    assert again.message.startswith("You can set another challenge in 1 min ")
    assert (await challenges.create(BOB, GUILD, 7, "cigar")).challenge is not None  # per setter


async def test_a_player_is_named_in_two_challenges_in_ten_minutes(services, clock) -> None:
    challenges = services.challenges
    assert (await challenges.create(ANN, GUILD, 7, "cigar", target=BOB)).challenge is not None
    clock.advance(30)
    assert (await challenges.create(CAT, GUILD, 7, "cigar", target=BOB)).challenge is not None
    clock.advance(30)
    refused = await challenges.create(DAN, GUILD, 7, "cigar", target=BOB)  # whoever sets it
    assert refused.challenge is None and refused.message == (
        "bob has been challenged enough for now: challenge them again in 9 min (at most 2 in "
        "10 minutes), or set one for anyone"
    )
    assert (await challenges.create(DAN, GUILD, 7, "cigar")).challenge is not None  # for anyone
    assert (await challenges.create(DAN, GUILD, 7, "cigar", target=CAT)).challenge is not None
    clock.advance(9 * 60)
    assert (await challenges.create(DAN, GUILD, 7, "cigar", target=BOB)).challenge is not None
    assert await count(services, "challenges") == 5


async def test_deleting_ones_data_is_no_way_around_a_targets_cooldown(services, clock) -> None:
    """A setter's challenges go with their data, but the players they named stay named for
    the cooldown's window: name BOB twice, delete, name him again: refused."""
    challenges = services.challenges
    for _ in range(2):
        assert (await challenges.create(ANN, GUILD, 7, "cigar", target=BOB)).challenge
        clock.advance(30)
    assert await services.delete_player(ANN.id)
    assert await count(services, "challenges") == 0
    refused = await challenges.create(ANN, GUILD, 7, "cigar", target=BOB)
    assert refused.challenge is None and refused.message.startswith(
        "bob has been challenged enough for now: challenge them again in 9 min "
    )
    clock.advance(9 * 60)  # the first ping is ten minutes old
    assert (await challenges.create(ANN, GUILD, 7, "cigar", target=BOB)).challenge
    await services.games.purge_marks()  # the job keeps the pings still within the window
    assert await count(services, "recent_pings") == 2
    clock.advance(60)
    await services.games.purge_marks()  # and forgets those older
    assert await count(services, "recent_pings") == 0


async def test_a_channel_has_one_lobby_at_a_time(services, clock) -> None:
    races = services.races
    made = await races.create(ANN, GUILD, CHANNEL)
    assert made.ok
    clock.advance(15)
    refused = await races.create(BOB, GUILD, CHANNEL)
    assert not refused.ok
    assert (
        refused.message == "A race is waiting for players here: join it, or start another in 45 s"
    )
    assert (await races.create(BOB, GUILD, CHANNEL + 1)).ok  # another channel
    assert await count(services, "races") == 2
    assert (await races.join(made.board.race.id, BOB)).ok
    assert (await races.start(made.board.race.id, ANN)).ok  # no longer waiting
    assert (await races.create(CAT, GUILD, CHANNEL)).ok


async def test_a_host_opens_five_races_in_ten_minutes(services, clock) -> None:
    races = services.races
    for channel in range(5):
        assert (await races.create(ANN, GUILD, channel + 1)).ok
        clock.advance(60)
    refused = await races.create(ANN, GUILD, 99)
    assert not refused.ok
    assert refused.message == "You can start another race in 5 min (at most 5 in 10 minutes)"
    assert (await races.create(BOB, GUILD, 99)).ok  # per host
    clock.advance(5 * 60)
    assert (await races.create(ANN, GUILD, 98)).ok


async def test_the_limits_hold_across_processes(shared_url, clock, opened) -> None:
    """Two processes on one database count the same challenges and lobbies."""
    first, second = await opened(shared_url, clock), await opened(shared_url, clock)
    try:
        for services in (first, second, first):
            assert (await services.challenges.create(ANN, GUILD, 7, "cigar")).challenge
        refused = await second.challenges.create(ANN, GUILD, 7, "cigar")
        assert refused.challenge is None and "in 10 min" in refused.message
        assert (await first.races.create(ANN, GUILD, CHANNEL)).ok
        assert not (await second.races.create(BOB, GUILD, CHANNEL)).ok
    finally:
        await first.close()
        await second.close()


async def test_the_console_obeys_the_same_limits(tmp_path, clock, opened) -> None:
    services = await opened(str(tmp_path / "console.sqlite3"), clock)
    shown: list[str] = []
    console = Console(services, ANN, shown.append, colour=False)
    try:
        for line in ["/challenge cigar"] * 4 + ["/race", "/as bob", "/race"]:
            await console.handle(line)
    finally:
        await services.close()
    text = "\n".join(shown)
    assert text.count("made: another player") == 3
    assert "You can set another challenge in 10 min (at most 3 in 10 minutes)" in text
    assert "A race is waiting for players here: join it, or start another in 1 min" in text


# -- in Discord: thirty in a row ---------------------------------------------------------------


async def command(double: DiscordDouble, name: str, user_id: int, options: dict[str, Any],
                  target: dict | None = None):  # fmt: skip
    payload = double._base(2, user_id, "2251799813685247", True)
    opts = [{"name": k, "type": 3, "value": v} for k, v in options.items()]
    data: dict[str, Any] = {"id": "1", "name": name, "type": 1, "options": opts}
    if target is not None:
        opts.append({"name": "player", "type": 6, "value": target["id"]})
        data["resolved"] = {"users": {target["id"]: target}}
    payload["data"] = data
    return await double._dispatch(payload)


async def test_thirty_challenges_in_a_row_ping_their_target_twice(double) -> None:
    bob = user(BOB.id, "bob")
    sent = [s for _ in range(30) for s in await command(double, "challenge", ANN.id,
                                                        {"word": "cigar"}, target=bob)]  # fmt: skip
    pings = [s for s in sent if not s.ephemeral]
    assert len(pings) == 2 and all(s.data["content"] == f"<@{BOB.id}>" for s in pings)
    refusals = [s for s in sent if s.ephemeral]
    assert len(refusals) == 28
    assert all("bob has been challenged enough for now" in s.text for s in refusals)
    assert all(not s.data.get("content", "").startswith("<@") for s in refusals)


async def test_thirty_races_in_a_row_open_one_lobby(double) -> None:
    sent = [s for _ in range(30) for s in await command(double, "race", ANN.id, {})]
    lobbies = [s for s in sent if not s.ephemeral]
    assert len(lobbies) == 1 and "press Join" in lobbies[0].text
    refusals = [s for s in sent if s.ephemeral]
    assert len(refusals) == 29 and all("start another in " in s.text for s in refusals)
    assert (await double.bot.services.storage._one("SELECT COUNT(*) FROM races"))[0] == 1
