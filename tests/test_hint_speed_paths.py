"""The hints' fast paths give what scoring every guess gives: the same top, ties included,
and with the hints' preferences among near equals (a possible answer, then a common word)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import matrix
from engine.pattern import score
from engine.rules import Mode
from engine.solver import greedy
from engine.solver.greedy import NEAR, Ranking, rank_guesses
from engine.solver.measures import Measure, entropies, score_patterns
from engine.solver.position import (
    InconsistentHistory,
    Position,
    answer_rows,
    patterns_of,
    tie_order,
)
from engine.variants import Registry, Variant, get_variant

WIDE_ALPHABET = "abcdefg"  # few letters: many guesses split small pools alike, so ties abound


@pytest.fixture(scope="module")
def wide_lists(tmp_path_factory) -> Path:
    """A seven-letter list wide enough for the shortlist (6,000 allowed, 400 answers)."""
    root = tmp_path_factory.mktemp("wide")
    rng = random.Random(7)
    words: set[str] = set()
    while len(words) < 6000:
        words.add("".join(rng.choice(WIDE_ALPHABET) for _ in range(7)))
    allowed = sorted(words)
    (root / "xw").mkdir()
    (root / "xw" / "7-allowed.txt").write_text("".join(w + "\n" for w in allowed), "utf-8")
    answers = rng.sample(allowed, 400)
    (root / "xw" / "7-answers.txt").write_text("".join(w + "\n" for w in answers), "utf-8")
    entry = {
        "code": "xw", "name": "Xw", "english_name": "Wide", "alphabet": WIDE_ALPHABET,
        "fold": {}, "keyboard": [WIDE_ALPHABET], "lengths": [7], "clone": "none",
        "accents": "none",
    }  # fmt: skip
    (root / "languages.json").write_text(json.dumps([entry]), "utf-8")
    return root


@pytest.fixture(scope="module")
def wide(wide_lists: Path) -> Variant:
    return Registry(wide_lists).get("wordle-xw-7")


def without_matrix(registry: Registry, name: str) -> Variant:
    """``name`` loaded anew with the matrix limit at 0: a list too large for a matrix, whose
    solvers build the patterns they score (``engine.matrix.MATRIX_BYTES_LIMIT``)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(matrix, "MATRIX_BYTES_LIMIT", 0, raising=False)
        variant = registry.get(name)
        assert not getattr(variant, "keeps_matrix", True)
    return variant


@pytest.fixture(
    scope="module", params=["wordle", "wordle-nyt-era", "wide", "wordle-built", "wide-built"]
)
def variant(request, wide: Variant, wide_lists: Path) -> Iterator[Variant]:
    if request.param == "wide-built":
        yield without_matrix(Registry(wide_lists), wide.name)
    elif request.param == "wordle-built":
        yield without_matrix(Registry(), "wordle")
    else:
        yield wide if request.param == "wide" else get_variant(request.param)


def preferred_by_hand(position: Position, everything: Ranking) -> npt.NDArray[np.intp]:
    """The whole pool in the hints' order, from every guess's entropy: near equals (NEAR
    bits a preference) to a possible answer, then a common word (on the answer list: its
    language's margin), then exact ties as plain entropy breaks them."""
    variant = position.variant
    common = np.isin(everything.guesses, answer_rows(variant))
    bonus = NEAR * everything.possible + greedy.common_margin(variant) * common
    value = np.round(everything.scores.entropy, 9) + bonus
    key = np.round(-value, 9)
    ties = tie_order(variant)[everything.guesses]
    return everything.guesses[np.lexsort((ties, ~everything.possible, key))]


def same_top_as_scoring_everything(position: Position, top: int) -> None:
    fast = rank_guesses(position, Measure.ENTROPY, top=top)
    everything = rank_guesses(position, Measure.ENTROPY)
    assert fast.guesses.tolist() == everything.guesses[:top].tolist()
    assert fast.possible.tolist() == everything.possible[:top].tolist()
    assert np.allclose(fast.scores.entropy, everything.scores.entropy[:top], atol=1e-12)
    assert fast.scores.worst.tolist() == everything.scores.worst[:top].tolist()
    # the hints' order: the fast top with preferences, the full one, and one made by hand
    fast = rank_guesses(position, Measure.ENTROPY, top=top, prefer=True)
    full = rank_guesses(position, Measure.ENTROPY, prefer=True)
    assert fast.guesses.tolist() == full.guesses[:top].tolist()
    assert fast.possible.tolist() == full.possible[:top].tolist()
    assert np.allclose(fast.scores.entropy, full.scores.entropy[:top], atol=1e-12)
    assert full.guesses.tolist() == preferred_by_hand(position, everything).tolist()


@settings(max_examples=30)
@given(st.data())
def test_the_fast_top_is_the_exhaustive_ranking_s(variant: Variant, data) -> None:
    words = variant.guesses.words
    answer = data.draw(st.sampled_from(variant.answers.words))
    played = data.draw(st.lists(st.sampled_from(words), min_size=1, max_size=3))
    mode = data.draw(st.sampled_from([Mode.NORMAL, Mode.HARD]))
    history = [(g, score(g, answer)) for g in played if g != answer]
    try:
        position = Position.after(variant, history, mode)
    except InconsistentHistory:  # hard mode: a later random word may break the rule; fine
        return
    same_top_as_scoring_everything(position, data.draw(st.sampled_from([1, 5, 12])))


def test_ties_at_a_perfect_split_are_broken_as_the_full_ranking_does(
    wide: Variant, monkeypatch
) -> None:
    """Small pools of the wide list: many guesses split them completely (the bound's cap),
    and the tie order alone picks among them (through the shortlist, even where so few
    candidates would score every guess)."""
    monkeypatch.setattr(greedy, "_PRUNE_PAIRS", 0)
    rng = np.random.default_rng(3)
    checked = 0
    for _ in range(200):
        candidates = np.sort(rng.choice(len(wide.answers), size=int(rng.integers(3, 12)),
                                        replace=False))  # fmt: skip
        position = Position(wide, Mode.NORMAL, (), candidates)
        full = rank_guesses(position, Measure.ENTROPY)
        if full.scores.entropy[5] < np.log2(len(candidates)) - 1e-9:
            continue
        same_top_as_scoring_everything(position, 5)
        checked += 1
    assert checked >= 20  # the tie path was taken, not skipped


@settings(max_examples=40)
@given(st.data())
def test_entropies_alone_equal_the_full_scores(variant: Variant, data) -> None:
    n = data.draw(st.sampled_from([1, 2, 5, 63, 64, 150, 400]))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    candidates = np.sort(rng.choice(len(variant.answers), size=n, replace=False))
    guesses = rng.choice(len(variant.guesses), size=700, replace=False)
    patterns = patterns_of(variant, guesses, candidates)
    expected = score_patterns(patterns, 3**variant.length).entropy
    assert np.allclose(entropies(patterns, 3**variant.length), expected, atol=1e-12)
