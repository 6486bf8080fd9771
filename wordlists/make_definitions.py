"""Make ``en/definitions.tsv``: a short definition of every word of the English lists, from
Princeton WordNet 3.0 (its licence is in ``en/LICENSE-wordnet``, and must travel with it).

Run once, by hand, with WordNet's database files at hand (Debian ships them)::

    apt-get download wordnet-base && dpkg -x wordnet-base_*.deb /tmp/wn
    python wordlists/make_definitions.py /tmp/wn/usr/share/wordnet

Only words of our lists are kept (``wordle-allowed.txt``, ``wordle-nyt-allowed.txt`` and
``en/*-allowed.txt``), so the file stays small. For each word at most two senses: the first
sense WordNet lists (its most frequent) for each part of speech, parts of speech ordered by how
often WordNet's tagged corpus saw the word in them; senses that name a person or a place (the
word capitalised in WordNet: "Crane", the poet) are passed over. A gloss keeps its definition
and drops its quoted examples. Lines: ``word<TAB>pos<TAB>gloss``, the first line ``# source``.
"""

import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PARTS = {"noun": "noun", "verb": "verb", "adj": "adjective", "adv": "adverb"}
SENSES = 2
SOURCE = "Princeton WordNet 3.0 (wordnet.princeton.edu), WordNet 3.0 licence"


def our_words() -> set[str]:
    files = [HERE / "wordle-allowed.txt", HERE / "wordle-nyt-allowed.txt"]
    files += sorted((HERE / "en").glob("*-allowed.txt"))
    return {word for path in files for word in path.read_text().split()}


def gloss(line: str) -> tuple[list[str], str]:
    """The lemmas of a data line's synset (as written) and its definition, examples dropped."""
    fields, _, text = line.partition(" | ")
    parts = fields.split()
    count = int(parts[3], 16)
    lemmas = [parts[4 + 2 * i] for i in range(count)]
    definition = re.split(r';\s*"', text.strip(), maxsplit=1)[0].strip().rstrip(";").strip()
    return lemmas, definition


def senses(wordnet: Path, words: set[str]) -> dict[str, list[tuple[int, str, str]]]:
    found: dict[str, list[tuple[int, str, str]]] = {}
    for part, name in PARTS.items():
        data = (wordnet / f"data.{part}").read_bytes().decode("utf-8")
        for line in (wordnet / f"index.{part}").read_text().splitlines():
            if line.startswith(" "):
                continue
            fields = line.split()
            word = fields[0]
            if word not in words:
                continue
            pointers = int(fields[3])
            tagged = int(fields[5 + pointers])
            for offset in fields[6 + pointers :]:
                lemmas, definition = gloss(data[int(offset) : data.index("\n", int(offset))])
                if word in {lemma.split("(")[0] for lemma in lemmas} and definition:
                    found.setdefault(word, []).append((tagged, name, definition))
                    break
    return found


def main(wordnet: Path) -> None:
    lines = [f"# source\t{SOURCE}\n"]
    for word, options in sorted(senses(wordnet, our_words()).items()):
        options.sort(key=lambda sense: -sense[0])  # stable: noun, verb, adjective, adverb
        lines += [f"{word}\t{part}\t{text}\n" for _, part, text in options[:SENSES]]
    (HERE / "en" / "definitions.tsv").write_text("".join(lines))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
