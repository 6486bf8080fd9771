"""Make ``it/definitions.tsv``: short Italian definitions, written in Italian, of the words of
the Italian lists, from the two Italian wordnets of the Open Multilingual Wordnet
(github.com/omwn/omw-data): ItalWordNet (``wns/iwn``, ODC-BY 1.0) and MultiWordNet
(``wns/ita``, CC BY 3.0). Their licence notices travel with the file
(``it/LICENSE-italwordnet``, ``it/LICENSE-multiwordnet``).

Run once, by hand, with a clone of omw-data at hand (a bare clone is enough)::

    git clone --bare https://github.com/omwn/omw-data /tmp/omw-data
    python wordlists/make_definitions_omw.py /tmp/omw-data [COMMIT]

Only words of ``it/*-allowed.txt`` are kept. A wordnet lemma becomes a word of ours as the
lists make their words: NFC, lower case, accents folded by ``languages.json``'s fold map
("città" -> "citta"); lemmas with capitals (names of people and places), spaces or other
letters are passed over. Each synset's ``ita:def`` gloss (ItalWordNet's first, then
MultiWordNet's; glosses that are only a Wikipedia address dropped) defines each of its lemmas.
The wordnets rank no senses, so for each word at most two: the first sense of each part of
speech, parts ordered by how many senses the word has in them, a lemma spelt exactly as the
word (no folded accent) before one that folds to it, ItalWordNet before MultiWordNet. Lines:
``word<TAB>pos<TAB>gloss``, the first line ``# source``.
"""

import json
import subprocess
import sys
import unicodedata
from pathlib import Path

HERE = Path(__file__).resolve().parent
PARTS = {"n": "noun", "v": "verb", "a": "adjective", "s": "adjective", "r": "adverb"}
ORDER = ["noun", "verb", "adjective", "adverb"]
SENSES = 2
# (folder in omw-data, file): ItalWordNet first, its glosses the cleaner
WORDNETS = [("iwn", "wn-data-ita.tab"), ("ita", "wn-data-ita.tab")]
SOURCE = (
    "ItalWordNet (ODC-BY 1.0) and MultiWordNet (CC BY 3.0), "
    "via the Open Multilingual Wordnet (github.com/omwn/omw-data)"
)


def our_words(language: str) -> set[str]:
    files = sorted((HERE / language).glob("*-allowed.txt"))
    return {word for path in files for word in path.read_text().split()}


def folder(language: str) -> tuple[dict[str, str], set[str]]:
    entry = next(
        e for e in json.loads((HERE / "languages.json").read_text()) if e["code"] == language
    )
    return entry["fold"], set(entry["alphabet"])


def playing_form(lemma: str, fold: dict[str, str], alphabet: set[str]) -> str | None:
    if lemma != lemma.lower():
        return None
    word = "".join(fold.get(c, c) for c in unicodedata.normalize("NFC", lemma))
    return word if word and set(word) <= alphabet else None


def read_tab(omw: Path, commit: str, path: str) -> tuple[dict[str, list[str]], dict[str, str]]:
    """A wordnet's lemmas by synset and each synset's first gloss."""
    text = subprocess.run(
        ["git", "--git-dir", str(omw), "show", f"{commit}:{path}"],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    lemmas: dict[str, list[str]] = {}
    glosses: dict[str, str] = {}
    for line in text.splitlines():
        fields = line.split("\t")
        if line.startswith("#") or len(fields) < 3:
            continue
        if fields[1].endswith("lemma"):
            lemmas.setdefault(fields[0], []).append(fields[2].strip())
        elif fields[1].endswith(":def") and len(fields) >= 4:
            gloss = " ".join(fields[3].split()).strip().rstrip(";").strip()
            if gloss and "wikipedia.org" not in gloss and fields[0] not in glosses:
                glosses[fields[0]] = gloss
    return lemmas, glosses


def main(omw: Path, commit: str = "HEAD", language: str = "it") -> None:
    fold, alphabet = folder(language)
    words = our_words(language)
    tabs = [read_tab(omw, commit, f"wns/{name}/{file}") for name, file in WORDNETS]
    glosses: dict[str, str] = {}
    for _, found in tabs:
        for synset, gloss in found.items():
            glosses.setdefault(synset, gloss)
    # word -> [(folded?, wordnet rank, order seen, part, gloss)]
    candidates: dict[str, list[tuple[bool, int, int, str, str]]] = {}
    seen: set[tuple[str, str]] = set()
    for rank, (lemmas, _) in enumerate(tabs):
        for synset, names in lemmas.items():
            gloss = glosses.get(synset)
            part = PARTS.get(synset[-1])
            if gloss is None or part is None:
                continue
            for lemma in names:
                word = playing_form(lemma, fold, alphabet)
                if word not in words or (word, synset) in seen:
                    continue
                seen.add((word, synset))
                entry = (word != lemma, rank, len(seen), part, gloss)
                candidates.setdefault(word, []).append(entry)
    lines = [f"# source\t{SOURCE}\n"]
    for word, options in sorted(candidates.items()):
        options.sort()
        count = {part: sum(o[3] == part for o in options) for part in ORDER}
        parts = sorted({o[3] for o in options}, key=lambda p: (-count[p], ORDER.index(p)))
        chosen = [next(o for o in options if o[3] == part) for part in parts[:SENSES]]
        lines += [f"{word}\t{part}\t{gloss}\n" for *_, part, gloss in chosen]
    (HERE / language / "definitions.tsv").write_text("".join(lines))


if __name__ == "__main__":
    main(Path(sys.argv[1]), *(sys.argv[2:3] or ["HEAD"]))
