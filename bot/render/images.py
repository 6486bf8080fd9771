"""Board and stats images (PNG), drawn with Pillow in the game's own colours."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw, ImageFont

from bot.services import GameView, Stats

GREEN, YELLOW, GREY = (106, 170, 100), (201, 180, 88), (120, 124, 126)
EMPTY_BORDER, BACKGROUND, WHITE, DARK = (
    (211, 214, 218),
    (255, 255, 255),
    (255, 255, 255),
    (26, 26, 27),
)
TILE, GAP, MARGIN = 62, 6, 12
TILE_COLOURS = {"2": GREEN, "1": YELLOW, "0": GREY}


def board_size(length: int, rows: int) -> tuple[int, int]:
    return (2 * MARGIN + length * TILE + (length - 1) * GAP,
            2 * MARGIN + rows * TILE + (rows - 1) * GAP)  # fmt: skip


def tile_box(row: int, column: int) -> tuple[int, int, int, int]:
    x = MARGIN + column * (TILE + GAP)
    y = MARGIN + row * (TILE + GAP)
    return x, y, x + TILE - 1, y + TILE - 1


def board_png(game: GameView, *, letters: bool = True) -> bytes:
    """The board: a row of tiles per guess, empty tiles for the guesses left.
    ``letters=False`` draws colours only (a daily game shown to others)."""
    image = Image.new("RGB", board_size(game.length, game.max_guesses), BACKGROUND)
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=TILE // 2)
    for r in range(game.max_guesses):
        guess, digits = game.rows[r] if r < len(game.rows) else ("", "")
        for c in range(game.length):
            box = tile_box(r, c)
            if not digits:
                draw.rectangle(box, outline=EMPTY_BORDER, width=2)
                continue
            draw.rectangle(box, fill=TILE_COLOURS[digits[c]])
            if letters:
                centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
                draw.text(centre, guess[c].upper(), fill=WHITE, font=font, anchor="mm")
    return _png(image)


def stats_png(stats: Stats) -> bytes:
    """The guess distribution as horizontal bars, the longest full width."""
    width, bar_height, gap = 360, 24, 6
    rows = len(stats.distribution)
    image = Image.new("RGB", (width, 2 * MARGIN + rows * (bar_height + gap)), BACKGROUND)
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=16)
    most = max(stats.distribution.values(), default=0) or 1
    for i, (guesses, count) in enumerate(stats.distribution.items()):
        y = MARGIN + i * (bar_height + gap)
        draw.text((MARGIN, y + bar_height / 2), str(guesses), fill=DARK, font=font, anchor="lm")
        left = MARGIN + 24
        length = max(28, round((width - left - MARGIN) * count / most))
        draw.rectangle((left, y, left + length, y + bar_height), fill=GREEN if count else GREY)
        draw.text((left + length - 6, y + bar_height / 2), str(count), fill=WHITE, font=font,
                  anchor="rm")  # fmt: skip
    return _png(image)


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()
