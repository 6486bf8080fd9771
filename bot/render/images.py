"""Board, keyboard, stats and digest images (PNG), in the game's own colours and the font
shipped in ``fonts/`` (:mod:`bot.render.letters`)."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.i18n import _
from bot.render import png, tiles
from bot.render.keyboards import ABSENT, CORRECT, PRESENT, UNUSED, key_states
from bot.render.letters import capital, font
from bot.render.palette import STANDARD, Palette
from bot.render.text import SHARED_APART
from bot.services import GameView, Stats
from bot.services.digest import Digest

GREEN, YELLOW, GREY = STANDARD.correct, STANDARD.present, STANDARD.absent
EMPTY_BORDER, BACKGROUND, WHITE, DARK = (211, 214, 218), (255, 255, 255), tiles.WHITE, tiles.INK
TILE, GAP, MARGIN = 62, 6, 12  # a board's tiles at their largest (Wordle's own)
WIDEST = 640  # a board of any length is at most this wide: longer words, smaller tiles
TILE_COLOURS = {"2": GREEN, "1": YELLOW, "0": GREY}
KEY_UNUSED = EMPTY_BORDER  # a key no guess has used: light grey with dark letters (tiles.py)


def tile_size(length: int) -> int:
    """Wordle's 62-pixel tiles up to nine letters; from ten, smaller ones so the board stays
    :data:`WIDEST` (eleven letters: 50 pixels, letters in a 25-pixel font)."""
    return min(TILE, (WIDEST - 2 * MARGIN - (length - 1) * GAP) // length)


def board_size(length: int, rows: int) -> tuple[int, int]:
    tile = tile_size(length)
    return (2 * MARGIN + length * tile + (length - 1) * GAP,
            2 * MARGIN + rows * tile + (rows - 1) * GAP)  # fmt: skip


def tile_box(row: int, column: int, length: int = 5) -> tuple[int, int, int, int]:
    """The tile at ``row``, ``column`` of a board of words of ``length``: left, top, right
    and bottom pixels."""
    tile = tile_size(length)
    x = MARGIN + column * (tile + GAP)
    y = MARGIN + row * (tile + GAP)
    return x, y, x + tile - 1, y + tile - 1


def letter_font(length: int, scale: float = 1.0) -> tiles.Font:
    """The tiles' letters: half a tile high (capitals a third), at least 8 pixels."""
    return font(max(8, int(tile_size(length) * scale) // 2))


def rows_shown(game: GameView) -> int:
    """Every guess allowed; Absurdle has no limit, so its rows so far and one more."""
    return game.max_guesses or max(6, len(game.rows) + 1)


def board_png(game: GameView, *, letters: bool = True, palette: Palette = STANDARD) -> bytes:
    """The board: a row of tiles per guess, empty tiles for the guesses left, in the player's
    ``palette``. ``letters=False`` draws colours only (a daily game shown to others).
    Multi-board games draw their boards side by side at half size, four to a row (two for
    words of seven letters or more). Assembled from cached tiles and kept compressed rows
    (:mod:`bot.render.png`): one is drawn for nearly every interaction, and it differs from
    the one before by a row."""
    rows = rows_shown(game)
    if game.boards is None:
        bands = [_row(game.rows, r, game.length, 0, 1.0, letters) for r in range(rows)]
        return _assemble(board_size(game.length, rows), palette, bands)
    width, height = board_size(game.length, rows)
    across = boards_across(len(game.boards), game.length)
    bands = []
    for first in range(0, len(game.boards), across):  # a line of boards side by side
        top = (first // across) * (height // 2)
        group = game.boards[first : first + across]
        for r in range(rows):
            cells: list[png.Cell] = []
            for i, board in enumerate(group):
                y, tall, row = _row(board, r, game.length, i * (width // 2), 0.5, letters)
                cells.extend(row)
            bands.append((top + y, tall, tuple(cells)))
    return _assemble(multi_size(len(game.boards), game.length, rows), palette, bands)


def boards_across(boards: int, length: int) -> int:
    """How many half-size boards a multi-board image puts side by side: four, or two for
    words of seven letters or more: the image stays under 900 pixels wide."""
    return min(boards, 4 if length <= 6 else 2)


def multi_size(boards: int, length: int, rows: int) -> tuple[int, int]:
    width, height = board_size(length, rows)
    across = boards_across(boards, length)
    down = -(-boards // across)
    return across * (width // 2), down * (height // 2)


def _row(
    game_rows: list[tuple[str, str]], r: int, length: int, left: int, scale: float, letters: bool
) -> png.Band:
    """Row ``r`` of a board whose left edge is at ``left``: its top, its height and its
    tiles (an empty row for a guess not yet made)."""
    drawn = letter_font(length, scale)
    guess, digits = game_rows[r] if r < len(game_rows) else ("", "")
    cells = []
    for c in range(length):
        x0, y0, x1, y1 = (int(v * scale) for v in tile_box(r, c, length))
        letter = capital(guess[c]) if digits and letters else ""
        square = tiles.pixels(letter, digits[c] if digits else "", (x1 - x0 + 1, y1 - y0 + 1),
                              drawn)  # fmt: skip
        cells.append((left + x0, square))
    return y0, y1 - y0 + 1, tuple(cells)


def _assemble(size: tuple[int, int], palette: Palette, bands: list[png.Band]) -> bytes:
    colours = tiles.palette_values(palette, BACKGROUND, EMPTY_BORDER)
    return png.png(size, colours, tiles.BACKGROUND_INDEX, bands)


KEY_GAP, KEY_LARGEST = 6, 44
KEY_SHADES = {UNUSED: tiles.UNUSED, ABSENT: "0", PRESENT: "1", CORRECT: "2"}


def keyboard_png(
    game: GameView, rows: Sequence[str] | None = None, palette: Palette = STANDARD
) -> bytes:
    """The keyboard, each key in the colour of what the guesses revealed about it (light
    grey: not yet used), rows centred as on a phone. ``rows``: the layout, the game's own by
    default (:mod:`bot.render.keyboards`). Keys shrink so the longest row fits
    :data:`WIDEST`. Assembled from cached keys and kept rows, as boards are."""
    states = key_states(game, rows)
    widest = max((len(row) for row in states), default=1)
    key = min(KEY_LARGEST, (WIDEST - 2 * MARGIN - (widest - 1) * KEY_GAP) // widest)
    tall = round(key * 1.3)
    width = 2 * MARGIN + widest * key + (widest - 1) * KEY_GAP
    height = 2 * MARGIN + len(states) * tall + (len(states) - 1) * KEY_GAP
    drawn, radius = font(key // 2), max(2, key // 8)
    bands: list[png.Band] = []
    for r, row in enumerate(states):
        left = (width - len(row) * key - (len(row) - 1) * KEY_GAP) // 2
        cells = tuple((left + c * (key + KEY_GAP),
                       tiles.pixels(capital(letter), KEY_SHADES[state], (key, tall), drawn, radius))
                      for c, (letter, state) in enumerate(row))  # fmt: skip
        bands.append((MARGIN + r * (tall + KEY_GAP), tall, cells))
    return _assemble((width, max(height, 2 * MARGIN)), palette, bands)


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
    longest = max((game.length for game in digest.games), default=5)  # multi-board: wider
    cell_w = max(longest * (mini + gap), 96) + MARGIN
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
        title = f"{game.title}: {_(SHARED_APART)}" if game.shared else game.title
        draw.text((MARGIN, y), clipped(title, big, width - 2 * MARGIN), fill=DARK, font=big)
        y += label + 4
        for i, (member, grid) in enumerate(game.grids):
            x0 = MARGIN + (i % per_row) * cell_w
            y0 = y + (i // per_row) * cell_h
            draw.text((x0, y0), clipped(member.name, small, cell_w - MARGIN), fill=DARK,
                      font=small)  # fmt: skip
            for r, digits in enumerate(grid):
                for c, digit in enumerate(digits):
                    if digit == " ":  # between boards
                        continue
                    x, yy = x0 + c * (mini + gap), y0 + label + r * (mini + gap)
                    draw.rectangle((x, yy, x + mini - 1, yy + mini - 1), fill=TILE_COLOURS[digit])
        y += section_h
    return _png(image)


def clipped(text: str, drawn: tiles.Font, width: int) -> str:
    """``text`` as it fits ``width`` pixels in ``drawn``: cut, and marked as cut, if longer."""
    if drawn.getlength(text) <= width:
        return text
    while text and drawn.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)  # flat colours: fast and still small
    return buffer.getvalue()
