"""The exact search's trees on disk: searched once, read by every later hint and process.

A tree is stored as JSON in the cache folder (``WORDLEBOT_CACHE_DIR``), keyed by the word
lists, the mode and the search settings, and written atomically, so processes sharing the
folder read a whole tree or none.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.matrix import cache_directory
from engine.rules import Mode
from engine.solver.exact import ExactSearch, SearchSettings, preset
from engine.solver.tree import Node
from engine.variants import Variant

TREE_FORMAT = 1


def tree_path(
    variant: Variant, mode: Mode, settings: SearchSettings, directory: Path | None = None
) -> Path:
    lists = f"{variant.guesses.sha256}:{variant.answers.sha256}"
    key = f"tree-v{TREE_FORMAT}:{lists}:{mode}:{settings.key()}"
    digest = hashlib.sha256(key.encode()).hexdigest()[:24]
    return (directory or cache_directory()) / f"tree-{variant.name}-{mode}-{digest}.json"


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
) -> tuple[int, Node]:
    """The exact search's tree from the start, read from the disk cache when it is there.
    ``progress`` hears of each first guess tried while searching."""
    settings = settings or preset(variant, mode)
    path = tree_path(variant, mode, settings, directory)
    if use_cache:
        try:
            data: dict[str, Any] = json.loads(path.read_text())
            if data.get("format") == TREE_FORMAT:
                return int(data["total"]), Node.from_json(data["tree"])
        except (OSError, ValueError, KeyError, TypeError):
            pass
    total, root = ExactSearch(variant, mode, settings, progress=progress).solve()
    if use_cache:
        _write_json(path, {"format": TREE_FORMAT, "total": total, "tree": root.to_json()})
    return total, root


def _write_json(path: Path, data: dict[str, Any]) -> None:
    tmp: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            json.dump(data, f, separators=(",", ":"))
        os.replace(tmp, path)
    except OSError:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
