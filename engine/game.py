"""A game of Wordle (or Primel): the answer, the rows played so far, and the rule in force.

State is data. :meth:`WordleGame.guess` either adds a row or returns the refusal and changes
nothing. :meth:`WordleGame.to_dict` / :meth:`WordleGame.from_dict` round-trip through plain
JSON for storage, with a format version so stored games outlive code changes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol, TypeVar

from engine.pattern import score, to_digits, winning
from engine.rules import Mode, Reason, Row, check_guess
from engine.variants import Variant, get_variant

FORMAT_VERSION = 1
MAX_GUESSES = 20  # the most a game may allow (a board of more rows fits no message)
GAME_OVER = "This game is over"
GAME_OVER_REASON = Reason(GAME_OVER)


class Status(StrEnum):
    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


class GameStateError(ValueError):
    """Stored game data that cannot be a real game (wrong version, tampered rows...)."""


class Playable(Protocol):
    def guess(self, text: str) -> Any: ...


G = TypeVar("G", bound=Playable)


def replayed(label: str, build: Callable[[], G], guesses: Callable[[], Iterable[str]]) -> G:
    """A stored game rebuilt by replaying its guesses (its rules decide the state again),
    or :class:`GameStateError` naming what is wrong."""
    try:
        game = build()
        for guess in guesses():
            if not game.guess(guess).accepted:
                raise GameStateError(f"stored guess {guess!r} is not playable")
    except GameStateError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise GameStateError(f"malformed {label} data: {exc}") from exc
    return game


@dataclass(frozen=True)
class GuessOutcome:
    """What happened to one guess: the row it added, or the game's refusal."""

    word: str
    pattern: int | None = None
    message: str | None = None
    reason: Reason | None = None  # the message as data, for a front end to translate

    @property
    def accepted(self) -> bool:
        return self.message is None


@dataclass
class WordleGame:
    variant: Variant
    answer: str
    mode: Mode = Mode.NORMAL
    rows: list[Row] = field(default_factory=list)
    max_guesses: int | None = None  # None: the variant's limit (a set puzzle may choose its own)

    def __post_init__(self) -> None:
        if self.answer not in self.variant.guesses:
            raise GameStateError(f"{self.answer!r} is not a word of {self.variant.name}")
        if self.max_guesses is not None and not 1 <= self.max_guesses <= MAX_GUESSES:
            raise GameStateError(f"a game allows 1 to {MAX_GUESSES} guesses, not "
                                 f"{self.max_guesses!r}")  # fmt: skip

    @property
    def limit(self) -> int:
        """How many guesses this game allows."""
        return self.max_guesses or self.variant.max_guesses

    @property
    def status(self) -> Status:
        if self.rows and self.rows[-1][1] == winning(self.variant.length):
            return Status.WON
        if len(self.rows) >= self.limit:
            return Status.LOST
        return Status.PLAYING

    @property
    def over(self) -> bool:
        return self.status is not Status.PLAYING

    def check(self, text: str) -> GuessOutcome:
        """Whether ``text`` would be accepted now, without playing it."""
        if self.over:
            return GuessOutcome(text.strip().lower()[:20], message=GAME_OVER_REASON.message,
                                reason=GAME_OVER_REASON)  # fmt: skip
        verdict = check_guess(self.variant, text, self.rows, self.mode)
        return GuessOutcome(verdict.word, message=verdict.message, reason=verdict.reason)

    def guess(self, text: str) -> GuessOutcome:
        """Play ``text``. A refused guess leaves the game exactly as it was."""
        outcome = self.check(text)
        if not outcome.accepted:
            return outcome
        pattern = score(outcome.word, self.answer)
        self.rows.append((outcome.word, pattern))
        return GuessOutcome(outcome.word, pattern)

    def to_dict(self) -> dict[str, Any]:
        length = self.variant.length
        data: dict[str, Any] = {
            "format": FORMAT_VERSION,
            "variant": self.variant.name,
            "answer": self.answer,
            "mode": self.mode.value,
            "rows": [[guess, to_digits(pattern, length)] for guess, pattern in self.rows],
        }
        if self.max_guesses is not None:  # only then: games stored before it read the same
            data["max_guesses"] = self.max_guesses
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> WordleGame:
        """Rebuild a stored game, re-scoring every row so damaged data is caught, not played."""
        if data.get("format") != FORMAT_VERSION:
            raise GameStateError(f"unsupported game format {data.get('format')!r}")
        try:
            variant = get_variant(data["variant"])
            limit = data.get("max_guesses")
            if limit is not None and type(limit) is not int:
                raise GameStateError(f"malformed guess limit {limit!r}")
            game = cls(variant, data["answer"], Mode(data["mode"]), max_guesses=limit)
            for guess, digits in data["rows"]:
                pattern = score(guess, game.answer)
                if to_digits(pattern, variant.length) != digits:
                    raise GameStateError(f"row {guess!r} does not match its stored pattern")
                game.rows.append((guess, pattern))
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, GameStateError):
                raise
            raise GameStateError(f"malformed game data: {exc}") from exc
        wins = [i for i, (_, pattern) in enumerate(game.rows) if pattern == winning(variant.length)]
        if len(game.rows) > game.limit or wins[:1] not in ([], [len(game.rows) - 1]):
            raise GameStateError("rows go on past the end of the game")
        return game
