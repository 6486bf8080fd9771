"""A day's games close when its puzzle day ends: dailies of every kind that has one, races and
co-op games. A move after midnight is refused and closes the game as a loss of its day (the
streak breaks), /wordle daily starts today's, the job closes the rest in bulk once whatever
the processes, the digest closes its day before posting, and reminders name the daily that
/wordle daily starts; on both engines, by a clock the test moves."""

import asyncio
from datetime import UTC, date, datetime, timedelta

import pytest
from clock import Clock, at

from bot.services import Player, Services
from bot.services.daily import shown_number
from bot.services.digest import Digest
from bot.services.kinds import KINDS
from bot.services.reminders import parse_time
from bot.storage.digests import DigestChannel
from bot.storage.reminders import DailyRole, Reminder

SEED = "9d1f3b5d7f9b1d3f5b7d9f1b3d5f7b9d-closing"
GUILD, OTHER, CHANNEL, ADMIN = 100, 200, 555, 9
DAY = date(2026, 3, 1)
NEXT = DAY + timedelta(days=1)
ANN, BOB, CAT, DAN = (Player(i, n) for i, n in enumerate(("ann", "bob", "cat", "dan"), 1))
WRONG = {"wordle": "aahed", "primel": "10007"}  # a guess that is never the answer here
# The games named in commands (each language's Wordle is tested in tests/test_languages.py).
DAILY_GAMES = [name for name, spec in KINDS.items() if spec.daily and not spec.base]


def noon(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 12, tzinfo=UTC)


@pytest.fixture
def opened(opened):
    """conftest's factory, with this file's answers (CIGAR, 99991) and co-op's deal."""
    return lambda url, clock: opened(url, clock, answers=ANSWERS, deal=["cigar"])


ANSWERS = {"wordle": "cigar", "primel": "99991"}


@pytest.fixture
def clock() -> Clock:
    return Clock(noon(DAY))


async def start_daily(services: Services, player: Player, game: str = "wordle",
                      misses: int = 1, scope: int = GUILD) -> int:  # fmt: skip
    """Today's daily of ``game`` started, ``misses`` wrong guesses played; its id."""
    started = await services.games.start(player, scope, game, daily=True)
    assert started.ok and started.game is not None, started.message
    for _ in range(misses):
        assert (await services.games.guess(player, scope, WRONG[game], kind=f"{game}:daily")).ok
    return started.game.game_id


async def win_daily(services: Services, player: Player, scope: int = GUILD) -> None:
    await start_daily(services, player, misses=0, scope=scope)
    answer = services.daily.answer("wordle", services.daily.today())
    won = await services.games.guess(player, scope, answer, kind="wordle:daily")
    assert won.ok and won.game is not None and won.game.status == "won"


async def results(services: Services, game_id: int) -> list[tuple]:
    rows = await services.storage.db.all(
        "SELECT won, guesses, day, played_on FROM results WHERE game_id = ?", (game_id,)
    )
    return [tuple(r) for r in rows]


def past_midnight(clock: Clock) -> None:
    clock.now = datetime(NEXT.year, NEXT.month, NEXT.day, 0, 0, 1, tzinfo=UTC)


# -- a daily -----------------------------------------------------------------------------


async def test_a_guess_after_midnight_is_refused_and_closes_the_daily_as_a_loss(
    services, clock
) -> None:
    clock.now = noon(DAY - timedelta(days=1))
    await win_daily(services, ANN)  # a streak of 1 going into DAY
    clock.now = noon(DAY)
    game_id = await start_daily(services, ANN)
    past_midnight(clock)

    refused = await services.games.guess(ANN, GUILD, "crane")
    number, today = shown_number(DAY), shown_number(DAY + timedelta(days=1))
    assert not refused.ok and refused.message == (
        f"wordlebot Wordle #{number} closed at midnight (UTC), unfinished (a loss); today's is "
        f"#{today}: /wordle daily"
    )
    assert refused.game is not None and refused.game.over and refused.game.answer is not None
    stored = await services.storage.game(game_id)
    assert stored.status == "lost" and len(stored.state["rows"]) == 1  # nothing played on it
    assert await results(services, game_id) == [(0, 1, DAY.isoformat(), DAY.isoformat())]
    # Nothing moves it any more: a guess by its id, a give-up, a hint.
    by_id = await services.games.guess(ANN, GUILD, "crane", game_id=game_id)
    assert not by_id.ok and by_id.message == (
        f"wordlebot Wordle #{number} is over; today's is #{today}: /wordle daily"
    )
    assert not (await services.games.give_up(ANN, GUILD, game_id=game_id)).ok
    assert not (await services.games.hint(ANN, GUILD, game_id=game_id)).ok
    # The NYT's rule: an unfinished daily breaks the streak.
    stats = await services.stats.stats(ANN.id, "wordle:daily", NEXT)
    shown = (stats.played, stats.win_percent, stats.current_streak, stats.max_streak)
    assert shown == (2, 50, 0, 1)
    await win_daily(services, ANN)  # today's, after the closed one: a streak of 1 again
    stats = await services.stats.stats(ANN.id, "wordle:daily", NEXT)
    assert (stats.played, stats.win_percent, stats.current_streak) == (3, 67, 1)
    assert await results(services, game_id) == [(0, 1, DAY.isoformat(), DAY.isoformat())]


@pytest.mark.parametrize("game", DAILY_GAMES)
async def test_the_daily_command_after_midnight_starts_todays_puzzle(
    services, clock, game: str
) -> None:
    old = await start_daily(services, ANN, game)
    past_midnight(clock)
    today = await services.games.start(ANN, GUILD, game, daily=True)
    assert today.ok and today.game is not None and today.game.game_id != old
    assert (today.game.day, today.game.number) == (NEXT.isoformat(), shown_number(NEXT))
    title = KINDS[game].title
    assert today.message == (f"wordlebot {title} #{shown_number(DAY)} closed at midnight "
                             "(UTC), unfinished (a loss). Here is today's")  # fmt: skip
    assert (await services.storage.game(old)).status == "lost"
    # Today's is the one a guess goes to.
    played = await services.games.guess(ANN, GUILD, WRONG[game])
    assert played.ok and played.game.game_id == today.game.game_id


async def test_the_job_closes_every_ended_daily_once_and_leaves_other_games(
    services, clock
) -> None:
    ended = [await start_daily(services, ANN, "wordle", misses=0),
             await start_daily(services, BOB, "primel", misses=1, scope=OTHER)]  # fmt: skip
    practice = await services.games.start(CAT, GUILD)
    archive = await services.games.start_set(
        CAT, GUILD, "wordle:archive", (DAY - timedelta(days=9)).isoformat(), ["cigar"]
    )
    past_midnight(clock)
    todays = await start_daily(services, DAN)
    assert await services.closing.run_due() == 2
    for game_id, guesses in zip(ended, (0, 1), strict=True):
        assert (await services.storage.game(game_id)).status == "lost"
        assert await results(services, game_id) == [(0, guesses, DAY.isoformat(),
                                                     DAY.isoformat())]  # fmt: skip
    for kept in (practice.game.game_id, archive.game.game_id, todays):
        assert (await services.storage.game(kept)).status == "playing"
    assert await services.closing.run_due() == 0  # again: nothing left, nothing counted twice
    stats = await services.stats.stats(BOB.id, "primel:daily", NEXT)
    assert (stats.played, stats.win_percent) == (1, 0)


async def test_closing_holds_across_a_restart_and_two_processes(shared_url, opened) -> None:
    clock = Clock(noon(DAY))
    first, second = await opened(shared_url, clock), await opened(shared_url, clock)
    game_id = await start_daily(first, ANN)
    await start_daily(first, BOB)
    assert (await second.games.current(BOB, GUILD)).ok  # the second process holds it now
    await first.close()
    past_midnight(clock)
    restarted = await opened(shared_url, clock)
    refused = await restarted.games.guess(ANN, GUILD, "crane")
    assert not refused.ok and "closed at midnight" in refused.message
    # The job in both processes at once, and a move: each game closes once.
    *_, bob = await asyncio.gather(
        restarted.closing.run_due(), second.closing.run_due(),
        second.games.guess(BOB, GUILD, "crane"),
    )  # fmt: skip
    assert not bob.ok and "closed at midnight" in bob.message
    assert await results(restarted, game_id) == [(0, 1, DAY.isoformat(), DAY.isoformat())]
    count = await restarted.storage.db.one("SELECT COUNT(*) FROM results")
    assert count[0] == 2  # Ann's and Bob's, once each
    for player in (ANN, BOB):
        standing = await restarted.storage.standing(player.id, "wordle:daily")
        assert (standing.played, standing.current_streak) == (1, 0)
    await restarted.close()
    await second.close()


# -- the digest --------------------------------------------------------------------------


class Discord:
    def __init__(self) -> None:
        self.posts: list[Digest] = []

    async def post(self, channel: DigestChannel, digest: Digest) -> int:
        self.posts.append(digest)
        return 7000 + len(self.posts)

    async def warn(self, channel: DigestChannel, text: str) -> None:
        raise AssertionError(text)


async def test_the_digest_closes_its_day_first_and_shows_no_game_as_open(services, clock) -> None:
    await services.storage.digests.set_channel(GUILD, CHANNEL, ADMIN)
    await win_daily(services, ANN)
    dan = await start_daily(services, DAN)
    clock.now = at("2026-03-02T00:10")
    discord = Discord()
    [digest] = await services.digests.run_due(discord.post, discord.warn)
    [game] = digest.games
    assert game.unfinished == []
    assert [(score, [m.name for m in members]) for score, members in game.scores] == [
        ("1/6", ["ann"]), ("X/6", ["dan"])]  # fmt: skip
    assert (await services.storage.game(dan)).status == "lost"
    # Dan cannot go on to solve the day the digest showed.
    answer = services.daily.answer("wordle", DAY)
    late = await services.games.guess(DAN, GUILD, answer, game_id=dan)
    assert not late.ok and late.game.status == "lost"


async def test_the_digest_waits_while_a_game_of_its_day_is_open(
    services, clock, monkeypatch
) -> None:
    await services.storage.digests.set_channel(GUILD, CHANNEL, ADMIN)
    await win_daily(services, ANN)
    await start_daily(services, DAN)
    clock.now = at("2026-03-02T00:10")

    async def fails(*args: object) -> int:
        return 0  # the closing did not happen (a database that kept refusing it)

    monkeypatch.setattr(services.closing, "close_dailies", fails)
    discord = Discord()
    assert await services.digests.run_due(discord.post, discord.warn) == []
    # its lease given back, nothing posted: tried again
    assert await services.storage.digests.claimed(GUILD) == [("2026-03-01", None)]
    monkeypatch.undo()
    assert len(await services.digests.run_due(discord.post, discord.warn)) == 1


# -- reminders ---------------------------------------------------------------------------


async def test_a_reminder_names_the_daily_that_the_daily_command_starts(services, clock) -> None:
    await services.reminders.remind(ANN, GUILD, CHANNEL, parse_time("18:00"))
    await start_daily(services, ANN)  # started on DAY, left unfinished
    sent: list[date] = []

    async def remind(reminder: Reminder, day: date) -> None:
        sent.append(day)

    async def ping(role: DailyRole, day: date) -> None:
        raise AssertionError("no daily role here")

    clock.now = at("2026-03-02T18:00")
    await services.reminders.run_due(remind, ping)
    assert sent == [NEXT]  # "Wordle #N+1 is waiting for you: /wordle daily"
    started = await services.games.start(ANN, GUILD, daily=True)
    assert started.ok and started.game.number == shown_number(sent[0])


# -- races and co-op ---------------------------------------------------------------------


async def test_a_race_running_at_midnight_closes_with_its_day(services, clock) -> None:
    clock.now = at("2026-03-01T23:55")
    made = await services.races.create(ANN, GUILD, CHANNEL)
    race_id = made.board.race.id
    assert (await services.races.join(race_id, BOB)).ok
    assert (await services.races.start(race_id, ANN)).ok
    board = await services.races.play(race_id, ANN)
    assert (await services.games.guess(ANN, GUILD, "crane", game_id=board.game.game_id)).ok
    clock.now = at("2026-03-02T00:01")  # inside the time limit, but the day is over
    refused = await services.games.guess(ANN, GUILD, "slate", game_id=board.game.game_id)
    assert not refused.ok and "race closed at midnight" in refused.message
    assert await results(services, board.game.game_id) == [(0, 1, None, DAY.isoformat())]
    late = await services.races.play(race_id, BOB)
    assert not late.ok and "race closed at midnight" in late.message
    [ended] = await services.races.run_due()
    assert ended.ended and ended.board.race.status == "over"
    assert await services.races.run_due() == []


async def test_a_race_open_at_midnight_is_ended_by_the_job_after_a_restart(
    shared_url, opened
) -> None:
    clock = Clock(at("2026-03-01T23:55"))
    first = await opened(shared_url, clock)
    race_id = (await first.races.create(ANN, GUILD, CHANNEL)).board.race.id
    assert (await first.races.join(race_id, BOB)).ok
    assert (await first.races.start(race_id, ANN)).ok
    game_id = (await first.races.play(race_id, ANN)).game.game_id
    await first.close()
    clock.now = at("2026-03-02T00:01")
    restarted = await opened(shared_url, clock)
    [ended] = await restarted.races.run_due()
    assert ended.ended
    assert (await restarted.storage.game(game_id)).status == "lost"
    assert await results(restarted, game_id) == [(0, 0, None, DAY.isoformat())]
    await restarted.close()


async def test_a_coop_game_of_yesterday_closes_and_today_starts_afresh(services, clock) -> None:
    clock.now = at("2026-03-01T23:00")
    coop_id = (await services.coop.start(GUILD, CHANNEL)).coop.coop_id
    other_id = (await services.coop.start(GUILD, CHANNEL + 1)).coop.coop_id
    assert (await services.coop.guess(ANN, coop_id, "crane")).ok
    clock.now = at("2026-03-02T00:01")
    refused = await services.coop.guess(BOB, coop_id, "slate")
    assert not refused.ok and "co-op game closed at midnight" in refused.message
    assert refused.coop.over and (await services.storage.coop.game(coop_id)).status == "ended"
    assert not (await services.coop.ready(BOB, coop_id)).ok
    fresh = await services.coop.start(GUILD, CHANNEL)
    assert fresh.ok and fresh.coop.coop_id != coop_id and fresh.message is None
    assert await services.closing.run_due() == 1  # the other channel's, in bulk
    assert (await services.storage.coop.game(other_id)).status == "ended"
    assert await services.closing.run_due() == 0
