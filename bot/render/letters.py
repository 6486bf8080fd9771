"""The letters on tiles and keys: the font that draws them, and their capitals.

The font is DejaVu Sans Bold, shipped beside this module (``fonts/``, its licence and how it
was subset in the README there): every letter of every shipped language has a glyph of its
own in it, where Pillow's bundled font draws a box for Ñ, É, Ü, ß or Ł.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FONT_FILE = Path(__file__).resolve().parent / "fonts" / "DejaVuSans-Bold.ttf"
# Capitals that Python's str.upper() spells in two letters: a tile holds one.
CAPITALS = {"ß": "ẞ"}  # the capital sharp s (Unicode 5.1, German orthography since 2017)


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont:
    """The shipped font at ``size`` pixels (loading it costs more than drawing a board)."""
    return ImageFont.truetype(FONT_FILE, size)


def capital(letter: str) -> str:
    """``letter`` as a tile shows it: its capital, one letter for one (ß is ẞ, not SS); a
    letter whose capital would be longer stays as it is."""
    upper = CAPITALS.get(letter) or letter.upper()
    return upper if len(upper) == len(letter) else letter


def capitals(word: str) -> str:
    """``word`` in capitals, a letter for a letter: STRAẞE, not STRASSE."""
    return "".join(capital(letter) for letter in word)
