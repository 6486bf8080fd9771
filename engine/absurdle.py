"""Absurdle: an adversary that keeps no answer, and its challenge mode.

After each guess the adversary splits the remaining candidates by the pattern each would
give and keeps the largest bucket. Ties are broken the way the original game does: the
bucket whose pattern reveals least wins, compared by

1. size, larger first;
2. number of greens, fewer first;
3. number of yellows, fewer first;
4. the tiles left to right in the colours' order grey < yellow < green (the smaller
   pattern integer, first tile most significant).

The game is won when the guess is the single remaining word. In challenge mode the player
is given a target before the first guess and wins only by forcing the adversary down to
the target and guessing it; the game ends, lost, the moment the target is eliminated.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.game import GAME_OVER_REASON, GameStateError, GuessOutcome, Status, replayed
from engine.pattern import tiles, winning
from engine.rules import Mode, Row, check_guess
from engine.solver.position import pattern_row
from engine.variants import Variant, get_variant

FORMAT_VERSION = 1
TARGET_GONE = "The target is gone: the adversary eliminated it"


def adversary_choice(
    patterns: npt.NDArray[np.unsignedinteger], length: int
) -> tuple[int, npt.NDArray[np.bool_]]:
    """The pattern the adversary answers with, and which candidates keep it (a mask)."""
    values, counts = np.unique(patterns, return_counts=True)
    best = min(
        zip(values.tolist(), counts.tolist(), strict=True),
        key=lambda item: (-item[1], *_reveals(item[0], length), item[0]),
    )[0]
    return best, patterns == best


def _reveals(pattern: int, length: int) -> tuple[int, int]:
    row = tiles(pattern, length)
    return row.count(2), row.count(1)


@dataclass
class AbsurdleGame:
    variant: Variant
    mode: Mode = Mode.NORMAL
    target: str | None = None  # challenge mode
    rows: list[Row] = field(default_factory=list)
    candidates: npt.NDArray[np.intp] = field(default_factory=lambda: np.zeros(0, dtype=np.intp))

    def __post_init__(self) -> None:
        if len(self.candidates) == 0 and not self.rows:
            self.candidates = np.arange(len(self.variant.answers), dtype=np.intp)
        if self.target is not None and self.target not in self.variant.answers.index:
            raise GameStateError(f"{self.target!r} is not a possible answer")

    @property
    def remaining(self) -> list[str]:
        return [self.variant.answers.words[i] for i in self.candidates]

    @property
    def status(self) -> Status:
        if self.rows and self.rows[-1][1] == winning(self.variant.length):
            return Status.WON
        if self.target is not None and self.target not in self.remaining:
            return Status.LOST
        return Status.PLAYING

    @property
    def over(self) -> bool:
        return self.status is not Status.PLAYING

    def guess(self, text: str) -> GuessOutcome:
        if self.over:
            return GuessOutcome(text.strip().lower()[:20], message=GAME_OVER_REASON.message,
                                reason=GAME_OVER_REASON)  # fmt: skip
        verdict = check_guess(self.variant, text, self.rows, self.mode)
        if not verdict.allowed:
            return GuessOutcome(verdict.word, message=verdict.message, reason=verdict.reason)
        patterns = pattern_row(self.variant, verdict.word)[self.candidates]
        pattern, keep = adversary_choice(patterns, self.variant.length)
        self.candidates = self.candidates[keep]
        self.rows.append((verdict.word, pattern))
        return GuessOutcome(verdict.word, pattern)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT_VERSION,
            "game": "absurdle",
            "variant": self.variant.name,
            "mode": self.mode.value,
            "target": self.target,
            "rows": [guess for guess, _ in self.rows],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> AbsurdleGame:
        """Replay the stored guesses: the adversary is deterministic, so the state follows."""
        if data.get("format") != FORMAT_VERSION or data.get("game") != "absurdle":
            raise GameStateError("not a stored Absurdle game")
        return replayed(
            "Absurdle",
            lambda: cls(get_variant(data["variant"]), Mode(data["mode"]), data.get("target")),
            lambda: data["rows"],
        )
