"""The engine's async facade: CPU work runs in a worker thread, never on the event loop.

Everything else in the engine is synchronous; front ends that live on an event loop (the
Discord bot) call through here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from engine.rules import Mode, Row
from engine.solver.bounds import group_index
from engine.solver.exact import cached_optimal_tree
from engine.solver.hints import Hint, hint
from engine.solver.position import by_answer
from engine.variants import get_variant


async def hint_async(variant_name: str, history: Sequence[Row], mode: Mode, top: int = 5) -> Hint:
    """A hint computed off the loop, using the exact tree when it is cached."""

    def work() -> Hint:
        variant = get_variant(variant_name)
        tree = None if mode is Mode.STRICT else cached_optimal_tree(variant, mode)
        return hint(variant, history, mode, top, tree=tree)

    return await asyncio.to_thread(work)


async def warm(variant_names: Sequence[str]) -> None:
    """Load word lists and matrices (and their derived tables) before the first player."""

    def work() -> None:
        for name in variant_names:
            variant = get_variant(name)
            by_answer(variant)
            group_index(variant)

    await asyncio.to_thread(work)
