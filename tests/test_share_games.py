"""A share is never read as another game's (issue 38, point 7): a grid whose rows are not the
game's width refuses the share, never cut to fit; the clones the bot does not play are
recognised and counted nowhere."""

import asyncio

import pytest

from bot.services.analysis import analyze
from bot.services.answers import solved_answer
from engine.pattern import score, to_digits
from engine.shares import parse_shares

SQUARE = {"0": "⬛", "1": "🟨", "2": "🟩"}


def squares(pattern: int, length: int = 5) -> str:
    return "".join(SQUARE[d] for d in to_digits(pattern, length))


SEVEN = "⬛🟨⬛⬛⬛🟨⬛\n🟩🟩🟩🟩🟩🟩🟩"
TEN = "⬛🟨⬛⬛⬛⬛⬛⬛🟨⬛\n🟩🟩🟩🟩🟩🟩🟩🟩🟩🟩"


@pytest.mark.parametrize(
    ("grid", "why"),
    [
        (SEVEN, "a line of 7 squares"),  # a seven-letter clone's 2/6
        (TEN, "Wordle 244: a row before the last"),  # ten a line: two rows of 5 each
        ("⬛🟨⬛⬛⬛🟨⬛" * 4 + "🟩" * 7, "5 guesses but 7 rows"),  # five rows of 7 on one line
    ],
)
def test_a_wider_grid_under_a_wordle_header_is_refused_not_cut(grid: str, why: str) -> None:
    header = "Wordle 244 5/6" if "🟩" * 7 in grid and "\n" not in grid else "Wordle 244 2/6"
    result = parse_shares(f"{header}\n\n{grid}")
    (share,) = result.shares
    assert share.boards[0].rows == [] and not share.recordable
    assert any(why in p for p in result.problems), result.problems
    # /analyze reads no grid from it, as NYT Wordle #244 or at all.
    analysis = asyncio.run(analyze(f"{header}\n\n{grid}"))
    assert analysis.readings == [None]


def test_a_ten_letter_grid_cut_to_fit_teaches_no_nyt_answer() -> None:
    """Cut into rows of 5, a ten-letter 2/6 whose first row ends in five greens read as an NYT
    win: a vote for whatever word its player names."""
    first = squares(score("crane", "quasi")) + "🟩" * 5
    share = parse_shares(f"Wordle 1,990 2/6\n\n{first}\n{'🟩' * 10}").shares[0]
    assert solved_answer(share, ["crane", "quasi"]) is None


UNPLAYED_POSTS = [
    ("Katla 45 3/6\n\n⬜⬜🟨⬜⬜\n⬜🟩⬜⬜⬜\n🟩🟩🟩🟩🟩\n\nhttps://katla.vercel.app", "Katla"),
    ("Katla Harian #1189 2/6\n\n⬜️🟨⬜️⬜️⬜️\n🟩🟩🟩🟩🟩\n\n#Katla #KatlaHariIni", "Katla"),
    ("Woordle 1,123 3/6\n\n⬛⬛🟨⬛⬛\n⬛🟩⬛🟨⬛\n🟩🟩🟩🟩🟩", "Woordle"),
    ("Woordle 6 412 2/6\n\n⬛⬛🟨⬛⬛⬛\n🟩🟩🟩🟩🟩🟩", "Woordle"),
    ("Katapat 12 4/6\n⬜⬜⬜⬜⬜\n⬜🟨⬜⬜⬜\n🟨🟩⬜⬜⬜\n🟩🟩🟩🟩🟩", "Katapat"),
    ("Вордли №210 3/6\n⬜⬜🟨⬜⬜\n⬜🟩⬜🟩⬜\n🟩🟩🟩🟩🟩", "Вордли"),
    ("Wordle (RU) 87 2/6\n⬜⬜🟨⬜⬜\n🟩🟩🟩🟩🟩", "Wordle RU"),
    ("Wordle (CA) #34 4/6\n⬜⬜⬜⬜⬜\n⬜🟨⬜⬜⬜\n🟨🟩⬜⬜⬜\n🟩🟩🟩🟩🟩", "Wordle"),
    ("joguei term.ooo/2 #81 3&4/7\n\n🟩🟩🟩🟩🟩 ⬛🟨⬛⬛⬛\n🟩🟩🟩🟩🟩 🟩🟩🟩🟩🟩", "Dueto"),
]


@pytest.mark.parametrize(("text", "title"), UNPLAYED_POSTS)
def test_a_clone_the_bot_does_not_play_is_recognised_and_counted_nowhere(
    text: str, title: str
) -> None:
    result = parse_shares(text)
    assert result.shares == []
    assert [u.title for u in result.unplayed] == [title]
    assert any(title in p and "not a game this bot plays" in p for p in result.problems)
    # Where a player pasted it, they are told so, and nothing else is guessed from it.
    analysis = asyncio.run(analyze(text))
    assert analysis.shares == [] and analysis.hint is None
    assert analysis.problems == [
        f"{result.unplayed[0].header}: {title} is not a game this bot plays, so its share is "
        "not read and counts nowhere"
    ]


def test_an_unplayed_clones_grid_is_not_taken_by_the_share_before_it() -> None:
    """Several games in one message: each grid stays with its own header."""
    nyt = "Wordle 1,234 2/6\n⬛🟨⬛⬛⬛\n🟩🟩🟩🟩🟩"
    katla = "Katla 45 3/6\n⬜⬜🟨⬜⬜\n⬜🟩⬜⬜⬜\n🟩🟩🟩🟩🟩"
    for text in (f"{nyt}\n{katla}", f"{katla}\n\n{nyt}", f"{nyt} {katla}".replace("\n", " ")):
        result = parse_shares(text)
        (share,) = result.shares
        assert (share.game, share.recordable) == ("wordle", True)
        assert share.to_json()["boards"][0]["rows"] == ["01000", "22222"]
        assert [u.title for u in result.unplayed] == ["Katla"]
