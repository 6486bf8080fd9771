"""Trees where they pay: the first start searches an exact tree for every list in every mode
(in a process of its own, beside the players), and hard mode of a list where no tree finds
every answer within the limit gets the tree losing fewest, not the greedy hints, which lose
more (docs/performance.md, "Trees where they pay")."""

from __future__ import annotations

from bot.discord_bot import first_start_trees
from bot.services.kinds import KINDS
from engine.rules import Mode
from engine.solver.exact_trees import optimal_tree
from engine.solver.position import Position
from engine.solver.strategies import strategy_tree
from engine.solver.tree import guesses_needed
from engine.variants import Variant, get_variant


def test_the_first_start_searches_every_list_in_every_mode_english_and_normal_mode_first():
    trees = first_start_trees()
    lists = [name for name, spec in KINDS.items() if spec.base]
    assert trees[:3] == [("wordle", mode) for mode in Mode]  # the most hints first
    assert sorted(trees[3:]) == sorted((name, mode) for name in lists for mode in Mode)
    modes = [mode for _, mode in trees[3:]]
    assert modes == sorted(modes, key=list(Mode).index)  # every list's normal mode first


def lost(variant: Variant, needed: dict[int, int]) -> int:
    return sum(1 for a in range(len(variant.answers)) if needed.get(a, 99) > variant.max_guesses)


def test_hard_mode_without_a_lossless_tree_gets_the_tree_that_loses_fewest(tmp_path) -> None:
    """French 4 in hard mode: no tree finds every answer within six (the search took that
    for no tree at all, and hints stayed greedy, losing 13 games of 707); its tree is then
    the one losing fewest (a lost game counted one guess past the limit, as in strict
    mode), and it loses fewer. Where a tree finds every answer, it is that one."""
    french = get_variant("wordle-fr-4")
    total, root = optimal_tree(french, Mode.HARD, directory=tmp_path)
    start = Position.start(french, Mode.HARD)
    exact = guesses_needed(root, start)
    greedy_start, greedy_root = strategy_tree(french, "hint", Mode.HARD)
    greedy = guesses_needed(greedy_root, greedy_start)
    assert 0 < lost(french, exact) < lost(french, greedy)
    assert total < sum(min(greedy.get(a, 99), 7) for a in range(len(french.answers)))
