import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.pattern import parse_pattern, score
from engine.shares import _parse, parse_shares
from engine.solver.coach import coach, grid_candidates

WORDLE = "Wordle 1,234 4/6*\n\n⬛🟨⬛⬛⬛\n⬜️🟩🟨⬛⬛\n🟩🟩⬛🟩🟩\n🟩🟩🟩🟩🟩"


def rows(share) -> list[str]:
    return share.to_json()["boards"][0]["rows"]


@pytest.mark.parametrize(
    "text",
    [
        WORDLE,
        WORDLE.replace("1,234", "1.234"),
        WORDLE.replace("1,234", "1234"),
        WORDLE.replace("\n", "\r\n"),
        WORDLE.replace("⬛", "⬜").replace("🟩", "🟧").replace("🟨", "🟦"),
        WORDLE.replace("\n\n", " ").replace("\n", " "),  # newlines lost
        "so today:\n" + WORDLE + "\nwhat about you?",
        WORDLE.replace("⬛", "⬛\ufe0f"),
    ],
)
def test_every_spelling_of_a_wordle_share_reads_the_same(text: str) -> None:
    result = parse_shares(text)
    assert result.problems == []
    (share,) = result.shares
    assert (share.game, share.puzzle, share.hard) == ("wordle", 1234, True)
    assert share.boards[0].solved and share.boards[0].guesses == 4
    assert rows(share) == ["01000", "02100", "22022", "22222"]


def test_a_loss_and_several_shares_in_one_message() -> None:
    loss = "Wordle 987 X/6\n" + "\n".join(["⬛⬛⬛⬛⬛"] * 5 + ["⬛⬛🟩⬛⬛"])
    result = parse_shares(loss + "\nand\nPrimel 45 3/6\n\n⬛🟨⬛⬛⬛\n🟩⬛⬛⬛🟩\n🟩🟩🟩🟩🟩")
    first, second = result.shares
    assert (first.game, first.boards[0].solved, len(first.boards[0].rows)) == ("wordle", False, 6)
    assert (second.game, second.puzzle, second.boards[0].guesses) == ("primel", 45, 3)


def test_quordle_old_and_new_formats_with_a_failed_board() -> None:
    old = parse_shares("Daily Quordle #17\n6️⃣4️⃣\n8️⃣🟥\nquordle.com").shares[0]
    new = parse_shares("Daily Quordle 1234\n6⃣4⃣\n8⃣🟥\nm-w.com/games/quordle/").shares[0]
    for share, puzzle in ((old, 17), (new, 1234)):
        assert share.game == "quordle" and share.puzzle == puzzle
        assert [(b.solved, b.guesses) for b in share.boards] == [
            (True, 6), (True, 4), (True, 8), (False, None),
        ]  # fmt: skip


def test_octordle_clock_faces_and_its_sequence_variant() -> None:
    text = "Daily Sequence Octordle #123\n8️⃣🔟\n🕚🕛\n🕐5️⃣\n🟥7️⃣\noctordle.com"
    share = parse_shares(text).shares[0]
    assert share.variant == "sequence"
    assert [b.guesses for b in share.boards] == [8, 10, 11, 12, 13, 5, None, 7]


def test_dordle_with_grids_side_by_side() -> None:
    share = parse_shares("Dordle #123 2&X/7\n⬛🟨⬛⬛⬛ ⬛⬛⬛⬛⬛\n🟩🟩🟩🟩🟩 ⬛🟩⬛⬛⬛").shares[
        0
    ]
    assert [(b.solved, b.guesses) for b in share.boards] == [(True, 2), (False, None)]
    assert share.to_json()["boards"][0]["rows"] == ["01000", "22222"]


def test_absurdle_shares() -> None:
    share = parse_shares("Absurdle 4/∞\n\n⬛⬛⬛⬛⬛\n⬛⬛⬛⬛⬛\n⬛⬛⬛⬛🟨\n🟩🟩🟩🟩🟩").shares[0]
    assert share.game == "absurdle" and share.boards[0].guesses == 4


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("hello there", "No share found"),
        ("🟩🟩🟩🟩🟩", "no game header"),
        ("Wordle 1,234 4/6\n\n⬛🟨⬛⬛⬛\n🟩🟩🟩🟩🟩", "says 4 guesses but 2 rows"),
        ("Wordle 1,234 2/6\n\n⬛🟨⬛⬛⬛\n⬛🟩🟩🟩🟩", "last row is not all green"),
        ("Daily Quordle 55\nnothing else", "not each board's result"),
    ],
)
def test_malformed_pastes_say_what_was_and_was_not_read(text: str, problem: str) -> None:
    assert any(problem in p for p in parse_shares(text).problems)


PIECES = [*"Wordle Quordle Daily#0123456789/X*&\n ,.∞", "⬛", "🟩", "🟨", "⬜", "🟥", "🔟", "🕚",
          "6️⃣", "\ufe0f", "\u20e3"]  # fmt: skip


def consistent(result) -> None:
    """What a reading may never say, whatever was pasted."""
    assert result.problems or result.shares
    assert all(0 < len(p) < 200 and "\n" not in p for p in result.problems)
    for share in result.shares:
        for board in share.boards:
            assert all(0 <= row < 3**5 for row in board.rows)
            if share.recordable and share.game in ("wordle", "primel"):
                # A recorded result is backed by its grid: one row per guess, green last.
                assert board.rows and (not board.solved or len(board.rows) == board.guesses)
                assert board.solved == (board.rows[-1] == 242)
                assert 242 not in board.rows[:-1]
    json.dumps(result.to_json())


# The layer under parse_shares' catch-all: a parser that raises fails these tests.
@settings(max_examples=300)
@given(st.lists(st.sampled_from(PIECES), max_size=80).map("".join))
def test_the_parser_never_raises(text: str) -> None:
    consistent(_parse(text))


@settings(max_examples=100)
@given(st.text(max_size=300))
def test_the_parser_never_raises_on_any_text(text: str) -> None:
    consistent(_parse(text))


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("Wordle 1,234 3/6", "no grid"),
        ("Wordle 1,234 3/6\n\n⬛⬛⬛⬛⬛\n🟩🟩🟩🟩🟩\n🟩🟩🟩🟩🟩", "all green"),
        ("Wordle 1,234 2/6\n\n⬛⬛⬛⬛⬛\n⬛🟩🟩🟩🟩", "not all green"),
    ],
)
def test_a_header_the_grid_does_not_back_up_is_not_recordable(text: str, problem: str) -> None:
    result = parse_shares(text)
    assert not result.shares[0].recordable
    assert any(problem in p for p in result.problems)


def test_a_wordlebot_daily_share_is_never_read_as_the_nyt_puzzle() -> None:
    result = parse_shares("wordlebot Wordle #1982 2/6\n\n⬛🟨⬛⬛⬛\n🟩🟩🟩🟩🟩")
    assert result.shares == [] and "wordlebot daily" in result.problems[0]


def test_grid_alone_gives_the_consistent_answers(wordle) -> None:
    history = [(g, score(g, "cigar")) for g in ("crane", "moist", "cigar")]
    reading = grid_candidates(wordle, [p for _, p in history])
    assert 1 < reading.count < 2315 and "cigar" in reading.likely
    # Hard mode removes answers whose rows no rule-abiding sequence of guesses gives (shown
    # on a grid with fewer candidates: the 1,971 above take 0.5 s of CPU more to check).
    grid = [score(g, "cigar") for g in ("crane", "circa", "cigar")]
    easy, hard = grid_candidates(wordle, grid), grid_candidates(wordle, grid, hard=True)
    assert hard.complete and 1 < hard.count < easy.count


def test_coaching_scores_stay_in_range_and_skip_the_opener(wordle) -> None:
    history = [(g, score(g, "cigar")) for g in ("crane", "moist", "cigar")]
    result = coach(wordle, history)
    first, second, last = result.turns
    assert first.skill is None and (first.before, first.after) == (2315, 8)
    assert 0 <= second.skill <= 99 and second.exact and second.best_expected <= second.expected
    assert last.after == 1 and result.won
    assert all(0 <= t.luck <= 99 for t in result.turns)
    # Luck, recomputed from the buckets: 99 x the share of answers whose bucket is larger
    # than the one that came up, ties counting half. CRANE against CIGAR leaves 8.
    import numpy as np

    buckets = np.bincount([score("crane", a) for a in wordle.answers.words], minlength=243)
    came = buckets[score("crane", "cigar")]
    worse = buckets[buckets > came].sum() + 0.5 * buckets[buckets == came].sum()
    assert came == 8 and first.luck == round(99 * worse / 2315)
    best = second.best  # playing the coach's own choice scores full skill
    again = coach(wordle, [history[0], (best, score(best, "cigar"))])
    assert again.turns[1].skill == 99


def test_parse_and_coach_commands() -> None:
    run = [sys.executable, "-m", "bot.cli"]
    parsed = subprocess.run([*run, "parse", "--json"], input=WORDLE, capture_output=True,
                            text=True, timeout=120)  # fmt: skip
    data = json.loads(parsed.stdout)
    assert data["shares"][0]["boards"][0]["rows"][-1] == "22222" and data["problems"] == []
    coached = subprocess.run([*run, "coach", "crane", "moist", "cigar", "--answer", "cigar",
                              "--json"], capture_output=True, text=True, timeout=120)  # fmt: skip
    report = json.loads(coached.stdout)
    assert [t["guess"] for t in report["turns"]] == ["crane", "moist", "cigar"]
    assert parse_pattern("21100", 5) == report["turns"][0]["pattern"]


# Shares whose line breaks were lost in copying, and the multi-board games' special editions.

# quordle.com's share with its grid (6, 4, 8 and a failed board): a pair of boards prints as many
# rows as its longer game (⬛ once a board is solved), every row when one failed.
QUORDLE_GRID = """Daily Quordle #17
6️⃣4️⃣
8️⃣🟥
quordle.com
⬜⬜⬜⬜⬜ ⬜⬜🟨⬜⬜
⬜🟨⬜⬜⬜ ⬜🟩🟨⬜⬜
⬜⬜⬜⬜⬜ 🟩🟩🟩⬜🟩
⬜⬜🟨⬜🟩 🟩🟩🟩🟩🟩
⬜🟩⬜🟨🟩 ⬛⬛⬛⬛⬛
🟩🟩🟩🟩🟩 ⬛⬛⬛⬛⬛

⬜⬜⬜⬜⬜ ⬜⬜⬜⬜⬜
⬜⬜⬜⬜⬜ ⬜⬜⬜⬜⬜
⬜⬜⬜⬜⬜ ⬜⬜⬜⬜⬜
⬜⬜⬜⬜⬜ ⬜⬜⬜⬜⬜
⬜⬜⬜⬜⬜ ⬜⬜⬜⬜⬜
⬜⬜⬜⬜⬜ ⬜⬜⬜⬜⬜
⬜⬜⬜⬜⬜ ⬜⬜⬜⬜⬜
🟩🟩🟩🟩🟩 ⬜⬜⬜⬜⬜
⬛⬛⬛⬛⬛ ⬜🟩⬜⬜⬜
"""


def board_rows(share) -> list[list[str]]:
    return [board["rows"] for board in share.to_json()["boards"]]


@pytest.mark.parametrize(
    "text",
    [
        "Wordle 1,234 4/6* ⬛🟨⬛⬛⬛⬜🟩🟨⬛⬛🟩🟩⬛🟩🟩🟩🟩🟩🟩🟩",  # one run of squares
        "Wordle 1,234 4/6*⬛🟨⬛⬛⬛⬜🟩🟨⬛⬛ 🟩🟩⬛🟩🟩🟩🟩🟩🟩🟩 nice",
        "Wordle 1,234 4/6*\n⬛🟨⬛⬛⬛⬜🟩🟨⬛⬛🟩🟩⬛🟩🟩\n🟩🟩🟩🟩🟩",
    ],
)
def test_a_wordle_share_whose_rows_ran_together_reads_like_the_normal_form(text: str) -> None:
    result = parse_shares(text)
    assert result.problems == []
    assert rows(result.shares[0]) == rows(parse_shares(WORDLE).shares[0])


def test_squares_that_do_not_split_into_rows_of_5_are_not_recorded() -> None:
    result = parse_shares("Wordle 1,234 3/6 ⬛🟨⬛⬛⬛⬜🟩🟨⬛🟩🟩🟩🟩🟩")  # 14 squares
    assert not result.shares[0].recordable
    assert "do not split into rows of 5" in result.problems[0]


@pytest.mark.parametrize(
    "text",
    [
        "Dordle #123 2&X/7\n⬛🟨⬛⬛⬛ ⬛⬛⬛⬛⬛\n🟩🟩🟩🟩🟩 ⬛🟩⬛⬛⬛",
        "Dordle #123 2&X/7 ⬛🟨⬛⬛⬛ ⬛⬛⬛⬛⬛ 🟩🟩🟩🟩🟩 ⬛🟩⬛⬛⬛",
        "Dordle #123 2&X/7 ⬛🟨⬛⬛⬛⬛⬛⬛⬛⬛🟩🟩🟩🟩🟩⬛🟩⬛⬛⬛",
        "Dordle #123 2&X/7\n⬛🟨⬛⬛⬛⬛⬛⬛⬛⬛\n🟩🟩🟩🟩🟩⬛🟩⬛⬛⬛",
    ],
)
def test_dordle_grids_run_together_read_like_the_normal_form(text: str) -> None:
    share = parse_shares(text).shares[0]
    assert [(b.solved, b.guesses) for b in share.boards] == [(True, 2), (False, None)]
    assert board_rows(share) == [["01000", "22222"], ["00000", "02000"]]


@pytest.mark.parametrize(
    "text",
    [
        QUORDLE_GRID.replace("\n", " "),  # every line break lost
        QUORDLE_GRID.replace("\n\n", "\n"),  # the blank line between the pairs lost
        "Daily Quordle #17 " + QUORDLE_GRID[18:].replace(" ", "").replace("\n", ""),
        QUORDLE_GRID.replace("\n", "\r\n"),
    ],
)
def test_quordle_grids_run_together_split_by_the_boards_results(text: str) -> None:
    normal = parse_shares(QUORDLE_GRID).shares[0]
    assert [len(r) for r in board_rows(normal)] == [6, 4, 8, 9]
    assert board_rows(normal)[1][-1] == "22222" and board_rows(normal)[3][-1] == "02000"
    result = parse_shares(text)
    assert result.problems == []
    (share,) = result.shares
    assert [(b.solved, b.guesses) for b in share.boards] == [
        (b.solved, b.guesses) for b in normal.boards
    ]
    assert board_rows(share) == board_rows(normal)


def test_quordle_grid_rows_that_do_not_split_say_so_and_keep_the_results() -> None:
    text = QUORDLE_GRID.replace("⬜⬜⬜⬜⬜ ⬜⬜⬜⬜⬜\n", "", 1).replace("\n", " ")
    result = parse_shares(text)
    assert [b.guesses for b in result.shares[0].boards] == [6, 4, 8, None]
    assert board_rows(result.shares[0]) == [[], [], [], []]
    assert "do not split into the boards" in result.problems[0]


@pytest.mark.parametrize(
    "text",
    [
        "Daily Octordle #123 8️⃣🔟 🕚🕛 🕐5️⃣ 🟥7️⃣ octordle.com",
        "Daily Octordle #123 8️⃣🔟🕚🕛🕐5️⃣🟥7️⃣ Score: 79",
        "Daily Octordle #1238️⃣🔟\n🕚🕛\n🕐5️⃣\n🟥7️⃣",  # even the line break after the number
    ],
)
def test_octordle_results_on_one_line_read_like_the_normal_form(text: str) -> None:
    share = parse_shares(text).shares[0]
    assert (share.puzzle, share.variant, share.recordable) == (123, "", True)
    assert [b.guesses for b in share.boards] == [8, 10, 11, 12, 13, 5, None, 7]


# Real pastes of each edition (github.com/jcorbin/alphahack, log/Quordle and log/Octordle), and
# Practice Quordle as quordle.com's share code writes it.
EDITIONS = [
    ("Daily Sequence Quordle 1451\n4️⃣7️⃣\n8️⃣9️⃣\nm-w.com/games/quordle/\n",
     "quordle", "sequence", 1451, [4, 7, 8, 9]),
    ("Weekly Quordle Challenge 131\n7️⃣8️⃣\n6️⃣5️⃣\nm-w.com/games/quordle/\n",
     "quordle", "weekly", 131, [7, 8, 6, 5]),
    ("🥵 Daily Extreme 512\n6️⃣5️⃣\n4️⃣🟥\nm-w.com/games/quordle/\n",
     "quordle", "extreme", 512, [6, 5, 4, None]),
    ("Daily Rescue 97\n4️⃣8️⃣\n7️⃣6️⃣\nm-w.com/games/quordle/\n",
     "quordle", "rescue", 97, [4, 8, 7, 6]),
    ("Practice Quordle\n4️⃣3️⃣ HARDY - EXTRA\n7️⃣8️⃣ STUFF - GAUDY\nm-w.com/games/quordle/",
     "quordle", "practice", None, [4, 3, 7, 8]),
    ("Daily Sequence Octordle #1450\n3️⃣4️⃣\n6️⃣7️⃣\n8️⃣9️⃣\n🔟🕚\nScore: 58",
     "octordle", "sequence", 1450, [3, 4, 6, 7, 8, 9, 10, 11]),
    ("Daily Rescue Octordle #1479\n8️⃣6️⃣\n🕛🔟\n5️⃣7️⃣\n🕐9️⃣\nScore: 8",
     "octordle", "rescue", 1479, [8, 6, 12, 10, 5, 7, 13, 9]),
    ("Daily Extreme Octordle #1449\n6️⃣2️⃣\n8️⃣4️⃣\n5️⃣9️⃣\n🔟🕚\nScore: 55",
     "octordle", "extreme", 1449, [6, 2, 8, 4, 5, 9, 10, 11]),
]  # fmt: skip


@pytest.mark.parametrize(("text", "game", "variant", "puzzle", "guesses"), EDITIONS)
def test_special_editions_read_like_the_daily_but_are_not_recorded_as_it(
    text: str, game: str, variant: str, puzzle: int | None, guesses: list[int | None]
) -> None:
    for paste in (text, text.replace("\n", " ")):
        result = parse_shares(paste)
        (share,) = result.shares
        assert (share.game, share.variant, share.puzzle) == (game, variant, puzzle)
        assert [b.guesses for b in share.boards] == guesses
        assert [b.solved for b in share.boards] == [g is not None for g in guesses]
        # Their numbers are their own or repeat the daily's: never recorded as the daily.
        assert not share.recordable
        assert result.problems == [
            f"{game.title()} {variant.title()} {puzzle or ''}".strip()
            + ": read, but only the daily puzzle is recorded"
        ]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("Weekly Quordle Challenge 131\n7️⃣8️⃣", "Quordle Weekly 131: found the header but not"),
        ("Daily Rescue Octordle #1479\nScore: 8", "Octordle Rescue 1479: found the header but not"),
        ("Daily Chill Quordle 12\n4️⃣3️⃣\n7️⃣8️⃣", "'Daily Chill Quordle 12': a Quordle edition"),
        ("Octordle Free\n8️⃣🔟\n🕚🕛\n🕐5️⃣\n🟥7️⃣", "'Octordle Free': an Octordle edition"),
    ],
)
def test_an_edition_that_cannot_be_read_says_what_was_not_read(text: str, problem: str) -> None:
    result = parse_shares(text)
    assert result.shares == []
    assert [p for p in result.problems if problem in p]


def test_addresses_and_chatter_naming_the_games_are_not_editions() -> None:
    for text in ("Daily Quordle 1617\n4️⃣7️⃣\n6️⃣3️⃣\nm-w.com/games/quordle/",
                 "Daily Octordle #83\n4️⃣🕛\n🔟🕚\n5️⃣6️⃣\n8️⃣🕐\noctordle.com"):  # fmt: skip
        assert parse_shares(text).problems == []
    assert parse_shares("quordle was hard today").problems == [
        "No share found: paste the text your game's Share button copied"
    ]


EDITION_PIECES = [*PIECES, "Octordle", "Sequence", "Weekly", "Challenge", "Rescue", "Extreme",
                  "Practice", "Dordle #1 ", "3&X/7", "🟩🟩🟩🟩🟩", "⬛⬛⬛⬛⬛ "]  # fmt: skip


@settings(max_examples=300)
@given(st.lists(st.sampled_from(EDITION_PIECES), max_size=80).map("".join))
def test_the_parser_never_raises_on_editions_and_run_together_rows(text: str) -> None:
    consistent(_parse(text))


def test_a_dordle_score_of_x_and_digits_run_together_is_no_share() -> None:
    """``X3&X`` is no Dordle score (hypothesis found it raising ValueError)."""
    assert parse_shares("Dordle #1 X3&X/7").shares == []
    assert [b.guesses for b in parse_shares("Dordle #1 3&X/7").shares[0].boards] == [3, None]
