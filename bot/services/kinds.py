"""The games the services host, and how each engine game is built, stored and measured.

A kind of game is a name (``wordle``, ``absurdle``, ``quordle``...) plus daily or practice
(``absurdle`` has a challenge flavour instead); stats and leaderboards are kept per kind.

Wordle is played in every language and length the word lists ship (``wordlists/``): each
(language, length) is a game of its own, named as its variant (``wordle-es-6``), with its own
daily, archive, streaks, boards and digest block. A player never names it: they pick the
game (``wordle``), a language and a length (:func:`kind_for`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.i18n import _, language_name
from engine.absurdle import AbsurdleGame
from engine.game import WordleGame
from engine.multiboard import BOARDS, MultiGame, guess_limit
from engine.rules import Mode
from engine.variants import REGISTRY, get_variant, variant_name

EngineGame = WordleGame | AbsurdleGame | MultiGame


@dataclass(frozen=True)
class GameKind:
    name: str
    title: str
    variant: str
    boards: int = 1
    limit: int = 6  # guesses allowed; 0: no limit (Absurdle)
    daily: bool = True
    language: str = "en"  # the words' language (BCP 47), for the games played in words
    length: int = 5
    base: str = ""  # the game this one plays in another language or length ("wordle")

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


def _languages() -> dict[str, GameKind]:
    """Wordle in each shipped language and length, beside the original's English five."""
    kinds = {}
    for code, language in REGISTRY.languages.items():
        for length in language.lengths:
            name = variant_name(code, length)
            if name not in KINDS and name in REGISTRY.names:
                where = "" if code == "en" else f"{language.english_name}, "
                title = f"Wordle ({where}{length} letters)"  # as the variant names itself
                kinds[name] = GameKind(name, title, name, language=code, length=length,
                                       base="wordle")  # fmt: skip
    return kinds


KINDS.update(_languages())
# The games a player names (for /stats, /leaderboard and /coach in every front end): the
# languages and lengths of Wordle are chosen with their own options.
GAMES = tuple(name for name, spec in KINDS.items() if not spec.base)
DAILY_GAMES = tuple(name for name in GAMES if KINDS[name].daily)
# Every daily game's kind, languages included: what closes at midnight and what a digest shows.
DAILY_KINDS = tuple(f"{name}:daily" for name, spec in KINDS.items() if spec.daily)
# The languages Wordle is played in, each with its lengths.
LANGUAGES: dict[str, tuple[int, ...]] = {"en": (5,)}
for _spec in KINDS.values():
    if _spec.base or _spec.name == "wordle":
        LANGUAGES[_spec.language] = tuple(
            sorted({*LANGUAGES.get(_spec.language, ()), _spec.length})
        )
DEFAULT_LANGUAGE, DEFAULT_LENGTH = "en", 5
WORDLE_LIMIT = 6  # the guesses a server's fail score is set against


class NotShipped(ValueError):
    """A language or length the word lists do not hold; the message says what there is."""


def kind_for(game: str, language: str | None = None, length: int | None = None) -> str:
    """The game to play for ``game`` in ``language`` and ``length`` (None: its own, or
    English five). Only Wordle is played in other languages and lengths."""
    language = (language or "").lower() or None
    if language is None and length is None:
        return game
    if game != "wordle":
        if (language or DEFAULT_LANGUAGE, length or DEFAULT_LENGTH) == ("en", 5):
            return game
        raise NotShipped(
            _("{game} is played in English, five letters").format(game=KINDS[game].title)
        )
    code = language or DEFAULT_LANGUAGE
    if code not in LANGUAGES:
        raise NotShipped(
            _("Wordle is played in {languages}, not {language}").format(
                languages=", ".join(LANGUAGES), language=repr(code[:12])
            )
        )
    lengths = LANGUAGES[code]
    size = length or (DEFAULT_LENGTH if DEFAULT_LENGTH in lengths else lengths[0])
    if size not in lengths:
        shown = ", ".join(map(str, lengths))
        raise NotShipped(_("Wordle in {language} has words of {lengths} letters, not {length}")
                         .format(language=code, lengths=shown, length=size))  # fmt: skip
    return variant_name(code, size)


def one_of(game: str, games: tuple[str, ...]) -> bool:
    """Whether ``game`` is one of ``games``, or Wordle in another language or length where
    ``games`` has Wordle (races, co-op and challenges play every shipped list)."""
    spec = KINDS.get(game)
    return spec is not None and (game in games or spec.base in games)


def native_name(code: str) -> str:
    """A word list's language by its own name ("Español"), as a language picker shows it."""
    language = REGISTRY.languages.get(code)
    return language.name if language is not None else "English"


def word_language(locale: str) -> str | None:
    """The shipped language of a Discord locale (``es-ES``, ``pt-BR``), if we have it."""
    code = locale.replace("_", "-").split("-")[0].lower()
    return code if code in LANGUAGES else None


def daily_command(game: str) -> str:
    """The command that plays ``game``'s daily, as a player types it."""
    spec = KINDS[game]
    if spec.base:
        return f"/{spec.base} daily language:{spec.language} length:{spec.length}"
    return f"/{game} daily"


def shown_title(spec: GameKind) -> str:
    """A game's name in the reader's language: each language's Wordle names its language
    and length there ("Wordle (español, 6 letras)"); the other games keep their names."""
    if not spec.base:
        return spec.title
    if spec.language == "en":
        return _("Wordle ({length} letters)").format(length=spec.length)
    return _("Wordle ({language}, {length} letters)").format(
        language=language_name(spec.language), length=spec.length
    )


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
