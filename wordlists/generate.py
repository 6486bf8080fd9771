"""Regenerate the per-language word lists (``wordlists/<lang>/``) and ``languages.json``.

Run by hand, never at run time (the bot reads the committed files)::

    python wordlists/generate.py --root /tmp/lists-src/root --ldnoobw /tmp/lists-src/ldnoobw

where ``--root`` holds the Hunspell and thesaurus Debian packages unpacked with ``dpkg -x``
and ``--ldnoobw`` a checkout of LDNOOBW; README.md ("Languages and lengths") gives the
commands that fetch them, with the tools (``hunspell``, ``unmunch``, wordfreq: the extra
``lists``), and each source's licence.

Allowed guesses: every word the Hunspell dictionary spells (its affixes expanded by
``unmunch``, plus wordfreq's words, each kept only if ``hunspell -G`` accepts it), in its
playing form (NFC, lower case, accents folded as the language's clone does). Answers: the
most frequent (wordfreq) base forms, i.e. thesaurus words that are entries of the dictionary
itself (pt: tagged entries of pt_PT), not obscene (LDNOOBW, the thesaurus's vulgar marks) and
not proper nouns (capitalised entries are dropped, except German nouns). The run is
deterministic: the same sources give byte-identical files.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from wordfreq import iter_wordlist, zipf_frequency  # type: ignore[import-not-found]

HERE = Path(__file__).resolve().parent
ENGLISH_FIVE = HERE / "wordle-answers.txt"  # English 5 is the existing `wordle` variant
MAX_ANSWERS = 2500
MIN_ZIPF = 2.0  # answers are at least this frequent (about once in ten million words)
MATRIX_LIMIT = 1 << 30

_ACUTE_GRAVE = {"á": "a", "à": "a", "é": "e", "è": "e", "í": "i", "ì": "i", "ó": "o",
                "ò": "o", "ú": "u", "ù": "u"}  # fmt: skip


@dataclass(frozen=True)
class Language:
    code: str
    name: str
    english_name: str
    hunspell: str  # dictionary name under usr/share/hunspell
    thesaurus: str  # file under usr/share/mythes
    keyboard: tuple[str, ...]  # the usual layout's letter rows
    clone: str
    accents: str
    lengths: tuple[int, ...]
    fold: dict[str, str] = field(default_factory=dict)
    capitalised_nouns: bool = False  # German: nouns are written with a capital
    display: bool = False  # the board shows the accented spelling (display.tsv)

    def playform(self, spelling: str) -> str:
        word = unicodedata.normalize("NFC", spelling).lower()
        return "".join(self.fold.get(letter, letter) for letter in word)


_FRENCH_FOLD = {"â": "a", "ä": "a", "ê": "e", "ë": "e", "î": "i", "ï": "i", "ô": "o", "ö": "o",
                "û": "u", "ü": "u", "ÿ": "y", "ç": "c", "œ": "oe", "æ": "ae"}  # fmt: skip
_PORTUGUESE_FOLD = {"â": "a", "ã": "a", "ê": "e", "ô": "o", "õ": "o", "ü": "u", "ç": "c"}
QWERTY = ("qwertyuiop", "asdfghjkl", "zxcvbnm")

LANGUAGES = (
    Language(
        code="en", name="English", english_name="English", hunspell="en_US",
        thesaurus="th_en_US_v2.dat", keyboard=QWERTY, clone="Wordle",
        accents="English has no accents: 26 letters.", lengths=tuple(range(4, 12)),
    ),
    Language(
        code="es", name="Español", english_name="Spanish", hunspell="es_ES",
        thesaurus="th_es_ES_v2.dat", keyboard=("qwertyuiop", "asdfghjklñ", "zxcvbnm"),
        clone="La palabra del día",
        accents="ñ is a letter of its own; á é í ó ú and ü are typed and scored as a e i o u.",
        lengths=(4, 5, 6, 7), fold={**_ACUTE_GRAVE, "ü": "u"},
    ),
    Language(
        code="pt", name="Português (Brasil)", english_name="Brazilian Portuguese",
        hunspell="pt_BR", thesaurus="th_pt_BR.dat", keyboard=QWERTY, clone="Termo",
        accents="As in Termo: typed and scored without accents (ç as c), the board shows the"
        " word's accented spelling.",
        lengths=(4, 5, 6, 7), fold={**_ACUTE_GRAVE, **_PORTUGUESE_FOLD}, display=True,
    ),
    Language(
        code="fr", name="Français", english_name="French", hunspell="fr",
        thesaurus="thes_fr.dat", keyboard=("azertyuiop", "qsdfghjklm", "wxcvbn"), clone="Sutom",
        accents="As in Sutom: accents are dropped (é è ê ë à â î ï ô ù û ü ÿ as plain letters,"
        " ç as c, œ as oe, æ as ae).",
        lengths=(4, 5, 6, 7), fold={**_ACUTE_GRAVE, **_FRENCH_FOLD},
    ),
    Language(
        code="de", name="Deutsch", english_name="German", hunspell="de_DE",
        thesaurus="th_de_DE_v2.dat", keyboard=("qwertzuiopü", "asdfghjklöä", "yxcvbnmß"),
        clone="Wördl",
        accents="ä ö ü and ß are letters of their own, as on a German keyboard; nouns are"
        " played in lower case.",
        lengths=(4, 5, 6, 7), capitalised_nouns=True,
    ),
    Language(
        code="it", name="Italiano", english_name="Italian", hunspell="it_IT",
        thesaurus="th_it_IT_v2.dat", keyboard=QWERTY, clone="Parole",
        accents="As in Parole: accents are dropped (à è é ì ò ù as plain vowels).",
        lengths=(4, 5, 6, 7), fold={**_ACUTE_GRAVE, "î": "i"},
    ),
    Language(
        code="pl", name="Polski", english_name="Polish", hunspell="pl_PL",
        thesaurus="th_pl_PL_v2.dat", keyboard=(*QWERTY, "ąćęłńóśźż"), clone="Literalnie",
        accents="As in Literalnie: ą ć ę ł ń ó ś ź ż are letters of their own.",
        lengths=(4, 5, 6, 7),
    ),
)  # fmt: skip

_TRAILING_GLOSS = re.compile(r"(\s*\([^()]*\))+$")
_VULGAR = re.compile(r"vulg|derb|volgar|wulg|obsc", re.I)


def aff_encoding(aff: Path) -> str:
    match = re.search(rb"^SET\s+(\S+)", aff.read_bytes(), re.M)
    return match.group(1).decode() if match else "ISO8859-1"


def hunspell_words(lang: Language, root: Path) -> set[str]:
    """Every word the dictionary spells, in its own case: unmunch's expansion and wordfreq's
    words, each checked by hunspell itself (unmunch alone also emits forms the dictionary
    forbids, e.g. stems that need an affix)."""
    base = root / "usr/share/hunspell" / lang.hunspell
    aff, dic = base.with_suffix(".aff"), base.with_suffix(".dic")
    out = subprocess.run(["unmunch", str(dic), str(aff)], capture_output=True, check=True)
    lengths = set(lang.lengths)
    candidates = {
        w for w in out.stdout.decode(aff_encoding(aff), "replace").split()
        if len(w) <= max(lengths) and w.isalpha() and len(lang.playform(w)) in lengths
    }  # fmt: skip
    for word in iter_wordlist(lang.code, "large"):
        if word.isalpha() and len(lang.playform(word)) in lengths:
            candidates.update({word, word.capitalize()} if lang.capitalised_nouns else {word})
    text = "\n".join(sorted(candidates)) + "\n"
    checked = subprocess.run(
        ["hunspell", "-d", str(base), "-i", "UTF-8", "-G"],
        input=text.encode(),
        capture_output=True,
        check=True,
    ).stdout.decode()
    return {unicodedata.normalize("NFC", w) for w in checked.split()}


def spellings(lang: Language, words: Iterable[str]) -> set[str]:
    """The valid spellings a player may use: lower-case entries (capitalised ones are proper
    nouns and abbreviations), and for German also capitalised nouns, lower-cased."""
    letters = set("".join(lang.keyboard))
    kept = set()
    for word in words:
        cased = word.islower() or (lang.capitalised_nouns and word[1:].islower())
        if cased and set(lang.playform(word)) <= letters:  # no foreign letters (ångström)
            kept.add(word.lower())
    return kept


def dictionary_stems(lang: Language, root: Path) -> set[str]:
    """The Hunspell dictionary's own entries (before affixes): its base forms, in their case."""
    base = root / "usr/share/hunspell" / lang.hunspell
    text = base.with_suffix(".dic").read_bytes().decode(aff_encoding(base.with_suffix(".aff")))
    lines = text.splitlines()[1:]  # the first line is the entry count
    entries = (line.split()[0].split("/")[0] for line in lines if line.strip())
    return {unicodedata.normalize("NFC", entry) for entry in entries}


def european_portuguese_base_forms(root: Path) -> set[str]:
    """The base forms of the pt_PT dictionary, the one Debian ships with part-of-speech tags:
    common nouns, adjectives and the like, verbs in the infinitive, no proper nouns ("np")
    and no inflected forms (an irregular form names its lemma: ``vindo [$vir$...]``).
    pt_BR's own dictionary stores truncated stems, no base forms."""
    dic = root / "usr/share/hunspell/pt_PT.dic"
    forms = set()
    for line in dic.read_text(encoding="utf-8").splitlines()[1:]:
        word, _, tags = line.partition("\t")
        word = word.split("/")[0]
        if "$" in tags or "CAT=np" in tags or ("CAT=v" in tags and "T=inf" not in tags):
            continue
        forms.add(unicodedata.normalize("NFC", word))
    return forms


def thesaurus(lang: Language, root: Path) -> tuple[set[str], set[str]]:
    """The thesaurus's single-word entries, and those it marks vulgar (in some sense).
    Headwords keep their case except German's (lower-cased), so German takes the synonyms'.
    An entry with a leading gloss, such as German "(es) läuft", is a phrase and left out."""
    path = root / "usr/share/mythes" / lang.thesaurus
    raw = path.read_bytes()
    lines = raw.decode(raw.split(b"\n", 1)[0].decode().strip().lower(), "replace").splitlines()
    entries: set[str] = set()
    vulgar: set[str] = set()
    for line in lines[1:]:
        synonyms = line.startswith(("(", "-"))
        items = line.split("|")[1:] if synonyms else line.split("|")[:1]
        for item in items:
            word = unicodedata.normalize("NFC", _TRAILING_GLOSS.sub("", item.strip()))
            if not word.isalpha():
                continue
            if synonyms or not lang.capitalised_nouns:
                entries.add(word)
            if _VULGAR.search(item):
                vulgar.add(word.lower())
    return entries, vulgar


def is_inflected(word: str, lang: Language, valid: set[str]) -> bool:
    """A plural in -s or -es of another valid word (gases), and in English a past tense or
    a present participle (rolled, peeing): dictionaries list a few as entries of their own.
    Compared as playing forms, so the test can check it on the committed lists."""
    stems = [word[:-1], word[:-2]] if word.endswith("s") and not word.endswith("ss") else []
    if lang.code == "en":
        for ending in ("ed", "ing"):
            if word.endswith(ending):
                stem = word[: -len(ending)]
                stems += [stem, stem + "e", stem[:-1] if stem[-1:] == stem[-2:-1] else "",
                          stem[:-1] + "y" if stem.endswith("i") else ""]  # fmt: skip
    return any(len(stem) > 1 and stem in valid for stem in stems)


def ldnoobw_words(lang: Language, ldnoobw: Path) -> set[str]:
    lines = (ldnoobw / lang.code).read_text(encoding="utf-8").splitlines()
    return {unicodedata.normalize("NFC", w.strip()).lower() for w in lines if w.strip()}


def frequency(word: str, lang: Language) -> float:
    return float(zipf_frequency(word, lang.code, wordlist="large"))


def pattern_bytes(length: int) -> int:
    return 1 if length <= 5 else 2 if length <= 10 else 4


def write_lines(path: Path, lines: Iterable[str]) -> None:
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")


def build(lang: Language, root: Path, ldnoobw: Path, out: Path) -> list[tuple[int, int, int]]:
    """Write one language's lists; return (length, answers, allowed) per length."""
    valid = hunspell_words(lang, root)
    spelled = spellings(lang, valid)
    entries, vulgar = thesaurus(lang, root)
    if lang.code == "pt":  # base forms from pt_PT, matched on the folded (playing) form
        base = {lang.playform(w) for w in european_portuguese_base_forms(root)}
        entries = {w for w in spelled if lang.playform(w) in base}
    else:
        entries &= dictionary_stems(lang, root)
    own = {lang.playform(w) for w in ldnoobw_words(lang, ldnoobw) | vulgar}
    folder = out / lang.code
    folder.mkdir(exist_ok=True)
    lengths = set(lang.lengths)
    write_lines(
        folder / "profanity.txt", sorted(w for w in own if w.isalpha() and len(w) in lengths)
    )
    # English's list too: its loanwords (porno, dildo) are valid spellings everywhere.
    blocked = own | ldnoobw_words(LANGUAGES[0], ldnoobw)
    # The board's spelling of a playing form: its most frequent valid spelling.
    best: dict[str, tuple[float, str]] = {}
    for word in sorted(spelled):
        play = lang.playform(word)
        rank = (frequency(word, lang), word)
        if play not in best or rank[0] > best[play][0]:
            best[play] = rank
    lemmas = {
        e.lower() for e in entries
        if e.lower() in spelled and (e.islower() or (lang.capitalised_nouns and e[1:].islower()))
    }  # fmt: skip
    if lang.code != "pt":  # pt_PT's tags already say singular and infinitive
        played = {lang.playform(w) for w in spelled}
        lemmas = {w for w in lemmas if not is_inflected(lang.playform(w), lang, played)}
    counts = []
    answers: list[str]
    for length in lang.lengths:
        if lang.code == "en" and length == 5:
            answers = ENGLISH_FIVE.read_text().split()
            allowed = (HERE / "wordle-allowed.txt").read_text().split()
            counts.append((length, len(answers), len(allowed)))
            continue
        allowed = sorted(p for p in best if len(p) == length)
        ranked = sorted(
            (-frequency(w, lang), lang.playform(w)) for w in lemmas
            if len(lang.playform(w)) == length and lang.playform(w) not in blocked
        )  # fmt: skip
        answers = []
        for negative_zipf, play in ranked:
            if -negative_zipf < MIN_ZIPF or len(answers) == MAX_ANSWERS:
                break
            if play not in answers:
                answers.append(play)
        write_lines(folder / f"{length}-answers.txt", sorted(answers))
        write_lines(folder / f"{length}-allowed.txt", allowed)
        if lang.display:
            write_lines(
                folder / f"{length}-display.tsv",
                (f"{p}\t{best[p][1]}" for p in allowed if best[p][1] != p),
            )
        counts.append((length, len(answers), len(allowed)))
    return counts


def alphabet(lang: Language, folder: Path) -> str:
    letters: set[str] = set()
    for path in folder.glob("*-allowed.txt"):
        letters.update(path.read_text(encoding="utf-8").replace("\n", ""))
    if lang.code == "en":
        letters.update("abcdefghijklmnopqrstuvwxyz")
    order = "".join(lang.keyboard)
    assert letters <= set(order), f"{lang.code}: letters off the keyboard: {letters - set(order)}"
    base = {"ł": "l", "ß": "s"}  # letters that do not decompose, filed under their base
    return "".join(
        sorted(letters, key=lambda c: (base.get(c, unicodedata.normalize("NFD", c)[0]), c))
    )


def language_entry(lang: Language, folder: Path) -> dict[str, object]:
    letters = alphabet(lang, folder)
    return {
        "code": lang.code,
        "name": lang.name,
        "english_name": lang.english_name,
        "alphabet": letters,
        "fold": {k: v for k, v in sorted(lang.fold.items())},
        "keyboard": ["".join(c for c in row if c in letters) for row in lang.keyboard],
        "lengths": list(lang.lengths),
        "clone": lang.clone,
        "accents": lang.accents,
        "display": lang.display,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--root", type=Path, required=True, help="the unpacked .deb files")
    parser.add_argument("--ldnoobw", type=Path, required=True, help="LDNOOBW's checkout")
    parser.add_argument("--only", nargs="*", help="language codes (default: all)")
    args = parser.parse_args()
    print(f"{'variant':<14}{'answers':>8}{'allowed':>9}{'matrix MiB':>12}")
    for lang in LANGUAGES:
        if args.only and lang.code not in args.only:
            continue
        for length, answers, allowed in build(lang, args.root, args.ldnoobw, HERE):
            mib = answers * allowed * pattern_bytes(length) / (1 << 20)
            name = "wordle" if (lang.code, length) == ("en", 5) else f"wordle-{lang.code}-{length}"
            print(f"{name:<14}{answers:>8}{allowed:>9}{mib:>12.1f}")
            assert mib * (1 << 20) < MATRIX_LIMIT, f"{name}: matrix over 1 GiB"
    entries = [language_entry(lang, HERE / lang.code) for lang in LANGUAGES]
    (HERE / "languages.json").write_text(
        json.dumps(entries, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main()
