"""Make ``it/definitions.tsv``: short Italian definitions, written in Italian, of the words of
the Italian lists, from the two Italian wordnets of the Open Multilingual Wordnet
(github.com/omwn/omw-data): ItalWordNet (``wns/iwn``, ODC-BY 1.0) and MultiWordNet
(``wns/ita``, CC BY 3.0). Their licence notices travel with the file
(``it/LICENSE-italwordnet``, ``it/LICENSE-multiwordnet``).

Run once, by hand, with a clone of omw-data and Princeton WordNet 3.0's index files at hand
(a bare clone is enough; the wordnets' synsets are WordNet 3.0's, named by offset)::

    git clone --bare https://github.com/omwn/omw-data /tmp/omw-data
    apt-get download wordnet-base && dpkg -x wordnet-base_*.deb /tmp/wn
    python wordlists/make_definitions_omw.py /tmp/omw-data /tmp/wn/usr/share/wordnet [COMMIT]

Only words of ``it/*-allowed.txt`` are kept. A wordnet lemma becomes a word of ours as the
lists make their words: NFC, lower case, accents folded by ``languages.json``'s fold map
("città" -> "citta"); lemmas with capitals (names of people and places), spaces or other
letters are passed over. Each synset's ``ita:def`` gloss (ItalWordNet's first, then
MultiWordNet's; glosses that are only a Wikipedia address dropped) defines each of its lemmas.
The Italian wordnets rank no senses, so a sense is ranked by how often WordNet 3.0's tagged
corpus saw its synset in English (``cntlist.rev``: "casa" the building, seen as "house" 157
times, before "casa" the place of origin), then a lemma spelt
exactly as the word (no folded accent) before one that folds to it, ItalWordNet before
MultiWordNet. For each word at most two senses: the best of each part of speech, parts ordered
by how many senses the word has in them. Lines:
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


def english_uses(wordnet: Path) -> dict[str, int]:
    """Each WordNet 3.0 synset ("02084071-n"), how often WordNet's tagged corpus saw it: the
    tag counts (``cntlist.rev``) of its English senses, summed."""
    counts: dict[str, int] = {}
    for line in (wordnet / "cntlist.rev").read_text().splitlines():
        key, _, count = line.split()
        # lemma%type:file:id, the head of an adjective satellite's key dropped
        name = ":".join(key.split(":")[:3])
        counts[name] = counts.get(name, 0) + int(count)
    uses: dict[str, int] = {}
    for part in ("noun", "verb", "adj", "adv"):
        for line in (wordnet / f"data.{part}").read_text(encoding="utf-8").splitlines():
            if line.startswith(" "):
                continue
            fields = line.split()
            offset, filenum, kind = fields[0], fields[1], fields[2]
            number = {"n": 1, "v": 2, "a": 3, "s": 5, "r": 4}[kind]
            total = 0
            for i in range(int(fields[3], 16)):
                lemma = fields[4 + 2 * i].split("(")[0].lower()
                lex_id = int(fields[5 + 2 * i], 16)
                total += counts.get(f"{lemma}%{number}:{filenum}:{lex_id:02d}", 0)
            uses[f"{offset}-{'a' if kind == 's' else kind}"] = total
    return uses


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


def main(omw: Path, wordnet: Path, commit: str = "HEAD", language: str = "it") -> None:
    fold, alphabet = folder(language)
    uses = english_uses(wordnet)
    words = our_words(language)
    tabs = [read_tab(omw, commit, f"wns/{name}/{file}") for name, file in WORDNETS]
    glosses: dict[str, str] = {}
    for _, found in tabs:  # each synset's gloss from the first wordnet that has one
        for synset, text in found.items():
            glosses.setdefault(synset, text)
    # word -> [(minus English uses, folded?, wordnet rank, order seen, part, gloss)]
    candidates: dict[str, list[tuple[int, bool, int, int, str, str]]] = {}
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
                english = -uses.get(synset.replace("-s", "-a"), 0)
                entry = (english, word != lemma, rank, len(seen), part, gloss)
                candidates.setdefault(word, []).append(entry)
    lines = [f"# source\t{SOURCE}\n"]
    for word, options in sorted(candidates.items()):
        options.sort()
        count = {part: sum(o[4] == part for o in options) for part in ORDER}
        parts = sorted({o[4] for o in options}, key=lambda p: (-count[p], ORDER.index(p)))
        chosen = [next(o for o in options if o[4] == part) for part in parts[:SENSES]]
        lines += [f"{word}\t{part}\t{gloss}\n" for *_, part, gloss in chosen]
    (HERE / language / "definitions.tsv").write_text("".join(lines))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]), *(sys.argv[3:4] or ["HEAD"]))
