from collections import Counter
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.matrix import build_pattern_matrix, cache_path, pattern_matrix
from engine.pattern import score
from engine.words import LETTERS, WordList, encode


def reference_score(guess: str, answer: str) -> int:
    """An independent statement of the rule: count letters the greens leave free."""
    free = Counter(a for g, a in zip(guess, answer, strict=True) if g != a)
    value = 0
    for g, a in zip(guess, answer, strict=True):
        if g == a:
            tile = 2
        elif free[g] > 0:
            free[g] -= 1
            tile = 1
        else:
            tile = 0
        value = 3 * value + tile
    return value


@settings(max_examples=300)
@given(st.data())
def test_wordle_matrix_equals_the_scalar_scorer(wordle, data) -> None:
    matrix = wordle.matrix
    g = data.draw(st.integers(0, len(wordle.guesses) - 1))
    a = data.draw(st.integers(0, len(wordle.answers) - 1))
    assert matrix[g, a] == score(wordle.guesses.words[g], wordle.answers.words[a])


@settings(max_examples=300)
@given(st.data())
def test_primel_matrix_equals_the_scalar_scorer(primel, data) -> None:
    matrix = primel.matrix
    g = data.draw(st.integers(0, len(primel.guesses) - 1))
    a = data.draw(st.integers(0, len(primel.answers) - 1))
    assert matrix[g, a] == score(primel.guesses.words[g], primel.answers.words[a])


def test_whole_rows_match_for_the_repeated_letter_guesses(wordle) -> None:
    answers = wordle.answers.words
    for guess in ("speed", "eerie", "mamma", "nanny", "array", "esses", "geese", "fuzzy"):
        row = wordle.matrix[wordle.guesses.index[guess]]
        assert row.tolist() == [score(guess, a) for a in answers]


@settings(max_examples=200)
@given(
    length=st.integers(1, 7),
    alphabet=st.sampled_from(["ab", "abc", "abcd", LETTERS]),
    data=st.data(),
)
def test_build_matches_the_rule_for_any_words(length: int, alphabet: str, data) -> None:
    """Small alphabets force the repeated-letter cases that real lists rarely combine."""
    word = st.text(alphabet, min_size=length, max_size=length)
    guesses = data.draw(st.lists(word, min_size=1, max_size=12))
    answers = data.draw(st.lists(word, min_size=1, max_size=12))
    matrix = build_pattern_matrix(
        encode(guesses, alphabet, length), encode(answers, alphabet, length), len(alphabet)
    )
    expected = [[reference_score(g, a) for a in answers] for g in guesses]
    assert matrix.tolist() == expected
    assert [[score(g, a) for a in answers] for g in guesses] == expected


def test_length_six_uses_a_wider_type() -> None:
    guesses = encode(["aaaaaa", "abcabc"], "abc", 6)
    matrix = build_pattern_matrix(guesses, guesses, 3)
    assert matrix.dtype == np.uint16
    assert matrix[0, 0] == 3**6 - 1


def _small_lists() -> tuple[WordList, WordList]:
    guesses = WordList.from_words("g", ["crane", "slate", "speed", "abide"], 5, LETTERS)
    answers = WordList.from_words("a", ["abide", "speed"], 5, LETTERS)
    return guesses, answers


def test_cache_is_written_then_memory_mapped(tmp_path: Path) -> None:
    guesses, answers = _small_lists()
    built = pattern_matrix(guesses, answers, cache_dir=tmp_path)
    assert cache_path(guesses, answers, tmp_path).exists()
    loaded = pattern_matrix(guesses, answers, cache_dir=tmp_path)
    assert isinstance(loaded, np.memmap)
    assert np.array_equal(built, loaded)


def test_a_damaged_cache_file_is_rebuilt(tmp_path: Path) -> None:
    guesses, answers = _small_lists()
    expected = pattern_matrix(guesses, answers, use_cache=False)
    path = cache_path(guesses, answers, tmp_path)
    path.write_bytes(b"not a numpy file")
    assert np.array_equal(pattern_matrix(guesses, answers, cache_dir=tmp_path), expected)
    np.save(path, np.zeros((1, 1), dtype=np.uint8))  # wrong shape
    assert np.array_equal(pattern_matrix(guesses, answers, cache_dir=tmp_path), expected)


def test_cache_key_follows_the_lists_contents(tmp_path: Path) -> None:
    guesses, answers = _small_lists()
    other = WordList.from_words("a", ["abide", "crane"], 5, LETTERS)
    assert cache_path(guesses, answers, tmp_path) != cache_path(guesses, other, tmp_path)


def test_an_unwritable_cache_directory_still_gives_the_matrix(tmp_path: Path) -> None:
    guesses, answers = _small_lists()
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache directory should be")
    matrix = pattern_matrix(guesses, answers, cache_dir=blocker / "cache")
    assert matrix[guesses.index["speed"], answers.index["abide"]] == score("speed", "abide")
