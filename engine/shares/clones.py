"""The one-board clones of other languages: those whose shares are read (:data:`CLONES`), and
those recognised only to be refused (:data:`UNPLAYED`), so that no share of a game the bot
does not play is ever taken for one it does.

Each header is the one the clone's share code writes, or that real posts show
(tests/fixtures/shares/README.md names the source of each).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

WORDLE_SQUARES = {"🟩": 2, "🟨": 1, "⬛": 0, "⬜": 0}
HIGH_CONTRAST = {"🟧": 2, "🟦": 1}


@dataclass(frozen=True)
class Clone:
    """A one-board clone's share: its header, what its squares mean, its word list's language
    and how many guesses it allows. The row length comes from the grid (``usual_length`` only
    splits a copy whose rows ran together on one line; None where it varies by day)."""

    game: str  # the key its results are recorded under
    title: str  # its name as players know it
    language: str  # BCP 47 primary tag
    headers: tuple[re.Pattern[str], ...]  # groups: puzzle, score, and hard when shown
    squares: Mapping[str, int]
    limit: int = 6
    usual_length: int | None = 5
    first_day: date | None = None  # the day of puzzle 1, where the clone's code dates numbers


SCORE = r"(?P<score>\d{1,2}|[Xx-])"
CLONES = (
    # joguei term.ooo #15 3/6 *   (a page quoting a pasted share; * for its hard mode), and
    # posts that begin at the address (term.ooo #81 1/6 🔥 1); Twitter links the address
    # (joguei http://term.ooo #34 X/6 *), or shortens it to a t.co link
    Clone(
        "termo",
        "Termo",
        "pt",
        (
            re.compile(
                r"(?<![\w/.])(?:joguei\s+(?:(?:https?://)?term\.ooo|https?://t\.co/\w+)|term\.ooo)\s+"
                rf"#(?P<puzzle>\d+)\s+{SCORE}/6"
                r"(?:[ \t]*(?P<hard>\*))?",
                re.I,
            ),
        ),
        WORDLE_SQUARES,
    ),
    # 001 (3/6) @MeuLetreco   (gabtoschi/letreco src/utils/messages.util.ts; 🟥 a wrong letter);
    # its first weeks wrote "@MeuLetreco 001 (3/6)", then "nº 001 @MeuLetreco (3/6)"
    Clone(
        "letreco",
        "Letreco",
        "pt",
        (
            re.compile(rf"(?<![\d.,])(?P<puzzle>\d+)\s+\({SCORE}/6\)\s+@MeuLetreco", re.I),
            re.compile(rf"@MeuLetreco\s+(?P<puzzle>\d+)\s+\({SCORE}/6\)", re.I),
            re.compile(rf"n[º°o]\s*(?P<puzzle>\d+)\s+@MeuLetreco\s+\({SCORE}/6\)", re.I),
        ),
        {"🟩": 2, "🟨": 1, "🟥": 0},
        first_day=date(2022, 1, 7),
    ),
    # SUTOM #171 3/6 12:34, later #SUTOM #999 4/6 13:37   (JonathanMM/sutom
    # ts/finDePartiePanel.ts; the time is optional)
    Clone(
        "sutom",
        "SUTOM",
        "fr",
        (re.compile(rf"\bSUTOM\s+#(?P<puzzle>\d+)\s+{SCORE}/6", re.I),),
        {"🟥": 2, "🟡": 1, "🟦": 0},
        usual_length=None,
        first_day=date(2022, 1, 8),
    ),
    # Wordle (ES) #34 6/6   (wordle.danielfrg.com components/EndModal.js), later
    # La palabra del día #1512 4/6
    Clone(
        "palabra",
        "La palabra del día",
        "es",
        (
            re.compile(rf"\bWordle\s+\(ES\)\s+#(?P<puzzle>\d+)\s+{SCORE}/6"),
            re.compile(rf"\bLa\s+palabra\s+del\s+d[ií]a\s+#(?P<puzzle>\d+)\s+{SCORE}/6", re.I),
        ),
        WORDLE_SQUARES | HIGH_CONTRAST,
    ),
    # Wördl 298 6/6 🔥1   (wordle.at, real pastes)
    Clone(
        "woerdl",
        "Wördl",
        "de",
        (re.compile(rf"\bW(?:ö|oe)rdl\s+#?(?P<puzzle>\d+)\s+{SCORE}/6", re.I),),
        WORDLE_SQUARES,
    ),
    # Par🇮🇹le n°27 4/6*   (pietroppeter/wordle-it wordle-it.js); tweets of it read
    # "Par🇮🇹le 370 1/6", and where the flag did not come through, "Parole 370"
    Clone(
        "parole",
        "Parole",
        "it",
        (
            re.compile(
                rf"\bPar(?:🇮🇹|o)le\s+(?:n[°º.]?\s*)?(?P<puzzle>\d+)\s+{SCORE}/6(?P<hard>\*?)"
            ),
        ),
        WORDLE_SQUARES | HIGH_CONTRAST,
    ),
    # Słowle 1686 4/6   (mkatch/slowle index.js, slowle.pl; 🟦 a right letter, 🟧 a misplaced
    # one, the reverse of the NYT's high contrast; 🟩 🟨 in its first week). Its numbers skip the
    # days it was down, so they date no day.
    Clone(
        "slowle",
        "Słowle",
        "pl",
        (re.compile(rf"\bSłowle\s+(?P<puzzle>\d+)\s+{SCORE}/6", re.I),),
        {"🟦": 2, "🟧": 1, "⬛": 0, "🟩": 2, "🟨": 1},
    ),
)
CLONE_GAMES = {clone.game: clone for clone in CLONES}


@dataclass(frozen=True)
class Unplayed:
    """A game of the Wordle family the bot does not play: its shares are recognised, so that
    none is read as another game, and counted nowhere."""

    title: str
    language: str  # in English, for the reader's note
    header: re.Pattern[str]


def _header(name: str) -> re.Pattern[str]:
    """``name``, a number and a score: enough to tell a share from chatter naming the game."""
    number = r"\d{1,3}(?:[,. ]\d{3})+|\d+"
    return re.compile(rf"{name}\s*#?\s*(?:{number})\s+(?:\d{{1,2}}|[Xx-]|\d+&\d+)/\d+", re.I)


def _termo_sibling(boards: int) -> re.Pattern[str]:
    return re.compile(rf"(?:joguei\s+)?(?:https?://)?term\.ooo/{boards}\s+#\d+", re.I)


UNPLAYED = (
    # Dutch: woordle.nl, from Wordle's own code (Woordle 123 4/6), and its six-letter days.
    Unplayed("Woordle", "Dutch", _header(r"\bWoordle\s*6?")),
    Unplayed("Wordle NL", "Dutch", _header(r"\bWordle\s*[(\[]?NL[)\]]?")),
    # Indonesian: Katla (katla.id; "Katla 45 3/6", and its daily "Katla Harian #45 3/6").
    Unplayed("Katla", "Indonesian", _header(r"\bKatla(?:\s+Harian|\s+Daily)?")),
    # Malay: Katapat (projecteugene.com/katapat), from Wordle's own code.
    Unplayed("Katapat", "Malay", _header(r"\bKatapat")),
    # Russian: Вордли (vokrugsveta.ru's), and the Russian Wordles named with a tag.
    Unplayed("Вордли", "Russian", _header(r"(?<!\w)Вордли\s*№?")),
    Unplayed("Wordle RU", "Russian", _header(r"\bWordle\s*[(\[]?RU[)\]]?")),
    # French: Le Mot (@WordleFR) #38 4/6, 💀/6 for a loss; the bot plays SUTOM.
    Unplayed(
        "Le Mot", "French", re.compile(r"\bLe\s+Mot\s+\(@WordleFR\)\s*#\d+\s+(?:\d|X|💀)/6", re.I)
    ),
    # Finnish Sanuli, Swedish Ordel, Norwegian Ordle (each a copy of Wordle's code).
    Unplayed("Sanuli", "Finnish", _header(r"\bSanuli")),
    Unplayed("Ordel", "Swedish", _header(r"\bOrdel")),
    # Termo's two- and four-board siblings, term.ooo/2 (Dueto) and term.ooo/4 (Quarteto): their
    # address and number are enough, since their headers may carry no score (term.ooo/2 #1251 🔥 1).
    Unplayed("Dueto", "Portuguese", _termo_sibling(2)),
    Unplayed("Quarteto", "Portuguese", _termo_sibling(4)),
    # "Not Wordle 22 4/6": the share text of reactle, the code many clones are built on; without
    # this its "Wordle 22 4/6" would read as the NYT's puzzle 22.
    Unplayed("Not Wordle", "another Wordle clone", _header(r"\bNot\s+Wordle")),
    # Any other language's Wordle named by its tag: "Wordle (CA) #34 4/6", "Wordle DE 12 3/6".
    Unplayed(
        "Wordle",
        "another language",
        _header(r"\bWordle\s*(?-i:[(\[](?!ES\b)[A-Z]{2,3}[)\]]|\s(?!ES\b)[A-Z]{2}(?=\s+#?\d))"),
    ),
)
