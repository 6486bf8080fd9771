"""The pruned NYT hint (issue 31.10) gives the reference's suggestions: same words, same
figures, same order, scoring exactly only the guesses its lower bound cannot rule out."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.answer_model import ModelPosition, nyt_model
from engine.nyt_history import shipped_answers
from engine.pattern import score
from engine.rules import Mode
from engine.solver.weighted import (
    _eg_bound,
    _exact_eg,
    _letter_outcomes,
    _unique_rows,
    model_hint,
)
from engine.variants import get_variant

WORDS = get_variant("wordle-nyt").guesses.words
ERA = get_variant("wordle-nyt-era").answers.words
LAST = shipped_answers()[-1].number


@pytest.fixture(scope="module")
def model():
    return nyt_model(LAST + 1)  # today's kind of model: every shipped answer known


positions = st.tuples(
    st.sampled_from(ERA),  # an answer the NYT could pick
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=2),  # any allowed guesses
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions, top=st.sampled_from([1, 3, 5]), hard=st.booleans())
def test_the_pruned_hint_is_the_reference_hint(model, position, top: int, hard: bool) -> None:
    answer, guesses = position
    rows = [(g, score(g, answer)) for g in guesses]
    mode = Mode.HARD if hard else Mode.NORMAL
    fast = model_hint(model, rows, mode, top)  # rows scored against a word: never inconsistent
    assert fast == model_hint(model, rows, mode, top, pruned=False)


# Each example scores every guess exactly (most of its time: about 1 s), then checks the bound
# for each number of candidates counted (five counts cost little more than one): 50 checks.
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions, puzzle=st.integers(0, LAST + 1))
def test_the_bound_never_exceeds_a_guesss_eg(position, puzzle: int) -> None:
    """Every model (any day's history), any number of candidates counted exactly: the bound
    is below the EG of every guess, so the pruning never drops a guess that could win."""
    answer, guesses = position
    model = nyt_model(puzzle)
    state = ModelPosition.after(model, [(g, score(g, answer)) for g in guesses])
    pool = state.pool
    exact = _exact_eg(state, pool)
    chance = np.zeros(len(model.words))
    chance[state.candidates] = state.weights
    by_weight = np.argsort(-state.weights, kind="stable")
    for counted in (1, 2, 16, 64, 300):  # every candidate: the next test
        bound = _eg_bound(state, pool, by_weight[:counted], chance[pool])
        assert (bound <= exact + 1e-9).all(), counted


def test_counting_every_candidate_the_bound_is_the_eg(model) -> None:
    state = ModelPosition.after(model, [("crane", score("crane", "sandy"))])
    pool, n = state.pool, len(state.candidates)
    chance = np.zeros(len(model.words))
    chance[state.candidates] = state.weights
    bound = _eg_bound(state, pool, np.arange(n), chance[pool])
    assert np.allclose(bound, _exact_eg(state, pool), rtol=0, atol=1e-12)


def test_each_letter_groups_squares_follow_from_where_its_letter_is(model) -> None:
    letter_at, outcome = _letter_outcomes(model)
    keys, _, table = model.groups
    letter = keys % len(model.variant.alphabet)
    for k in range(len(keys)):
        assert np.array_equal(outcome[k, letter_at[:, letter[k]]], table[k])


def test_the_opening_hint_is_the_reference_one_for_the_allowed_words_model() -> None:
    model = nyt_model()  # no history: the hint before any guess, the costliest
    assert model_hint(model, []) == model_hint(model, [], pruned=False)


# The slowest positions of `wordlebot bench hints`: a junk first guess leaves thousands of
# candidates (every count of the bound, 64 to 4,096, is needed) or a few hundred.
SLOW = [("mokos", 0), ("thymi", 0), ("pucks", 0), ("sooky", 0), ("adlib", 81), ("kilos", 3)]


@pytest.mark.parametrize("row", SLOW)
def test_the_slowest_positions_give_the_reference_hint(model, row) -> None:
    assert model_hint(model, [row]) == model_hint(model, [row], pruned=False)


@settings(max_examples=50, deadline=None)
@given(rows=st.integers(1, 40), columns=st.integers(1, 300), values=st.integers(1, 3),
       seed=st.integers(0, 2**32 - 1))  # fmt: skip
def test_distinct_rows_are_numpys(rows: int, columns: int, values: int, seed: int) -> None:
    """Any table: the same distinct rows, each row mapped to its copy, as np.unique(axis=0)
    (a few values, so that rows repeat)."""
    table = np.random.default_rng(seed).integers(0, values, (rows, columns), dtype=np.uint8)
    distinct, same = _unique_rows(table)
    assert np.array_equal(distinct[same], table)
    assert len(distinct) == len(np.unique(table, axis=0))
