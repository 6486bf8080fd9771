"""The exact search's time limit: a list that cannot finish says so once, hints go greedy."""

from __future__ import annotations

import pytest

import engine.solver.exact_trees as exact_trees
from engine.pattern import score
from engine.rules import Mode
from engine.solver.exact import ExactSearch, SearchTimeout, search_time_limit
from engine.solver.exact_trees import (
    cached_optimal_tree,
    optimal_tree,
    unfinished_within,
)
from engine.solver.hints import hint


def test_the_built_in_games_search_without_limit_and_the_new_lists_within_ten_minutes(
    wordle, primel
) -> None:
    assert search_time_limit(wordle) is None and search_time_limit(primel) is None
    assert ExactSearch(wordle).time_limit is None


def test_a_search_past_its_limit_stops_and_is_not_tried_again(wordle, tmp_path, monkeypatch):
    with pytest.raises(SearchTimeout):
        ExactSearch(wordle, time_limit=0.0).solve()
    with pytest.raises(SearchTimeout):
        optimal_tree(wordle, Mode.NORMAL, directory=tmp_path, time_limit=0.0)
    assert unfinished_within(wordle, Mode.NORMAL, directory=tmp_path) == 0.0
    assert cached_optimal_tree(wordle, Mode.NORMAL, directory=tmp_path) is None

    def no_search(*args, **kwargs):
        raise AssertionError("searched again")

    monkeypatch.setattr(exact_trees, "ExactSearch", no_search)
    with pytest.raises(SearchTimeout, match="did not finish"):  # as long: not again
        optimal_tree(wordle, Mode.NORMAL, directory=tmp_path, time_limit=0.0)
    monkeypatch.undo()
    # a longer limit searches again; the tree found replaces the note
    total, root = optimal_tree(wordle, Mode.NORMAL, directory=tmp_path, time_limit=600.0)
    assert total == 7920 and unfinished_within(wordle, Mode.NORMAL, directory=tmp_path) is None
    assert cached_optimal_tree(wordle, Mode.NORMAL, directory=tmp_path) == root


def test_hints_without_a_tree_are_the_greedy_ones(wordle) -> None:
    history = [("crane", score("crane", "tiger"))]
    shown = hint(wordle, history, tree=None)
    assert all(s.expected_guesses is None for s in shown.suggestions)
    assert shown.suggestions[0].entropy == max(s.entropy for s in shown.suggestions)


def test_the_limit_counts_the_searchs_own_cpu_not_the_clock() -> None:
    """A search at low priority on a busy host (the first start's, at nice 19) waits its
    turn for the processor: that wait is no reason to give up its tree. Here each check
    sleeps (about 600 checks: more than a second of the clock), the CPU stays a tenth."""
    import time

    from engine.solver.exact import preset
    from engine.variants import get_variant

    italian = get_variant("wordle-it-4")

    def waits_its_turn() -> bool:
        time.sleep(0.002)
        return False

    search = ExactSearch(italian, Mode.NORMAL, preset(italian, Mode.NORMAL),
                         time_limit=1.0, stop=waits_its_turn)  # fmt: skip
    total, _ = search.solve()
    assert total == 1137
