"""A list above ``engine.matrix.MATRIX_BYTES_LIMIT`` keeps no pattern matrix: its solvers
build the patterns they read from the words. Everything must come out as from the matrix,
and nothing may be written to the cache or mapped whole. The lists here are Wordle's own,
loaded a second time with the limit lowered, so the matrix is at hand to compare with."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import matrix
from engine.absurdle import AbsurdleGame
from engine.game import WordleGame
from engine.pattern import score
from engine.rules import Mode
from engine.solver.absurdle import minimax_step, shortest_win
from engine.solver.coach import coach, coach_worst_case, grid_candidates
from engine.solver.exact import ExactSearch
from engine.solver.hints import hint
from engine.solver.multiboard import multi_hint
from engine.solver.position import (
    BuiltByAnswer,
    InconsistentHistory,
    Position,
    answer_major,
    guess_row,
    patterns_of,
)
from engine.solver.tree import Node
from engine.variants import Registry, Variant, get_variant

FIXTURE = Path(__file__).parent / "fixtures" / "hints-by-list.json"


def without_matrix(name: str) -> Variant:
    """``name``'s lists as a new variant that keeps no matrix (the limit lowered to 0)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(matrix, "MATRIX_BYTES_LIMIT", 0, raising=False)
        variant = Registry().get(name)
        assert not getattr(variant, "keeps_matrix", True)
    return variant


@pytest.fixture(scope="module")
def wordle() -> Variant:
    return get_variant("wordle")


@pytest.fixture(scope="module")
def built() -> Variant:
    return without_matrix("wordle")


def test_a_large_list_writes_no_matrix_to_the_cache(tmp_path, monkeypatch) -> None:
    """A hint, a game and its coaching on a list above the limit write no matrix to an empty
    cache (it and its answers-major copy were two files of the list's size): only the
    coaching's opening figures."""
    monkeypatch.setenv("WORDLEBOT_CACHE_DIR", str(tmp_path))
    variant = without_matrix("wordle-en-4")
    game = WordleGame(variant, variant.answers.words[7])
    while not game.over:
        game.guess(hint(variant, game.rows, top=1).suggestions[0].guess)
    coach(variant, game.rows)
    written = {path.name.split("-")[0]: path.stat().st_size for path in tmp_path.iterdir()}
    assert written == {"opening": 8 * len(variant.guesses) + 128}  # coaching's, a float a guess
    assert "matrix" not in vars(variant) and "matrix_by_answer" not in vars(variant)


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_built_patterns_read_as_the_matrix(wordle: Variant, built: Variant, data) -> None:
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    n = data.draw(st.sampled_from([1, 3, 40, 500]))
    s = np.sort(rng.choice(len(wordle.answers), n, replace=False))
    pool = rng.choice(len(wordle.guesses), data.draw(st.sampled_from([1, 7, 3000])))
    g = int(pool[0])
    whole = np.asarray(wordle.matrix_by_answer)
    assert np.array_equal(patterns_of(built, pool, s), whole[np.ix_(s, pool)])
    assert np.array_equal(guess_row(built, g), whole[:, g])
    reads = BuiltByAnswer(built)
    assert np.array_equal(reads[s], whole[s])
    assert np.array_equal(reads[np.ix_(s, pool)], whole[np.ix_(s, pool)])
    assert np.array_equal(reads[s[:, None], pool], whole[s[:, None], pool])
    assert np.array_equal(reads[s, g], whole[s, g])
    assert reads[int(s[0]), g] == whole[s[0], g]
    pairs = rng.choice(len(wordle.guesses), n)
    assert np.array_equal(reads[s, pairs], whole[s, pairs])


def test_the_exact_search_builds_the_same_tree(wordle: Variant, built: Variant) -> None:
    """A solve builds the whole matrix in memory for its duration, never on disk."""
    history = [("raise", score("raise", "pinky"))]
    trees = []
    for variant in (wordle, built):
        position = Position.after(variant, history)
        total, root = ExactSearch(variant).solve(position)
        trees.append((total, root.to_json()))
    assert trees[0] == trees[1]
    assert np.array_equal(answer_major(built, whole=True), np.asarray(wordle.matrix_by_answer))


GAMES = [("pinky", ["raise", "could", "pinky"]), ("eerie", ["slate", "rider", "eerie"]),
         ("abbey", ["crane", "bloat", "kebab", "abbey"])]  # fmt: skip


@pytest.mark.parametrize(("answer", "guesses"), GAMES)
def test_every_consumer_answers_as_with_the_matrix(
    wordle: Variant, built: Variant, answer: str, guesses: list[str]
) -> None:
    rows = [(g, score(g, answer)) for g in guesses]
    for mode in (Mode.NORMAL, Mode.HARD, Mode.STRICT):
        assert hint(built, rows[:-1], mode) == hint(wordle, rows[:-1], mode)
        assert coach(built, rows, mode) == coach(wordle, rows, mode)
    assert coach_worst_case(built, rows) == coach_worst_case(wordle, rows)
    patterns = [p for _, p in rows[:-1]]
    assert grid_candidates(built, patterns) == grid_candidates(wordle, patterns)
    boards = [answer, "crane", "vivid"]
    history = [(g, [score(g, a) for a in boards]) for g in guesses[:2]]
    assert multi_hint(built, [g for g, _ in history], [p for _, p in history]) == multi_hint(
        wordle, [g for g, _ in history], [p for _, p in history]
    )
    absurdle = [AbsurdleGame(variant) for variant in (built, wordle)]
    for game in absurdle:
        for guess in guesses[:2]:
            game.guess(guess)
    assert absurdle[0].rows == absurdle[1].rows
    assert np.array_equal(absurdle[0].candidates, absurdle[1].candidates)
    positions = [Position(game.variant, Mode.NORMAL, (), game.candidates) for game in absurdle]
    assert minimax_step(positions[0]) == minimax_step(positions[1])


def test_a_hard_grid_is_read_as_with_the_matrix(wordle: Variant, built: Variant) -> None:
    """Four greens: few answers, each checked for a hard-mode path through every guess."""
    patterns = [score("pinks", "pinky")]
    found = grid_candidates(built, patterns, hard=True)
    assert found == grid_candidates(wordle, patterns, hard=True) and found.count > 3


def test_absurdle_lines_are_found_as_with_the_matrix(wordle: Variant, built: Variant) -> None:
    assert shortest_win(built, max_guesses=3, width=4) == shortest_win(
        wordle, max_guesses=3, width=4
    )


def test_a_tree_leads_the_hint_as_with_the_matrix(wordle: Variant, built: Variant) -> None:
    history = [("salet", score("salet", "pinky"))]
    position = Position.after(wordle, history)
    _, root = ExactSearch(wordle).solve(Position.start(wordle))
    assert hint(built, history, tree=root) == hint(wordle, history, tree=root)
    assert isinstance(root, Node) and len(position.candidates) > 1


def recorded() -> dict[str, list[dict[str, object]]]:
    data: dict[str, list[dict[str, object]]] = json.loads(FIXTURE.read_text("utf-8"))
    return data


@pytest.mark.parametrize("name", sorted(recorded()))
def test_hints_are_those_recorded_before_lists_dropped_their_matrix(name: str) -> None:
    """Hints on every shipped list, as the code that cached every matrix gave them
    (recorded from main at 5f80bf8 into the fixture: per list the start, three positions of
    ``bot.cli.benchmarks.random_histories(name, 3, 40)`` in normal mode and two of seed 41 in
    hard and strict mode): the same words, figures and order. The other languages' lists were
    recorded again when their hints came to prefer common words by a wider margin
    (``engine.solver.greedy.NEAR_COMMON``), at the same positions, by
    ``tests/fixtures/record_hints_by_list.py``."""
    variant = get_variant(name)
    for case in recorded()[name]:
        history = [(str(g), int(p)) for g, p in case["history"]]  # type: ignore[attr-defined]
        try:
            found = hint(variant, history, Mode(case["mode"]))
        except InconsistentHistory:  # pragma: no cover - the recording skipped these
            pytest.fail(f"{name}: {history} was answered when recorded")
        got = [[s.guess, s.entropy, s.expected, s.worst, s.possible] for s in found.suggestions]
        assert (found.remaining, got) == (case["remaining"], case["suggestions"]), (name, case)
