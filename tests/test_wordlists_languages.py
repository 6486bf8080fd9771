"""The per-language word lists (wordlists/<lang>/) and wordlists/languages.json (issue 30).

Only the committed files are read: the lists were made by wordlists/generate.py from Hunspell,
the LibreOffice thesauri, wordfreq and LDNOOBW (wordlists/README.md), none needed here.
"""

import json
import unicodedata
from pathlib import Path

import pytest

from wordlists import DIRECTORY

LANGUAGES = json.loads((DIRECTORY / "languages.json").read_text(encoding="utf-8"))
BY_CODE = {entry["code"]: entry for entry in LANGUAGES}
# English 5 is the existing `wordle` variant: its lists stay where they were.
ENGLISH_FIVE = (DIRECTORY / "wordle-answers.txt", DIRECTORY / "wordle-allowed.txt")
VARIANTS = [(e["code"], n) for e in LANGUAGES for n in e["lengths"] if (e["code"], n) != ("en", 5)]
GIB = 1 << 30


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def lists(code: str, length: int) -> tuple[list[str], list[str]]:
    folder = DIRECTORY / code
    if (code, length) == ("en", 5):
        return lines(ENGLISH_FIVE[0]), lines(ENGLISH_FIVE[1])
    return lines(folder / f"{length}-answers.txt"), lines(folder / f"{length}-allowed.txt")


def playform(entry: dict, word: str) -> str:
    word = unicodedata.normalize("NFC", word).lower()
    return "".join(entry["fold"].get(letter, letter) for letter in word)


def pattern_bytes(length: int) -> int:
    return 1 if length <= 5 else 2 if length <= 10 else 4


def test_the_languages_are_english_and_six_more_with_five_and_six_letters() -> None:
    assert {"en", "es", "pt", "fr", "de", "it", "pl"} <= set(BY_CODE)
    assert len(BY_CODE) == len(LANGUAGES)
    assert BY_CODE["en"]["lengths"] == list(range(4, 12))
    for entry in LANGUAGES:
        assert {5, 6} <= set(entry["lengths"]) and entry["lengths"] == sorted(entry["lengths"])
        assert all(4 <= n <= 11 for n in entry["lengths"])
        for key in ("name", "english_name", "clone", "accents"):
            assert isinstance(entry[key], str) and entry[key].strip()


@pytest.mark.parametrize("code", sorted(BY_CODE))
def test_each_language_folder_holds_exactly_its_lengths(code: str) -> None:
    entry = BY_CODE[code]
    expected = {"profanity.txt"}
    if code == "en":  # English's dictionary for /define (wordlists/README.md), and its licence
        expected |= {"definitions.tsv", "LICENSE-wordnet"}
    if code == "it":  # Italian's, from two wordnets whose notices travel with it
        expected |= {"definitions.tsv", "LICENSE-italwordnet", "LICENSE-multiwordnet"}
    if code == "de":  # German's, from German Wiktionary (CC BY-SA 4.0)
        expected |= {"definitions.tsv", "LICENSE-wiktionary"}
    for length in entry["lengths"]:
        if (code, length) != ("en", 5):
            expected |= {f"{length}-answers.txt", f"{length}-allowed.txt"}
            if entry["display"]:
                expected.add(f"{length}-display.tsv")
    assert {p.name for p in (DIRECTORY / code).iterdir()} == expected


@pytest.mark.parametrize("code", sorted(BY_CODE))
def test_alphabet_keyboard_and_fold_agree_with_the_lists(code: str) -> None:
    entry = BY_CODE[code]
    alphabet = entry["alphabet"]
    used = set()
    for length in entry["lengths"]:
        for words in lists(code, length):
            used.update("".join(words))
    assert len(set(alphabet)) == len(alphabet) and set(alphabet) == used
    assert unicodedata.normalize("NFC", alphabet) == alphabet == alphabet.lower()
    keys = "".join(entry["keyboard"])
    assert sorted(keys) == sorted(alphabet)  # every letter exactly once
    for typed, read in entry["fold"].items():
        assert len(typed) == 1 and typed not in alphabet and typed == typed.lower()
        assert read and set(read) <= set(alphabet)


@pytest.mark.parametrize(("code", "length"), VARIANTS)
def test_lists_are_clean_playing_forms(code: str, length: int) -> None:
    entry = BY_CODE[code]
    letters = set(entry["alphabet"])
    answers, allowed = lists(code, length)
    for words in (answers, allowed):
        assert words == sorted(set(words)), "sorted, no duplicates"
        for word in words:
            assert unicodedata.normalize("NFC", word) == word == word.lower()
            assert len(word) == length and set(word) <= letters, word
            assert playform(entry, word) == word  # already folded
    assert set(answers) <= set(allowed)
    assert 200 <= len(answers) <= 3000 and len(allowed) >= len(answers)
    assert len(answers) * len(allowed) * pattern_bytes(length) < GIB


@pytest.mark.parametrize(("code", "length"), VARIANTS)
def test_answers_hold_no_obscene_word(code: str, length: int) -> None:
    # Each language's list, and English's (loanwords), as the generator blocks them.
    blocked = set(lines(DIRECTORY / code / "profanity.txt"))
    blocked |= set(lines(DIRECTORY / "en" / "profanity.txt"))
    answers, _ = lists(code, length)
    assert blocked, "the profanity list is not empty"
    assert not blocked & set(answers)
    assert {"porno", "dildo", "penis"} <= set(lines(DIRECTORY / "en" / "profanity.txt"))


# Portuguese base forms come tagged (singular, infinitive) from the pt_PT dictionary instead.
@pytest.mark.parametrize(("code", "length"), [v for v in VARIANTS if v[0] != "pt"])
def test_answers_are_base_forms(code: str, length: int) -> None:
    """No answer is a plural in -s/-es of another valid word of a shipped length, and no
    English answer a past tense or a present participle of one (README.md: the answers)."""
    answers, _ = lists(code, length)
    valid = set()  # the generated lists (English 5's older list is not Hunspell's)
    for other in BY_CODE[code]["lengths"]:
        if (code, other) != ("en", 5):
            valid.update(lists(code, other)[1])
    for word in answers:
        if word.endswith("s") and not word.endswith("ss"):
            assert word[:-1] not in valid and not (word.endswith("es") and word[:-2] in valid)
        if code == "en" and word.endswith("ed"):
            assert word[:-2] not in valid and word[:-1] not in valid, word
        if code == "en" and word.endswith("ing"):
            assert word[:-3] not in valid and word[:-3] + "e" not in valid, word


@pytest.mark.parametrize("length", BY_CODE["pt"]["lengths"])
def test_portuguese_display(length: int) -> None:
    """Termo's rule: typed without accents, shown with them; one display per playing form."""
    entry = BY_CODE["pt"]
    _, allowed = lists("pt", length)
    rows = [line.split("\t") for line in lines(DIRECTORY / "pt" / f"{length}-display.tsv")]
    assert all(len(row) == 2 for row in rows)
    shown = dict(rows)
    assert len(shown) == len(rows) and set(shown) <= set(allowed)
    for play, display in shown.items():
        assert display != play and playform(entry, display) == play
        assert unicodedata.normalize("NFC", display) == display == display.lower()
    assert shown  # a spelling tie (abalara, abalará: both unknown to wordfreq) keeps the plain one
