"""Readable by everyone: boards in words (alt text), the high-contrast palette in images and
shares, and a keyboard that never marks by colour alone."""

from __future__ import annotations

import io

from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from bot.render import images
from bot.render.alt_text import LIMIT, board_alt_text, digest_alt_text, stats_alt_text
from bot.render.palette import HIGH_CONTRAST, STANDARD, palette_named
from bot.render.text import KEY_LEGEND, board_rows, keyboard_markdown, share_text
from bot.services import GameView, Stats
from bot.services.digest import Digest, GameDigest, Member

ORANGE, BLUE = (245, 121, 58), (133, 192, 249)  # the NYT's high-contrast tiles


def view(rows, status="playing", *, kind="wordle:practice", number=None, mode="normal",
         boards=None, max_guesses=6) -> GameView:  # fmt: skip
    return GameView(7, 1, kind, "wordle", "Wordle", mode, None if number is None else "2026-11-22",
                    number, rows, status, max_guesses, 5, None, boards)  # fmt: skip


def test_a_board_in_words_says_each_letter_and_its_state() -> None:
    game = view([("crane", "01200"), ("cigar", "22222")], "won")
    assert board_alt_text(game) == (
        "Wordle board. Row 1 CRANE: C absent, R present elsewhere, A correct, N absent, "
        "E absent. Row 2 CIGAR: C correct, I correct, G correct, A correct, R correct. "
        "Solved in 2 of 6."
    )
    playing = view([("crane", "01200")])
    assert board_alt_text(playing).endswith("E absent. 5 guesses left.")
    assert board_alt_text(view([])) == "Wordle board. 6 guesses left."


def test_a_daily_shown_without_letters_says_the_colours_only() -> None:
    daily = view([("crane", "01200"), ("cigar", "22222")], "won", kind="wordle:daily",
                 number=1982)  # fmt: skip
    text = board_alt_text(daily, letters=False)
    assert text == (
        "Wordle board. Row 1: absent, present, correct, absent, absent. "
        "Row 2: correct, correct, correct, correct, correct. Solved in 2 of 6."
    )
    assert not any(word in text.lower() for word in ("crane", "cigar"))


def test_a_long_multi_board_game_is_said_within_discords_limit() -> None:
    guesses = ["crane", "slate", "pious", "dumpy", "fight", "wreck", "zonal", "bumpy", "gawky",
               "jazzy", "vivid", "mummy", "queue"]  # fmt: skip
    boards = [[(g, "01020") for g in guesses] for _ in range(8)]
    boards[2] = [*boards[2][:4], ("cigar", "22222")]
    octordle = view([(g, "") for g in guesses], "lost", boards=boards, max_guesses=13)
    text = board_alt_text(octordle)
    assert len(text) <= LIMIT and text.startswith("Wordle, 8 boards, latest rows.")
    assert "Board 3: solved in 5." in text
    assert "Board 1: Row 13 QUEUE: Q absent, U present elsewhere, E absent, U correct" in text
    small = view([("crane", "")], boards=[[("crane", "22222")], [("crane", "00100")]],
                 max_guesses=7)  # fmt: skip
    assert board_alt_text(small) == (
        "Wordle, 2 boards. Board 1: Row 1 CRANE: C correct, R correct, A correct, N correct, "
        "E correct. Board 2: Row 1 CRANE: C absent, R absent, A present elsewhere, N absent, "
        "E absent. 6 guesses left."
    )


@given(st.lists(st.tuples(st.text("abcdefghijklmnopqrstuvwxyz", min_size=5, max_size=5),
                          st.text("012", min_size=5, max_size=5)), max_size=60),
       st.booleans())  # fmt: skip
def test_every_board_is_said_within_the_limit_row_by_row(rows, letters) -> None:
    absurdle = view(rows, max_guesses=0)  # no limit on rows
    text = board_alt_text(absurdle, letters=letters)
    assert len(text) <= LIMIT
    said = [n for n, (guess, _) in enumerate(rows, 1)
            if f"Row {n}{' ' + guess.upper() if letters else ''}:" in text]  # fmt: skip
    assert said == list(range(1, len(said) + 1)) and len(said) >= min(len(rows), 3)
    if text.endswith("…"):  # too long to say whole: the first rows, marked as cut
        assert len(text) > LIMIT - 120
    else:
        assert len(said) == len(rows) and text.endswith(" so far.")


def test_stats_and_digest_images_in_words() -> None:
    stats = Stats("wordle:daily", 4, 75, 1, 2, {1: 0, 2: 1, 3: 2, 4: 0, 5: 0, 6: 0})
    assert stats_alt_text(stats, "ann") == (
        "Guess distribution of ann's wins, 4 played: 1 guess: 0, 2 guesses: 1, 3 guesses: 2, "
        "4 guesses: 0, 5 guesses: 0, 6 guesses: 0."
    )
    from datetime import date

    ann, bob = Member(1, "ann"), Member(2, "bob")
    game = GameDigest("wordle:daily", "wordlebot Wordle #1982", 3, [("3/6", [ann]), ("X/6", [bob])],
                      [], [(ann, ["01200", "02220", "22222"])], 5, 6)  # fmt: skip
    assert digest_alt_text(Digest(5, date(2026, 11, 22), [game])) == (
        "wordlebot Wordle #1982 grids, colours only: 3/6 ann; X/6 bob."
    )


def test_the_hard_mode_chart_in_words() -> None:
    import json

    from bot.render.alt_text import study_alt_text
    from bot.results import DIRECTORY

    result = json.loads((DIRECTORY / "hardmode-wordle.json").read_text(encoding="utf-8"))
    text = study_alt_text(result)
    assert len(text) <= LIMIT and text.startswith("Wordle: each player's share of games")
    for entry in result["agents"].values():  # every player and each mode's mean
        normal = entry["modes"]["normal"]["mean"]
        assert f"{entry['label']}: normal {normal:.2f}" in text


def pixel(png: bytes, row: int, column: int) -> tuple[int, int, int]:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    left, top, _, _ = images.tile_box(row, column)
    return image.getpixel((left + 4, top + 4))  # a corner, away from the letter


def test_tiles_are_drawn_in_the_players_palette() -> None:
    game = view([("crane", "21000")])
    standard = images.board_png(game)
    assert (pixel(standard, 0, 0), pixel(standard, 0, 1)) == (images.GREEN, images.YELLOW)
    contrast = images.board_png(game, palette=HIGH_CONTRAST)
    assert (pixel(contrast, 0, 0), pixel(contrast, 0, 1)) == (ORANGE, BLUE)
    assert pixel(contrast, 0, 2) == pixel(standard, 0, 2) == images.GREY  # absent stays grey
    hidden = images.board_png(game, letters=False, palette=HIGH_CONTRAST)
    assert pixel(hidden, 0, 0) == ORANGE
    multi = view([("crane", "")], boards=[[("crane", "21000")], [("crane", "12000")]],
                 max_guesses=7)  # fmt: skip
    image = Image.open(io.BytesIO(images.board_png(multi, palette=HIGH_CONTRAST))).convert("RGB")
    left, top, _, _ = images.tile_box(0, 0)
    assert image.getpixel((left // 2 + 3, top // 2 + 3)) == ORANGE
    stats = Stats("wordle:daily", 2, 100, 1, 1, {1: 0, 2: 2})
    bars = Image.open(io.BytesIO(images.stats_png(stats, HIGH_CONTRAST))).convert("RGB")
    assert bars.getpixel((bars.size[0] - images.MARGIN - 40, images.MARGIN + 30 + 2)) == ORANGE


def test_the_share_and_the_rows_use_the_palettes_squares() -> None:
    game = view([("crane", "21100"), ("cigar", "22222")], "won", mode="hard")
    assert share_text(game, HIGH_CONTRAST) == "Wordle practice 2/6*\n\n🟧🟦🟦⬛⬛\n🟧🟧🟧🟧🟧"
    assert share_text(game) == "Wordle practice 2/6*\n\n🟩🟨🟨⬛⬛\n🟩🟩🟩🟩🟩"
    daily = view([("cigar", "22222")], "won", kind="wordle:daily", number=1982)
    assert share_text(daily, HIGH_CONTRAST) == "wordlebot Wordle #1982 1/6\n\n🟧🟧🟧🟧🟧"
    assert board_rows(game, palette=HIGH_CONTRAST)[0] == "🟧🟦🟦⬛⬛  `CRANE`"
    assert palette_named("high-contrast") is HIGH_CONTRAST
    assert palette_named("no such palette") is STANDARD


def test_the_keyboard_marks_each_state_by_more_than_colour() -> None:
    text = keyboard_markdown(view([("crane", "21000")]))
    assert "**C**" in text and "__R__" in text and "~~A~~" in text
    assert text.splitlines()[0].startswith("Q W ~~E~~")  # unused keys plain
    assert text.splitlines()[-1] == KEY_LEGEND  # and what each mark means
