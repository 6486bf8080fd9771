"""The search of missing exact trees, in a process of its own: ``python -m engine.tree_process
VARIANT:MODE ...``. A search holds the interpreter for seconds to minutes; in the process that
answers players it would hold up every reply (:func:`engine.aio.build_trees` starts this one).

Each tree is written into the shared cache atomically, as any search writes it, so the process
that started this one reads it from disk. The search stops, leaving nothing half-written, on
SIGTERM (how the starting process stops it) or SIGINT, or once its standard input closes,
which the kernel does when the starting process dies (a kill too): this process never
outlives it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
import threading
from collections.abc import Sequence

from engine.rules import Mode
from engine.solver.exact import SearchTimeout
from engine.solver.exact_trees import optimal_tree
from engine.stopping import Stopped
from engine.variants import get_variant

log = logging.getLogger("wordlebot.trees")
NICENESS = 19  # the players' process first, wherever both want the same core


def search_missing(trees: Sequence[tuple[str, Mode]], stopping: threading.Event) -> None:
    """Search each tree not in the cache yet, in turn, until ``stopping`` is set."""
    for name, mode in trees:
        try:
            optimal_tree(get_variant(name), mode, stop=stopping.is_set)  # read if it is there
        except SearchTimeout:  # noted beside its cache: hints there stay greedy
            continue
        except (Stopped, KeyboardInterrupt):
            raise
        except Exception:  # one list's failure (memory, say) leaves the others their trees
            log.exception("the exact tree of %s in %s mode was not searched", name, mode)


def parse(argument: str) -> tuple[str, Mode]:
    name, _, mode = argument.rpartition(":")
    return name, Mode(mode)


def main(argv: Sequence[str]) -> int:
    trees = [parse(argument) for argument in argv]
    if hasattr(os, "nice"):  # not on Windows
        with contextlib.suppress(OSError):
            os.nice(NICENESS)
    stopping = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):  # SIGINT: a Ctrl-C reaches the whole group
        signal.signal(sig, lambda *_: stopping.set())

    def watch_stdin() -> None:
        with contextlib.suppress(OSError):  # the descriptor: no lock held at exit as a file's
            while os.read(sys.stdin.fileno(), 4096):
                pass
        stopping.set()  # closed: the starting process is stopping, or gone

    threading.Thread(target=watch_stdin, daemon=True).start()
    with contextlib.suppress(Stopped):
        search_missing(trees, stopping)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
