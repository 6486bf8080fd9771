"""``wordlebot``, the command line: the subcommands (`commands`), the solver commands a
person runs at a terminal, the benchmarks, and the progress bar they share."""

from bot.cli.commands import build_parser, main

__all__ = ["build_parser", "main"]
