"""The engine at word lengths 4 to 11 and over alphabets beyond A-Z: scoring, the matrix,
hard mode, input normalisation, the variant registry and every solver on synthetic lists."""

from __future__ import annotations

import functools
import hashlib
import json
import random
import unicodedata
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine.variants
from engine.absurdle import AbsurdleGame
from engine.answer_model import AnswerModel
from engine.game import Status, WordleGame
from engine.history import HistoryError, parse_history
from engine.matrix import build_pattern_matrix, pattern_dtype, pattern_matrix
from engine.multiboard import MultiGame
from engine.pattern import from_tiles, score, tiles, to_digits, winning
from engine.rules import Mode, check_guess, hard_mode_problem, is_consistent, upper
from engine.solver.absurdle import minimax_step, shortest_win
from engine.solver.coach import coach, coach_worst_case
from engine.solver.exact import ExactSearch, SearchSettings
from engine.solver.greedy import best_guess, rank_guesses
from engine.solver.hints import hint
from engine.solver.measures import Measure, bucket_counts, compact, score_patterns
from engine.solver.multiboard import simulate
from engine.solver.position import Position
from engine.solver.weighted import model_coach, model_hint
from engine.variants import Registry, UnknownVariantError, Variant, get_variant, variant_name
from engine.words import LETTERS, LookAlikeError, WordList, encode, normalise

ACCENTED = "aeioué"  # few letters: repeated letters in nearly every word
SPANISH = "abcdefghijklmnñopqrstuvwxyz"
GERMAN = "abcdefghijklmnopqrstuvwxyzäöüß"
POLISH = "aąbcćdeęfghijklłmnńoóprsśtuwyzźż"
ALPHABETS = [ACCENTED, "ab", "abç", SPANISH, GERMAN, POLISH]


def reference_score(guess: str, answer: str) -> list[int]:
    """The rule stated plainly, tile by tile: greens, then each other letter takes a
    yellow while the answer still has that letter unaccounted for."""
    tiles_ = [2 if g == a else 0 for g, a in zip(guess, answer, strict=True)]
    left = Counter(a for a, t in zip(answer, tiles_, strict=True) if t == 0)
    for i, g in enumerate(guess):
        if tiles_[i] == 0 and left[g] > 0:
            tiles_[i], left[g] = 1, left[g] - 1
    return tiles_


def words_of(alphabet: str, length: int) -> st.SearchStrategy[str]:
    return st.text(alphabet, min_size=length, max_size=length)


@settings(max_examples=300, deadline=None)
@given(length=st.integers(4, 11), alphabet=st.sampled_from(ALPHABETS), data=st.data())
def test_score_and_matrix_follow_the_plain_rule(length: int, alphabet: str, data) -> None:
    guesses = data.draw(st.lists(words_of(alphabet, length), min_size=1, max_size=8))
    answers = data.draw(st.lists(words_of(alphabet, length), min_size=1, max_size=8))
    expected = [[from_tiles(reference_score(g, a)) for a in answers] for g in guesses]
    assert [[score(g, a) for a in answers] for g in guesses] == expected
    matrix = build_pattern_matrix(
        encode(guesses, alphabet, length), encode(answers, alphabet, length), len(alphabet)
    )
    assert matrix.dtype == pattern_dtype(length)
    assert matrix.tolist() == expected
    assert tiles(expected[0][0], length) == reference_score(guesses[0], answers[0])


def test_pattern_types_by_length() -> None:
    assert [pattern_dtype(n) for n in (4, 5, 6, 10, 11)] == [
        np.uint8, np.uint8, np.uint16, np.uint16, np.uint32
    ]  # fmt: skip
    assert winning(11) == 3**11 - 1 == 177_146
    assert to_digits(winning(11), 11) == "2" * 11


def test_the_matrix_holds_eleven_letter_patterns_past_two_bytes() -> None:
    guess, answer = "ééééééééééé", "aaaaaaaaaaé"
    matrix = build_pattern_matrix(
        encode([guess, answer], ACCENTED, 11), encode([answer], ACCENTED, 11), len(ACCENTED)
    )
    assert matrix[:, 0].tolist() == [score(guess, answer), winning(11)]
    assert matrix[1, 0] > np.iinfo(np.uint16).max


@settings(max_examples=200, deadline=None)
@given(data=st.data(), length=st.integers(4, 11), alphabet=st.sampled_from(ALPHABETS))
def test_hard_mode_accepts_exactly_the_words_keeping_greens_and_revealed_counts(
    data, length: int, alphabet: str
) -> None:
    word = words_of(alphabet, length)
    answer = data.draw(word)
    history = [(g, score(g, answer)) for g in data.draw(st.lists(word, max_size=3))]
    candidate = data.draw(word)
    greens_kept = all(
        candidate[i] == g
        for guess, pattern in history
        for i, (g, t) in enumerate(zip(guess, tiles(pattern, length), strict=True))
        if t == 2
    )
    counts_kept = all(
        Counter(candidate)[letter] >= shown
        for guess, pattern in history
        for letter, shown in Counter(
            g for g, t in zip(guess, tiles(pattern, length), strict=True) if t
        ).items()
    )
    assert (hard_mode_problem(candidate, history) is None) == (greens_kept and counts_kept)
    assert hard_mode_problem(answer, history) is None  # the answer always obeys the clues
    assert is_consistent(answer, history)


def test_hard_mode_messages_name_the_eleventh_letter_and_sharp_s_in_one_capital() -> None:
    """Letters are named as the tiles show them: ẞ, as É, never SS (issue 39.7)."""
    history = [("aaaaaaaaaaé", score("aaaaaaaaaaé", "ééééééééééé"))]
    assert hard_mode_problem("ééééééééééa", history) == "11th letter must be É"
    assert hard_mode_problem("aßaa", [("ßbbb", score("ßbbb", "ßccc"))]) == "1st letter must be ẞ"
    assert hard_mode_problem("cccc", [("bßbb", score("bßbb", "ßccc"))]) == "Guess must contain ẞ"


def test_ascii_lists_keep_their_checksum_so_caches_stay_valid() -> None:
    words = ("cigar", "rebut", "sissy")
    listed = WordList.from_words("x", words, 5, LETTERS)
    assert listed.sha256 == hashlib.sha256(b"cigar\nrebut\nsissy\n").hexdigest()
    accented = WordList.from_words("y", ("ñandú",), 5, SPANISH + "ú")
    assert accented.sha256 == hashlib.sha256("ñandú\n".encode()).hexdigest()


def test_encode_maps_any_alphabet_and_refuses_what_is_outside() -> None:
    assert encode(["ñß", "aß"], "aßñ", 2).tolist() == [[2, 1], [0, 1]]
    with pytest.raises(ValueError, match="outside"):
        encode(["ab"], "aß", 2)


# -- normalisation --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "alphabet", "fold", "word"),
    [
        ("  CRANE ", LETTERS, {}, "crane"),
        ("STRASSE", GERMAN, {}, "strasse"),
        ("Straße", GERMAN, {}, "straße"),  # ß is a letter here: kept
        ("Straße", LETTERS, {}, "strasse"),  # not here: casefolded
        ("AÇÃO", LETTERS, {"ç": "c", "ã": "a"}, "acao"),  # Termo: type accents or not
        ("acao", LETTERS, {"ç": "c", "ã": "a"}, "acao"),
        ("nin\u0303o", SPANISH, {}, "niño"),  # decomposed ñ is composed first
        ("ÑANDÚ", SPANISH, {"ú": "u"}, "ñandu"),
    ],
)
def test_normalise(typed: str, alphabet: str, fold: dict[str, str], word: str) -> None:
    assert normalise(typed, alphabet, fold) == word


@pytest.mark.parametrize(
    ("typed", "named"),
    [("cr\u0430ne", "'\u0430' (Cyrillic)"), ("cr\u03bfne", "'\u03bf' (Greek)"),
     ("\uff43rane", "'\uff43' (fullwidth)")],
)  # fmt: skip
def test_look_alike_letters_are_refused_by_name(typed: str, named: str) -> None:
    with pytest.raises(LookAlikeError, match="looks like a Latin letter"):
        normalise(typed, LETTERS)
    verdict = check_guess(get_variant("wordle"), typed)
    assert verdict.message is not None and verdict.message.startswith(named)
    with pytest.raises(HistoryError, match=r"Cyrillic|Greek|fullwidth"):
        parse_history(f"{typed} 00000", get_variant("wordle"))


@functools.cache
def other_digits_and_letters() -> tuple[list[str], list[str]]:
    """Every digit of another script or form (fullwidth, mathematical, Arabic-Indic...), and
    every Greek and Cyrillic letter: the whole space, it is small (read when first asked:
    a walk over Unicode costs 0.4 s)."""
    digits = [chr(c) for c in range(0x80, 0x110000) if unicodedata.category(chr(c)) == "Nd"]
    letters = [ch for ch in map(chr, range(0x370, 0x530)) if ch.isalpha()
               and unicodedata.name(ch).startswith(("GREEK", "CYRILLIC"))
               and unicodedata.is_normalized("NFC", ch.lower())]  # fmt: skip
    return digits, letters


@pytest.mark.parametrize("alphabet", [LETTERS, "0123456789"])
def test_a_look_alike_is_called_a_digit_or_a_letter_for_what_it_is(alphabet: str) -> None:
    """Issue 39.7: a fullwidth 1 typed in Wordle is a digit, a Cyrillic a typed in Primel a
    letter: the refusal follows the character, not the game."""
    digits, letters = other_digits_and_letters()
    assert len(digits) > 600 and len(letters) > 300
    for characters, said in ((digits, "looks like a digit"),
                             (letters, "looks like a Latin letter")):  # fmt: skip
        for ch in characters:
            with pytest.raises(LookAlikeError) as refused:
                normalise(f"ab{ch}", alphabet)
            assert str(refused.value).startswith(repr(ch.lower())) and said in str(refused.value)


def test_plain_mistakes_keep_the_original_messages(wordle, primel) -> None:
    assert check_guess(wordle, "cr4ne").message == "Use only letters A to Z"
    assert check_guess(primel, "abcde").message == "Use only digits 0 to 9"
    assert check_guess(wordle, "crânes").message == "Use only letters A to Z"


# -- the registry ---------------------------------------------------------------------


def _write_lists(root: Path, code: str, length: int, alphabet: str, seed: int,
                 answers: int, allowed: int) -> None:  # fmt: skip
    rng = random.Random(seed)
    words: set[str] = set()
    while len(words) < allowed:
        words.add("".join(rng.choice(alphabet) for _ in range(length)))
    ordered = sorted(words)
    folder = root / code
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{length}-allowed.txt").write_text("".join(w + "\n" for w in ordered), "utf-8")
    (folder / f"{length}-answers.txt").write_text(
        "".join(w + "\n" for w in rng.sample(ordered, answers)), "utf-8"
    )


SYNTHETIC = "abcdeéèñß"  # accents, ñ and ß, few enough letters to repeat


def _languages(root: Path, lengths: list[int]) -> None:
    entry = {
        "code": "xa", "name": "Xa", "english_name": "Synthetic", "alphabet": SYNTHETIC,
        "fold": {"ê": "e"}, "keyboard": ["abcde", "éèñß"], "lengths": lengths,
        "clone": "none", "accents": "é and è are letters; ê is typed as e.",
    }  # fmt: skip
    (root / "languages.json").write_text(json.dumps([entry]), "utf-8")


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory) -> Iterator[Registry]:
    """A word-list directory of one synthetic language in lengths 4, 8 and 11, installed
    as the registry :func:`get_variant` reads (the multi-board solver looks names up)."""
    root = tmp_path_factory.mktemp("wordlists")
    _languages(root, [4, 8, 11, 9])  # 9 is listed but has no files: not a variant
    for length, seed in ((4, 1), (8, 2), (11, 3)):
        _write_lists(root, "xa", length, SYNTHETIC, seed, answers=60, allowed=400)
    (root / "xa" / "4-display.tsv").write_text("", "utf-8")
    shipped = engine.variants.REGISTRY
    engine.variants.REGISTRY = registry = Registry(root)
    yield registry
    engine.variants.REGISTRY = shipped


def test_registry_lists_the_languages_lengths_after_the_built_in_games(synthetic) -> None:
    assert synthetic.names == (
        "wordle", "wordle-nyt", "wordle-nyt-era", "primel",
        "wordle-xa-4", "wordle-xa-8", "wordle-xa-11",
    )  # fmt: skip
    variant = synthetic.get("wordle-xa-11")
    assert (variant.language, variant.length, len(variant.answers)) == ("xa", 11, 60)
    assert variant.keyboard == ("abcde", "éèñß")
    assert variant.normalise("ÊÉÈ") == "eéè"
    assert synthetic.get("wordle-xa-11") is variant  # read once
    with pytest.raises(UnknownVariantError, match="wordle-xa-9"):
        synthetic.get("wordle-xa-9")
    assert variant_name("en", 5) == "wordle" and variant_name("es", 6) == "wordle-es-6"


def test_a_directory_without_languages_has_the_built_in_games_only(tmp_path) -> None:
    assert Registry(tmp_path).names == ("wordle", "wordle-nyt", "wordle-nyt-era", "primel")


def test_display_spellings_are_read_and_checked(tmp_path) -> None:
    _languages(tmp_path, [4])
    _write_lists(tmp_path, "xa", 4, "abc", 5, answers=3, allowed=10)
    word = (tmp_path / "xa" / "4-allowed.txt").read_text("utf-8").split()[0]
    (tmp_path / "xa" / "4-display.tsv").write_text(f"{word}\té{word[1:]}\n", "utf-8")
    variant = Registry(tmp_path).get("wordle-xa-4")
    assert variant.shown(word) == "é" + word[1:]
    other = next(w for w in variant.guesses.words if w != word)
    assert variant.shown(other) == other
    (tmp_path / "xa" / "4-display.tsv").write_text("zzzz\tzzzz\n", "utf-8")
    with pytest.raises(ValueError, match="display"):
        Registry(tmp_path).get("wordle-xa-4")


# -- every solver on synthetic lists --------------------------------------------------


@pytest.mark.parametrize("length", [4, 8, 11])
def test_games_and_solvers_run_at_every_length(synthetic, length: int) -> None:
    variant = get_variant(f"wordle-xa-{length}")
    answer = variant.answers.words[7]
    game = WordleGame(variant, answer, Mode.HARD)
    position = Position.start(variant, Mode.HARD)
    while not game.over:
        guess = variant.guesses.words[best_guess(position, Measure.ENTROPY)]
        outcome = game.guess("".join(map(upper, guess)))  # typed in capitals: ẞ reads as ß
        assert outcome.accepted, outcome.message
        position = position.play(outcome.word, outcome.pattern)
    assert game.status is Status.WON
    assert WordleGame.from_dict(game.to_dict()).rows == game.rows

    first = game.rows[:1]
    shown = hint(variant, first, Mode.HARD)
    assert answer in shown.candidates
    assert shown.remaining == sum(is_consistent(w, first) for w in variant.answers.words)
    for measure in Measure:
        ranking = rank_guesses(Position.start(variant), measure, top=3)
        assert len(ranking.guesses) == 3

    coaching = coach(variant, game.rows)
    assert coaching.won and coaching.turns[0].before == len(variant.answers)
    assert coach_worst_case(variant, game.rows).won

    model = AnswerModel(variant, np.full(len(variant.guesses), 1 / len(variant.guesses)))
    assert answer in model_hint(model, first).candidates
    assert model_coach(model, game.rows).won

    total, tree = ExactSearch(variant, settings=SearchSettings(2, 2)).solve()
    assert tree.size == len(variant.answers) and total >= 2 * len(variant.answers) - 1

    absurd = AbsurdleGame(variant)
    while not absurd.over:
        absurd.guess(minimax_step(Position.after(variant, absurd.rows)))
    assert absurd.status is Status.WON
    assert shortest_win(variant, max_guesses=3, width=5).steps

    multi = MultiGame(variant, list(variant.answers.words[:4]))
    assert multi.guess(variant.answers.words[0]).accepted
    figures = simulate("quordle", "finish", 2, seed=1, variant_name=variant.name)
    assert figures["games"] == 2


def test_eleven_letter_measures_are_those_of_the_plain_count(synthetic) -> None:
    """Beyond six letters buckets are counted under relabelled patterns: same sizes."""
    variant = get_variant("wordle-xa-11")
    rows = np.asarray(variant.matrix_by_answer)[:, :300]
    labels, width = compact(rows, 3**11)
    assert width == len(variant.answers)
    for g in range(0, 300, 37):
        plain = sorted(Counter(rows[:, g].tolist()).values())
        assert sorted(c for c in bucket_counts(rows[:, [g]], 3**11)[0] if c) == plain
        assert sorted(Counter(labels[:, g].tolist()).values()) == plain
    scores = score_patterns(rows, 3**11)
    sizes = np.array([len(set(rows[:, g].tolist())) for g in range(300)])
    assert scores.parts.tolist() == sizes.tolist()


def test_the_cached_matrix_is_mapped_and_equals_the_build(synthetic, tmp_path) -> None:
    variant = get_variant("wordle-xa-11")
    built = pattern_matrix(variant.guesses, variant.answers, use_cache=False)
    first = pattern_matrix(variant.guesses, variant.answers, cache_dir=tmp_path)
    again = pattern_matrix(variant.guesses, variant.answers, cache_dir=tmp_path)
    assert isinstance(again, np.memmap) and again.dtype == np.uint32
    assert np.array_equal(first, built) and np.array_equal(again, built)
    words = variant.guesses.words
    assert built[5, 9] == score(words[5], variant.answers.words[9])


def test_variant_fields_of_the_shipped_games(wordle, primel) -> None:
    assert (wordle.language, wordle.keyboard[0], wordle.fold) == ("en", "qwertyuiop", {})
    assert primel.language == "zxx" and primel.unit == "digit"
    assert isinstance(wordle, Variant)
