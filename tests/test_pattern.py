import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.pattern import (
    PatternError,
    from_tiles,
    parse_pattern,
    score,
    tiles,
    to_digits,
    to_emoji,
    to_letters,
    winning,
)


@pytest.mark.parametrize(
    ("guess", "answer", "digits"),
    [
        ("speed", "abide", "00101"),  # second E grey: the answer has only one
        ("sleep", "chute", "00100"),
        ("eerie", "there", "10102"),  # the green E uses one of THERE's two
        ("geese", "these", "00222"),  # both of THESE's Es are taken by greens
        ("lllll", "hello", "00220"),
        ("civic", "cynic", "20022"),
        ("mamma", "maxim", "22100"),
        ("error", "robot", "01020"),
        ("array", "rarer", "11200"),
        ("nanny", "annoy", "11202"),
        ("abide", "speed", "00011"),
        ("there", "eerie", "00112"),
        ("crane", "crane", "22222"),
    ],
)
def test_repeated_letters_follow_the_two_pass_rule(guess: str, answer: str, digits: str) -> None:
    assert to_digits(score(guess, answer), 5) == digits


def test_pattern_is_base_three_first_tile_most_significant() -> None:
    assert score("speed", "abide") == int("00101", 3)
    assert winning(5) == 242 == score("abide", "abide")
    assert tiles(int("21021", 3), 5) == [2, 1, 0, 2, 1]


@given(st.lists(st.integers(0, 2), min_size=1, max_size=8))
def test_every_notation_round_trips(values: list[int]) -> None:
    n = len(values)
    pattern = from_tiles(values)
    assert 0 <= pattern < 3**n
    for text in (
        to_digits(pattern, n),
        to_letters(pattern, n),
        to_emoji(pattern, n),
        to_emoji(pattern, n, light=True),
        to_emoji(pattern, n, high_contrast=True),
        to_letters(pattern, n).lower(),
    ):
        assert parse_pattern(text, n) == pattern


@pytest.mark.parametrize(
    "text",
    [
        "01202",
        "⬛🟨🟩⬛🟩",
        "⬜🟨🟩⬜🟩",
        "🟫🟨🟩🟫🟩",
        "⬛\ufe0f🟨🟩⬛\ufe0f🟩",  # as some phones send it
        "⬛🟦🟧⬛🟧",  # high contrast
        "BYGBG",
        "-YG-G",
        ".yg.g",
        "XYGXG",
        "RYGRG",  # AlphaWordle writes grey as R
        " b y g b g ",
    ],
)
def test_every_spelling_of_the_same_pattern_reads_alike(text: str) -> None:
    assert parse_pattern(text, 5) == int("01202", 3)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0120", "needs 5 tiles, got 4"),
        ("012021", "needs 5 tiles, got 6"),
        ("01203", "is not a pattern"),
        ("hello", "is not a pattern"),
        ("", "needs 5 tiles, got 0"),
    ],
)
def test_bad_patterns_get_a_message(text: str, message: str) -> None:
    with pytest.raises(PatternError, match=message):
        parse_pattern(text, 5)


def test_a_long_paste_is_not_echoed_whole() -> None:
    with pytest.raises(PatternError) as info:
        parse_pattern("z" * 4000, 5)
    assert len(str(info.value)) < 200
