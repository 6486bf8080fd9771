"""Typed histories: guesses with the feedback a player saw, in any notation the scorer reads.

Accepted forms, mixed freely: ``crane 01002 slate 00202``, ``CRANE ⬛🟨⬛⬛🟩`` and
``crane:BYBBG`` (commas also separate rows).
"""

from __future__ import annotations

from engine.pattern import PatternError, parse_pattern
from engine.rules import Row, shape_problem
from engine.variants import Variant
from engine.words import LookAlikeError


class HistoryError(ValueError):
    """A history that cannot be read; the message names the offending part."""


def parse_history(text: str, variant: Variant) -> list[Row]:
    """Read ``text`` into ``(guess, pattern)`` rows for ``variant``."""
    tokens = text.replace(",", " ").split()
    rows: list[Row] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if ":" in token:
            word, _, feedback = token.partition(":")
            i += 1
        elif i + 1 < len(tokens):
            word, feedback = token, tokens[i + 1]
            i += 2
        else:
            raise HistoryError(f"{token[:20]!r} has no feedback after it")
        rows.append(_row(word, feedback, variant, len(rows) + 1))
    return rows


def _row(word: str, feedback: str, variant: Variant, number: int) -> Row:
    try:
        guess = variant.normalise(word)
    except LookAlikeError as exc:
        raise HistoryError(f"Row {number}: {exc}") from None
    problem = shape_problem(guess, variant)
    if problem is not None:
        raise HistoryError(f"Row {number}: {word[:20]!r}: {problem}")
    try:
        return guess, parse_pattern(feedback, variant.length)
    except PatternError as exc:
        raise HistoryError(f"Row {number} ({guess}): {exc}") from None
