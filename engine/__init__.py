"""Wordle-family engine: word lists, exact scoring, hard-mode rules and game state.

Pure and synchronous; it knows nothing of Discord or databases. Typical use::

    from engine import get_variant, WordleGame, Mode
    game = WordleGame(get_variant("wordle"), "cigar", Mode.HARD)
    game.guess("crane")
"""

from engine.game import GameStateError, GuessOutcome, Status, WordleGame
from engine.history import HistoryError, parse_history
from engine.matrix import build_pattern_matrix, pattern_matrix
from engine.pattern import (
    PatternError,
    parse_pattern,
    score,
    tiles,
    to_digits,
    to_emoji,
    to_letters,
    winning,
)
from engine.rules import Mode, Row, Verdict, check_guess, is_consistent
from engine.variants import (
    VARIANT_NAMES,
    Registry,
    UnknownVariantError,
    Variant,
    get_variant,
    variant_name,
    variant_names,
)
from engine.words import LookAlikeError, WordList, WordListError, load_wordlist

__all__ = [
    "VARIANT_NAMES",
    "GameStateError",
    "GuessOutcome",
    "HistoryError",
    "LookAlikeError",
    "Mode",
    "PatternError",
    "Registry",
    "Row",
    "Status",
    "UnknownVariantError",
    "Variant",
    "Verdict",
    "WordList",
    "WordListError",
    "WordleGame",
    "build_pattern_matrix",
    "check_guess",
    "get_variant",
    "is_consistent",
    "load_wordlist",
    "parse_history",
    "parse_pattern",
    "pattern_matrix",
    "score",
    "tiles",
    "to_digits",
    "to_emoji",
    "to_letters",
    "variant_name",
    "variant_names",
    "winning",
]
