"""The games the services host, and how each engine game is built, stored and measured.

A kind of game is a name (``wordle``, ``absurdle``, ``quordle``...) plus daily or practice
(``absurdle`` has a challenge flavour instead); stats and leaderboards are kept per kind.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.absurdle import AbsurdleGame
from engine.game import WordleGame
from engine.multiboard import BOARDS, MultiGame, guess_limit
from engine.rules import Mode
from engine.variants import get_variant

EngineGame = WordleGame | AbsurdleGame | MultiGame


@dataclass(frozen=True)
class GameKind:
    name: str
    title: str
    variant: str
    boards: int = 1
    limit: int = 6  # guesses allowed; 0: no limit (Absurdle)
    daily: bool = True

    @property
    def distribution_size(self) -> int:
        return self.limit or 10


KINDS: dict[str, GameKind] = {
    "wordle": GameKind("wordle", "Wordle", "wordle"),
    "primel": GameKind("primel", "Primel", "primel"),
    "absurdle": GameKind("absurdle", "Absurdle", "wordle", limit=0, daily=False),
    **{
        name: GameKind(name, name.title(), "wordle", boards, guess_limit(boards), daily=False)
        for name, boards in BOARDS.items()
        if boards <= 8  # Sedecordle's 16 boards do not fit a Discord message
    },
}


GAMES = tuple(KINDS)  # every game, for /stats, /leaderboard and /coach in every front end
DAILY_GAMES = tuple(name for name, spec in KINDS.items() if spec.daily)
DAILY_KINDS = tuple(f"{name}:daily" for name in DAILY_GAMES)  # their daily games' kinds
WORDLE_LIMIT = 6  # the guesses a server's fail score is set against


def kind_name(kind: str) -> GameKind:
    return KINDS[kind.split(":")[0]]


def results_kind(game: str, practice: bool = False) -> str:
    """The kind whose results /stats and /leaderboard show for ``game``: its daily, or its
    practice games (always, for a game with no daily here: Absurdle, the multi-board games;
    their ``:daily`` kind holds only shares of the original game)."""
    daily = KINDS[game].daily and not practice
    return f"{game}:{'daily' if daily else 'practice'}"


def fail_score_of(kind: str, fail_score: int) -> int:
    """What a lost game of ``kind`` counts as on the average board, from a server's fail
    score for a 6-guess game: as many guesses more as the game allows more (Quordle, 9
    guesses: 7 becomes 10; Absurdle, no limit: a give-up counts as 11, past its 10 rows)."""
    return fail_score + kind_name(kind).distribution_size - WORDLE_LIMIT


def new_game(
    spec: GameKind, answers: list[str], mode: Mode, target: str | None = None,
    max_guesses: int | None = None,
) -> EngineGame:  # fmt: skip
    """A new engine game; ``max_guesses`` (Wordle and Primel only) replaces the usual 6."""
    variant = get_variant(spec.variant)
    if spec.name == "absurdle":
        return AbsurdleGame(variant, mode, target)
    if spec.boards > 1:
        return MultiGame(variant, answers, mode)
    return WordleGame(variant, answers[0], mode, max_guesses=max_guesses)


def parse(state: dict[str, Any]) -> EngineGame:
    if state.get("game") == "absurdle":
        return AbsurdleGame.from_dict(state)
    if state.get("game") == "multi":
        return MultiGame.from_dict(state)
    return WordleGame.from_dict(state)


def fresh_copy(game: EngineGame) -> EngineGame:
    """A copy a caller may play without touching ``game`` (the variant is shared, not copied)."""
    if isinstance(game, WordleGame):
        return WordleGame(game.variant, game.answer, game.mode, list(game.rows), game.max_guesses)
    if isinstance(game, AbsurdleGame):
        return AbsurdleGame(game.variant, game.mode, game.target, list(game.rows),
                            game.candidates.copy())  # fmt: skip
    return MultiGame(game.variant, list(game.answers), game.mode, list(game.guesses))


def guess_limit_of(game: EngineGame, spec: GameKind) -> int:
    """The guesses a game allows (0: no limit): its own when it set one."""
    return game.limit if isinstance(game, WordleGame) else spec.limit


def guesses_used(game: EngineGame) -> int:
    return len(game.guesses) if isinstance(game, MultiGame) else len(game.rows)


def answer_text(game: EngineGame) -> str:
    """The answer(s), to show once a game is over."""
    if isinstance(game, MultiGame):
        return ", ".join(game.answers)
    if isinstance(game, AbsurdleGame):
        return game.target or ", ".join(game.remaining[:3])
    return game.answer
