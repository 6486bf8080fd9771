"""The plain numpy beam that the exact search's speed is measured against (issue 31.12)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.cli.reference_beam import IMPOSSIBLE, ReferenceBeam
from engine.rules import Mode, check_guess
from engine.solver.position import Position
from engine.solver.tree import paths
from tests.test_solver import brute_force, tiny_variant


def test_the_beam_given_salet_solves_every_wordle_answer_near_the_optimum(wordle) -> None:
    """Given SALET and the normal preset's width (8): every answer within six, and a total a
    little above the exact search's optimum (7,920)."""
    total, root = ReferenceBeam(wordle, Mode.NORMAL, width=8).solve("salet")
    games = paths(root, Position.start(wordle))
    assert len(games) == 2315 and max(len(rows) for rows in games.values()) <= 6
    assert total == sum(len(rows) for rows in games.values())
    assert 7920 <= total <= 8100
    assert wordle.guesses.words[root.guess] == "salet"


@settings(max_examples=40, deadline=None)
@given(
    answers=st.lists(
        st.text("abcdef", min_size=3, max_size=3), min_size=2, max_size=9, unique=True
    ),
    extra=st.lists(st.text("abcdef", min_size=3, max_size=3), max_size=6, unique=True),
    mode=st.sampled_from([Mode.NORMAL, Mode.HARD]),
    limit=st.sampled_from([2, 3, 6]),
)
def test_as_wide_as_the_list_the_beam_is_the_exact_optimum(answers, extra, mode, limit) -> None:
    """With every guess in its beam, the best opener's beam is the brute-force optimum, and
    its tree keeps the mode's rule and solves every answer within the limit."""
    variant = tiny_variant(answers, extra, limit)
    expected = brute_force(variant, mode)
    beam = ReferenceBeam(variant, mode, width=len(variant.guesses))
    found = []
    for word in variant.guesses.words:
        try:
            found.append((beam.solve(word)[0], word))
        except ValueError:
            found.append((IMPOSSIBLE, word))
    best, opener = min(found)
    if expected == float("inf"):
        assert best >= IMPOSSIBLE
        return
    assert best == expected
    total, root = beam.solve(opener)
    games = paths(root, Position.start(variant, mode))
    assert len(games) == len(answers) and max(len(rows) for rows in games.values()) <= limit
    assert sum(len(rows) for rows in games.values()) == total
    words = variant.guesses.words
    for rows in games.values():
        history = [(words[g], p) for g, p in rows]
        for i, (word, _) in enumerate(history):
            assert check_guess(variant, word, history[:i], mode).allowed


def test_the_beam_plays_normal_and_hard_mode_only(wordle) -> None:
    with pytest.raises(ValueError, match="normal and hard"):
        ReferenceBeam(wordle, Mode.STRICT)
