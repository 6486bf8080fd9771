"""The terminal game: play Wordle or Primel at a prompt, no Discord needed."""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.game import Status, WordleGame
from engine.pattern import to_emoji
from engine.rules import Mode
from engine.variants import get_variant

HELP = "Type a guess, or 'quit'. Tiles: 🟩 right place, 🟨 elsewhere in the word, ⬛ not in it."


def pick_answer(variant_name: str, seed: int | None = None) -> str:
    """A practice answer: random, or reproducible with a seed."""
    return random.Random(seed).choice(get_variant(variant_name).answers.words)


def play(
    variant_name: str = "wordle",
    mode: Mode = Mode.NORMAL,
    seed: int | None = None,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> Status:
    """One game at the terminal; ends cleanly on 'quit' or end of input."""
    variant = get_variant(variant_name)
    answer = pick_answer(variant_name, seed)
    game = WordleGame(variant, answer, mode)
    write(f"{variant.title} ({mode.value} mode): guess the {variant.length}-{variant.unit} word "
          f"in {variant.max_guesses} tries. {HELP}")  # fmt: skip
    while not game.over:
        try:
            text = read(f"{len(game.rows) + 1}/{variant.max_guesses}> ")
        except EOFError:
            text = "quit"
        if text.strip().lower() in {"quit", "exit"}:
            write(f"The answer was {answer.upper()}.")
            return game.status
        outcome = game.guess(text)
        if not outcome.accepted:
            write(f"  {outcome.message}")
            continue
        assert outcome.pattern is not None
        write(f"  {to_emoji(outcome.pattern, variant.length)}  {outcome.word.upper()}")
    if game.status is Status.WON:
        write(f"Solved in {len(game.rows)}/{variant.max_guesses}!")
    else:
        write(f"Out of guesses. The answer was {answer.upper()}.")
    return game.status
