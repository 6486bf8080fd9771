import datetime
import json

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine.app_results import (
    WORDLE_APP_ID,
    AppResult,
    _parse,
    nyt_puzzle_number,
    parse_app_results,
)

# Real recaps, as the app posted them (github.com/claabs/discord-wordle-stats, data/results.json).
REAL = (
    "**Your group is on a 120 day streak!** 🔥🔥🔥 Here are yesterday's results:\n"
    "👑 3/6: @wagcmassyla <@201394242533326849>\n"
    "4/6: <@82684276755136512> <@153306386413912073>"
)
REAL_LOSS = (
    "**Your group is on a 107 day streak!** 🔥🔥🔥 Here are yesterday's results:\n"
    "👑 3/6: @Batsy\n4/6: <@82684276755136512> <@153306386413912073>\n6/6: @travis\n"
    "X/6: @wagcmassyla"
)
REAL_FIRST_DAY = (
    "**Your group is on a 1 day streak!** 🔥 Here are yesterday's results:\n"
    "👑 6/6: @Highest Person Ever! @Gongoozler"
)


def scores(parsed) -> list[tuple[str, int | str | None]]:
    return [(r.score, r.user_id if r.user_id is not None else r.name) for r in parsed.results]


def test_a_real_recap_with_mentions_and_a_plain_name() -> None:
    parsed = parse_app_results(REAL)
    assert (parsed.kind, parsed.streak, parsed.yesterday, parsed.problems) == (
        "recap", 120, True, [],
    )  # fmt: skip
    assert scores(parsed) == [
        ("3/6", "wagcmassyla"), ("3/6", 201394242533326849),
        ("4/6", 82684276755136512), ("4/6", 153306386413912073),
    ]  # fmt: skip
    first, _, third, _ = parsed.results
    assert first == AppResult("3/6", True, 3, None, "wagcmassyla", crowned=True)
    assert third == AppResult("4/6", True, 4, 82684276755136512, None, crowned=False)


def test_a_loss_and_plain_names_with_spaces_and_punctuation() -> None:
    loss = parse_app_results(REAL_LOSS)
    assert loss.results[-1] == AppResult("X/6", False, 0, None, "wagcmassyla")
    assert [r.name for r in loss.results if r.user_id is None] == ["Batsy", "travis", "wagcmassyla"]
    first_day = parse_app_results(REAL_FIRST_DAY)
    assert first_day.streak == 1 and first_day.problems == []
    assert [r.name for r in first_day.results] == ["Highest Person Ever!", "Gongoozler"]
    assert all(r.crowned and r.guesses == 6 for r in first_day.results)


@pytest.mark.parametrize(
    "text",
    [
        REAL,
        REAL.replace("**", ""),  # no bold
        REAL.replace("a 120", "an 80").replace("🔥🔥🔥", "🔥"),
        REAL.replace("<@201394242533326849>", "<@!201394242533326849>"),
        REAL.replace("\n", " "),  # line breaks lost: each "N/6:" starts a line
        REAL.replace("\n", "\r\n"),
        REAL.replace("👑 3/6", "👑 **3/6**"),
        REAL.replace("3/6", "3 / 6"),
    ],
)
def test_every_spelling_of_a_recap_reads_the_same(text: str) -> None:
    parsed = parse_app_results(text)
    assert parsed.problems == [] and parsed.yesterday
    assert scores(parsed) == scores(parse_app_results(REAL))
    assert parsed.results[1].user_id == 201394242533326849 and parsed.results[1].crowned


def test_the_streak_part_may_be_missing() -> None:
    parsed = parse_app_results("Here are yesterday's results:\n👑 2/6: <@5>\nX/6: <@6>")
    assert (parsed.streak, parsed.yesterday, parsed.problems) == (None, True, [])
    assert [(r.user_id, r.won, r.guesses) for r in parsed.results] == [(5, True, 2), (6, False, 0)]


def test_several_players_a_line_mixing_mentions_and_names() -> None:
    text = (
        "**Your group is on a 130 day streak!** 🔥🔥🔥 Here are yesterday's results:\n"
        "👑 4/6: @bones? <@166272880462528513> @david wolfze\n"
        "5/6: @pogoyim <@!1054567024422047804> @Plain Name @x"
    )
    assert scores(parse_app_results(text)) == [
        ("4/6", "bones?"), ("4/6", 166272880462528513), ("4/6", "david wolfze"),
        ("5/6", "pogoyim"), ("5/6", 1054567024422047804), ("5/6", "Plain Name"), ("5/6", "x"),
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("7/6: <@1>", "'7/6: <@1>': 7/6 is not a Wordle score"),
        ("0/6: <@1>", "'0/6: <@1>': 0/6 is not a Wordle score"),
        ("4/5: <@1>", "'4/5: <@1>': 4/5 is not a Wordle score"),
        ("12/6: <@1>", "12/6 is not a Wordle score"),
        ("5/6:", "'5/6:': no players on this line"),
        ("5/6: @ ", "no players on this line"),
    ],
)
def test_a_malformed_line_records_nothing_and_says_why(line: str, why: str) -> None:
    parsed = parse_app_results(f"Here are yesterday's results:\n{line}\n3/6: <@2>")
    assert [r.user_id for r in parsed.results] == [2]  # the good line still counts
    (problem,) = parsed.problems
    assert why in problem


def test_text_that_is_not_a_player_and_a_player_listed_twice() -> None:
    parsed = parse_app_results("Here are yesterday's results:\n3/6: <@1> and <@2>\n5/6: <@1>")
    assert [(r.user_id, r.score) for r in parsed.results] == [(1, "3/6"), (2, "3/6")]
    assert "'and' is not a player" in parsed.problems[0]
    assert "<@1> is also on the 3/6 line" in parsed.problems[1]
    names = parse_app_results(
        "Here are yesterday's results:\n4/6: @Ann Lee\nsee you\n5/6: @ann lee"
    )
    assert [r.name for r in names.results] == ["Ann Lee"]  # a name ends with its line
    assert "'see you' is not a player" in names.problems[0]
    assert "@ann lee is also on the 4/6 line" in names.problems[1]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("hello there", "Not a Wordle app recap"),
        ("", "Not a Wordle app recap"),
        ("4/6: <@1>", "Not a Wordle app recap"),  # a score line alone could be typed by anyone
        ("Your group is on a 152 day streak!", "Not a Wordle app recap"),
        ("Wordle 1,234 4/6\n\n⬛🟨⬛⬛⬛\n🟩🟩🟩🟩🟩", "Not a Wordle app recap"),
        ("Here are yesterday's results:", "lists no results"),
        ("Here are yesterday's results: nice!\n4/6: <@1>", "'nice!': not a score line"),
    ],
)
def test_what_is_not_a_recap_says_so(text: str, problem: str) -> None:
    parsed = parse_app_results(text)
    assert any(problem in p for p in parsed.problems)
    if "Not a Wordle app recap" in problem:
        assert parsed.results == [] and len(parsed.problems) == 1 and parsed.kind == ""


def test_a_streak_line_without_saying_which_day_reads_but_is_not_yesterday() -> None:
    parsed = parse_app_results("Your group is on a 3 day streak! 🔥\n4/6: <@1>")
    assert parsed.streak == 3 and not parsed.yesterday and len(parsed.results) == 1
    assert "which day" in parsed.problems[0]
    assert parsed.puzzle_for(datetime.date(2025, 1, 2)) is None


@pytest.mark.parametrize(
    ("text", "names", "others"),
    [
        ("temple was playing", ["temple"], 0),
        ("david wolfze and samboyd were playing", ["david wolfze", "samboyd"], 0),
        ("pogoyim and 2 others were playing", ["pogoyim"], 2),
        ("tft? is playing", ["tft?"], 0),
    ],
)
def test_the_playing_notice_names_who_started_and_records_nothing(
    text: str, names: list[str], others: int
) -> None:
    parsed = parse_app_results(text)
    assert (parsed.kind, parsed.playing, parsed.others) == ("playing", names, others)
    assert parsed.results == [] and parsed.problems == []


def test_puzzle_numbers_count_days_from_june_19_2021() -> None:
    assert nyt_puzzle_number(datetime.date(2021, 6, 19)) == 0
    assert nyt_puzzle_number(datetime.date(2022, 1, 1)) == 196
    assert nyt_puzzle_number(datetime.date(2026, 9, 19)) == 1918
    assert nyt_puzzle_number(datetime.datetime(2021, 6, 20, 23, 59)) == 1
    # A recap posted on a day is of the day before.
    assert parse_app_results(REAL).puzzle_for(datetime.date(2026, 9, 20)) == 1918
    assert WORDLE_APP_ID == 1211781489931452447


def consistent(parsed) -> None:
    """What a reading may never say, whatever the message."""
    assert parsed.kind in ("recap", "playing", "")
    assert all(0 < len(p) < 200 and "\n" not in p for p in parsed.problems)
    if parsed.kind != "recap":
        assert parsed.results == []
    for r in parsed.results:
        # The score agrees with won and guesses; each player is a mention or a name.
        if r.won:
            assert r.score == f"{r.guesses}/6" and 1 <= r.guesses <= 6
        else:
            assert r.score == "X/6" and r.guesses == 0
        assert (r.user_id is None) != (r.name is None)
        assert r.name is None or (r.name.strip() == r.name and r.name and "\n" not in r.name)
    keys = [r.user_id if r.user_id is not None else r.name.casefold() for r in parsed.results]
    assert len(keys) == len(set(keys))  # each player once
    json.dumps(parsed.to_json())


PIECES = [*"0123456789X/:@<>! *\n", "x", "👑", "🔥", "**", "<@", "<@!", "/6:", " day streak",
          "Your group is on a ", "Here are yesterday's results:", " was playing", " and ",
          " others", "@Plain Name "]  # fmt: skip


@settings(max_examples=300)
@given(st.lists(st.sampled_from(PIECES), max_size=80).map("".join))
@example("Here are yesterday's results:1/6:0\n0")  # text across lines that is not a player
def test_the_reader_never_raises_on_recap_like_text(text: str) -> None:
    consistent(_parse(text))


@settings(max_examples=200)
@given(st.text(max_size=4000))
def test_the_reader_never_raises_on_any_text(text: str) -> None:
    consistent(_parse(text))
    consistent(_parse("Here are yesterday's results:\n" + text))


def test_long_garbage_reads_quickly_and_safely() -> None:
    digits = "<@" + "9" * 5000 + ">"
    texts = [
        "4/6: " * 900,
        "Your group is on a " + "9" * 5000 + " day streak",
        "Here are yesterday's results:\n3/6: " + digits,
        "Here are yesterday's results:\n" + "👑 X/6: @a " * 400,
        "@" * 4000,
        "playing " * 500,
    ]
    for text in texts:
        consistent(_parse(text))
