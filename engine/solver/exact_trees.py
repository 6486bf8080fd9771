"""The exact search's trees on disk: searched once, read by every later hint and process.

A tree is stored as JSON in the cache folder (``WORDLEBOT_CACHE_DIR``), keyed by the word
lists, the mode and the search settings, and written atomically, so processes sharing the
folder read a whole tree or none. A search that passes its time limit (see
``search_time_limit``) leaves a note beside where the tree would be, so that no later
process searches again for as long: hints there use the greedy strategies.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from engine.matrix import atomic_write, cache_directory
from engine.rules import Mode
from engine.solver.exact import (
    ExactSearch,
    NoLosslessTree,
    SearchSettings,
    SearchTimeout,
    preset,
    search_time_limit,
)
from engine.solver.tree import Node
from engine.stopping import Stop
from engine.variants import Variant

TREE_FORMAT = 1


def tree_path(
    variant: Variant, mode: Mode, settings: SearchSettings, directory: Path | None = None
) -> Path:
    lists = f"{variant.guesses.sha256}:{variant.answers.sha256}"
    key = f"tree-v{TREE_FORMAT}:{lists}:{mode}:{settings.key()}"
    digest = hashlib.sha256(key.encode()).hexdigest()[:24]
    return (directory or cache_directory()) / f"tree-{variant.name}-{mode}-{digest}.json"


def unfinished_path(
    variant: Variant, mode: Mode, settings: SearchSettings, directory: Path | None = None
) -> Path:
    """Where a search that passed its time limit says so."""
    return tree_path(variant, mode, settings, directory).with_suffix(".unfinished.json")


def unfinished_within(
    variant: Variant, mode: Mode, settings: SearchSettings | None = None,
    directory: Path | None = None,
) -> float | None:  # fmt: skip
    """The seconds a search of this tree ran without finishing, if one did (None: none
    gave up, or the tree is there)."""
    settings = settings or preset(variant, mode)
    try:
        data = json.loads(unfinished_path(variant, mode, settings, directory).read_text())
        return float(data["seconds"]) if data.get("format") == TREE_FORMAT else None
    except (OSError, ValueError, KeyError, TypeError):
        return None


def cached_optimal_tree(
    variant: Variant,
    mode: Mode,
    settings: SearchSettings | None = None,
    directory: Path | None = None,
) -> Node | None:
    """The tree if a search already stored it, without searching: for instant hints."""
    settings = settings or preset(variant, mode)
    try:
        path = tree_path(variant, mode, settings, directory)
        data: dict[str, Any] = json.loads(path.read_text())
        if data.get("format") == TREE_FORMAT:
            return Node.from_json(data["tree"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return None


def optimal_tree(
    variant: Variant,
    mode: Mode = Mode.NORMAL,
    settings: SearchSettings | None = None,
    *,
    directory: Path | None = None,
    use_cache: bool = True,
    progress: Callable[[int, int], None] | None = None,
    time_limit: float | None = None,
    stop: Stop | None = None,
) -> tuple[int, Node]:
    """The exact search's tree from the start, read from the disk cache when it is there.
    ``progress`` hears of each first guess tried while searching. The search stops at
    ``time_limit`` seconds (by default the variant's, ``search_time_limit``) and raises
    :class:`SearchTimeout`, as it does at once where a search ran that long in vain before;
    it raises :class:`~engine.stopping.Stopped` (noting nothing) once ``stop`` says so.
    Where no tree finds every answer within the limit and ``settings`` count no losses, the
    tree is the one losing fewest (as if searched with ``losses``), kept under the same key.
    """
    settings = settings or preset(variant, mode)
    limit = time_limit if time_limit is not None else search_time_limit(variant)
    path = tree_path(variant, mode, settings, directory)
    if use_cache:
        try:
            data: dict[str, Any] = json.loads(path.read_text())
            if data.get("format") == TREE_FORMAT:
                return int(data["total"]), Node.from_json(data["tree"])
        except (OSError, ValueError, KeyError, TypeError):
            pass
        tried = unfinished_within(variant, mode, settings, directory)
        if limit is not None and tried is not None and tried >= limit:
            raise SearchTimeout(f"the exact search did not finish in {tried:g} s before")
    variant.build_matrices(stop)
    try:
        try:
            total, root = ExactSearch(variant, mode, settings, progress=progress,
                                      time_limit=limit, stop=stop).solve()  # fmt: skip
        except NoLosslessTree:  # French 4 in hard mode
            if settings.losses:
                raise
            # then the tree losing fewest, a lost game counted one guess past the limit
            lossy = replace(settings, losses=True)
            total, root = ExactSearch(variant, mode, lossy, progress=progress,
                                      time_limit=limit, stop=stop).solve()  # fmt: skip
    except SearchTimeout:
        if use_cache and limit is not None:
            note = {"format": TREE_FORMAT, "seconds": limit}
            _write_json(unfinished_path(variant, mode, settings, directory), note)
        raise
    if use_cache:
        _write_json(path, {"format": TREE_FORMAT, "total": total, "tree": root.to_json()})
        with contextlib.suppress(OSError):
            unfinished_path(variant, mode, settings, directory).unlink(missing_ok=True)
    return total, root


def _write_json(path: Path, data: dict[str, Any]) -> None:
    with (
        contextlib.suppress(OSError),
        atomic_write(path) as (fd, _),
        open(fd, "w", closefd=False) as f,
    ):
        json.dump(data, f, separators=(",", ":"))
