"""Boards drawn from cached tiles, in a palette image.

A board is a handful of distinct tiles (a letter on a colour, or an empty square), so each is
drawn once and then placed (:mod:`bot.render.png` keeps whole rows of them compressed). The
image holds palette indices rather than RGB: a few dozen colours (each tile colour blended
towards white in :data:`LEVELS` steps, for the letters' anti-aliased edges), which makes the
PNG a third of the bytes to compress, and lets one row serve every player's colours.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from bot.render.palette import Palette
from bot.render.png import Pixels

RGB = tuple[int, int, int]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
LEVELS = 16  # steps from a tile's colour to white: the letters' anti-aliased edges
DIGITS = "210"  # the tile colours: correct, present, absent
BACKGROUND_INDEX, BORDER_INDEX = 0, 1
BORDER_WIDTH = 2


def colour_index(digit: str, level: int = 0) -> int:
    """The palette index of a tile colour blended ``level`` steps towards white."""
    return 2 + DIGITS.index(digit) * LEVELS + level


@lru_cache(maxsize=8)
def palette_values(palette: Palette, background: RGB, border: RGB) -> tuple[int, ...]:
    """The flat RGB list for :meth:`Image.putpalette`, in the order of :func:`colour_index`."""
    colours = [background, border]
    for digit in DIGITS:
        base = palette.tile(digit)
        for level in range(LEVELS):
            white = level / (LEVELS - 1)
            colours.append(tuple(round(c + (255 - c) * white) for c in base))  # type: ignore[misc]
    return tuple(v for colour in colours for v in colour)


@lru_cache(maxsize=2048)
def pixels(letter: str, digit: str, size: tuple[int, int], font: Font) -> Pixels:
    """:func:`tile`'s palette indices, as PNG bands take them, drawn once: one object per
    tile, so bands that hold the same tiles are recognised as the same."""
    return Pixels(np.asarray(tile(letter, digit, size, font)))


def tile(
    letter: str,
    digit: str,
    size: tuple[int, int],
    font: ImageFont.FreeTypeFont | ImageFont.ImageFont,
) -> Image.Image:
    """One tile as palette indices: ``digit`` '' is an empty square with a border; otherwise
    the colour of that digit, with ``letter`` (may be '') in white in its centre."""
    width, height = size
    if not digit:
        indices = np.full((height, width), BORDER_INDEX, dtype=np.uint8)
        inner = indices[BORDER_WIDTH : height - BORDER_WIDTH, BORDER_WIDTH : width - BORDER_WIDTH]
        inner[:] = BACKGROUND_INDEX
        return Image.fromarray(indices, mode="P")
    mask = Image.new("L", size, 0)
    if letter:
        centre = ((width - 1) / 2, (height - 1) / 2)
        ImageDraw.Draw(mask).text(centre, letter, fill=255, font=font, anchor="mm")
    coverage = np.asarray(mask, dtype=np.uint16)
    levels = (coverage * (LEVELS - 1) + 127) // 255
    return Image.fromarray((colour_index(digit) + levels).astype(np.uint8), mode="P")
