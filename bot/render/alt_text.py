"""Images in words: the alt text (an attachment's description) a screen reader reads out
instead of the picture, and that anyone can read where images do not load.

A board says each row: "Row 1 CRANE: C absent, R present elsewhere, A correct, ...". A board
shown publicly without its letters (a daily others still play) says the colours only:
"Row 1: absent, present, correct, ...". Words, never colours, so it reads the same whatever
the player's palette. A long word's row says tiles side by side in one state together when
every tile would not fit ("Row 2 PINGÜINOSES: P I absent, N G Ü present elsewhere, ...").
The keyboard says its keys by what the guesses revealed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import chain, groupby
from typing import Any

from bot.render.keyboards import ABSENT, CORRECT, PRESENT, UNUSED, key_states
from bot.render.letters import capital, capitals
from bot.services import GameView, Stats
from bot.services.digest import Digest

LIMIT = 1024  # characters Discord keeps of an attachment's description

# Every sentence of the alt text, in one place, for the message catalog to translate (issue
# 30). A plural is a (one, other) pair, chosen by :func:`plural` as ngettext chooses.
STATE = {"2": "correct", "1": "present elsewhere", "0": "absent"}
STATE_HIDDEN = {"2": "correct", "1": "present", "0": "absent"}
TILE = "{letter} {state}"  # also a run of tiles in one state: "N G Ü present elsewhere"
ROW = "Row {number} {word}: {tiles}"
ROW_HIDDEN = "Row {number}: {tiles}"
BOARD = "{title} board"
BOARDS = "{title}, {count} boards"
BOARDS_LATEST = "{title}, {count} boards, latest rows"
BOARD_ROWS = "Board {number}: {rows}"
NO_ROWS = "no rows yet"
SOLVED_BOARD = "solved in {count}"
SOLVED = "Solved in {played}"
SOLVED_OF = "Solved in {played} of {limit}"
NOT_SOLVED = "Not solved"
SO_FAR = ("{count} guess so far", "{count} guesses so far")
LEFT = ("{count} guess left", "{count} guesses left")
KEYBOARD = "Keyboard: {groups}"
KEY_GROUP = "{state} {keys}"
KEY_STATE = {CORRECT: "right place", PRESENT: "elsewhere", ABSENT: "not in the word",
             UNUSED: "not tried"}  # fmt: skip
STATS = "Guess distribution of {who}'s wins, {played} played: {bars}."
BAR = ("{guesses} guess: {count}", "{guesses} guesses: {count}")
DIGEST_GAME = "{title} grids, colours only: {scores}"
NO_GRIDS = "No grids."
STUDY = ("{title}: each player's share of games by guesses in each mode, {answers} answers; "
         "mean guesses")  # fmt: skip
STUDY_LOST = "({count} lost)"
CUT = "…"


def plural(forms: tuple[str, str], count: int) -> str:
    """The form of ``forms`` (one, other) for ``count``, as English chooses."""
    return forms[0] if count == 1 else forms[1]


def row_text(number: int, guess: str, digits: str, *, letters: bool = True,
             runs: bool = False) -> str:  # fmt: skip
    """One row in words. ``runs`` says tiles side by side in one state together ("P I
    absent, N G present elsewhere"): shorter for long words, in the same order."""
    if not letters:
        tiles = ", ".join(STATE_HIDDEN[d] for d in digits)
        return ROW_HIDDEN.format(number=number, tiles=tiles)
    pairs = list(zip(guess, digits, strict=True))
    groups = groupby(pairs, lambda pair: pair[1]) if runs else ((d, [(ch, d)]) for ch, d in pairs)
    said = [TILE.format(letter=" ".join(capital(ch) for ch, _ in run), state=STATE[digit])
            for digit, run in groups]  # fmt: skip
    return ROW.format(number=number, word=capitals(guess), tiles=", ".join(said))


def board_alt_text(game: GameView, *, letters: bool = True) -> str:
    """The board image of ``game`` in words, within Discord's limit: if every tile does not
    fit, tiles side by side in one state are said together; a multi-board game that still
    does not fit says each board's latest row; past that the text is cut."""
    if game.boards is None:
        return _first_fitting(_sentences([BOARD.format(title=game.title), *(
            row_text(i, g, d, letters=letters, runs=runs) for i, (g, d) in enumerate(game.rows, 1)),
            _progress(game)]) for runs in (False, True))  # fmt: skip
    count = len(game.boards)
    full = _sentences([BOARDS.format(title=game.title, count=count), *(
        BOARD_ROWS.format(number=b, rows=NO_ROWS if not rows else "; ".join(
            row_text(i, g, d, letters=letters) for i, (g, d) in enumerate(rows, 1)))
        for b, rows in enumerate(game.boards, 1)), _progress(game)])  # fmt: skip
    latest = (
        _sentences([BOARDS_LATEST.format(title=game.title, count=count), *(
            BOARD_ROWS.format(number=b, rows=_latest(rows, game.length, letters, runs))
            for b, rows in enumerate(game.boards, 1)), _progress(game)])
        for runs in (False, True)
    )  # fmt: skip
    return _first_fitting(chain([full], latest))


def _latest(rows: list[tuple[str, str]], length: int, letters: bool, runs: bool) -> str:
    if not rows:
        return NO_ROWS
    guess, digits = rows[-1]
    if digits == "2" * length:
        return SOLVED_BOARD.format(count=len(rows))
    return row_text(len(rows), guess, digits, letters=letters, runs=runs)


def _first_fitting(texts: Iterable[str]) -> str:
    """The first of ``texts`` within :data:`LIMIT`, or the last one cut to it."""
    text = ""
    for text in texts:
        if len(text) <= LIMIT:
            return text
    return _fit(text)


def _progress(game: GameView) -> str:
    played = len(game.rows)
    if game.status == "won":
        if game.max_guesses:
            return SOLVED_OF.format(played=played, limit=game.max_guesses)
        return SOLVED.format(played=played)
    if game.status == "lost":
        return NOT_SOLVED
    if not game.max_guesses:
        return plural(SO_FAR, played).format(count=played)
    left = game.max_guesses - played
    return plural(LEFT, left).format(count=left)


def keyboard_alt_text(game: GameView, rows: Sequence[str] | None = None) -> str:
    """The keyboard image in words: the keys in each state, best first, in keyboard order."""
    keys = [key for row in key_states(game, rows) for key in row]
    groups = []
    for state in (CORRECT, PRESENT, ABSENT, UNUSED):
        letters = [capital(key) for key, known in keys if known == state]
        if letters:
            groups.append(KEY_GROUP.format(state=KEY_STATE[state], keys=", ".join(letters)))
    return _fit(KEYBOARD.format(groups="; ".join(groups)) + ".")


def stats_alt_text(stats: Stats, who: str) -> str:
    """The guess distribution chart in words."""
    bars = ", ".join(plural(BAR, guesses).format(guesses=guesses, count=count)
                     for guesses, count in stats.distribution.items())  # fmt: skip
    return _fit(STATS.format(who=who, played=stats.played, bars=bars))


def digest_alt_text(digest: Digest) -> str:
    """The digest's grids in words: who finished each game, and in how many guesses."""
    games = [DIGEST_GAME.format(title=game.title, scores="; ".join(
        f"{score} {', '.join(m.name for m in members)}" for score, members in game.scores))
        for game in digest.games]  # fmt: skip
    return _fit(_sentences(games) or NO_GRIDS)


def study_alt_text(result: dict[str, Any]) -> str:
    """The hard-mode study's chart in words: each player's mean guesses and losses per mode
    (the bars are each mode's share of games by guesses)."""
    players = []
    for entry in result["agents"].values():
        modes = ", ".join(
            _mode(mode, figures) for mode, figures in entry["modes"].items() if "mean" in figures
        )  # a mode the player could not play: no bars
        players.append(f"{entry['label']}: {modes}")
    title = result.get("title", result["variant"])
    head = STUDY.format(title=title, answers=f"{result['answers']:,}")
    return _fit(_sentences([head, *players]))


def _mode(mode: str, figures: dict[str, Any]) -> str:
    said = f"{mode} {figures['mean']:.2f}"
    if figures["failures"]:
        said += " " + STUDY_LOST.format(count=f"{figures['failures']:,}")
    return said


def _sentences(parts: list[str]) -> str:
    return ". ".join(p for p in parts if p) + "." if parts else ""


def _fit(text: str) -> str:
    """At most :data:`LIMIT` characters, cut at a word and marked as cut."""
    if len(text) <= LIMIT:
        return text
    return text[: LIMIT - 1].rsplit(" ", 1)[0].rstrip(",;:.") + CUT
