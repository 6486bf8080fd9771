import io
import subprocess
import sys
import zlib
from dataclasses import replace

import numpy as np
import pytest
from bot_process import clean_env
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from bot.render import images, png, tiles
from bot.render.letters import capital
from bot.render.palette import HIGH_CONTRAST, STANDARD
from bot.render.text import (
    ABSENT,
    CORRECT,
    PRESENT,
    UNUSED,
    keyboard,
    keyboard_markdown,
    share_text,
)
from bot.services import GameView, Stats


def game(rows, status="playing", variant="wordle", day=None, mode="normal") -> GameView:
    return GameView(1, 1, f"{variant}:practice", variant, variant.title(), mode, day,
                    None if day is None else 1000, rows, status, 6, 5,
                    "cigar" if status != "playing" else None)  # fmt: skip


def test_the_board_image_has_the_games_size_and_colours() -> None:
    view = game([("crane", "21100"), ("cigar", "22222")], status="won")
    png = Image.open(io.BytesIO(images.board_png(view)))
    assert png.format == "PNG" and png.size == images.board_size(5, 6) == (358, 426)
    image = png.convert("RGB")

    def pixel(row: int, column: int) -> tuple[int, int, int]:
        left, top, _, _ = images.tile_box(row, column)
        return image.getpixel((left + 4, top + 4))  # a corner, away from the letter

    assert pixel(0, 0) == images.GREEN and pixel(0, 1) == images.YELLOW
    assert pixel(0, 3) == images.GREY and pixel(1, 4) == images.GREEN
    assert pixel(2, 0) == images.BACKGROUND  # inside an empty tile
    left, top, _, _ = images.tile_box(2, 0)
    assert image.getpixel((left, top + 20)) == images.EMPTY_BORDER


@pytest.mark.parametrize("palette", [STANDARD, HIGH_CONTRAST])
def test_boards_from_cached_tiles_look_as_pillow_draws_them(palette) -> None:
    """The tile renderer against Pillow drawing the same board directly in RGB: the letters'
    edges differ by a shade at most (16 steps to white), nothing else differs."""
    view = game([("crane", "21100"), ("pudgy", "00012"), ("cigar", "22222")], status="won")
    drawn = Image.new("RGB", images.board_size(5, 6), images.BACKGROUND)
    draw = ImageDraw.Draw(drawn)
    for r in range(6):
        word, digits = view.rows[r] if r < len(view.rows) else ("", "")
        for c in range(5):
            box = images.tile_box(r, c)
            if not digits:
                draw.rectangle(box, outline=images.EMPTY_BORDER, width=2)
                continue
            draw.rectangle(box, fill=palette.tile(digits[c]))
            centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
            draw.text(centre, word[c].upper(), fill=images.WHITE, font=images.font(31),
                      anchor="mm")  # fmt: skip
    tiled = Image.open(io.BytesIO(images.board_png(view, palette=palette))).convert("RGB")
    difference = np.abs(np.asarray(tiled, dtype=int) - np.asarray(drawn, dtype=int))
    assert difference.max() <= 255 // 15 // 2 + 1 and difference.mean() < 0.1


def test_letters_are_drawn_only_when_asked() -> None:
    view = game([("crane", "00000")])
    with_letters = Image.open(io.BytesIO(images.board_png(view))).convert("RGB")
    without = Image.open(io.BytesIO(images.board_png(view, letters=False))).convert("RGB")
    left, top, right, bottom = images.tile_box(0, 0)
    box = (left, top, right, bottom)
    assert {colour for _, colour in without.crop(box).getcolors()} == {images.GREY}
    assert images.WHITE in {colour for _, colour in with_letters.crop(box).getcolors(4096)}


def test_the_stats_image_draws_one_bar_per_guess_count() -> None:
    stats = Stats("wordle:daily", 4, 75, 1, 2, {1: 0, 2: 1, 3: 2, 4: 0, 5: 0, 6: 0})
    image = Image.open(io.BytesIO(images.stats_png(stats))).convert("RGB")
    assert image.size[0] == 360 and image.size[1] == 2 * images.MARGIN + 6 * 30
    third_bar = image.getpixel((image.size[0] - images.MARGIN - 40, images.MARGIN + 2 * 30 + 2))
    assert third_bar == images.GREEN  # the longest bar reaches the right edge


def test_the_keyboard_keeps_the_best_knowledge_of_each_key() -> None:
    view = game([("speed", "00101"), ("abide", "22222")], status="won")
    keys = dict(key for row in keyboard(view) for key in row)
    assert keys["e"] == CORRECT and keys["d"] == CORRECT and keys["s"] == ABSENT
    assert keys["z"] == UNUSED
    digits = dict(k for row in keyboard(game([("12347", "10200")], variant="primel")) for k in row)
    assert (digits["1"], digits["3"], digits["2"], digits["9"]) == (
        PRESENT,
        CORRECT,
        ABSENT,
        UNUSED,
    )


def quordle(answers: list[str], guesses: list[str]) -> GameView:
    """A Quordle view: each board plays the guesses until it is solved."""
    from engine.pattern import score, to_digits

    boards = []
    for answer in answers:
        board = []
        for guess in guesses:
            board.append((guess, to_digits(score(guess, answer), 5)))
            if guess == answer:
                break
        boards.append(board)
    return GameView(1, 1, "quordle:practice", "wordle", "Quordle", "normal", None, None,
                    [(g, "") for g in guesses], "playing", 9, 5, None, boards)  # fmt: skip


def test_a_multi_board_keyboard_shows_what_holds_on_every_unsolved_board() -> None:
    """Issue 31.9: after CRANE, E is in the right place on board 1 and absent on board 4, so
    no board-wide state holds and the key is shown undecided; a solved board is left out."""
    view = quordle(["theme", "rebut", "sissy", "humph"], ["crane"])
    keys = dict(key for row in keyboard(view) for key in row)
    assert keys["e"] == UNUSED  # right place on THEME, elsewhere on REBUT, absent on SISSY
    assert keys["c"] == keys["a"] == keys["n"] == ABSENT  # in no word
    assert keys["r"] == UNUSED  # elsewhere on REBUT only
    view = quordle(["theme", "there", "three", "sissy"], ["crane", "sissy"])  # board 4 solved
    keys = dict(key for row in keyboard(view) for key in row)
    assert keys["e"] == CORRECT  # right place on each of the three unsolved boards
    assert keys["s"] == keys["y"] == ABSENT  # solved SISSY's letters: absent on the others
    view = quordle(["theme", "there", "three", "other"], ["crane"])
    keys = dict(key for row in keyboard(view) for key in row)
    assert keys["e"] == PRESENT  # in every word, not in its place in OTHER
    assert keys["r"] == UNUSED  # in THERE, THREE and OTHER, not in THEME
    assert "every unsolved board" in keyboard_markdown(view)
    assert "every unsolved board" not in keyboard_markdown(game([("crane", "00000")]))
    from bot.render.alt_text import keyboard_alt_text

    said = keyboard_alt_text(quordle(["theme", "rebut", "sissy", "humph"], ["crane"]))
    assert "not in the word A, C, N; not tried or not the same on every board Q, W, E, R" in said


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_each_multi_board_key_is_true_of_every_unsolved_board(data) -> None:
    from engine.variants import get_variant

    words = get_variant("wordle").answers.words
    answers = data.draw(st.lists(st.sampled_from(words), min_size=2, max_size=8))
    guesses = data.draw(st.lists(st.sampled_from([*words[:300], *answers]), min_size=1,
                                 max_size=6))  # fmt: skip
    view = quordle(answers, guesses)
    solved = [b for b in view.boards if b and b[-1][1] == "22222"]
    open_boards = [b for b in view.boards if b not in solved] or view.boards
    alone = [dict(k for row in keyboard(game(b)) for k in row) for b in open_boards]
    for key, state in (k for row in keyboard(view) for k in row):
        each = [a[key] for a in alone]  # the key on each unsolved board, alone
        if state == ABSENT:
            assert all(s == ABSENT for s in each)
        elif state == CORRECT:
            assert all(s == CORRECT for s in each)
        elif state == PRESENT:
            assert all(s in (PRESENT, CORRECT) for s in each) and PRESENT in each
        else:  # undecided: untried, or no state the boards share
            assert len(set(each)) > 1 or each[0] == UNUSED
            assert not all(s in (PRESENT, CORRECT) for s in each)


def test_the_share_text_is_spoiler_free() -> None:
    view = game([("crane", "21100"), ("cigar", "22222")], status="won", mode="hard")
    assert share_text(view) == "Wordle practice 2/6*\n\n🟩🟨🟨⬛⬛\n🟩🟩🟩🟩🟩"


def test_the_token_never_appears_in_logs_or_errors(tmp_path) -> None:
    token = "MTIz.GwE2Ea.secret-token-for-the-test"
    env = clean_env(discord_token=token, log_level="DEBUG",
                    discord_api_base="http://127.0.0.1:9/api/v10",  # a closed port here
                    database_path=str(tmp_path / "t.sqlite3"))  # fmt: skip
    result = subprocess.run([sys.executable, "-m", "bot.cli", "run"], capture_output=True,
                            text=True, env=env, timeout=120)  # fmt: skip
    assert result.returncode == 1
    assert "Could not reach Discord" in result.stderr
    assert token not in result.stdout + result.stderr and "secret-token" not in result.stderr


def test_run_without_a_token_points_to_the_console(tmp_path) -> None:
    env = clean_env(database_path=str(tmp_path / "t.sqlite3"))  # no DISCORD_TOKEN
    result = subprocess.run([sys.executable, "-m", "bot.cli", "run"], capture_output=True,
                            text=True, env=env, timeout=120, cwd=tmp_path)  # fmt: skip
    assert result.returncode == 1
    assert "discord.com/developers" in result.stdout and "wordlebot console" in result.stdout


def test_multi_board_images_put_boards_side_by_side() -> None:
    rows = [("crane", "")]
    boards = [[("crane", "00000")], [("crane", "22222")], [], [("crane", "11000")]]
    view = GameView(1, 1, "quordle:practice", "wordle", "Quordle", "normal", None, None, rows,
                    "playing", 9, 5, None, boards)  # fmt: skip
    image = Image.open(io.BytesIO(images.board_png(view))).convert("RGB")
    width, height = images.board_size(5, 9)
    assert image.size == (4 * (width // 2), height // 2)
    left, top, _, _ = images.tile_box(0, 0)
    second_board = (width // 2 + left // 2 + 3, top // 2 + 3)
    assert image.getpixel(second_board) == images.GREEN
    assert image.getpixel((left // 2 + 3, top // 2 + 3)) == images.GREY


def test_the_bots_daily_has_its_own_name_in_titles_and_shares() -> None:
    from bot.render.text import title

    daily = GameView(1, 1, "wordle:daily", "wordle", "Wordle", "normal", "2026-11-22", 1982,
                     [("cigar", "22222")], "won", 6, 5, "cigar")  # fmt: skip
    assert title(daily) == "wordlebot Wordle #1982"
    assert share_text(daily).splitlines()[0] == "wordlebot Wordle #1982 1/6"


def test_a_multi_board_share_shows_colours_only() -> None:
    rows = [("crane", ""), ("cigar", ""), ("rebut", "")]
    boards = [[("crane", "00110"), ("cigar", "22222")],
              [("crane", "00000"), ("cigar", "00010"), ("rebut", "22222")]]  # fmt: skip
    view = GameView(1, 1, "dordle:practice", "wordle", "Dordle", "normal", None, None, rows,
                    "won", 7, 5, "cigar, rebut", boards)  # fmt: skip
    text = share_text(view)
    assert text == (
        "Dordle practice 3/7\n\n⬛⬛🟨🟨⬛ ⬛⬛⬛⬛⬛\n🟩🟩🟩🟩🟩 ⬛⬛⬛🟨⬛\n⬜⬜⬜⬜⬜ 🟩🟩🟩🟩🟩"
    )
    assert not any(word in text.lower() for word in ("crane", "cigar", "rebut"))


# -- boards assembled from kept rows (bot/render/png.py) --------------------------------

# Every letter the shipped languages use, accented ones too.
ALPHABET = "abcdefghijklmnopqrstuvwxyzáàâãäçéèêëíîïñóôõöúûüßąćęłńśźż"


@st.composite
def letters_rows(draw, length: int | None = None):
    """A board's rows: words of ``length`` (any of 4 to 11 when not given) from
    :data:`ALPHABET`, each with its pattern digits."""
    length = length or draw(st.integers(4, 11))
    row = st.tuples(st.text(ALPHABET, min_size=length, max_size=length),
                    st.text("012", min_size=length, max_size=length))  # fmt: skip
    return draw(st.lists(row, max_size=6))


def pasted(view: GameView, palette, letters: bool) -> Image.Image:
    """The board as Pillow composes it: each tile pasted into a palette image."""
    rows = images.rows_shown(view)
    width, height = images.board_size(view.length, rows)
    boards = view.boards if view.boards is not None else [view.rows]
    scale = 1.0 if view.boards is None else 0.5
    across = images.boards_across(len(boards), view.length)
    size = images.board_size(view.length, rows) if view.boards is None else images.multi_size(
        len(boards), view.length, rows)  # fmt: skip
    image = Image.new("P", size, tiles.BACKGROUND_INDEX)
    image.putpalette(tiles.palette_values(palette, images.BACKGROUND, images.EMPTY_BORDER))
    for b, board in enumerate(boards):
        left, top = (b % across) * (width // 2), (b // across) * (height // 2)
        for r in range(rows):
            guess, digits = board[r] if r < len(board) else ("", "")
            for c in range(view.length):
                x0, y0, x1, y1 = (int(v * scale) for v in images.tile_box(r, c, view.length))
                tile = tiles.tile(capital(guess[c]) if digits and letters else "",
                                  digits[c] if digits else "", (x1 - x0 + 1, y1 - y0 + 1),
                                  images.letter_font(view.length, scale))  # fmt: skip
                image.paste(tile, (left + x0, top + y0))
    return image


@settings(max_examples=60, deadline=None)
@given(data=st.data(), length=st.integers(4, 11), boards=st.integers(1, 8),
       multi=st.booleans(), letters=st.booleans(), contrast=st.booleans())  # fmt: skip
def test_boards_assembled_from_kept_rows_are_the_pasted_image(
    data, length, boards, multi, letters, contrast
):
    """Pixel for pixel and colour for colour, single boards and multi-board games alike, of
    every length from 4 to 11 and accented letters, whatever rows were kept from earlier
    boards."""
    palette = HIGH_CONTRAST if contrast else STANDARD
    rows = [data.draw(letters_rows(length)) for _ in range(boards if multi else 1)]
    view = replace(game(rows[0]), length=length)
    if multi:
        view = replace(view, rows=[], boards=rows, max_guesses=5 + len(rows))
    encoded = images.board_png(view, letters=letters, palette=palette)
    assembled = Image.open(io.BytesIO(encoded))
    assembled.verify()  # every chunk's CRC
    assembled = Image.open(io.BytesIO(encoded))
    reference = pasted(view, palette, letters)
    assert assembled.mode == "P" and assembled.size == reference.size
    assert assembled.tobytes() == reference.tobytes()
    assert assembled.getpalette()[:150] == reference.getpalette()[:150]


@given(parts=st.lists(st.binary(max_size=3000), max_size=6))
def test_kept_checksums_combine_as_the_checksum_of_the_whole(parts):
    combined = 1
    for part in parts:
        combined = png._adler_combine(combined, zlib.adler32(part), len(part))
    assert combined == zlib.adler32(b"".join(parts))


def test_an_assembled_image_is_one_valid_zlib_stream():
    """Each row's deflate ends on a full flush, the stream on a final block: zlib itself
    reads it back whole and checks its Adler-32."""
    view = game([("crane", "21100"), ("pudgy", "00012")])
    encoded = images.board_png(view)
    idat = encoded.index(b"IDAT")
    length = int.from_bytes(encoded[idat - 4 : idat], "big")
    raw = zlib.decompress(encoded[idat + 4 : idat + 4 + length])
    width, height = images.board_size(5, 6)
    assert len(raw) == height * (width + 1)
