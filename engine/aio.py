"""The engine's async facade: CPU work runs in a worker thread, never on the event loop, and
the long search of the exact trees in a process of its own (:mod:`engine.tree_process`).

Everything else in the engine is synchronous; front ends that live on an event loop (the
Discord bot) call through here.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from collections.abc import Sequence
from functools import lru_cache

from engine.definitions import preload
from engine.matrix import remove_stale_files
from engine.rules import Mode, Row
from engine.solver.bounds import group_index
from engine.solver.exact_trees import cached_optimal_tree
from engine.solver.hints import Hint, hint
from engine.solver.measures import Measure
from engine.solver.position import by_answer
from engine.solver.tree import Node
from engine.variants import get_variant

log = logging.getLogger("wordlebot.trees")
TREE_MODES = tuple(Mode)  # every mode has its exact tree
STOP_SECONDS = 2.0  # how long a stopped search may take to end before it is killed
SECRETS = ("DISCORD_TOKEN", "DATABASE_URL", "DAILY_SEED")  # what the search is not given


@lru_cache(maxsize=16)
def _tree(variant_name: str, mode: Mode) -> Node | None:
    """The exact tree once it is on disk, kept in memory (None is not kept: it may appear)."""
    return cached_optimal_tree(get_variant(variant_name), mode)


def tree(variant_name: str, mode: Mode) -> Node | None:
    found = _tree(variant_name, mode)
    if found is None:
        _tree.cache_clear()
    return found


async def hint_async(
    variant_name: str, history: Sequence[Row], mode: Mode, top: int = 5,
    measure: Measure = Measure.ENTROPY,
) -> Hint:  # fmt: skip
    """A hint computed off the loop, using the exact tree when it has been searched."""

    def work() -> Hint:
        variant = get_variant(variant_name)
        exact = tree(variant_name, mode) if measure is Measure.ENTROPY else None
        return hint(variant, history, mode, top, measure, tree=exact)

    return await asyncio.to_thread(work)


async def warm(variant_names: Sequence[str]) -> None:
    """Load word lists, matrices, derived tables, stored trees and the languages' dictionaries
    before the first player (and clear from the cache first the temporary files dead writers
    left, and the files no longer read)."""

    def work() -> None:
        remove_stale_files()  # what a process killed mid-write left, what is no longer read
        derive_from_shipped_files(variant_names)
        for name in variant_names:
            if get_variant(name).keeps_matrix:  # a large list builds what it reads
                by_answer(get_variant(name))
            for mode in TREE_MODES:
                tree(name, mode)

    await asyncio.to_thread(work)


def derive_from_shipped_files(variant_names: Sequence[str]) -> None:
    """The part of :func:`warm` that reads no cache folder, only the shipped word lists and
    dictionaries: each language's definitions (shown once a game ends) and each game's
    letter-group tables. A process that forks workers can do it once for all of them."""
    for name in variant_names:
        variant = get_variant(name)
        preload(variant.language)
        group_index(variant)


async def build_trees(trees: Sequence[tuple[str, Mode]]) -> None:
    """Search the exact trees (variant, mode) not on disk yet, in turn (seconds to a minute
    each), so later
    hints can say how many guesses remain. The search runs in a process of its own
    (:mod:`engine.tree_process`): in this one it would hold the interpreter, and every reply
    of the event loop with it. It writes each tree into the shared cache, where
    :func:`tree` reads it. Cancelled, this stops that process too, within a second."""
    named = [f"{name}:{mode}" for name, mode in trees]
    environment = {k: v for k, v in os.environ.items() if k not in SECRETS}  # not its business
    search = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "engine.tree_process", *named, stdin=asyncio.subprocess.PIPE,
        env=environment,
    )  # fmt: skip
    try:
        if await search.wait() != 0:
            log.warning("the search of the exact trees ended with status %s", search.returncode)
    finally:
        if search.returncode is None:  # cancelled: it stops at its next check
            search.terminate()
            try:
                await asyncio.wait_for(search.wait(), STOP_SECONDS)
            except TimeoutError:
                search.kill()
                await search.wait()
        _tree.cache_clear()
