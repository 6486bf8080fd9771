"""Strategies by name, each giving the decision tree it plays from a position."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path

from engine.rules import Mode
from engine.solver.exact import preset
from engine.solver.exact_trees import optimal_tree
from engine.solver.greedy import best_guess
from engine.solver.measures import Measure
from engine.solver.position import Position
from engine.solver.tree import Node, build_tree
from engine.variants import Variant

# "hint": what following the hints' top pick plays, greedy entropy with near equals going to
# a possible answer, then a common word (engine.solver.greedy.NEAR).
STRATEGIES: tuple[str, ...] = (*(m.value for m in Measure), "hint", "optimal")


class StrategyError(ValueError):
    """A strategy that does not exist, or does not play this mode."""


def strategy_tree(
    variant: Variant,
    strategy: str,
    mode: Mode = Mode.NORMAL,
    targets: Iterable[int] | None = None,
    *,
    width: int | None = None,
    cache_dir: Path | None = None,
    use_cache: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[Position, Node]:
    """The start position and the tree ``strategy`` plays from it.

    Greedy trees are grown only where ``targets`` (answer indices) lead; the optimal tree is
    searched once (all answers) and then read from the disk cache. ``width`` overrides the
    exact search's per-node width (K) of the mode's preset.
    """
    start = Position.start(variant, mode)
    if strategy == "optimal":
        settings = preset(variant, mode)
        settings = settings if width is None else replace(settings, width=width)
        tree = optimal_tree(variant, mode, settings, directory=cache_dir, use_cache=use_cache,
                            progress=progress)  # fmt: skip
        return start, tree[1]
    if strategy == "hint":
        return start, build_tree(
            start, lambda p: best_guess(p, Measure.ENTROPY, prefer=True), targets
        )
    try:
        measure = Measure(strategy)
    except ValueError:
        choices = ", ".join(STRATEGIES)
        raise StrategyError(f"Unknown strategy {strategy!r}; choose one of {choices}") from None
    return start, build_tree(start, lambda p: best_guess(p, measure), targets)
