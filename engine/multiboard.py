"""Multi-board games: Dordle, Quordle, Octordle, Sedecordle.

N boards hide N answers. Every guess is scored on each unsolved board; a board is solved
when its word is guessed; the game is won when all are solved within N + 5 guesses. In hard
mode a guess must satisfy the NYT rule on every unsolved board.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.game import GAME_OVER_REASON, GameStateError, Status, replayed
from engine.pattern import score
from engine.rules import ON_BOARD, Mode, Reason, Row, check_guess, normalise
from engine.variants import Variant, get_variant

BOARDS = {"dordle": 2, "quordle": 4, "octordle": 8, "sedecordle": 16}
FORMAT_VERSION = 1


def guess_limit(boards: int) -> int:
    return boards + 5


@dataclass(frozen=True)
class MultiOutcome:
    word: str
    patterns: list[int | None] = field(default_factory=list)  # None: that board was solved
    message: str | None = None
    reason: Reason | None = None  # the message as data, for a front end to translate

    @property
    def accepted(self) -> bool:
        return self.message is None


@dataclass
class MultiGame:
    variant: Variant
    answers: list[str]
    mode: Mode = Mode.NORMAL
    guesses: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        for answer in self.answers:
            if answer not in self.variant.guesses:
                raise GameStateError(f"{answer!r} is not a word of {self.variant.name}")

    @property
    def limit(self) -> int:
        return guess_limit(len(self.answers))

    def rows(self, board: int) -> list[Row]:
        """The board's rows, up to the guess that solved it."""
        answer, out = self.answers[board], []
        for guess in self.guesses:
            out.append((guess, score(guess, answer)))
            if guess == answer:
                break
        return out

    def solved(self, board: int) -> bool:
        return self.answers[board] in self.guesses

    def solved_at(self, board: int) -> int | None:
        answer = self.answers[board]
        return self.guesses.index(answer) + 1 if answer in self.guesses else None

    @property
    def status(self) -> Status:
        if all(self.solved(b) for b in range(len(self.answers))):
            return Status.WON
        return Status.LOST if len(self.guesses) >= self.limit else Status.PLAYING

    @property
    def over(self) -> bool:
        return self.status is not Status.PLAYING

    def guess(self, text: str) -> MultiOutcome:
        if self.over:
            return MultiOutcome(normalise(text)[:20], message=GAME_OVER_REASON.message,
                                reason=GAME_OVER_REASON)  # fmt: skip
        verdict = check_guess(self.variant, text, (), Mode.NORMAL)
        if not verdict.allowed:
            return MultiOutcome(verdict.word, message=verdict.message, reason=verdict.reason)
        if self.mode is not Mode.NORMAL:
            for board in range(len(self.answers)):
                if not self.solved(board):
                    rule = check_guess(self.variant, verdict.word, self.rows(board), self.mode)
                    if not rule.allowed:
                        assert rule.reason is not None
                        why = Reason(ON_BOARD, {"board": board + 1, "reason": rule.reason})
                        return MultiOutcome(verdict.word, message=why.message, reason=why)
        unsolved = [not self.solved(b) for b in range(len(self.answers))]
        self.guesses.append(verdict.word)
        patterns = [score(verdict.word, a) if u else None
                    for a, u in zip(self.answers, unsolved, strict=True)]  # fmt: skip
        return MultiOutcome(verdict.word, patterns)

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT_VERSION, "game": "multi", "variant": self.variant.name,
                "answers": list(self.answers), "mode": self.mode.value,
                "guesses": list(self.guesses)}  # fmt: skip

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MultiGame:
        if data.get("format") != FORMAT_VERSION or data.get("game") != "multi":
            raise GameStateError("not a stored multi-board game")
        return replayed(
            "multi-board",
            lambda: cls(get_variant(data["variant"]), list(data["answers"]), Mode(data["mode"])),
            lambda: data["guesses"],
        )
