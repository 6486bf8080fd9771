"""Short definitions of words, from a licensed offline dictionary shipped beside the word
lists (``wordlists/<language>/definitions.tsv``; English from Princeton WordNet 3.0, Italian
from ItalWordNet and MultiWordNet, German from German Wiktionary: ``wordlists/README.md``,
"Definitions", says how each is made). A language without such a file has no definitions:
:func:`definition` answers ``None``, and nothing is shown. A sense's part of speech is ""
where its dictionary names none (German Wiktionary's glosses).

A definition says nothing of any game: whether a word is an answer is the services' business,
and they show a game's answer's definition only once the game is over.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from wordlists import DIRECTORY


@dataclass(frozen=True)
class Sense:
    """One meaning: its part of speech (``noun``, ``verb``, ``adjective``, ``adverb``, or ""
    where the dictionary names none) and gloss."""

    part: str
    gloss: str


@dataclass(frozen=True)
class Definition:
    word: str
    senses: tuple[Sense, ...]
    source: str  # the dictionary and its licence, to be shown with it

    def to_json(self) -> dict[str, object]:
        return {
            "word": self.word,
            "senses": [{"part": sense.part, "gloss": sense.gloss} for sense in self.senses],
            "source": self.source,
        }


@cache
def _dictionary(path: Path) -> tuple[str, dict[str, list[str]]]:
    """The file's source line and, by word, its senses' lines (``part<TAB>gloss``), read
    once; a word's :class:`Sense` objects are made when it is looked up (English's 49,000
    senses, read at every process's start, took 0.20 s of CPU as objects, 0.08 s as lines)."""
    if not path.is_file():
        return "", {}
    source = ""
    found: dict[str, list[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# source\t"):
            source = line.partition("\t")[2]
            continue
        word, _, sense = line.partition("\t")
        found.setdefault(word, []).append(sense)
    return source, found


def definition(word: str, language: str = "en", directory: Path = DIRECTORY) -> Definition | None:
    """The word's definition in ``language``, or ``None`` where the dictionary has none (or
    there is no dictionary for that language)."""
    if not language.isalpha():
        return None
    source, words = _dictionary(directory / language / "definitions.tsv")
    word = _typed(word, language)
    lines = words.get(word)
    if not lines:
        return None
    senses = tuple(Sense(*line.split("\t", 1)) for line in lines)
    return Definition(word, senses, source)


def preload(language: str, directory: Path = DIRECTORY) -> None:
    """Read the language's dictionary now (a process's start, off its event loop), not at the
    first definition asked for: English takes some 80 ms of a core to read."""
    if language.isalpha():
        _dictionary(directory / language / "definitions.tsv")


def _typed(word: str, language: str) -> str:
    """A typed word as the dictionary keys it: the language's playing form (NFC, lower case,
    its accents folded as its lists fold them: Italian ``città`` is ``citta``)."""
    from engine.variants import REGISTRY  # the word lists' registry: only when asked
    from engine.words import LookAlikeError, normalise

    known = REGISTRY.languages.get(language)
    if known is None:
        return word.strip().lower()
    try:
        return normalise(word, known.alphabet, known.fold)
    except LookAlikeError:  # no word of the dictionary: let the lookup say so
        return word.strip().lower()


__all__ = ["Definition", "Sense", "definition", "preload"]
