"""Boards and keyboards in every shipped language and length: the font draws every letter,
boards of 4 to 11 letters stay readable, each language's keyboard has its usual layout and
every letter of its alphabet."""

from __future__ import annotations

import io
import json
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw, ImageFont

from bot.render import images, keyboards
from bot.render.alt_text import LIMIT, board_alt_text, keyboard_alt_text, row_text
from bot.render.keyboards import ABSENT, CORRECT, PRESENT, UNUSED, key_states, keys
from bot.render.letters import FONT_FILE, capital, capitals, font
from bot.render.palette import HIGH_CONTRAST, STANDARD
from bot.render.text import (
    board_rows,
    definition_text,
    finished_definition,
    keyboard_markdown,
    status_line,
)
from bot.services import GameView
from wordlists import DIRECTORY as WORDLISTS

# The letters the shipped languages use (issue 30), and those of every alphabet in
# languages.json once the lists are there.
LETTERS = "abcdefghijklmnopqrstuvwxyzáàâãäçéèêëíîïñóôõöúûüßąćęłńśźż"
LANGUAGES = WORDLISTS / "languages.json"
SHIPPED = sorted(set(LETTERS).union(*(
    language["alphabet"] for language in
    (json.loads(LANGUAGES.read_text(encoding="utf-8")) if LANGUAGES.exists() else [])
)))  # fmt: skip
# The alphabets the keyboards are checked against when languages.json does not give them.
ALPHABETS = {
    "en": "abcdefghijklmnopqrstuvwxyz",
    "es": "abcdefghijklmnñopqrstuvwxyz",
    "pt": "abcçdefghijklmnopqrstuvwxyz",
    "fr": "abcdefghijklmnopqrstuvwxyz",
    "de": "abcdefghijklmnopqrstuvwxyzäöüß",
    "it": "abcdefghijklmnopqrstuvwxyz",
    "pl": "aąbcćdeęfghijklłmnńoóprsśtuwyzźż",
}


def view(rows, variant="wordle", length=5, max_guesses=6, boards=None) -> GameView:
    return GameView(1, 1, f"{variant}:practice", variant, "Wordle", "normal", None, None, rows,
                    "playing", max_guesses, length, None, boards)  # fmt: skip


def mask(letter: str, drawn: ImageFont.FreeTypeFont) -> np.ndarray:
    """The pixels ``letter`` covers, drawn alone on a fixed canvas."""
    image = Image.new("L", (80, 80), 0)
    ImageDraw.Draw(image).text((40, 40), letter, fill=255, font=drawn, anchor="mm")
    return np.asarray(image) > 127


def has_glyph(letter: str, drawn: ImageFont.FreeTypeFont) -> bool:
    """Drawn as something of its own: not blank, and not the font's missing-glyph box (the
    glyph a character the font lacks gets, here that of a private-use character)."""
    shape = mask(letter, drawn)
    return bool(shape.any()) and not np.array_equal(shape, mask("\ue000", drawn))


def test_the_glyph_check_sees_a_missing_glyph() -> None:
    drawn = font(48)
    assert not has_glyph("一", drawn) and not has_glyph("\ue001", drawn)  # not in the font
    assert has_glyph("A", drawn)


@pytest.mark.parametrize("letter", SHIPPED)
def test_every_shipped_letter_is_drawn_in_its_own_glyph(letter: str) -> None:
    """Lower case (keys) and capital (tiles) alike; an accented capital is not its base
    letter drawn without the accent."""
    drawn = font(48)
    upper = capital(letter)
    assert len(upper) == 1
    assert has_glyph(letter, drawn) and has_glyph(upper, drawn)
    base = keyboards.base_letter(letter)
    if base != letter:
        assert not np.array_equal(mask(upper, drawn), mask(capital(base), drawn))


def test_the_font_ships_beside_its_licence() -> None:
    folder = FONT_FILE.parent
    readme = (folder / "README.md").read_text(encoding="utf-8")
    assert FONT_FILE.stat().st_size < 150_000  # subset: the wheel stays small
    assert "fonts-dejavu-core" in readme and "pyftsubset" in readme
    licence = (folder / "LICENSE").read_text(encoding="utf-8")
    assert "Bitstream Vera Fonts Copyright" in licence and "Arev Fonts Copyright" in licence


def test_capitals_are_one_letter_for_one() -> None:
    assert capitals("straße") == "STRAẞE" and capitals("łódź") == "ŁÓDŹ"
    assert capitals("ñandú") == "ÑANDÚ"


@pytest.mark.parametrize("length", [4, 8, 11])
def test_boards_of_every_length_are_readable(length: int) -> None:
    """Tiles no smaller than 48 pixels, the board no wider than WIDEST, every tile inside
    the image and drawn in its colour, its letter in white."""
    word = ("ñandúcóndor" * 2)[:length]
    digits = ("210" * 4)[:length]
    board = view([(word, digits)], f"wordle-es-{length}", length)
    image = Image.open(io.BytesIO(images.board_png(board))).convert("RGB")
    assert image.size == images.board_size(length, 6)
    assert image.size[0] <= images.WIDEST and images.tile_size(length) >= 48
    assert image.size[1] == 2 * images.MARGIN + 6 * images.tile_size(length) + 5 * images.GAP
    for c, digit in enumerate(digits):
        left, top, right, bottom = images.tile_box(0, c, length)
        assert right < image.size[0] and bottom < image.size[1]
        assert image.getpixel((left + 2, top + 2)) == STANDARD.tile(digit)
        colours = {colour for _, colour in image.crop((left, top, right, bottom)).getcolors(4096)}
        assert images.WHITE in colours  # the letter
    left, top, _, _ = images.tile_box(5, length - 1, length)  # the last empty tile's border
    assert image.getpixel((left, top + 10)) == images.EMPTY_BORDER


def test_long_multi_board_games_put_two_boards_across() -> None:
    rows = [("pingüinoses", "22222222222")]
    boards = [rows, [("pingüinoses", "00000000000")], [], rows]
    game = view([("pingüinoses", "")], "wordle-es-11", 11, 9, boards)
    image = Image.open(io.BytesIO(images.board_png(game))).convert("RGB")
    width, height = images.board_size(11, 9)
    assert image.size == images.multi_size(4, 11, 9) == (2 * (width // 2), 2 * (height // 2))
    left, top, _, _ = images.tile_box(0, 0, 11)
    corner = (left // 2 + 2, top // 2 + 2)
    assert image.getpixel(corner) == images.GREEN
    assert image.getpixel((width // 2 + corner[0], corner[1])) == images.GREY  # board 2
    assert image.getpixel((width // 2 + corner[0], height // 2 + corner[1])) == images.GREEN


def test_each_language_has_its_usual_layout() -> None:
    assert keyboards.LAYOUTS["fr"][0].startswith("azerty")
    assert keyboards.LAYOUTS["de"][0].startswith("qwertz") and "y" in keyboards.LAYOUTS["de"][2]
    assert "ñ" in keyboards.LAYOUTS["es"][1] and "ç" in keyboards.LAYOUTS["pt"][1]
    assert keyboards.language_of("wordle-fr-6") == "fr"
    assert keyboards.language_of("wordle") == keyboards.language_of("wordle-nyt") == "en"


def alphabet_of(code: str) -> str:
    """The language's alphabet from languages.json when it is there, else the one above."""
    if LANGUAGES.exists():
        for language in json.loads(LANGUAGES.read_text(encoding="utf-8")):
            if language["code"] == code:
                return str(language["alphabet"])
    return ALPHABETS[code]


@pytest.mark.parametrize("code", sorted(keyboards.LAYOUTS))
def test_every_layout_holds_every_letter_of_its_alphabet_once(code: str) -> None:
    alphabet = alphabet_of(code)
    laid_out = "".join(keyboards.LAYOUTS[code])
    assert sorted(laid_out) == sorted(set(laid_out))  # no key twice
    assert set(alphabet) <= set(laid_out), f"{code}: {set(alphabet) - set(laid_out)} missing"
    assert sorted("".join(keys(keyboards.LAYOUTS[code], alphabet))) == sorted(alphabet)


@given(alphabet=st.sets(st.sampled_from(sorted(set(LETTERS + "0123456789"))), min_size=1),
       code=st.sampled_from(sorted(keyboards.LAYOUTS)))  # fmt: skip
def test_keys_hold_every_letter_of_any_alphabet_and_no_other(alphabet, code) -> None:
    """Letters the layout lacks come in a last row; keys the alphabet lacks go; the order of
    the layout's own keys is kept."""
    letters = "".join(sorted(alphabet))
    rows = keys(keyboards.LAYOUTS[code], letters)
    assert sorted("".join(rows)) == sorted(letters) and all(rows)
    on_layout = [k for row in keyboards.LAYOUTS[code] for k in row if k in alphabet]
    assert "".join(rows).startswith("".join(on_layout))


def test_the_keyboard_follows_the_variant() -> None:
    played = [("azerty", "201000")]
    french = key_states(view(played, "wordle-fr-6", 6))
    assert [k for k, _ in french[0]] == list("azertyuiop")
    assert dict(french[0])["a"] == CORRECT and dict(french[0])["z"] == ABSENT
    assert dict(french[0])["e"] == PRESENT and dict(french[1])["q"] == UNUSED
    english = key_states(view([("crane", "00000")]))  # the engine's own variant: QWERTY
    assert "".join(k for k, _ in english[0]) == "qwertyuiop"
    assert sorted(k for row in english for k, _ in row) == list("abcdefghijklmnopqrstuvwxyz")
    german = keyboard_markdown(view([("straße", "000010")], "wordle-de-6", 6))
    assert "__ẞ__" in german and "Ü" in german.splitlines()[0]
    given_rows = key_states(view(played, "wordle-fr-6", 6), rows=("qwerty",))
    assert given_rows == [[("q", UNUSED), ("w", UNUSED), ("e", PRESENT), ("r", ABSENT),
                           ("t", ABSENT), ("y", ABSENT)]]  # fmt: skip


def test_an_accented_letter_without_a_key_counts_for_its_base_letter() -> None:
    """A keyboard with Ç but no Ã (Portugal's): a guessed Ã marks the A key."""
    rows = ("qwertyuiop", "asdfghjklç", "zxcvbnm")
    played = view([("maçãs", "00210")], "wordle-pt-5")
    states = dict(k for row in key_states(played, rows=rows) for k in row)
    assert states["ç"] == CORRECT and states["a"] == PRESENT and states["c"] == UNUSED


@pytest.mark.parametrize("palette", [STANDARD, HIGH_CONTRAST])
def test_the_keyboard_image_colours_each_key(palette) -> None:
    game = view([("azerty", "210000")], "wordle-fr-6", 6)
    image = Image.open(io.BytesIO(images.keyboard_png(game, palette=palette))).convert("RGB")
    assert image.size[0] <= images.WIDEST
    key = (images.MARGIN + 6, images.MARGIN + 6)  # inside the first key, A, off its letter
    assert image.getpixel(key) == palette.correct
    step = (image.size[0] - 2 * images.MARGIN + images.KEY_GAP) // 10
    assert image.getpixel((key[0] + step, key[1])) == palette.present  # Z
    assert image.getpixel((key[0] + 2 * step, key[1])) == palette.absent  # E
    assert image.getpixel((key[0] + 6 * step, key[1])) == images.KEY_UNUSED  # U


def test_a_keyboard_with_a_long_row_fits() -> None:
    rows = ("qwertyuiopüõ", "asdfghjklöäñç", "yxcvbnmßąćęłń")
    image = Image.open(io.BytesIO(images.keyboard_png(view([]), rows=rows)))
    assert image.size[0] <= images.WIDEST and image.size[1] > 3 * 20


def test_a_long_board_is_said_whole_within_the_limit() -> None:
    """Eleven letters, six rows: too long tile by tile, said in runs, nothing cut."""
    rows = [("pingüinoses", "11111100000")] * 6
    assert sum(len(row_text(1, *row)) for row in rows) > LIMIT  # tile by tile: too long
    text = board_alt_text(replace(view(rows, "wordle-es-11", 11), status="lost"))
    assert len(text) <= LIMIT and not text.endswith("…")
    assert text.count("Row ") == 6 and text.endswith("Not solved.")
    assert "Row 6 PINGÜINOSES: P I N G Ü I present elsewhere, N O S E S absent." in text
    assert board_alt_text(view([("straße", "222222")], "wordle-de-6", 6)).startswith(
        "Wordle board. Row 1 STRAẞE: S correct"
    )


def test_the_keyboard_in_words() -> None:
    text = keyboard_alt_text(view([("azerty", "210000")], "wordle-fr-6", 6))
    assert text.startswith("Keyboard: right place A; elsewhere Z; not in the word E, R, T, Y;")
    assert text.endswith("W, X, C, V, B, N.")


words = st.integers(4, 11).flatmap(lambda n: st.lists(st.tuples(
    st.text(LETTERS, min_size=n, max_size=n), st.text("012", min_size=n, max_size=n)),
    max_size=8))  # fmt: skip


@settings(max_examples=40, deadline=None)
@given(rows=words, contrast=st.booleans(), letters=st.booleans())
def test_any_board_of_accented_words_renders(rows, contrast, letters) -> None:
    """Random words of 4 to 11 letters from an accented alphabet: the board, the keyboard
    and their words never fail, and the images have the size the layout says."""
    length = len(rows[0][0]) if rows else 5
    palette = HIGH_CONTRAST if contrast else STANDARD
    game = view(rows, f"wordle-es-{length}", length, max_guesses=max(6, len(rows)))
    board = Image.open(io.BytesIO(images.board_png(game, letters=letters, palette=palette)))
    assert board.size == images.board_size(length, max(6, len(rows)))
    keyboard = Image.open(io.BytesIO(images.keyboard_png(game, palette=palette)))
    assert keyboard.size[0] <= images.WIDEST
    assert len(board_alt_text(game, letters=letters)) <= LIMIT
    assert keyboard_alt_text(game).startswith("Keyboard: ")


def test_a_long_name_is_cut_to_its_cell() -> None:
    small = font(12)
    name = "José Núñez-García de la Vega"
    cut = images.clipped(name, small, 100)
    assert small.getlength(cut) <= 100 and cut.endswith("…") and name.startswith(cut[:-1])
    assert images.clipped("Łukasz", small, 100) == "Łukasz"


def test_sharp_s_is_one_letter_in_text_boards_and_definitions() -> None:
    """Issue 39.7: AUẞEN, five letters in a row of five (str.upper() gives AUSSEN)."""
    from engine.definitions import definition

    lost = replace(view([("außer", "22220")], "wordle-de-5"), status="lost", answer="außen")
    assert board_rows(lost) == ["🟩🟩🟩🟩⬛  `AUẞER`"]
    assert status_line(lost, spoiler=False) == "X/6. The answer was AUẞEN."
    assert finished_definition(lost, spoiler=False).startswith("AUẞEN: von innen gesehen")
    found = definition("außen", "de")
    assert found is not None and definition_text(found).startswith("**AUẞEN**\n")
