"""Trees where they pay: the first start searches an exact tree for every list in every mode
(in a process of its own, beside the players), and hard mode of a list where no tree finds
every answer within the limit gets the tree losing fewest, not the greedy hints, which lose
more (docs/performance.md, "Trees where they pay")."""

from __future__ import annotations

from dataclasses import replace

from bot.discord_bot import first_start_trees
from bot.services.kinds import KINDS
from engine.rules import Mode
from engine.solver.exact_trees import optimal_tree
from engine.solver.position import Position
from engine.solver.tree import guesses_needed
from engine.variants import Variant, get_variant
from engine.words import WordList


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
    """Where no tree finds every answer within six (French 4 in hard mode: the search took
    that for no tree at all, and its hints stayed greedy, losing 13 games of 707; its tree
    now loses 7, docs/performance.md), the tree is the one losing fewest, a lost game
    counted one guess past the limit. Here nine words that differ in one letter only: in
    hard mode each guess must keep the others' green letters, so it rules out one word a
    row; six rows find six answers at most, and every tree loses three."""
    words = ("bake", "cake", "fake", "lake", "make", "rake", "sake", "take", "wake")
    english = get_variant("wordle-en-4")
    family = WordList.from_words("ake", words, 4, english.alphabet)
    variant = replace(english, name="ake-family", answers=family, guesses=family)
    total, root = optimal_tree(variant, Mode.HARD, directory=tmp_path)
    needed = guesses_needed(root, Position.start(variant, Mode.HARD))
    assert lost(variant, needed) == 3 and sorted(needed.values())[:6] == [1, 2, 3, 4, 5, 6]
    assert total == sum(range(1, 7)) + 7 * 3
