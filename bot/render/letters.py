"""The letters on tiles and keys: the font that draws them, and their capitals (the
engine's :func:`engine.rules.upper`, one letter for one: ß is ẞ).

The font is DejaVu Sans Bold, shipped beside this module (``fonts/``, its licence and how it
was subset in the README there): every letter of every shipped language has a glyph of its
own in it, where Pillow's bundled font draws a box for Ñ, É, Ü, ß or Ł.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

from engine.rules import shout as capitals  # one letter for one: STRAẞE, not STRASSE
from engine.rules import upper as capital

FONT_FILE = Path(__file__).resolve().parent / "fonts" / "DejaVuSans-Bold.ttf"


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont:
    """The shipped font at ``size`` pixels (loading it costs more than drawing a board)."""
    return ImageFont.truetype(FONT_FILE, size)


__all__ = ["FONT_FILE", "capital", "capitals", "font"]
