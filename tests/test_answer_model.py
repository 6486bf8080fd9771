"""The NYT answer model: every NYT-allowed word may be the answer, weighted (issue 17)."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.cli import main
from bot.render.text import analysis_text
from bot.services import Player, open_services
from bot.services.analysis import analyze
from bot.settings import load_settings
from engine.answer_model import ModelPosition, nyt_model
from engine.pattern import score, to_digits, to_emoji
from engine.rules import Mode
from engine.solver.hints import hint
from engine.solver.measures import bucket_counts, score_counts
from engine.solver.position import InconsistentHistory
from engine.solver.weighted import buckets, model_grid, model_hint
from engine.variants import get_variant

# SNAFU was an NYT answer; it is not in the original 2,315 (nor is it the likeliest fit).
ANSWER, PLAYED = "snafu", ("crane", "sloth", "snafu")
ROWS = [(g, score(g, ANSWER)) for g in PLAYED]
SHARE = "Wordle 1,234 3/6\n\n" + "\n".join(to_emoji(p, 5) for _, p in ROWS)
WORDS = get_variant("wordle-nyt").guesses.words


@pytest.fixture(scope="module")
def model():
    return nyt_model()


def test_the_prior_sums_to_one_and_each_tier_outweighs_the_next(model) -> None:
    original = set(get_variant("wordle").answers.words)
    era = set(get_variant("wordle-nyt-era").answers.words)
    prior = dict(zip(model.words, model.prior, strict=True))
    kept = [prior[w] for w in original & era]
    added = [prior[w] for w in era - original]
    rest = [prior[w] for w in model.words if w not in era]
    assert model.prior.sum() == pytest.approx(1.0)
    assert sum(kept) == pytest.approx(0.95) and len(rest) == 14855 - 3158
    assert min(kept) > max(added) > max(rest) > min(rest) > 0
    assert prior["years"] > prior["aahed"]  # by frequency among the rest


def test_an_answer_outside_the_original_list_was_impossible_for_the_uniform_hint() -> None:
    wordle = get_variant("wordle")
    assert ANSWER not in wordle.answers
    assert ANSWER not in hint(wordle, ROWS[:2]).candidates
    with pytest.raises(InconsistentHistory):
        hint(wordle, ROWS)


def test_hint_probabilities_are_the_weights_and_sum_to_one(model) -> None:
    result = model_hint(model, ROWS[:2])
    position = ModelPosition.after(model, ROWS[:2])
    expected = model.prior[position.candidates] / model.prior[position.candidates].sum()
    by_word = {model.words[c]: p for c, p in zip(position.candidates, expected, strict=True)}
    assert ANSWER in result.candidates and result.remaining == len(result.candidates)
    assert sum(result.probabilities) == pytest.approx(1.0, abs=1e-4)
    assert result.probabilities == sorted(result.probabilities, reverse=True)
    for word, shown in zip(result.candidates, result.probabilities, strict=True):
        assert shown == pytest.approx(by_word[word], abs=1e-6)
    for s in result.suggestions:
        assert s.chance == pytest.approx(by_word.get(s.guess, 0.0), abs=1e-6)
        assert s.possible == (s.guess in by_word)


def test_with_one_word_almost_certain_the_hint_says_guess_it(model) -> None:
    rows = [("crane", int("00110", 3)), ("sloth", int("20000", 3))]
    result = model_hint(model, rows)
    assert result.candidates[0] == "sandy" and result.probabilities[0] > 0.9
    assert result.suggestions[0].guess == "sandy"


def test_weighted_measures_with_equal_weights_are_the_uniform_ones(wordle) -> None:
    rng = np.random.default_rng(1)
    candidates = rng.choice(len(wordle.answers), 300, replace=False)
    pool = rng.choice(len(wordle.guesses), 200, replace=False)
    by_guess = np.asarray(wordle.matrix)[pool][:, candidates]
    split = buckets(by_guess, np.full(300, 1 / 300), 243)
    uniform = score_counts(bucket_counts(np.ascontiguousarray(by_guess.T), 243))
    assert np.allclose(split.entropy, uniform.entropy)
    assert np.allclose(split.expected, uniform.expected)
    assert np.allclose(split.worst, uniform.worst)


@settings(max_examples=60)
@given(
    answer=st.integers(0, len(WORDS) - 1),
    guesses=st.lists(st.integers(0, len(WORDS) - 1), min_size=1, max_size=4),
)
def test_the_true_answer_is_always_a_candidate(model, answer: int, guesses: list[int]) -> None:
    rows = [(WORDS[g], score(WORDS[g], WORDS[answer])) for g in guesses]
    position = ModelPosition.after(model, rows)
    assert answer in position.candidates
    assert position.weights.sum() == pytest.approx(1.0) and (position.weights > 0).all()
    for c in position.candidates[:: max(1, len(position.candidates) // 20)]:
        assert all(score(g, WORDS[c]) == p for g, p in rows)


def test_the_grid_alone_keeps_the_answer_and_ranks_by_prior_times_fit(model) -> None:
    patterns = [p for _, p in ROWS[:2]]
    reading = model_grid(model, patterns)
    a = model.words.index(ANSWER)
    assert all(model.hits[p, a] > 0 for p in patterns)  # still among the reading's count
    fit = np.log(model.prior) + sum(np.log(np.maximum(model.hits[p], 1)) for p in patterns)
    top = [fit[model.words.index(w)] for w in reading.likely]
    assert top == sorted(top, reverse=True) and reading.count > len(reading.likely)


async def test_a_share_with_an_answer_outside_the_original_list_is_read_and_coached() -> None:
    grid = await analyze(SHARE)
    assert grid.readings[0] is not None and grid.readings[0].count > 0 and not grid.problems
    typed = await analyze(" ".join(f"{g} {to_digits(p, 5)}" for g, p in ROWS[:2]))
    assert typed.hint is not None and ANSWER in typed.hint.candidates
    rank = typed.hint.candidates.index(ANSWER)
    assert typed.hint.probabilities[rank] > 0.01  # an NYT-era answer, not a stray word
    paired = await analyze(SHARE, " ".join(PLAYED))
    assert not paired.problems and paired.hint is not None
    assert paired.hint.candidates == [ANSWER] and paired.hint.probabilities == [1.0]
    coaching = paired.coaching
    assert coaching is not None and coaching.won and len(coaching.turns) == 3
    assert coaching.turns[-1].after == 1 and coaching.skill is not None
    text = analysis_text(paired)
    assert "SNAFU 100%" in text and "Skill" in text


async def test_a_typed_history_hint_uses_the_model_but_games_keep_the_original_lists() -> None:
    services = await open_services(load_settings(database_path=":memory:"))
    try:
        history = " ".join(f"{g} {to_digits(p, 5)}" for g, p in ROWS[:2])
        typed = await services.games.hint_history(Player(1), history)
        services.games.choose_answer = lambda variant: "cigar"
        await services.games.start(Player(2), 5)
        await services.games.guess(Player(2), 5, "crane")
        played = await services.games.hint(Player(2), 5)
    finally:
        await services.close()
    assert typed.ok and ANSWER in typed.hint.candidates and typed.hint.probabilities
    assert played.ok and not played.hint.probabilities and played.hint.remaining < 2315
    assert set(played.hint.candidates) <= set(get_variant("wordle").answers.words)


def test_cli_hint_and_coach_for_the_nyt_puzzle(capsys) -> None:
    history = [f"{g}:{to_digits(p, 5)}" for g, p in ROWS[:2]]
    assert main(["hint", "--variant", "wordle-nyt", *history, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert ANSWER in data["candidates"] and len(data["probabilities"]) == data["remaining"]
    assert main(["hint", "--variant", "wordle-nyt", *history]) == 0
    out = capsys.readouterr().out
    assert f"{ANSWER} " in out and "%" in out
    assert main(["coach", "--variant", "wordle-nyt", "--answer", ANSWER, *PLAYED]) == 0
    assert "(won)" in capsys.readouterr().out


def test_a_model_hint_offers_no_played_word_and_one_word_alone(model) -> None:
    """Issue 31.6 under the NYT model: a played word is never offered, and with one word
    left the hint is that word, no alternatives after it."""
    result = model_hint(model, ROWS[:2], top=8)
    assert len(result.suggestions) == 8
    assert not {s.guess for s in result.suggestions} & {g for g, _ in ROWS[:2]}
    rows = [(g, score(g, ANSWER)) for g in ("crane", "sloth", "pudgy")]  # SNAFU alone fits
    alone = model_hint(model, rows, top=5)
    assert alone.candidates == ["snafu"]
    assert [s.guess for s in alone.suggestions] == ["snafu"]


def test_the_coachs_opener_is_the_best_of_every_openers_eg(model) -> None:
    """The coach's first turn names the best opener, its EG and the played one's as scoring
    every opener would, to the last bit (the best is looked for only among the guesses
    whose lower bound can reach it)."""
    from engine.solver.position import tie_order
    from engine.solver.weighted import _best_opener, expected_guesses, model_coach

    start = ModelPosition.after(model, ())
    every = expected_guesses(start, start.pool)  # the reference: each of 14,855 openers
    best = int(np.lexsort((tie_order(model.variant)[start.pool], np.round(every, 9)))[0])
    assert _best_opener(model, Mode.NORMAL) == (best, float(every[best]))
    index = {int(row): i for i, row in enumerate(start.pool)}
    for opener in (model.words[start.pool[best]], "crane", "qajaq"):
        [turn] = model_coach(model, [(opener, score(opener, ANSWER))]).turns
        played = every[index[WORDS.index(opener)]]
        assert (turn.best, turn.best_expected) == (model.words[start.pool[best]],
                                                   round(float(every[best]), 3))  # fmt: skip
        assert turn.expected == round(float(played), 3) and turn.skill is None


def test_games_that_open_alike_share_the_eg_of_their_positions(wordle, monkeypatch) -> None:
    """Coaching a day's games: a position two players reached is scored once, and the
    coaching is the one worked out afresh."""
    from engine.answer_model import AnswerModel
    from engine.solver import weighted
    from engine.variants import Variant
    from engine.words import LETTERS, WordList

    words = WordList.from_words("small", wordle.answers.words[:300], 5, LETTERS)
    model = AnswerModel(Variant("small", "Small", 5, LETTERS, 6, words, words),
                        np.linspace(1, 2, 300) / np.linspace(1, 2, 300).sum())  # fmt: skip
    answer = words.words[7]
    first = [(g, score(g, answer)) for g in (words.words[0], words.words[1], answer)]
    other = [*first[:2], (words.words[2], score(words.words[2], answer))]
    scored = []
    counted = weighted.expected_guesses

    def counting(position, pool):
        scored.append(len(pool))
        return counted(position, pool)

    weighted._best_opener.cache_clear()
    weighted._eg_after.cache_clear()
    monkeypatch.setattr(weighted, "expected_guesses", counting)
    try:
        coached = [weighted.model_coach(model, rows) for rows in (first, other, first)]
        assert weighted._best_opener.cache_info().misses == 1  # the best opener: once
        assert scored.count(300) == 2  # every guess after one row, and after two
        weighted._eg_after.cache_clear()
        assert [weighted.model_coach(model, rows) for rows in (first, other)] == coached[:2]
        assert coached[2] == coached[0]
    finally:
        weighted._best_opener.cache_clear()
        weighted._eg_after.cache_clear()
