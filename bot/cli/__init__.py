"""``wordlebot``, the command line: the subcommands (`commands`), the solver commands a
person runs at a terminal, the benchmarks, and the progress bar they share."""

import os

# numpy's OpenBLAS starts a thread for each core when numpy is imported, which spins for a
# while (a tenth of a second of a core) and then waits: the engine's work is counting and
# element-wise, never BLAS, so every process of ours (the bot, each command, the exact
# search's) starts it for nothing. One thread, unless the environment says otherwise.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from bot.cli.commands import build_parser, main  # (after the setting above)

__all__ = ["build_parser", "main"]
