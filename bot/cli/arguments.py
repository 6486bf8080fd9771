"""What the command line accepts: a parser whose mistakes are one line, and numbers within
the range a command can use (a 20-digit count would run for ever or overflow a C integer)."""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable
from typing import NoReturn

BIGINT = 2**63 - 1  # Discord ids and anything stored in a 64-bit column
SEED = 2**64 - 1
_LONG_QUOTE = re.compile(r"'([^']{20})[^']{10,}'")


class Parser(argparse.ArgumentParser):
    """argparse, but a mistake is one line on stderr (its usage is a --help away), exit 2."""

    def error(self, message: str) -> NoReturn:
        message = _LONG_QUOTE.sub(r"'\1...'", message)  # a 4,000-character value, shortened
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def whole(low: int, high: int) -> Callable[[str], int]:
    """A whole number from ``low`` to ``high``, else argparse's one-line error."""

    def parse(text: str) -> int:
        value = text.strip().replace("_", "")
        if not re.fullmatch(r"[+-]?[0-9]{1,30}", value) or not low <= int(value) <= high:
            raise argparse.ArgumentTypeError(
                f"takes a whole number from {low:,} to {high:,}, not {text[:20]!r}"
            )
        return int(value)

    parse.__name__ = "whole number"
    return parse


def number(low: float, high: float) -> Callable[[str], float]:
    """A finite number from ``low`` to ``high`` (never nan nor inf)."""

    def parse(text: str) -> float:
        try:
            value = float(text[:40])
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and low <= value <= high):
            raise argparse.ArgumentTypeError(
                f"takes a number from {low:g} to {high:g}, not {text[:20]!r}"
            )
        return value

    parse.__name__ = "number"
    return parse


def sample(text: str) -> str:
    """'all', or how many answers to sample (checked against the list where it is known)."""
    if text.strip().lower() == "all":
        return "all"
    return str(whole(1, 1_000_000)(text))
