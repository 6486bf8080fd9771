import hashlib
import re
from pathlib import Path

import pytest

from engine.variants import VARIANT_NAMES, five_digit_primes, get_variant
from engine.words import LETTERS, WordList, WordListError, load_wordlist, require_subset
from wordlists import DIRECTORY

COUNTS = {
    "wordle-answers.txt": 2315,
    "wordle-allowed.txt": 12972,
    "wordle-nyt-allowed.txt": 14855,
    "wordle-nyt-answers.txt": 3158,
    "profanity-en.txt": 35,
}


def documented_checksums() -> dict[str, str]:
    """The SHA-256 column of wordlists/README.md, by file name."""
    text = (DIRECTORY / "README.md").read_text()
    return dict(re.findall(r"^\| `([\w.-]+\.txt)` \|.*\| `([0-9a-f]{64})` \|$", text, re.M))


@pytest.mark.parametrize("name", sorted(COUNTS))
def test_shipped_lists_match_their_documented_count_and_checksum(name: str) -> None:
    data = (DIRECTORY / name).read_bytes()
    assert hashlib.sha256(data).hexdigest() == documented_checksums()[name]
    assert len(data.decode().splitlines()) == COUNTS[name]


def test_every_shipped_list_is_documented() -> None:
    assert set(documented_checksums()) == {p.name for p in DIRECTORY.glob("*.txt")}


def test_variants_have_the_documented_sizes() -> None:
    wordle, nyt, primel = (get_variant(n) for n in ("wordle", "wordle-nyt", "primel"))
    assert (len(wordle.answers), len(wordle.guesses)) == (2315, 12972)
    assert (len(nyt.answers), len(nyt.guesses)) == (2315, 14855)
    assert set(wordle.guesses.words) <= set(nyt.guesses.words)
    assert (len(primel.answers), len(primel.guesses)) == (8363, 8363)
    era = get_variant("wordle-nyt-era")
    assert (len(era.answers), len(era.guesses)) == (3158, 14855)
    assert len(set(era.answers.words) & set(wordle.answers.words)) == 2315 - 13
    assert VARIANT_NAMES[:4] == ("wordle", "wordle-nyt", "wordle-nyt-era", "primel")


def test_primes_are_exactly_the_five_digit_primes() -> None:
    primes = five_digit_primes()
    assert primes[0] == "10007" and primes[-1] == "99991"
    assert all(all(int(p) % d for d in range(2, 317)) for p in primes[::97])
    assert "10001" not in primes  # 73 x 137
    assert "99989" in primes


def test_encoding_is_alphabet_indices(wordle) -> None:
    row = wordle.answers.array[wordle.answers.index["cigar"]]
    assert [LETTERS[i] for i in row] == list("cigar")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("crane\nslat\n", r"bad\.txt:2: 'slat' has 4 characters, expected 5"),
        ("crane\nsl4te\n", r"bad\.txt:2: 'sl4te' contains '4'"),
        ("crane\nSLATE\n", r"bad\.txt:2: 'SLATE' contains 'S'"),
        ("crane\nslate\ncrane\n", r"bad\.txt:3: 'crane' repeats line 1"),
        ("crane\n\nslate\n", r"bad\.txt:2: '' has 0 characters"),
    ],
)
def test_a_bad_list_names_file_and_line(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(content)
    with pytest.raises(WordListError, match=message):
        load_wordlist(path, 5, LETTERS)


def test_answers_must_be_allowed_guesses(tmp_path: Path) -> None:
    (tmp_path / "answers.txt").write_text("crane\nslate\n")
    answers = load_wordlist(tmp_path / "answers.txt", 5, LETTERS)
    guesses = WordList.from_words("guesses", ["crane"], 5, LETTERS)
    with pytest.raises(WordListError, match=r"answers\.txt:2: answer 'slate' is not in"):
        require_subset(answers, guesses)
