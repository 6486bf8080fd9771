"""The clones of other languages (issue 30, point 10): each read from its published share
format (tests/fixtures/shares/README.md names each source), in its own squares, rows of 4 to 11
letters, naming the word lists it maps to; a malformed one is a plain problem, never a crash."""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.shares import CLONES, parse_shares

FIXTURES = Path(__file__).parent / "fixtures" / "shares"


@dataclass(frozen=True)
class Expected:
    game: str
    word_list: str
    puzzle: int
    hard: bool
    guesses: int | None  # None: lost
    rows: list[str]
    day: date | None = None


EXPECTED = {
    "termo.txt": Expected("termo", "wordle-pt-5", 15, True, 3, ["00210", "12221", "22222"]),
    "letreco.txt": Expected(
        "letreco", "wordle-pt-5", 42, False, 4,
        ["01000", "20010", "22020", "22222"], date(2022, 2, 17),
    ),
    "sutom-6.txt": Expected(
        "sutom", "wordle-fr-6", 171, False, 3, ["200001", "210110", "222222"], date(2022, 6, 27)
    ),
    "sutom-7-loss.txt": Expected(
        "sutom", "wordle-fr-7", 242, False, None,
        ["2000000", "2000010", "2100100", "2000000", "2001000", "2001000"], date(2022, 9, 6),
    ),
    "wordle-es.txt": Expected(
        "palabra", "wordle-es-5", 34, False, 6,
        ["00001", "01000", "01100", "11011", "11101", "22222"],
    ),
    "la-palabra-del-dia.txt": Expected(
        "palabra", "wordle-es-5", 1512, False, 4, ["00100", "01010", "02011", "22222"]
    ),
    "woerdl.txt": Expected(
        "woerdl", "wordle-de-5", 298, False, 6,
        ["00000", "01010", "00022", "01001", "22022", "22222"],
    ),
    "parole.txt": Expected(
        "parole", "wordle-it-5", 27, True, 4, ["01000", "00210", "22202", "22222"]
    ),
    "slowle.txt": Expected(
        "slowle", "wordle-pl-5", 1686, False, 4, ["01000", "00210", "21200", "22222"]
    ),
    "slowle-loss.txt": Expected(
        "slowle", "wordle-pl-5", 1685, False, None,
        ["00100", "01010", "20100", "22000", "22020", "22022"],
    ),
}  # fmt: skip


def test_every_fixture_has_an_expectation_and_a_recorded_source() -> None:
    files = {path.name for path in FIXTURES.glob("*.txt")}
    assert files == set(EXPECTED)
    readme = (FIXTURES / "README.md").read_text(encoding="utf-8")
    assert all(f"`{name}`" in readme for name in files)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_fixture_reads_as_its_clone(name: str) -> None:
    want = EXPECTED[name]
    result = parse_shares((FIXTURES / name).read_text(encoding="utf-8"))
    assert result.problems == []
    (share,) = result.shares
    board = share.boards[0]
    assert (share.game, share.word_list, share.puzzle, share.hard) == (
        want.game, want.word_list, want.puzzle, want.hard,
    )  # fmt: skip
    assert (board.solved, board.guesses) == (want.guesses is not None, want.guesses)
    assert share.to_json()["boards"][0]["rows"] == want.rows
    assert share.length == len(want.rows[0]) and share.language == want.word_list.split("-")[1]
    assert share.day == want.day and share.recordable


# -- every clone's format, rendered as its code writes it, for any length 4 to 11 ---------------

# Each renderer follows the clone's share code or pastes (see the README), not the reader's tables.
Render = Callable[[int, int | None, list[list[int]], bool, int], str]


def _squares(rows: list[list[int]], palette: str) -> list[str]:
    """``palette``: the absent, present and correct squares, in that order."""
    return ["".join(palette[t] for t in row) for row in rows]


def termo(n: int, guesses: int | None, rows: list[list[int]], hard: bool, style: int) -> str:
    header = f"joguei term.ooo #{n} {guesses or 'X'}/6{' *' if hard else ''}"
    return "\n".join([header, *_squares(rows, "⬛🟨🟩")])


def letreco(n: int, guesses: int | None, rows: list[list[int]], hard: bool, style: int) -> str:
    lines = "".join(row + "\n" for row in _squares(rows, "🟥🟨🟩"))
    footer = "jogue agora em gabtoschi.com/letreco"
    return f"{n:03d} ({guesses or 'X'}/6) @MeuLetreco \n\n{lines}\n{footer}"


def sutom(n: int, guesses: int | None, rows: list[list[int]], hard: bool, style: int) -> str:
    chrono = f" {style % 60:02d}:{style % 7:02d}" if style % 2 else ""
    header = f"SUTOM #{n} {guesses or '-'}/6{chrono}\n\n"
    return header + "\n".join(_squares(rows, "🟦🟡🟥")) + "\n\nhttps://sutom.nocle.fr"


def wordle_es(n: int, guesses: int | None, rows: list[list[int]], hard: bool, style: int) -> str:
    palette = "⬜🟦🟧" if style % 2 else "⬜🟨🟩"  # the colour-blind mode's squares
    lines = "".join(row + "\n" for row in _squares(rows, palette))
    return f"Wordle (ES) #{n} {guesses or 'X'}/6\n\n{lines}\nhttps://wordle.danielfrg.com"


def palabra(n: int, guesses: int | None, rows: list[list[int]], hard: bool, style: int) -> str:
    return f"La palabra del día #{n} {guesses or 'X'}/6\n\n" + "\n".join(_squares(rows, "⬛🟨🟩"))


def woerdl(n: int, guesses: int | None, rows: list[list[int]], hard: bool, style: int) -> str:
    header = f"Wördl {n} {guesses or 'X'}/6 🔥{style}"
    return header + "\n\n" + "\n".join(_squares(rows, "⬛🟨🟩")) + "\n\nwordle.at"


def parole(n: int, guesses: int | None, rows: list[list[int]], hard: bool, style: int) -> str:
    palette = ("⬛" if style % 2 else "⬜") + ("🟦🟧" if style % 3 == 0 else "🟨🟩")
    header = f"Par🇮🇹le n°{n} {guesses or 'X'}/6{'*' if hard else ''}"
    return f"{header}\n\n" + "\n".join(_squares(rows, palette))


def slowle(n: int, guesses: int | None, rows: list[list[int]], hard: bool, style: int) -> str:
    # Its first week's shares (wins only) were green and yellow, blue and orange since.
    palette = "⬛🟨🟩" if style % 2 and guesses is not None else "⬛🟧🟦"
    return "\n".join([f"Słowle {n} {guesses or 'X'}/6", "", *_squares(rows, palette)])


RENDERS: dict[str, tuple[str, Render, bool]] = {  # name: (game, renderer, shows hard mode)
    "termo": ("termo", termo, True),
    "letreco": ("letreco", letreco, False),
    "sutom": ("sutom", sutom, False),
    "wordle (es)": ("palabra", wordle_es, False),
    "la palabra del día": ("palabra", palabra, False),
    "wördl": ("woerdl", woerdl, False),
    "parole": ("parole", parole, True),
    "słowle": ("slowle", slowle, False),
}


def test_every_clone_has_a_renderer() -> None:
    assert {game for game, _, _ in RENDERS.values()} == {clone.game for clone in CLONES}


@st.composite
def games(draw: st.DrawFn) -> tuple[int, int | None, list[list[int]]]:
    """A finished game: its length, guesses (None: lost) and rows, only the last all green."""
    length = draw(st.integers(4, 11))
    won = draw(st.booleans())
    wrong = st.lists(st.integers(0, 2), min_size=length, max_size=length).filter(
        lambda row: row != [2] * length
    )
    if won:
        rows = [*draw(st.lists(wrong, max_size=5)), [2] * length]
        return length, len(rows), rows
    return length, None, draw(st.lists(wrong, min_size=6, max_size=6))


@given(
    st.sampled_from(sorted(RENDERS)), games(), st.integers(1, 99_999), st.booleans(),
    st.integers(0, 99), st.text(alphabet="ab :\n", max_size=20),
)  # fmt: skip
def test_a_rendered_share_of_any_length_reads_back(
    name: str, game: tuple[int, int | None, list[list[int]]], number: int, hard: bool,
    style: int, chatter: str,
) -> None:  # fmt: skip
    key, render, shows_hard = RENDERS[name]
    length, guesses, rows = game
    text = f"{chatter}\n{render(number, guesses, rows, hard, style)}\n"
    result = parse_shares(text)
    assert result.problems == []
    (share,) = result.shares
    clone = next(c for c in CLONES if c.game == key)
    board = share.boards[0]
    assert (share.game, share.puzzle, share.length) == (key, number, length)
    assert share.word_list == f"wordle-{clone.language}-{length}"
    assert (board.solved, board.guesses) == (guesses is not None, guesses)
    digits = ["".join(map(str, row)) for row in rows]
    assert share.to_json()["boards"][0]["rows"] == digits
    assert share.hard == (hard and shows_hard) and share.recordable


# -- malformed shares: a plain line naming the clone, never an exception -----------------------

UNEQUAL = [[0, 1, 0, 0, 0], [0, 0, 1, 0, 0, 0], [2, 2, 2, 2, 2]]
TWELVE = [[0, 1, 0, 0, 0]] * 12
TITLES = {clone.game: clone.title for clone in CLONES}


@pytest.mark.parametrize("name", sorted(RENDERS))
@pytest.mark.parametrize(
    ("malformed", "why"),
    [
        (lambda r: r(7, 3, UNEQUAL, False, 1), "unequal length"),
        (lambda r: r(7, None, TWELVE, False, 1), "allows 6"),
        (lambda r: r(7, 1, [[2] * 3991], False, 1), "not 4 to 11"),  # a 4,000-character row
        (lambda r: r(7, None, [[0, 1, 0, 0, 0]] * 600, False, 1), "allows 6"),  # 600 rows
        (lambda r: r(7, 9, [[0] * 5] * 8 + [[2] * 5], False, 1), "allows 6"),
        (lambda r: r(7, 2, [[1] * 12, [2] * 12], False, 1), "not 4 to 11"),
        (lambda r: r(7, 2, [[1] * 3, [2] * 3], False, 1), "not 4 to 11"),
    ],
)
def test_a_malformed_clone_share_is_a_clear_problem(
    name: str, malformed: Callable[[Render], str], why: str
) -> None:
    key, render, _ = RENDERS[name]
    result = parse_shares(malformed(render))
    shares = [s for s in result.shares if s.game == key]
    assert shares and not any(s.recordable for s in shares)
    assert any(p.startswith(TITLES[key]) and why in p for p in result.problems), result.problems
    assert not any("Could not read" in p for p in result.problems)


def test_the_clones_squares_are_their_own() -> None:
    # SUTOM's 🟥 is a right letter, Letreco's a wrong one; Quordle's 🟥 is a failed board still.
    sutom_share = parse_shares("SUTOM #5 1/6\n🟥🟥🟥🟥🟥🟥").shares[0]
    letreco_share = parse_shares("005 (X/6) @MeuLetreco\n" + "🟥🟥🟥🟥🟥\n" * 6).shares[0]
    assert sutom_share.boards[0].solved and sutom_share.to_json()["boards"][0]["rows"] == ["222222"]
    assert letreco_share.to_json()["boards"][0]["rows"] == ["00000"] * 6
    # Słowle's 🟦 is a right letter and 🟧 a misplaced one, the reverse of the NYT's high contrast.
    slowle_share = parse_shares("Słowle 12 2/6\n\n🟧⬛🟦⬛⬛\n🟦🟦🟦🟦🟦").shares[0]
    assert slowle_share.to_json()["boards"][0]["rows"] == ["10200", "22222"]
    nyt = parse_shares("Wordle 1,234 2/6\n🟧⬛🟦⬛⬛\n🟧🟧🟧🟧🟧").shares[0]
    assert nyt.to_json()["boards"][0]["rows"] == ["20100", "22222"]
    quordle = parse_shares("Daily Quordle 1234\n6⃣4⃣\n8⃣🟥").shares[0]
    assert [b.solved for b in quordle.boards] == [True, True, True, False]


def test_english_shares_keep_their_lists_and_length() -> None:
    wordle, primel = parse_shares(
        "Wordle 1,234 2/6\n⬛🟨⬛⬛⬛\n🟩🟩🟩🟩🟩\nPrimel 45 1/6\n🟩🟩🟩🟩🟩"
    ).shares
    assert (wordle.word_list, wordle.language, wordle.length, wordle.limit) == (
        "wordle",
        "en",
        5,
        6,
    )
    assert (primel.word_list, primel.title, wordle.title) == ("primel", "Primel", "Wordle")
    assert (
        parse_shares("Wordle (ES) #3 1/6\n🟩🟩🟩🟩🟩").shares[0].game == "palabra"
    )  # not the NYT's


def test_rows_run_together_split_by_the_clones_usual_length_only() -> None:
    termo_text = (FIXTURES / "termo.txt").read_text(encoding="utf-8")
    lost_breaks = termo_text.replace("*\n", "* ").replace("\n", "")
    share = parse_shares(lost_breaks).shares[0]
    assert share.to_json()["boards"][0]["rows"] == ["00210", "12221", "22222"]
    # SUTOM's length changes by day: a run of 18 squares is not guessed into rows.
    result = parse_shares("SUTOM #9 3/6\n" + "🟥🟦🟦🟦🟦🟦" * 2 + "🟥" * 6)
    assert not result.shares[0].recordable and "18 squares" in result.problems[0]


def test_slowle_is_polish_and_dates_no_day() -> None:
    # Its numbers skip the days the site was down, so none is turned into a date.
    text = (FIXTURES / "slowle.txt").read_text(encoding="utf-8")
    share = parse_shares(text.upper()).shares[0]  # SŁOWLE reads the same
    assert (share.game, share.title, share.language, share.day) == ("slowle", "Słowle", "pl", None)
    assert share.recordable
    # The Literalnie header is not read as Słowle, nor guessed at.
    result = parse_shares("literalnie.fun 812 3/6\n🟩🟩🟩🟩🟩")
    assert result.shares == [] and "no game header" in result.problems[0]
