"""The days before a deployment's draw day (bot/services/daily.py) follow cycles: each pass
through the answer list has its own shuffle, the archive's puzzle one cycle back (or two, or
three) never holds today's or tomorrow's answer by position, and the days of the first cycle
keep the answers they always had. These rules still give every day before the draw day its
answer, so they are tested here on a deployment whose draw day never comes."""

import hashlib
import random
from datetime import UTC, date, datetime, timedelta
from functools import cache
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.services import Player, open_services
from bot.services.archive import play_archive
from bot.services.daily import EPOCH, DailyPuzzles
from bot.settings import load_settings
from engine.variants import get_variant

SEED = "5e1f0c3a9b7d2e4f6a8c1b3d5f7a9c2e-cycles"
DAILY = DailyPuzzles(SEED, ZoneInfo("UTC"), draw_from=date.max)  # cycles only
CYCLES = 4  # cycle 0 and three more


def answer_of(variant: str, number: int) -> str:
    return DAILY.answer(variant, EPOCH + timedelta(days=number))


def first_shuffle(variant: str, number: int) -> str:
    """The schedule as it was before cycles had shuffles of their own."""
    answers = get_variant(variant).answers.words
    return answers[_first_order(variant)[number % len(answers)]]


@cache  # one shuffle a list, as the schedule made it (not one a day asked)
def _first_order(variant: str) -> list[int]:
    digest = hashlib.sha256(f"{SEED}:{variant}".encode()).digest()
    order = list(range(len(get_variant(variant).answers.words)))
    random.Random(int.from_bytes(digest, "big")).shuffle(order)
    return order


@pytest.mark.parametrize("variant", ["wordle", "primel"])
def test_each_cycle_uses_every_answer_once_and_no_position_repeats_a_word(variant) -> None:
    size = len(get_variant(variant).answers.words)
    cycles = [[answer_of(variant, c * size + p) for p in range(size)] for c in range(CYCLES)]
    for words in cycles:
        assert sorted(words) == sorted(get_variant(variant).answers.words)
    for position in range(size):
        held = [words[position] for words in cycles]
        assert len(set(held)) == CYCLES, (variant, position, held)


@pytest.mark.parametrize("variant", ["wordle", "primel"])
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_the_archive_never_serves_todays_or_tomorrows_answer_by_position(variant, data) -> None:
    """On day #N the archive serves #1..#N-1; the puzzles a whole number of cycles before
    today and tomorrow are where a repeated order would give the answers away."""
    size = len(get_variant(variant).answers.words)
    today = data.draw(st.integers(size, CYCLES * size - 2), label="today")
    for number in (today, today + 1):
        for back in range(size, number, size):
            assert answer_of(variant, number - back) != answer_of(variant, number)


@pytest.mark.parametrize("variant", ["wordle", "primel"])
def test_the_first_cycle_keeps_its_answers(variant) -> None:
    size = len(get_variant(variant).answers.words)
    for number in [*range(0, size, 7), size - 1, (date(2026, 11, 25) - EPOCH).days]:
        assert answer_of(variant, number) == first_shuffle(variant, number)


async def test_giving_up_an_archive_puzzle_does_not_solve_the_daily_a_cycle_later(
    database_url: str,
) -> None:
    """The attack of the issue: on #2316 (2027-10-22), play archive #1, give up to learn its
    answer, then guess it in today's daily."""
    size = len(get_variant("wordle").answers.words)
    today = EPOCH + timedelta(days=size + 1)
    services = await open_services(load_settings(database_url=database_url, daily_seed=SEED))
    services.daily.clock = lambda: datetime.combine(today, datetime.min.time(), UTC)
    services.daily.draw_from = date.max  # a deployment still on the cycles
    try:
        cheat = Player(7, "cheat")
        started = await play_archive(services.games, cheat, 0, "wordle", number=1)
        assert started.ok
        given_up = await services.games.give_up(cheat, 0, game_id=started.game.game_id)
        learnt = given_up.game.answer
        assert learnt == answer_of("wordle", 1)
        await services.games.start(cheat, 0, daily=True)
        played = await services.games.guess(cheat, 0, learnt, kind="wordle:daily")
        assert played.ok and played.game.status == "playing"
    finally:
        await services.close()
