"""Draw the board images the docs show, with the bot's own renderer (bot/render/images.py).

The games are played by the engine (its scoring and rules), turned into the ``GameView`` a
front end receives, and drawn exactly as the bot draws a board for Discord. Run from the
repository's root after changing the renderer:

    python docs/make_screenshots.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from bot.render.images import board_png
from bot.services import GameView
from engine import Mode, WordleGame, get_variant, score, to_digits
from engine.multiboard import MultiGame

HERE = Path(__file__).resolve().parent


def wordle_board() -> GameView:
    """A finished Wordle game in four: the board a player sees at the end."""
    variant = get_variant("wordle")
    game = WordleGame(variant, "cigar", Mode.HARD)
    for word in ("salet", "brain", "chair", "cigar"):
        assert game.guess(word).accepted, word
    rows = [(g, to_digits(p, variant.length)) for g, p in game.rows]
    return GameView(1, 1, "wordle:practice", "wordle", "Wordle", "hard", None, None, rows,
                    game.status.value, 6, 5, game.answer)  # fmt: skip


def quordle_board() -> GameView:
    """A finished Quordle game: four boards side by side, each up to the guess that solved it."""
    variant = get_variant("wordle")
    game = MultiGame(variant, ["cigar", "rebut", "sissy", "humph"])
    for word in ("salet", "crony", "cigar", "rebut", "humph", "sissy"):
        assert game.guess(word).accepted, word
    boards = [[(g, to_digits(p, variant.length)) for g, p in game.rows(b)] for b in range(4)]
    return GameView(2, 1, "quordle:practice", "wordle", "Quordle", "normal", None, None,
                    [(g, "") for g in game.guesses], game.status.value, game.limit, 5,
                    ", ".join(game.answers), boards)  # fmt: skip


def spanish_board() -> GameView:
    """Six letters in Spanish, Ñ its own letter: each row scored by the engine."""
    rows = [(g, to_digits(score(g, "muñeca"), 6)) for g in ("piñata", "señora", "muñeca")]
    return GameView(3, 1, "wordle-es-6:practice", "wordle-es-6", "Palabra", "normal", None,
                    None, rows, "won", 6, 6, "muñeca")  # fmt: skip


def main() -> int:
    boards = {"board-wordle.png": wordle_board(), "board-quordle.png": quordle_board(),
              "board-es-6.png": spanish_board()}  # fmt: skip
    for name, view in boards.items():
        assert view.status == "won", name
        (HERE / name).write_bytes(board_png(view))
        print(HERE / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
