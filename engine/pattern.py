"""Feedback patterns: the exact scoring rule and every notation players write them in.

A pattern is one integer in ``0 .. 3**length - 1``: the tiles read as base-3 digits, first
tile most significant, with ``0`` grey, ``1`` yellow and ``2`` green (Wordlegames.jl's
digits). So ``"01202"`` is ``int("01202", 3)`` and the winning pattern is ``3**length - 1``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

GREY, YELLOW, GREEN = 0, 1, 2

EMOJI = {GREEN: "🟩", YELLOW: "🟨", GREY: "⬛"}
EMOJI_LIGHT = {GREEN: "🟩", YELLOW: "🟨", GREY: "⬜"}
EMOJI_HIGH_CONTRAST = {GREEN: "🟧", YELLOW: "🟦", GREY: "⬛"}
LETTER_CODES = {GREEN: "G", YELLOW: "Y", GREY: "B"}

# Everything a tile may be written as when read back. Grey has many spellings: dark and light
# squares, brown (some clones), B for black, '-', '.', 'X', and AlphaWordle's 'R'.
_TILE_READINGS: dict[str, int] = {
    "0": GREY, "1": YELLOW, "2": GREEN,
    "🟩": GREEN, "🟧": GREEN, "🟨": YELLOW, "🟦": YELLOW,
    "⬛": GREY, "⬜": GREY, "🟫": GREY, "◼": GREY, "◻": GREY,
    "G": GREEN, "Y": YELLOW, "B": GREY, "-": GREY, ".": GREY, "X": GREY, "R": GREY,
}  # fmt: skip
_IGNORED = {"\ufe0f", "\u200d"}  # variation selector and zero-width joiner travel with emoji


class PatternError(ValueError):
    """Text that is not a pattern; the message says what was expected."""


def score(guess: str, answer: str) -> int:
    """The game's two-pass rule: greens first, then each other guess letter, left to right,
    takes the first unused matching answer letter as yellow, otherwise it is grey."""
    if len(guess) != len(answer):
        raise ValueError(f"{guess!r} and {answer!r} differ in length")
    tiles = [GREY] * len(guess)
    unused: dict[str, int] = {}
    for i, (g, a) in enumerate(zip(guess, answer, strict=True)):
        if g == a:
            tiles[i] = GREEN
        else:
            unused[a] = unused.get(a, 0) + 1
    for i, g in enumerate(guess):
        if tiles[i] != GREEN and unused.get(g, 0) > 0:
            tiles[i] = YELLOW
            unused[g] -= 1
    return from_tiles(tiles)


def from_tiles(tiles: Sequence[int]) -> int:
    """Tile values (0 grey, 1 yellow, 2 green), first tile first, as one pattern."""
    pattern = 0
    for tile in tiles:
        pattern = pattern * 3 + tile
    return pattern


def tiles(pattern: int, length: int) -> list[int]:
    """The tile values of ``pattern``, first tile first."""
    if not 0 <= pattern < 3**length:
        raise ValueError(f"pattern {pattern} is out of range for length {length}")
    out = [0] * length
    for i in range(length - 1, -1, -1):
        pattern, out[i] = divmod(pattern, 3)
    return out


def winning(length: int) -> int:
    """The all-green pattern."""
    return int(3**length - 1)


@lru_cache(maxsize=4096)  # every board shown spells each of its rows so
def to_digits(pattern: int, length: int) -> str:
    return "".join(str(t) for t in tiles(pattern, length))


def to_emoji(pattern: int, length: int, *, light: bool = False, high_contrast: bool = False) -> str:
    palette = EMOJI_HIGH_CONTRAST if high_contrast else EMOJI_LIGHT if light else EMOJI
    return "".join(palette[t] for t in tiles(pattern, length))


def to_letters(pattern: int, length: int) -> str:
    return "".join(LETTER_CODES[t] for t in tiles(pattern, length))


def parse_pattern(text: str, length: int) -> int:
    """Read a pattern written as digits, coloured squares or letters (case-insensitive)."""
    values: list[int] = []
    for ch in text.strip():
        if ch in _IGNORED or ch.isspace():
            continue
        tile = _TILE_READINGS.get(ch.upper())
        if tile is None:
            shown = text.strip()[:20]
            raise PatternError(
                f"{shown!r} is not a pattern: write each tile as 0/1/2, "
                "G/Y/B (or - . X R for grey) or as coloured squares"
            )
        values.append(tile)
    if len(values) != length:
        raise PatternError(f"A pattern needs {length} tiles, got {len(values)}")
    return from_tiles(values)


def looks_like_pattern(text: str, length: int) -> bool:
    try:
        parse_pattern(text, length)
    except PatternError:
        return False
    return True
