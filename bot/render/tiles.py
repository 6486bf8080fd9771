"""Boards and keyboards drawn from cached tiles, in a palette image.

A board is a handful of distinct tiles (a letter on a colour, or an empty square), and a
keyboard a few dozen keys (the same, with rounded corners), so each is drawn once and then
placed (:mod:`bot.render.png` keeps whole rows of them compressed). The
image holds palette indices rather than RGB: a few dozen colours (each tile colour blended
towards white in :data:`LEVELS` steps, for the letters' anti-aliased edges; an unused key's
grey towards ink), which makes the
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
LEVELS = 16  # steps from a tile's colour to its letter's: the letters' anti-aliased edges
DIGITS = "210"  # the tile colours: correct, present, absent
UNUSED = "-"  # a key no guess has used: the border's light grey, its letter in ink
SHADES = DIGITS + UNUSED
BACKGROUND_INDEX, BORDER_INDEX = 0, 1
BORDER_WIDTH = 2
WHITE, INK = (255, 255, 255), (26, 26, 27)


def colour_index(shade: str, level: int = 0) -> int:
    """The palette index of a tile's colour (a pattern digit, or :data:`UNUSED`) blended
    ``level`` steps towards its letter's colour."""
    return 2 + SHADES.index(shade) * LEVELS + level


@lru_cache(maxsize=8)
def palette_values(palette: Palette, background: RGB, border: RGB) -> tuple[int, ...]:
    """The flat RGB list for :meth:`Image.putpalette`, in the order of :func:`colour_index`."""
    colours = [background, border]
    for shade in SHADES:
        base, letter = (border, INK) if shade == UNUSED else (palette.tile(shade), WHITE)
        for level in range(LEVELS):
            part = level / (LEVELS - 1)
            blend = (round(c + (t - c) * part) for c, t in zip(base, letter, strict=True))
            colours.append(tuple(blend))  # type: ignore[arg-type]
    return tuple(v for colour in colours for v in colour)


@lru_cache(maxsize=2048)
def pixels(letter: str, shade: str, size: tuple[int, int], font: Font, radius: int = 0) -> Pixels:
    """:func:`tile`'s palette indices, as PNG bands take them, drawn once: one object per
    tile, so bands that hold the same tiles are recognised as the same."""
    return Pixels(np.asarray(tile(letter, shade, size, font, radius)))


def tile(
    letter: str,
    shade: str,
    size: tuple[int, int],
    font: ImageFont.FreeTypeFont | ImageFont.ImageFont,
    radius: int = 0,
) -> Image.Image:
    """One tile as palette indices: ``shade`` '' is an empty square with a border; otherwise
    the colour of that pattern digit, with ``letter`` (may be '') in white in its centre, or
    an unused key (:data:`UNUSED`), light grey with its letter in ink. ``radius`` rounds
    its corners (keys)."""
    width, height = size
    if not shade:
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
    indices = (colour_index(shade) + levels).astype(np.uint8)
    if radius:
        shape = Image.new("1", size, 0)
        ImageDraw.Draw(shape).rounded_rectangle((0, 0, width - 1, height - 1), radius, fill=1)
        indices[~np.asarray(shape)] = BACKGROUND_INDEX
    return Image.fromarray(indices, mode="P")
