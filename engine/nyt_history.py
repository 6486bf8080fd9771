"""The NYT's past Wordle answers, by day and puzzle number, and how likely a used word is again.

``wordlists/wordle-nyt-history.tsv`` holds every answer from #0 (2021-06-19) to the day it was
made (source and licence in ``wordlists/README.md``). The NYT reused no answer until
2026-02-02 and has reused about one in nine since, so a used word is made less likely, never
impossible (:mod:`engine.answer_model`, ``nyt_model(puzzle)``): by how much is fitted on the
days before the puzzle in question (:func:`reuse_rate`), never on the puzzle itself.

A puzzle's history is strictly the answers of earlier numbers: an old share (``Wordle 1,406``)
never down-weights its own answer.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from functools import cache
from pathlib import Path

from wordlists import DIRECTORY as WORDLISTS

HISTORY_FILE = "wordle-nyt-history.tsv"
EPOCH = date(2021, 6, 19)  # puzzle #0, CIGAR: the NYT numbers its puzzles by day from here
HALF_LIFE_DAYS = 60.0  # how fast the fitted reuse rate forgets old days (see reuse_rate)
PSEUDO_REUSES = 0.5  # the rate's prior: half a reuse before any day (never exactly 0)


@dataclass(frozen=True, order=True)
class PastAnswer:
    """The answer of puzzle ``number``, played on ``day``."""

    number: int
    day: date
    answer: str


def puzzle_number(day: date) -> int:
    """The NYT's puzzle number of ``day`` (2021-06-19 is #0)."""
    return (day - EPOCH).days


def puzzle_day(number: int) -> date:
    return EPOCH + timedelta(days=number)


def read_answers(path: Path | str) -> tuple[PastAnswer, ...]:
    """A file of past answers, one a line: date, number and answer, separated by tabs,
    commas or spaces (a header line, blank lines and ``#`` comments are skipped). Raises
    ``ValueError`` naming the line that cannot be read or whose number is not its date's."""
    found = []
    text = Path(path).read_text(encoding="utf-8")
    for at, line in enumerate(text.splitlines(), 1):
        parts = line.replace(",", " ").split()
        if not parts or parts[0].startswith("#") or parts[0].lower() == "date":
            continue
        try:
            day, number, answer = date.fromisoformat(parts[0]), int(parts[1]), parts[2].lower()
        except (ValueError, IndexError):
            raise ValueError(f"{path}, line {at}: not 'date number answer'") from None
        if number != puzzle_number(day):
            raise ValueError(f"{path}, line {at}: #{number} is not the number of {day}")
        found.append(PastAnswer(number, day, answer))
    return tuple(sorted(found))


@cache
def shipped_answers() -> tuple[PastAnswer, ...]:
    """The answers shipped with the engine, oldest first."""
    return read_answers(WORDLISTS / HISTORY_FILE)


def answers_before(
    puzzle: int, learned: Iterable[tuple[int, str]] = (),
    answers: Sequence[PastAnswer] | None = None,
) -> tuple[PastAnswer, ...]:  # fmt: skip
    """The history of puzzle ``puzzle``: every answer of an earlier number, from ``answers``
    (the shipped list by default) and then ``learned`` (number, answer) pairs for numbers the
    list does not hold (a deployment learns them from its players: bot/services/answers.py)."""
    known = shipped_answers() if answers is None else answers
    before = [a for a in known if a.number < puzzle]
    held = {a.number for a in known}
    for number, answer in learned:
        if number < puzzle and number not in held:
            before.append(PastAnswer(number, puzzle_day(number), answer))
            held.add(number)
    return tuple(sorted(before))


def reuse_rate(history: Sequence[PastAnswer]) -> float:
    """The chance that the next answer is a word used before, fitted on ``history`` alone:
    the share of days whose answer had been used on an earlier day, each day weighted by
    ``2 ** (-age / HALF_LIFE_DAYS)`` (so a change of the NYT's habits, like its first reuse
    on 2026-02-02, shows within weeks), with :data:`PSEUDO_REUSES` added to the reuses and
    one day to the days (so the rate is never 0, nor 1). On the shipped list to 2026-08-21
    it is about 0.1; before 2026-02-02 it is below 0.01."""
    if not history:
        return PSEUDO_REUSES
    latest = history[-1].number
    seen: set[str] = set()
    reused = days = 0.0
    for past in history:
        weight = math.exp2(-(latest - past.number) / HALF_LIFE_DAYS)
        days += weight
        if past.answer in seen:
            reused += weight
        seen.add(past.answer)
    return (reused + PSEUDO_REUSES) / (days + 1.0)
