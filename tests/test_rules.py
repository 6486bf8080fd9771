import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.pattern import parse_pattern, score, tiles
from engine.rules import Mode, check_guess, is_consistent, ordinal
from engine.solver.coach import hard_path
from engine.solver.position import hard_mode_allows
from engine.variants import get_variant


def rows(answer: str, *guesses: str) -> list[tuple[str, int]]:
    return [(g, score(g, answer)) for g in guesses]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("cran", "Not enough letters"),
        ("", "Not enough letters"),
        ("cranes", "Too many letters"),
        ("cr4ne", "Use only letters A to Z"),
        ("cr ne", "Use only letters A to Z"),
        ("zzzzz", "Not in word list"),
        ("x" * 4000, "Too many letters"),
    ],
)
def test_shape_and_word_list_refusals(wordle, text: str, message: str) -> None:
    verdict = check_guess(wordle, text)
    assert verdict.message == message
    assert len(verdict.word) <= 10  # a pasted essay is never echoed back whole


def test_input_is_trimmed_and_case_insensitive(wordle) -> None:
    verdict = check_guess(wordle, "  CrAnE \n")
    assert verdict.allowed and verdict.word == "crane"


def test_primel_speaks_of_digits_and_primes(primel) -> None:
    assert check_guess(primel, "1234").message == "Not enough digits"
    assert check_guess(primel, "12a45").message == "Use only digits 0 to 9"
    assert check_guess(primel, "10001").message == "Not a prime number"
    assert check_guess(primel, "10007").allowed
    history = rows("12347", "12343")  # 1 2 3 4 green, last 3 grey
    assert check_guess(primel, "13397", history, Mode.HARD).message == "2nd digit must be 2"


def test_hard_mode_checks_greens_first_in_position_order(wordle) -> None:
    history = [("crane", int("01002", 3))]  # R yellow, E green
    assert check_guess(wordle, "slate", history, Mode.HARD).message == "Guess must contain R"
    assert check_guess(wordle, "shirt", history, Mode.HARD).message == "5th letter must be E"
    history = [("crane", int("01202", 3))]
    assert check_guess(wordle, "shirt", history, Mode.HARD).message == "3rd letter must be A"
    assert check_guess(wordle, "realm", history, Mode.HARD).message == "5th letter must be E"


def test_hard_mode_counts_repeated_letters(wordle) -> None:
    # SPEED against ABIDE shows one E (yellow) and a grey E: one E is required, not two.
    history = rows("abide", "speed")
    assert check_guess(wordle, "oxide", history, Mode.HARD).allowed
    # EERIE against THERE shows two Es: a guess with one E is refused.
    history = rows("there", "eerie")
    assert check_guess(wordle, "rebut", history, Mode.HARD).message == "5th letter must be E"
    assert check_guess(wordle, "ridge", history, Mode.HARD).message == "Guess must contain E twice"
    assert check_guess(wordle, "reuse", history, Mode.HARD).allowed


def test_hard_mode_lets_yellows_stay_and_greys_return(wordle) -> None:
    history = [("crane", int("01002", 3))]
    assert check_guess(wordle, "prove", history, Mode.HARD).allowed  # R yellow in place again
    assert check_guess(wordle, "crate", history, Mode.HARD).allowed  # grey C played again
    assert check_guess(wordle, "prove", history, Mode.STRICT).message == "2nd letter can't be R"


def test_strict_mode_refuses_greys_and_excess_letters(wordle) -> None:
    history = [("crane", int("01002", 3))]
    assert check_guess(wordle, "tribe", history, Mode.STRICT).message == "2nd letter can't be R"
    assert check_guess(wordle, "rouse", history, Mode.STRICT).allowed
    assert check_guess(wordle, "raise", history, Mode.STRICT).message == "Guess can't contain A"
    assert check_guess(wordle, "crate", history, Mode.STRICT).message == "1st letter can't be C"
    history = rows("abide", "speed")  # one E only
    assert check_guess(wordle, "eerie", history, Mode.STRICT).message == "Guess must contain D"
    assert check_guess(wordle, "elude", history, Mode.STRICT).message == (
        "Guess can contain E only once"
    )
    assert check_guess(wordle, "edged", history, Mode.STRICT).message == "4th letter can't be E"


def test_normal_mode_ignores_clues(wordle) -> None:
    history = [("crane", int("22220", 3))]
    assert check_guess(wordle, "quiet", history, Mode.NORMAL).allowed


def test_ordinals() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 5, 11, 12, 13, 21, 22, 23)] == [
        "1st", "2nd", "3rd", "4th", "5th", "11th", "12th", "13th", "21st", "22nd", "23rd",
    ]  # fmt: skip


@settings(max_examples=300)
@given(st.data())
def test_strict_allows_exactly_the_consistent_words(wordle, data) -> None:
    words = wordle.guesses.words
    answer = data.draw(st.sampled_from(wordle.answers.words))
    played = data.draw(st.lists(st.sampled_from(words), min_size=1, max_size=4))
    candidate = data.draw(st.sampled_from(words))
    history = rows(answer, *played)
    verdict = check_guess(wordle, candidate, history, Mode.STRICT)
    assert verdict.allowed == is_consistent(candidate, history)
    assert check_guess(wordle, answer, history, Mode.STRICT).allowed
    if verdict.allowed:  # strict is stricter than hard
        assert check_guess(wordle, candidate, history, Mode.HARD).allowed


@settings(max_examples=300)
@given(st.data())
def test_hard_mode_never_refuses_the_answer(wordle, data) -> None:
    answer = data.draw(st.sampled_from(wordle.answers.words))
    played = data.draw(st.lists(st.sampled_from(wordle.guesses.words), max_size=5))
    assert check_guess(wordle, answer, rows(answer, *played), Mode.HARD).allowed


# -- the rule checked on many guesses at once, as the grid readings check it -----------------

LISTS = ["wordle", "primel", "wordle-de-5"]  # letters, digits, letters beyond A to Z


def a_history(variant, data, max_rows: int) -> tuple[str, list[tuple[str, int]]]:
    answer = data.draw(st.sampled_from(variant.answers.words))
    played = data.draw(st.lists(st.sampled_from(variant.guesses.words), max_size=max_rows))
    if data.draw(st.booleans()):  # the most revealing rows first: later ones lose greens
        played.sort(key=lambda g: -sum(map(int, tiles(score(g, answer), len(g)))))
    return answer, rows(answer, *played)


@settings(max_examples=150)
@given(st.sampled_from(LISTS), st.data())
def test_hard_mode_allows_what_check_guess_allows_of_each_guess(name, data) -> None:
    variant = get_variant(name)
    _, history = a_history(variant, data, 4)
    among = np.array(data.draw(st.lists(st.integers(0, len(variant.guesses) - 1), max_size=40)),
                     dtype=np.intp)  # fmt: skip
    words = variant.guesses.words
    expected = [check_guess(variant, words[g], history, Mode.HARD).allowed for g in among]
    assert hard_mode_allows(variant, history, among).tolist() == expected


def plain_hard_path(variant, column, patterns, budget) -> bool:
    """The rule guess by guess (check_guess), each tried one counting towards ``budget``."""
    words, tried = variant.guesses.words, 0

    def extend(history, i):
        nonlocal tried
        if i == len(patterns):
            return True
        for g in np.flatnonzero(column == patterns[i]).tolist():
            tried += 1
            if tried > budget:
                return True
            if check_guess(variant, words[g], history, Mode.HARD).allowed and extend(
                [*history, (words[g], patterns[i])], i + 1
            ):
                return True
        return False

    return extend([], 0)


@settings(max_examples=100)
@given(st.sampled_from(LISTS), st.data())
def test_a_grids_hard_mode_path_is_found_as_guess_by_guess(name, data) -> None:
    """engine.solver.coach.hard_path, the rule checked on all the guesses giving a row at
    once, says what trying them one by one says, the budget of guesses tried included; the
    rows are another answer's half the time, so that no path is often the truth."""
    variant = get_variant(name)
    answer, history = a_history(variant, data, 4)
    if data.draw(st.booleans()):
        answer = data.draw(st.sampled_from(variant.answers.words))
    column = np.asarray(variant.matrix)[:, variant.answers.index[answer]]
    patterns = [p for _, p in history] or [0]
    budget = data.draw(st.sampled_from([3, 40, 400, 2000]))
    assert hard_path(variant, column, patterns, budget) == plain_hard_path(
        variant, column, patterns, budget
    )


def test_the_guesses_the_rule_refuses_count_towards_the_budget_too() -> None:
    """Against URBAN no hard-mode sequence gives these rows (10 guesses give the first, 203
    the second), but over 40 guesses are tried on the way: the benefit of the doubt. Counting
    only the allowed ones would exhaust the first row's ten and say no path."""
    wordle = get_variant("wordle")
    column = np.asarray(wordle.matrix)[:, wordle.answers.index["urban"]]
    rows_ = [parse_pattern(p, 5) for p in ("00012", "01010", "10001")]
    assert hard_path(wordle, column, rows_, budget=40) is True
    assert hard_path(wordle, column, rows_, budget=10**7) is False
