"""Nothing the archive serves narrows today's daily: from a deployment's draw day on, each day's
answer is drawn from the list minus the answers of the previous half-list of days, so a player
who knows every earlier answer (archive, digests, boards) still has half the list for today
and for tomorrow, and no answer comes back within that many days. Days served before the draw
day keep their answers (the cycles of shuffles, bot/services/daily.py)."""

from collections import Counter
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.services import DRAW_FROM, Player
from bot.services.archive import play_archive
from bot.services.daily import EPOCH, DailyPuzzles, no_repeat_days
from bot.services.kinds import KINDS
from engine.variants import get_variant

SEED = "9c2e5f1a7b3d4e6f8a0c2b4d6f8e1a3c-draw"
UTC_ZONE = ZoneInfo("UTC")
DAILY_VARIANTS = sorted({spec.variant for spec in KINDS.values() if spec.daily})
UPGRADE = date(2026, 11, 29)  # the draw day of a deployment that served days until the 28th
NEVER = date.max  # a draw day that never comes: every day follows the cycles, as before


def deployment(draw_from: date, seed: str = SEED) -> DailyPuzzles:
    return DailyPuzzles(seed, UTC_ZONE, draw_from=draw_from)


def day_of(number: int) -> date:
    return EPOCH + timedelta(days=number)


def possible(puzzles: DailyPuzzles, variant: str, day: date, known: dict[date, str]) -> set[str]:
    """What an attacker who knows the code, the deployment's draw day and ``known`` (answers
    of earlier days) can still take ``day``'s answer to be. Not the seed: with it nothing is
    secret. Cycle days: a word not used earlier in the cycle, nor held at this position in an
    earlier cycle. Drawn days: a word not among the answers of the previous
    ``no_repeat_days`` days (those of them it does not know leave every word open)."""
    words = get_variant(variant).answers.words
    if day < puzzles.draw_from:
        cycle, position = divmod(DailyPuzzles.number(day), len(words))
        start = cycle * len(words)
        used = {known.get(day_of(start + p)) for p in range(position)}
        held = {known.get(day_of(c * len(words) + position)) for c in range(cycle)}
        return set(words) - used - held
    back = no_repeat_days(variant)
    return set(words) - {known.get(day - timedelta(days=k)) for k in range(1, back + 1)}


def answers_between(puzzles: DailyPuzzles, variant: str, first: date, last: date) -> dict:
    return {
        first + timedelta(days=k): puzzles.answer(variant, first + timedelta(days=k))
        for k in range((last - first).days + 1)
    }


@st.composite
def attacked_days(draw):
    """A daily kind, a deployment's draw day and a day from it on; often a cycle's last day
    (under the cycles one word was left there), or the draw day itself."""
    variant = draw(st.sampled_from(DAILY_VARIANTS), label="variant")
    size = len(get_variant(variant).answers.words)
    draw_from = draw(st.sampled_from([EPOCH, UPGRADE, day_of(size - 40), day_of(3 * size)]))
    start = DailyPuzzles.number(draw_from)
    ends = [c * size - 1 for c in range(start // size + 1, start // size + 4)]
    number = draw(
        st.one_of(st.sampled_from([start, *ends]), st.integers(start, start + 3 * size)),
        label="today",
    )
    return variant, draw_from, day_of(number)


@settings(max_examples=60, deadline=None)
@given(attacked_days())
def test_knowing_every_earlier_answer_leaves_half_the_list_today_and_tomorrow(case) -> None:
    variant, draw_from, today = case
    puzzles = deployment(draw_from)
    words = get_variant(variant).answers.words
    # Every day before today, as far back as either rule looks (a whole cycle and more).
    known = answers_between(puzzles, variant, today - timedelta(days=2 * len(words)),
                            today - timedelta(days=1))  # fmt: skip
    known = {day: word for day, word in known.items() if day >= EPOCH}
    for day in (today, today + timedelta(days=1)):
        left = possible(puzzles, variant, day, known)
        assert puzzles.answer(variant, day) in left  # the attacker's rules are the code's
        assert len(left) >= len(words) / 2, (variant, draw_from, day, len(left), len(words))


def test_the_issues_attack_now_leaves_half_the_list() -> None:
    """Italian, 4 letters, 2027-03-01: the last day of a cycle, named in one word by giving up
    the cycle's 346 earlier archive days. After the upgrade it is one of at least 174."""
    variant, today = "wordle-it-4", date(2027, 3, 1)
    size = len(get_variant(variant).answers.words)
    assert DailyPuzzles.number(today) % size == size - 1
    for draw_from, words_left in ((NEVER, 1), (UPGRADE, (size + 1) // 2)):
        puzzles = deployment(draw_from)
        known = answers_between(puzzles, variant, today - timedelta(days=size),
                                today - timedelta(days=1))  # fmt: skip
        left = possible(puzzles, variant, today, known)
        assert puzzles.answer(variant, today) in left
        assert len(left) == words_left


@pytest.mark.parametrize("variant", ["wordle-it-4", "wordle-es-4", "wordle"])
@pytest.mark.parametrize("draw_from", [EPOCH, UPGRADE])
def test_no_answer_comes_back_within_half_the_list(variant, draw_from) -> None:
    """Three cycles' worth of days from the draw day, and the served days just before it:
    two days with the same answer are more than ``no_repeat_days`` apart."""
    puzzles = deployment(draw_from)
    size, back = len(get_variant(variant).answers.words), no_repeat_days(variant)
    first = max(draw_from - timedelta(days=back), EPOCH)
    answers = answers_between(puzzles, variant, first, draw_from + timedelta(days=3 * size))
    last_seen: dict[str, date] = {}
    for day, word in answers.items():
        if word in last_seen and day >= draw_from:
            assert (day - last_seen[word]).days > back, (word, last_seen[word], day)
        last_seen[word] = day


def test_each_word_left_is_as_likely() -> None:
    """No order among the words left helps: ranked by how long ago each was last the answer
    (the queue a predictable draw would follow) or alphabetically, the day's answer falls in
    each tenth of the ranking about as often."""
    variant = "wordle-it-4"
    words = get_variant(variant).answers.words
    puzzles, days = deployment(EPOCH), 4000
    answers = answers_between(puzzles, variant, EPOCH, day_of(days - 1))
    last_seen = dict.fromkeys(words, -1)
    by_age, by_name = Counter(), Counter()
    for number, word in enumerate(answers.values()):
        left = possible(puzzles, variant, day_of(number), answers)
        oldest_first = sorted(left, key=lambda w: (last_seen[w], w))
        by_age[10 * oldest_first.index(word) // len(left)] += 1
        by_name[10 * sorted(left).index(word) // len(left)] += 1
        last_seen[word] = number
    for counts in (by_age, by_name):  # 400 expected in each tenth; sigma about 19
        assert all(300 <= counts[tenth] <= 500 for tenth in range(10)), counts


# The answers the cycles gave these days, from the code before the draw day came in.
SERVED = [
    ("wordle", 1, "coach"), ("wordle", 2314, "covet"), ("wordle", 2315, "layer"),
    ("wordle", 1988, "scene"), ("primel", 1988, "11941"), ("wordle-it-4", 346, "sede"),
    ("wordle-it-4", 347, "bega"), ("wordle-it-4", 1986, "arca"), ("wordle-es-4", 1500, "niña"),
    ("wordle-en-11", 1990, "luminescent"), ("wordle-pl-7", 1991, "poległy"),
]  # fmt: skip
SERVED_SEED = "golden-seed-for-old-formula-7c41e9"


@pytest.mark.parametrize(("variant", "number", "answer"), SERVED)
def test_days_before_the_draw_day_keep_their_answers(variant, number, answer) -> None:
    for draw_from in (NEVER, day_of(number + 1), day_of(number + 400)):
        assert deployment(draw_from, SERVED_SEED).answer(variant, day_of(number)) == answer


def test_the_draw_day_changes_no_earlier_day() -> None:
    for variant in DAILY_VARIANTS:
        cycles, drawn = deployment(NEVER), deployment(UPGRADE)
        for number in range(0, DailyPuzzles.number(UPGRADE), 97):
            assert drawn.answer(variant, day_of(number)) == cycles.answer(variant, day_of(number))


def noon(day: date) -> datetime:
    return datetime.combine(day, datetime.min.time(), UTC) + timedelta(hours=12)


async def test_a_fresh_deployment_draws_from_puzzle_0_and_keeps_it(shared_url, opened) -> None:
    """A database that never served a puzzle has no day to keep: every day is drawn (the
    archive's too). Recorded once: reopened a year on, after games, it stays."""
    first = await opened(shared_url, clock_start=noon(UPGRADE))
    assert first.daily.draw_from == EPOCH
    assert await first.storage.get_meta(DRAW_FROM) == EPOCH.isoformat()
    await first.games.start(Player(1, "ann"), 0, daily=True)
    await first.close()
    later = await opened(shared_url, clock_start=noon(UPGRADE + timedelta(days=365)))
    assert await later.storage.served_any_puzzle()
    assert later.daily.draw_from == EPOCH


async def test_an_upgraded_deployment_draws_from_the_first_day_not_served(
    shared_url, opened
) -> None:
    """A database the cycles served (a daily played on the 28th) draws from the 29th, once:
    restarted later, the day recorded stays, and the daily stored keeps its answer, in
    the archive too."""
    served_on = UPGRADE - timedelta(days=1)
    old_answer = deployment(NEVER).answer("wordle", served_on)
    first = await opened(shared_url, clock_start=noon(served_on))
    first.daily.draw_from = NEVER  # the code before: it served this day from the cycles
    ann = Player(1, "ann")
    await first.games.start(ann, 0, daily=True)
    # A database of the code before: no draw day recorded.
    await first.storage._write("DELETE FROM meta WHERE key = ?", (DRAW_FROM,))
    await first.close()

    upgraded = await opened(shared_url, clock_start=noon(served_on))
    assert upgraded.daily.draw_from == UPGRADE
    stored = await upgraded.storage.daily_game(ann.id, "wordle:daily", served_on.isoformat())
    assert stored is not None and stored.state["answer"] == old_answer
    await upgraded.close()

    later = await opened(shared_url, clock_start=noon(UPGRADE + timedelta(days=400)))
    assert later.daily.draw_from == UPGRADE
    assert await later.storage.get_meta(DRAW_FROM) == UPGRADE.isoformat()
    bob = Player(2, "bob")
    number = DailyPuzzles.number(served_on)
    archived = await play_archive(later.games, bob, 0, "wordle", number=number)
    given_up = await later.games.give_up(bob, 0, game_id=archived.game.game_id)
    assert given_up.game.answer == old_answer
    # The days from the draw day on are drawn, no longer the cycles' positions.
    assert [later.daily.answer("wordle", UPGRADE + timedelta(days=k)) for k in range(5)] != [
        deployment(NEVER).answer("wordle", UPGRADE + timedelta(days=k)) for k in range(5)
    ]
