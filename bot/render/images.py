"""Board and stats images (PNG), drawn with Pillow in the game's own colours."""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.render import tiles
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
    Multi-board games draw their boards side by side, four to a row, at half size. Drawn from
    cached tiles in a palette image (:mod:`bot.render.tiles`): one is drawn for nearly every
    interaction."""
    if game.boards is not None:
        return _multi_png(game, palette)
    rows = rows_shown(game)
    image = tiles.new_image(board_size(game.length, rows), palette, BACKGROUND, EMPTY_BORDER)
    _draw_board(image, game.rows, rows, game.length, (0, 0), 1.0, letters)
    return _png(image)


def multi_size(boards: int, length: int, rows: int) -> tuple[int, int]:
    width, height = board_size(length, rows)
    across = min(boards, 4)
    down = -(-boards // 4)
    return across * (width // 2), down * (height // 2)


def _multi_png(game: GameView, palette: Palette) -> bytes:
    assert game.boards is not None
    rows = rows_shown(game)
    width, height = board_size(game.length, rows)
    size = multi_size(len(game.boards), game.length, rows)
    image = tiles.new_image(size, palette, BACKGROUND, EMPTY_BORDER)
    for b, board in enumerate(game.boards):
        origin = ((b % 4) * (width // 2), (b // 4) * (height // 2))
        _draw_board(image, board, rows, game.length, origin, 0.5, True)
    return _png(image)


def _draw_board(
    image: Image.Image,
    game_rows: list[tuple[str, str]],
    rows: int,
    length: int,
    origin: tuple[int, int],
    scale: float,
    letters: bool,
) -> None:
    letter_font = font(max(8, int(TILE * scale) // 2))
    for r in range(rows):
        guess, digits = game_rows[r] if r < len(game_rows) else ("", "")
        for c in range(length):
            x0, y0, x1, y1 = (int(v * scale) for v in tile_box(r, c))
            letter = guess[c].upper() if digits and letters else ""
            square = tiles.tile(letter, digits[c] if digits else "", (x1 - x0 + 1, y1 - y0 + 1),
                                letter_font)  # fmt: skip
            image.paste(square, (origin[0] + x0, origin[1] + y0))


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
