"""Board and stats images (PNG), drawn with Pillow in the game's own colours."""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.render import png, tiles
from bot.render.palette import STANDARD, Palette
from bot.services import GameView, Stats
from bot.services.digest import Digest

GREEN, YELLOW, GREY = STANDARD.correct, STANDARD.present, STANDARD.absent
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


def rows_shown(game: GameView) -> int:
    """Every guess allowed; Absurdle has no limit, so its rows so far and one more."""
    return game.max_guesses or max(6, len(game.rows) + 1)


def board_png(game: GameView, *, letters: bool = True, palette: Palette = STANDARD) -> bytes:
    """The board: a row of tiles per guess, empty tiles for the guesses left, in the player's
    ``palette``. ``letters=False`` draws colours only (a daily game shown to others).
    Multi-board games draw their boards side by side, four to a row, at half size. Assembled
    from cached tiles and kept compressed rows (:mod:`bot.render.png`): one is drawn for
    nearly every interaction, and it differs from the one before by a row."""
    rows = rows_shown(game)
    if game.boards is None:
        bands = [_row(game.rows, r, game.length, 0, 1.0, letters) for r in range(rows)]
        return _assemble(board_size(game.length, rows), palette, bands)
    width, height = board_size(game.length, rows)
    bands = []
    for first in range(0, len(game.boards), 4):  # four boards across, side by side
        top = (first // 4) * (height // 2)
        group = game.boards[first : first + 4]
        for r in range(rows):
            cells: list[png.Cell] = []
            for i, board in enumerate(group):
                y, tall, row = _row(board, r, game.length, i * (width // 2), 0.5, letters)
                cells.extend(row)
            bands.append((top + y, tall, tuple(cells)))
    return _assemble(multi_size(len(game.boards), game.length, rows), palette, bands)


def multi_size(boards: int, length: int, rows: int) -> tuple[int, int]:
    width, height = board_size(length, rows)
    across = min(boards, 4)
    down = -(-boards // 4)
    return across * (width // 2), down * (height // 2)


def _row(
    game_rows: list[tuple[str, str]], r: int, length: int, left: int, scale: float, letters: bool
) -> png.Band:
    """Row ``r`` of a board whose left edge is at ``left``: its top, its height and its
    tiles (an empty row for a guess not yet made)."""
    letter_font = font(max(8, int(TILE * scale) // 2))
    guess, digits = game_rows[r] if r < len(game_rows) else ("", "")
    cells = []
    for c in range(length):
        x0, y0, x1, y1 = (int(v * scale) for v in tile_box(r, c))
        letter = guess[c].upper() if digits and letters else ""
        square = tiles.pixels(letter, digits[c] if digits else "", (x1 - x0 + 1, y1 - y0 + 1),
                              letter_font)  # fmt: skip
        cells.append((left + x0, square))
    return y0, y1 - y0 + 1, tuple(cells)


def _assemble(size: tuple[int, int], palette: Palette, bands: list[png.Band]) -> bytes:
    colours = tiles.palette_values(palette, BACKGROUND, EMPTY_BORDER)
    return png.png(size, colours, tiles.BACKGROUND_INDEX, bands)


def stats_png(stats: Stats, palette: Palette = STANDARD) -> bytes:
    """The guess distribution as horizontal bars, the longest full width."""
    width, bar_height, gap = 360, 24, 6
    rows = len(stats.distribution)
    image = Image.new("RGB", (width, 2 * MARGIN + rows * (bar_height + gap)), BACKGROUND)
    draw = ImageDraw.Draw(image)
    label_font = font(16)
    most = max(stats.distribution.values(), default=0) or 1
    for i, (guesses, count) in enumerate(stats.distribution.items()):
        y = MARGIN + i * (bar_height + gap)
        draw.text(
            (MARGIN, y + bar_height / 2), str(guesses), fill=DARK, font=label_font, anchor="lm"
        )
        left = MARGIN + 24
        length = max(28, round((width - left - MARGIN) * count / most))
        draw.rectangle(
            (left, y, left + length, y + bar_height), fill=palette.correct if count else GREY
        )
        draw.text((left + length - 6, y + bar_height / 2), str(count), fill=WHITE, font=label_font,
                  anchor="rm")  # fmt: skip
    return _png(image)


def digest_png(digest: Digest, per_row: int = 6) -> bytes:
    """Everyone's grids of the day, colours only (no letters), under each player's name; a
    section per game."""
    mini, gap, label = 14, 2, 18
    tiles = max((game.length for game in digest.games), default=5)  # multi-board: wider
    cell_w = max(tiles * (mini + gap), 96) + MARGIN
    per_row = max(1, min(per_row, 1200 // cell_w))
    sections = []
    for game in digest.games:
        cell_h = label + game.limit * (mini + gap) + MARGIN
        rows = -(-len(game.grids) // per_row)
        sections.append((game, cell_h, label + rows * cell_h))
    width = 2 * MARGIN + per_row * cell_w
    height = MARGIN + sum(h + label for _, _, h in sections)
    image = Image.new("RGB", (width, max(height, 2 * MARGIN)), BACKGROUND)
    draw = ImageDraw.Draw(image)
    small, big = font(12), font(15)
    y = MARGIN
    for game, cell_h, section_h in sections:
        draw.text((MARGIN, y), game.title, fill=DARK, font=big)
        y += label + 4
        for i, (member, rows) in enumerate(game.grids):
            x0 = MARGIN + (i % per_row) * cell_w
            y0 = y + (i // per_row) * cell_h
            draw.text((x0, y0), member.name[:14], fill=DARK, font=small)
            for r, digits in enumerate(rows):
                for c, digit in enumerate(digits):
                    if digit == " ":  # between boards
                        continue
                    x, yy = x0 + c * (mini + gap), y0 + label + r * (mini + gap)
                    draw.rectangle((x, yy, x + mini - 1, yy + mini - 1), fill=TILE_COLOURS[digit])
        y += section_h
    return _png(image)


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)  # flat colours: fast and still small
    return buffer.getvalue()


@lru_cache(maxsize=16)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled font at ``size`` (loading it costs more than drawing a board)."""
    return ImageFont.load_default(size=size)
