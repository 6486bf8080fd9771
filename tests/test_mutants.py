"""Tests that kill mutants which used to survive the suite (issue 29, point 10, and issue 39,
point 10): each names the change to the code it catches. The other mutants of those lists
are caught where their subject is tested (tests/test_archive.py, tests/test_services.py,
tests/test_share_rules.py, tests/test_solver.py, tests/test_deletion.py).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, timedelta
from itertools import product
from zoneinfo import ZoneInfo

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.services import Player, Services, open_services
from bot.services.challenges import profane, word_problem
from bot.services.shares import posting_day, record_shares
from bot.settings import load_settings
from bot.storage.periods import EPOCH, period_key
from engine.answer_model import ModelPosition, nyt_model
from engine.pattern import score, to_digits, winning
from engine.rules import hard_mode_reason
from engine.shares import parse_shares
from engine.solver.coach import _luck as uniform_luck
from engine.solver.coach import coach
from engine.solver.position import Position
from engine.solver.weighted import _luck, buckets, model_coach, model_grid
from engine.variants import get_variant

SEED = "7d1e4a9c2b5f8e0d3a6c9f1b4e7a0d2c-mutants"
GUILD = 100
ANN, BOB, CAT, DAN = (Player(i, n) for i, n in enumerate(("ann", "bob", "cat", "dan"), 1))
NOT_ALLOWED = "That word is not allowed in a challenge: choose another"


@pytest.fixture
async def services(database_url: str) -> AsyncIterator[Services]:
    s = await open_services(load_settings(database_url=database_url, daily_seed=SEED))
    yield s
    await s.close()


def noon(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 12, tzinfo=UTC)


# -- a profane challenge word is refused however it is typed ---------------------------------
# Mutant: bot/services/challenges.py checked the word as typed (``word in profane()``), not
# the word the game reads (``verdict.word``: trimmed, lower case), so " BITCH " passed.

PROFANE_GUESSES = sorted(w for w in profane() if w in get_variant("wordle").guesses.index)


@settings(max_examples=60, deadline=None)
@given(
    word=st.sampled_from(PROFANE_GUESSES),
    upper=st.lists(st.booleans(), min_size=5, max_size=5),
    before=st.sampled_from(["", " ", "  ", "\t", "\n"]),
    after=st.sampled_from(["", " ", "   ", "\t", "\n"]),
)
def test_a_profane_word_is_refused_in_any_case_and_padding(
    word: str, upper: list[bool], before: str, after: str
) -> None:
    typed = before + "".join(c.upper() if u else c for c, u in zip(word, upper, strict=True))
    assert word_problem("wordle", typed + after) == NOT_ALLOWED


async def test_a_profane_challenge_in_capitals_or_with_spaces_stores_nothing(services) -> None:
    word = PROFANE_GUESSES[0]
    for typed in (word.upper(), f" {word} ", word.title(), f"\t{word.upper()}  "):
        created = await services.challenges.create(ANN, GUILD, 7, typed)
        assert created.challenge is None and created.message == NOT_ALLOWED
    assert (await services.storage._one("SELECT COUNT(*) FROM challenges"))[0] == 0
    assert (await services.challenges.create(ANN, GUILD, 7, " CIGAR ")).challenge is not None


# -- a week runs from Monday to Sunday ---------------------------------------------------------
# Mutant: bot/storage/periods.py keyed a week by the Sunday starting it, or by the Sunday
# before its Monday (``isoweekday``): the stored keys change, so a deployment would split the
# week it was deployed in.


@given(day=st.dates(min_value=date(2021, 6, 19), max_value=date(2100, 12, 31)))
def test_a_week_is_keyed_by_its_monday(day: date) -> None:
    year, week, _ = day.isocalendar()
    monday = date.fromisocalendar(year, week, 1)
    assert period_key("week", day, 28) == f"week:{monday.isoformat()}"
    following = day + timedelta(days=1)
    same_week = period_key("week", following, 28) == period_key("week", day, 28)
    assert same_week == (following.weekday() != 0)  # a new week starts on each Monday


async def test_a_sunday_and_the_next_monday_are_on_different_weekly_boards(services) -> None:
    """One win each: Monday 23 February, Sunday 1 March, Monday 2 March, Sunday 8 March."""
    played = {ANN: date(2026, 2, 23), BOB: date(2026, 3, 1), CAT: date(2026, 3, 2),
              DAN: date(2026, 3, 8)}  # fmt: skip
    for player, day in played.items():
        services.daily.clock = lambda day=day: noon(day)
        await services.games.start(player, GUILD, daily=True)
        answer = services.daily.answer("wordle", day)
        won = await services.games.guess(player, GUILD, answer, kind="wordle:daily")
        assert won.game.status == "won"

    async def week_of(day: date) -> set[str]:
        board = await services.stats.leaderboard("wordle:daily", "wins", guild_id=GUILD,
                                                 today=day, period="week")  # fmt: skip
        return {e.name for e in board.entries}

    assert await week_of(date(2026, 3, 1)) == {"ann", "bob"}  # Sunday closes Monday's week
    assert await week_of(date(2026, 3, 2)) == {"cat", "dan"}  # Monday starts a new one
    assert await week_of(date(2026, 3, 8)) == {"cat", "dan"}  # read from any of its days


# -- tomorrow's Wordle, already out in the far east, counts ----------------------------------
# Mutant: bot/storage/shares.py's window without the day after (``range(today - 1, today +
# 1)``), or ``newest_number`` without it: a Tokyo player's share of their today was refused.


async def test_a_share_of_tomorrows_number_posted_today_counts(services) -> None:
    posted_at = datetime(2026, 3, 1, 23, 30, tzinfo=UTC)  # 08:30 on 2 March in Tokyo
    assert posted_at.astimezone(ZoneInfo("Asia/Tokyo")).date() == date(2026, 3, 2)
    posted = posting_day(posted_at, UTC)  # the deployment's day: still 1 March
    tomorrow = (posted - EPOCH).days + 1
    text = f"Wordle {tomorrow:,} 3/6\n\n⬛🟨⬛⬛⬛\n⬛🟩🟩⬛⬛\n🟩🟩🟩🟩🟩"
    done = await record_shares(services.storage, ANN.id, ANN.name, parse_shares(text).shares,
                               scope=GUILD, posted=posted)  # fmt: skip
    assert done.notes == [f"Wordle #{tomorrow}: recorded (see /stats)"] and not done.refused
    board = await services.stats.leaderboard("wordle:shared", "wins", guild_id=GUILD,
                                             today=date(2026, 3, 2), period="today")  # fmt: skip
    assert [(e.name, e.value) for e in board.entries] == [("ann", 1)]  # on its own day
    later = f"Wordle {tomorrow + 1:,} 3/6\n\n⬛🟨⬛⬛⬛\n⬛🟩🟩⬛⬛\n🟩🟩🟩🟩🟩"
    shares = parse_shares(later).shares
    refused = await record_shares(services.storage, BOB.id, BOB.name, shares, scope=GUILD,
                                  posted=posted)  # fmt: skip
    assert refused.refused  # the day after tomorrow is out nowhere on Earth


# -- the NYT-model coach (engine/solver/weighted.py) -----------------------------------------

MODEL_WORDS = get_variant("wordle-nyt").guesses.words


@pytest.fixture(scope="module")
def model():
    return nyt_model()


@settings(max_examples=60, deadline=None)  # about 0.03 s each
@given(
    answer=st.integers(0, len(MODEL_WORDS) - 1),
    played=st.lists(st.integers(0, len(MODEL_WORDS) - 1), min_size=1, max_size=3),
    guess=st.integers(0, len(MODEL_WORDS) - 1),
)
def test_luck_is_a_percentile_that_averages_one_half(model, answer, played, guess) -> None:
    """Luck counts a tie with the outcome that came up as half: then, over every outcome
    weighted by its chance, a player is on average exactly half lucky (99 / 2), as a
    percentile is. Mutant: ties counted in full (``mass[size == actual]`` without the half;
    every outcome ties with itself, so the average rises by half the sum of squared masses)."""
    rows = [(MODEL_WORDS[g], score(MODEL_WORDS[g], MODEL_WORDS[answer])) for g in played]
    position = ModelPosition.after(model, rows)
    word = MODEL_WORDS[guess]
    split = buckets(model.row(word)[position.candidates][None, :], position.weights, 243)
    mass = split.mass[0]
    outcomes = np.flatnonzero(mass > 0).tolist()
    average = sum(mass[p] * _luck(position, word, p) for p in outcomes)
    assert abs(average - 49.5) <= 0.5 + 1e-9  # each luck is rounded to a whole number


def test_the_opener_is_not_scored_for_skill(model) -> None:
    """Everyone's first guess is made knowing nothing: the coach scores skill from the
    second turn on. Mutant: turn 1 scored too (``skill = skill_of(...)`` for ``i == 0``)."""
    answer = "snafu"
    coaching = model_coach(model, [(g, score(g, answer)) for g in ("crane", "sloth", answer)])
    first, *rest = coaching.turns
    assert first.skill is None and all(t.skill is not None for t in rest)
    assert coaching.skill == round(sum(t.skill for t in rest) / len(rest))
    assert 0 <= first.luck <= 99  # luck is still measured on turn 1
    at_once = model_coach(model, [(answer, winning(5))])
    assert at_once.skill is None and at_once.turns[0].skill is None and at_once.won


class Ticks:
    """A clock that moves one second each time it is read: the hard-mode check's budget in
    seconds becomes a count of answers checked, whatever the machine's speed."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def test_a_grid_read_in_hard_mode_drops_answers_only_soft_play_could_reach(model) -> None:
    """Row 2 keeps the first three greens of row 1 but loses the fourth: only normal mode
    allows that, so in hard mode no answer fits. The check takes its likeliest answers first
    (a budget of 30 clock ticks); those it reached are gone, the rest kept unchecked. Mutant:
    ``hard`` ignored (the normal reading returned)."""
    grid = [int("22220", 3), int("22202", 3)]
    normal = model_grid(model, grid)
    hard = model_grid(model, grid, hard=True, budget=30, clock=Ticks())
    assert normal.count > 1000 and normal.complete
    assert not hard.complete and 0 < normal.count - hard.count <= 31
    assert set(hard.likely).isdisjoint(normal.likely)  # the likeliest were checked, and fell
    # A grid that keeps its greens reads the same either way.
    kept = [int("02220", 3), int("22220", 3)]
    assert model_grid(model, kept, hard=True, budget=30, clock=Ticks()).likely == model_grid(
        model, kept).likely  # fmt: skip


# -- the same two rules in the uniform coach (engine/solver/coach.py) ------------------------

ANSWERS = get_variant("wordle").answers.words
GUESSES = get_variant("wordle").guesses.words


@settings(max_examples=20, deadline=None)
@given(
    answer=st.integers(0, len(ANSWERS) - 1),
    played=st.lists(st.integers(0, len(GUESSES) - 1), max_size=2),
    guess=st.integers(0, len(GUESSES) - 1),
)
def test_the_uniform_coachs_luck_averages_one_half(answer, played, guess) -> None:
    """With equally likely answers too: ties with the outcome count half."""
    wordle = get_variant("wordle")
    rows = [(GUESSES[g], score(GUESSES[g], ANSWERS[answer])) for g in played]
    position = Position.after(wordle, rows)
    word = GUESSES[guess]
    outcomes = Counter(score(word, ANSWERS[c]) for c in position.candidates.tolist())
    n = len(position.candidates)
    average = sum(k / n * uniform_luck(position, word, p) for p, k in outcomes.items())
    assert abs(average - 49.5) <= 0.5 + 1e-9


def test_the_uniform_coach_does_not_score_the_opener() -> None:
    wordle = get_variant("wordle")
    coaching = coach(wordle, [(g, score(g, "cigar")) for g in ("crane", "moist", "cigar")])
    first, *rest = coaching.turns
    assert first.skill is None and all(t.skill is not None for t in rest)
    assert coaching.skill == round(sum(t.skill for t in rest) / len(rest))


# == issue 39, point 10 =======================================================================

DAY = date(2026, 3, 1)
NEXT = DAY + timedelta(days=1)


def just_before_midnight(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 23, 59, 59, 900_000, tzinfo=UTC)


def just_after_midnight(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 0, 0, 1, tzinfo=UTC) + timedelta(days=1)


# -- thirty practice wins in a row are no "30-day streak" ----------------------------------
# Mutant: bot/services/achievements.py's totals read the best streak of every kind
# (``max(int(r[3]) for r in rows)``), not of the dailies alone: a practice game can be
# given up and started again until a lucky draw, so thirty practice wins earned it.


async def test_thirty_practice_wins_in_a_row_do_not_earn_the_daily_streak(services) -> None:
    await services.storage.bulk_results([(ANN.id, GUILD, "wordle:practice", None, True, 4)] * 29)
    services.games.choose_answer = lambda variant: "cigar"
    assert (await services.games.start(ANN, GUILD)).ok
    won = await services.games.guess(ANN, GUILD, "cigar")
    assert won.ok and won.game.status == "won"
    practice = await services.storage.standing(ANN.id, "wordle:practice")
    assert (practice.wins, practice.current_streak, practice.max_streak) == (30, 30, 30)
    assert "streak_30" not in won.earned
    assert "streak_30" not in await services.storage.achievements.earned(ANN.id)


# -- a daily won as midnight closes it stays won -------------------------------------------
# Mutant: bot/services/closing.py's close_game without its ``status != playing`` check on
# the game read again: the job read the daily while it was going, the winning guess
# (accepted at 23:59:59.9) saved first, and the job's retry saved the win over as a loss.


async def test_a_daily_won_while_the_closing_job_closes_it_stays_won(services) -> None:
    now = [datetime(DAY.year, DAY.month, DAY.day, 23, 50, tzinfo=UTC)]
    services.daily.clock = lambda: now[0]
    assert (await services.games.start(ANN, GUILD, daily=True)).ok
    answer = services.daily.answer("wordle", DAY)
    assert (await services.games.guess(ANN, GUILD, "aahed", kind="wordle:daily")).ok
    read_by_the_job = services.closing.boards_showing
    assert read_by_the_job is not None
    won = []

    async def the_win_lands_meanwhile(player_id: int, day: str) -> set[int]:
        """Called by the job between its read of the games going and its close of each."""
        now[0] = just_before_midnight(DAY)  # the guess was taken before midnight...
        won.append(await services.games.guess(ANN, GUILD, answer, kind="wordle:daily"))
        now[0] = just_after_midnight(DAY)  # ...and the job runs just after
        return await read_by_the_job(player_id, day)

    services.closing.boards_showing = the_win_lands_meanwhile
    now[0] = just_after_midnight(DAY)
    assert await services.closing.run_due() == 1  # found going, closed by nobody
    assert won[0].ok and won[0].game.status == "won"
    games = await services.storage._all("SELECT status FROM games")
    assert [tuple(r) for r in games] == [("won",)]
    results = await services.storage._all("SELECT won, guesses, day FROM results")
    assert [tuple(r) for r in results] == [(1, 2, DAY.isoformat())]
    standing = await services.storage.standing(ANN.id, "wordle:daily")
    assert (standing.played, standing.wins, standing.current_streak) == (1, 1, 1)


# Mutant: bot/services/games.py told a move after midnight in a daily another process had
# won just before it that the daily "closed at midnight, unfinished (a loss)" (without the
# ``not closed_here and ended.status != lost`` check).


async def test_a_move_after_midnight_in_a_daily_won_elsewhere_says_it_is_over(
    shared_url,
) -> None:
    now = [datetime(DAY.year, DAY.month, DAY.day, 23, 50, tzinfo=UTC)]
    settings = load_settings(database_url=shared_url, daily_seed=SEED)
    one, two = await open_services(settings), await open_services(settings)
    try:
        for process in (one, two):
            process.daily.clock = lambda: now[0]
        assert (await one.games.start(ANN, GUILD, daily=True)).ok
        assert (await one.games.guess(ANN, GUILD, "aahed", kind="wordle:daily")).ok
        assert (await two.games.current(ANN, GUILD)).ok  # the second process holds it now
        now[0] = just_before_midnight(DAY)
        won = await one.games.guess(ANN, GUILD, services_answer(one), kind="wordle:daily")
        assert won.ok and won.game.status == "won"
        now[0] = just_after_midnight(DAY)
        late = await two.games.guess(ANN, GUILD, "crane", kind="wordle:daily")
        assert not late.ok and "closed at midnight" not in late.message
        assert late.game is not None and late.game.status == "won"
        rows = await two.storage._all("SELECT won FROM results")
        assert [tuple(r) for r in rows] == [(1,)]
    finally:
        await one.close()
        await two.close()


def services_answer(services: Services) -> str:
    return services.daily.answer("wordle", services.daily.today())


# -- the closing job rests for a day, not for good -----------------------------------------
# Mutant: bot/services/closing.py's run_due resting once it has rested at all (``if
# self._rested is not None``): after one run that found nothing, no daily was ever closed
# by the job again.


async def test_the_closing_job_runs_again_on_each_later_day(services) -> None:
    now = [datetime(DAY.year, DAY.month, DAY.day, 12, tzinfo=UTC)]
    services.daily.clock = lambda: now[0]
    assert await services.closing.run_due() == 0  # nothing to close: it rests today
    for player, day in ((ANN, DAY), (BOB, NEXT), (CAT, NEXT + timedelta(days=1))):
        now[0] = datetime(day.year, day.month, day.day, 12, tzinfo=UTC)
        assert await services.closing.run_due() == 0
        started = await services.games.start(player, GUILD, daily=True)
        assert started.ok and started.game is not None
        assert await services.closing.run_due() == 0  # rested today: not looked at again
        now[0] = just_after_midnight(day)
        assert await services.closing.run_due() == 1  # the next day: the job runs again
        stored = await services.storage.game(started.game.game_id)
        assert stored is not None and stored.status == "lost"


# -- the winner's role: a run of a day again finishes it; an older day's run moves nothing ---
# Mutants: bot/services/winner_role.py's guard against an older day's run (``latest > day``)
# removed, or widened to the same day (``latest >= day``): the second run of a day then did
# nothing, and a winner whose role was being given when the first stopped never got it.

ROLE = 4242


class Roles:
    """The server's roles as Discord keeps them; ``failing``: members whose change fails as
    a request that never got an answer (a connection lost, the process stopping)."""

    def __init__(self) -> None:
        self.held: set[int] = set()
        self.calls: list[tuple[str, int]] = []
        self.failing: set[int] = set()

    async def problem(self, guild_id: int, role_id: int) -> str | None:
        return None

    async def give(self, guild_id: int, player_id: int, role_id: int) -> None:
        if player_id in self.failing:
            raise ConnectionResetError("no answer")
        self.calls.append(("give", player_id))
        self.held.add(player_id)

    async def take(self, guild_id: int, player_id: int, role_id: int) -> None:
        self.calls.append(("take", player_id))
        self.held.discard(player_id)

    async def say(self, channel, text: str) -> None:
        raise AssertionError(text)


async def test_a_second_winners_role_run_of_a_day_finishes_what_the_first_left(services) -> None:
    from bot.services.winner_role import crown
    from bot.storage.digests import DigestChannel

    storage = services.storage
    await storage.bulk_results([(p.id, GUILD, "wordle:daily", DAY.isoformat(), True, 3)
                                for p in (ANN, BOB, CAT)])  # fmt: skip
    await storage.winner_roles.set_role(GUILD, ROLE)
    channel = DigestChannel(GUILD, 555, 9, None)
    roles = Roles()
    roles.failing = {BOB.id}  # the first run stops while BOB's role is being given
    with pytest.raises(ConnectionResetError):
        await crown(storage, roles, roles.say, channel, DAY.isoformat(), {ANN.id, BOB.id})
    assert roles.held == {ANN.id}
    roles.failing = set()
    await crown(storage, roles, roles.say, channel, DAY.isoformat(), {ANN.id, BOB.id})
    assert roles.held == {ANN.id, BOB.id} and ("take", ANN.id) not in roles.calls
    holders = [(h.player_id, h.day) for h in await storage.winner_roles.holders(GUILD)]
    assert holders == [(ANN.id, DAY.isoformat()), (BOB.id, DAY.isoformat())]
    # Once more: nothing changes (Discord's role changes are idempotent).
    await crown(storage, roles, roles.say, channel, DAY.isoformat(), {ANN.id, BOB.id})
    assert roles.held == {ANN.id, BOB.id} and "take" not in {action for action, _ in roles.calls}
    assert [(h.player_id, h.day) for h in await storage.winner_roles.holders(GUILD)] == holders
    # The next day's run moves it; a late run of the day before moves nothing back.
    await crown(storage, roles, roles.say, channel, NEXT.isoformat(), {CAT.id})
    assert roles.held == {CAT.id}
    calls = len(roles.calls)
    await crown(storage, roles, roles.say, channel, DAY.isoformat(), {ANN.id, BOB.id})
    assert roles.held == {CAT.id} and len(roles.calls) == calls
    holders = [(h.player_id, h.day) for h in await storage.winner_roles.holders(GUILD)]
    assert holders == [(CAT.id, NEXT.isoformat())]


# -- a message's fourth share is not read, and its poster is told ----------------------------
# Mutant: bot/services/shares.py read one share past the cap (``shares[:MAX + 1]``) while
# it still said how many were left unread: a message's three refused shares let a fourth
# count.


async def test_a_messages_fourth_share_is_not_counted_and_its_poster_is_told(
    database_url, make_double
) -> None:
    from discord_double import POSTED
    from test_share_rules import listening

    double = await make_double(database_url)
    storage = double.bot.services.storage
    told = listening(double)
    await double.command("sharechannel", user_id=1, enabled=True)
    today = (date.fromisoformat(POSTED[:10]) - EPOCH).days
    old = [f"Wordle {today - 30 - i:,} 3/6\n\n⬛🟨⬛⬛⬛\n⬛🟩🟩⬛⬛\n🟩🟩🟩🟩🟩" for i in range(3)]
    fourth = f"Wordle {today:,} 3/6\n\n⬛🟨⬛⬛⬛\n⬛🟩🟩⬛⬛\n🟩🟩🟩🟩🟩"
    await double.post("\n\n".join([*old, fourth]), user_id=14)
    assert await storage.shares(14) == []
    [(poster, lines)] = told
    assert poster == 14 and len(lines) == 4
    assert all("only the current puzzle counts" in line for line in lines[:3])
    assert lines[3] == "Only a message's first 3 shares are read: 1 more not recorded"
    await double.post(fourth, user_id=14)  # alone, the same share counts
    assert [s["puzzle"] for s in await storage.shares(14)] == [today]


# -- a change made while another process posts the live board shows on it -------------------
# Mutant: bot/services/live_board.py gave up on a board another process was posting (its
# claim taken, no message yet: ``return False`` for ``return True``): the change was not
# read again once the board was posted, and the board missed it until the next change.


async def test_a_finish_while_another_process_posts_the_board_shows_on_it(
    shared_url, opened
) -> None:
    from clock import Clock
    from test_live_board import Discord, play, settled, until

    clock = Clock(datetime(DAY.year, DAY.month, DAY.day, 12, tzinfo=UTC))
    one = await opened(shared_url, clock, live_board_seconds=0.1)
    two = await opened(shared_url, clock, live_board_seconds=0.1)
    await one.storage.live_boards.set_channel(GUILD, 555)
    discord = Discord()
    posting, posted = asyncio.Event(), asyncio.Event()

    async def slow_post(channel: int, board) -> int:
        posting.set()
        await posted.wait()  # two's post is on its way while one's player finishes
        return await discord.post(channel, board)

    one.live_boards.attach(discord.post, discord.edit)
    two.live_boards.attach(slow_post, discord.edit)
    begun, done = [0], []
    flush = one.live_boards.debouncer.flush

    async def counted(key):  # one's attempts at its board, in the order they began
        began = begun[0]
        begun[0] += 1
        shown = await flush(key)
        done.append(began)
        return shown

    one.live_boards.debouncer.flush = counted
    await play(two, ANN, 0, finish=False)
    await posting.wait()
    await play(one, BOB, 1)
    after = begun[0]
    await until(lambda: any(began >= after for began in done))  # one saw bob's finish
    assert discord.posts == []
    posted.set()
    await asyncio.gather(settled(one), settled(two))
    [board] = discord.posts
    text = discord.messages[board]
    assert "2/6 bob" in text and "Still playing: ann" in text


# -- hard mode: a later row never lowers what an earlier one proved ---------------------------
# Mutant: engine/rules.py's revealed() kept each letter's count from the last row that
# showed it (``minimum[g] = shown[g]``), not the most any row showed: after a row proving two
# E's, a row showing one let a guess with a single E pass.


def test_a_later_row_showing_fewer_of_a_letter_keeps_the_count_proved_before() -> None:
    """EMCEE against GEESE shows three E's (🟨⬛⬛🟨🟩), then ELDER two (🟨⬛⬛🟨⬛): THESE,
    with two, keeps ELDER's clues but not EMCEE's."""
    history = [("emcee", score("emcee", "geese")), ("elder", score("elder", "geese"))]
    assert [to_digits(p, 5) for _, p in history] == ["10012", "10010"]
    reason = hard_mode_reason("these", history)
    assert reason is not None and reason.message == "Guess must contain E three times"
    assert hard_mode_reason("these", history[1:]) is None
    assert hard_mode_reason("geese", history) is None


def every_word(alphabet: str, length: int) -> list[str]:
    return ["".join(letters) for letters in product(alphabet, repeat=length)]


def test_hard_mode_keeps_every_rows_clues_over_a_whole_small_space() -> None:
    """Every answer, every two rows played against it and every next guess, over the words
    of three letters from two: hard mode refuses a guess exactly when it drops a clue of one
    of the rows (each row's greens, and its count of each letter shown)."""
    words = every_word("ab", 3)
    for answer in words:
        rows = [(guess, score(guess, answer)) for guess in words]
        keeps = {(row, word): hard_mode_reason(word, [row]) is None
                 for row in rows for word in words}  # fmt: skip
        for first, second in product(rows, repeat=2):
            for word in words:
                allowed = hard_mode_reason(word, [first, second]) is None
                assert allowed == (keeps[first, word] and keeps[second, word]), (
                    answer, first, second, word)  # fmt: skip
