"""The colours a player's boards, images and shares are drawn in.

Green and yellow are the game's own; about one man in twelve cannot tell them apart, so a
player may choose high contrast instead: orange for the right place, blue for elsewhere, as
the NYT's own high-contrast setting draws them (and shares them: 🟧 🟦).
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Palette:
    name: str
    correct: RGB
    present: RGB
    absent: RGB
    high_contrast: bool  # the emoji squares: 🟧 🟦 instead of 🟩 🟨

    def tile(self, digit: str) -> RGB:
        """A tile's colour from its pattern digit (2 correct, 1 present, 0 absent)."""
        return {"2": self.correct, "1": self.present, "0": self.absent}[digit]


STANDARD = Palette("standard", (106, 170, 100), (201, 180, 88), (120, 124, 126), False)
HIGH_CONTRAST = Palette("high-contrast", (245, 121, 58), (133, 192, 249), (120, 124, 126), True)
PALETTES = {p.name: p for p in (STANDARD, HIGH_CONTRAST)}


def palette_named(name: str) -> Palette:
    """The palette stored under ``name``; the standard one for anything unknown."""
    return PALETTES.get(name, STANDARD)
