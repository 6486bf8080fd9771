"""Hints in every language prefer words players know: a word on the answer list (a common
word) leads unless a rare one splits the candidates better by a clear margin.

The other languages' allowed lists hold every form their dictionary spells (Polish 7:
122,275 words, 2,181 answers), so the guess with the most bits is often a word few players
know; within ``NEAR_COMMON`` bits a common word leads instead (English keeps ``NEAR``)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine.pattern import score
from engine.solver.greedy import NEAR, NEAR_COMMON, common_margin, rank_guesses
from engine.solver.hints import hint
from engine.solver.measures import Measure
from engine.solver.position import Position
from engine.variants import get_variant

LANGUAGES = ("es", "pt", "fr", "de", "it", "pl")
FIVES = [f"wordle-{language}-5" for language in LANGUAGES]


@pytest.mark.parametrize("name", [*FIVES, "wordle-pl-7", "wordle-pt-7"])
def test_the_opening_hint_is_a_common_word(name: str) -> None:
    """Before this rule: KORNA (pl-5), TIRAO (pt-5), CAREO (es-5), ORSEINA (pl-7) and
    CERINTO (pt-7), none on the answer list."""
    variant = get_variant(name)
    top = hint(variant, []).suggestions[0].guess
    assert top in set(variant.answers.words), (name, top)


def test_english_keeps_its_margin_and_the_other_languages_a_wider_one() -> None:
    assert common_margin(get_variant("wordle")) == NEAR
    assert common_margin(get_variant("wordle-en-7")) == NEAR
    assert all(common_margin(get_variant(name)) == NEAR_COMMON > NEAR for name in FIVES)


@settings(max_examples=30, deadline=None)
@given(name=st.sampled_from(FIVES), seed=st.integers(0, 2**32 - 1), guesses=st.integers(0, 2))
@example(name="wordle-pl-5", seed=0, guesses=0)  # the opening, where KORNA led by 0.12 bits
def test_a_rare_word_leads_only_by_the_margin(name: str, seed: int, guesses: int) -> None:
    """Over positions after random guesses in every language's 5-letter list: the hint's top
    pick is a common word, or it has at least NEAR_COMMON bits more than every common word
    not yet played."""
    variant = get_variant(name)
    words, rng = variant.guesses.words, np.random.default_rng(seed)
    answer = variant.answers.words[rng.integers(len(variant.answers))]
    played = {words[rng.integers(len(words))] for _ in range(guesses)} - {answer}
    history = [(g, score(g, answer)) for g in sorted(played)]
    found = hint(variant, history)
    top = found.suggestions[0]
    common = set(variant.answers.words) - played
    if found.remaining <= 1 or top.guess in common:
        return
    everything = rank_guesses(Position.after(variant, history), Measure.ENTROPY)
    entropy = {
        words[g]: h for g, h in zip(everything.guesses, everything.scores.entropy, strict=True)
    }
    best_common = max(entropy[w] for w in common)
    assert top.entropy >= round(best_common + NEAR_COMMON, 4) - 1e-4, (name, history, top)
