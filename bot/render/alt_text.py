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

from bot.i18n import N_, _, format_number, ngettext
from bot.render.keyboards import ABSENT, CORRECT, PRESENT, UNUSED, key_states
from bot.render.letters import capital, capitals
from bot.render.text import SHARED_APART
from bot.services import GameView, Stats
from bot.services.digest import Digest, GameDigest

LIMIT = 1024  # characters Discord keeps of an attachment's description

# Every sentence of the alt text, in one place, marked for the message catalogs (issue 30)
# and translated where used: _(ROW). A plural is a function of its count, through ngettext.
STATE = {"2": N_("correct"), "1": N_("present elsewhere"), "0": N_("absent")}
STATE_HIDDEN = {"2": N_("correct"), "1": N_("present"), "0": N_("absent")}
# Translators: a tile, or a run of tiles in one state: "N G Ü present elsewhere".
TILE = N_("{letter} {state}")
ROW = N_("Row {number} {word}: {tiles}")
ROW_HIDDEN = N_("Row {number}: {tiles}")
BOARD = N_("{title} board")
BOARDS = N_("{title}, {count} boards")
BOARDS_LATEST = N_("{title}, {count} boards, latest rows")
BOARD_ROWS = N_("Board {number}: {rows}")
NO_ROWS = N_("no rows yet")
SOLVED_BOARD = N_("solved in {count}")
SOLVED = N_("Solved in {played}")
SOLVED_OF = N_("Solved in {played} of {limit}")
NOT_SOLVED = N_("Not solved")


def so_far(count: int) -> str:
    return ngettext("{count} guess so far", "{count} guesses so far", count).format(count=count)


def left(count: int) -> str:
    return ngettext("{count} guess left", "{count} guesses left", count).format(count=count)


KEYBOARD = N_("Keyboard: {groups}")
# Translators: a group of keys: "right place C, A".
KEY_GROUP = N_("{state} {keys}")
KEY_STATE = {CORRECT: N_("right place"), PRESENT: N_("elsewhere"), ABSENT: N_("not in the word"),
             UNUSED: N_("not tried")}  # fmt: skip
# A multi-board keyboard shows what holds on every unsolved board (bot/render/keyboards.py):
# a plain key there may have been tried with different results on different boards.
UNDECIDED = N_("not tried or not the same on every board")
STATS = N_("Guess distribution of {who}'s wins, {played} played: {bars}.")


def bar(guesses: int, count: int) -> str:
    return ngettext("{guesses} guess: {count}", "{guesses} guesses: {count}", guesses).format(
        guesses=guesses, count=count
    )


DIGEST_GAME = N_("{title} grids, colours only: {scores}")
NO_GRIDS = N_("No grids.")
STUDY = N_("{title}: each player's share of games by guesses in each mode, {answers} answers; "
           "mean guesses")  # fmt: skip
STUDY_LOST = N_("({count} lost)")
CUT = "…"


def row_text(number: int, guess: str, digits: str, *, letters: bool = True,
             runs: bool = False) -> str:  # fmt: skip
    """One row in words. ``runs`` says tiles side by side in one state together ("P I
    absent, N G present elsewhere"): shorter for long words, in the same order."""
    if not letters:
        tiles = ", ".join(_(STATE_HIDDEN[d]) for d in digits)
        return _(ROW_HIDDEN).format(number=number, tiles=tiles)
    pairs = list(zip(guess, digits, strict=True))
    groups = groupby(pairs, lambda pair: pair[1]) if runs else ((d, [(ch, d)]) for ch, d in pairs)
    said = [_(TILE).format(letter=" ".join(capital(ch) for ch, _digit in run),
                           state=_(STATE[digit]))
            for digit, run in groups]  # fmt: skip
    return _(ROW).format(number=number, word=capitals(guess), tiles=", ".join(said))


def board_alt_text(game: GameView, *, letters: bool = True) -> str:
    """The board image of ``game`` in words, within Discord's limit: if every tile does not
    fit, tiles side by side in one state are said together; a multi-board game that still
    does not fit says each board's latest row; past that the text is cut."""
    if game.boards is None:
        return _first_fitting(_sentences([_(BOARD).format(title=game.title), *(
            row_text(i, g, d, letters=letters, runs=runs) for i, (g, d) in enumerate(game.rows, 1)),
            _progress(game)]) for runs in (False, True))  # fmt: skip
    count = len(game.boards)
    full = _sentences([_(BOARDS).format(title=game.title, count=count), *(
        _(BOARD_ROWS).format(number=b, rows=_(NO_ROWS) if not rows else "; ".join(
            row_text(i, g, d, letters=letters) for i, (g, d) in enumerate(rows, 1)))
        for b, rows in enumerate(game.boards, 1)), _progress(game)])  # fmt: skip
    latest = (
        _sentences([_(BOARDS_LATEST).format(title=game.title, count=count), *(
            _(BOARD_ROWS).format(number=b, rows=_latest(rows, game.length, letters, runs))
            for b, rows in enumerate(game.boards, 1)), _progress(game)])
        for runs in (False, True)
    )  # fmt: skip
    return _first_fitting(chain([full], latest))


def _latest(rows: list[tuple[str, str]], length: int, letters: bool, runs: bool) -> str:
    if not rows:
        return _(NO_ROWS)
    guess, digits = rows[-1]
    if digits == "2" * length:
        return _(SOLVED_BOARD).format(count=len(rows))
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
            return _(SOLVED_OF).format(played=played, limit=game.max_guesses)
        return _(SOLVED).format(played=played)
    if game.status == "lost":
        return _(NOT_SOLVED)
    if not game.max_guesses:
        return so_far(played)
    return left(game.max_guesses - played)


def keyboard_alt_text(game: GameView, rows: Sequence[str] | None = None) -> str:
    """The keyboard image in words: the keys in each state, best first, in keyboard order."""
    keys = [key for row in key_states(game, rows) for key in row]
    names = {**KEY_STATE, UNUSED: UNDECIDED} if game.boards is not None else KEY_STATE
    groups = []
    for state in (CORRECT, PRESENT, ABSENT, UNUSED):
        letters = [capital(key) for key, known in keys if known == state]
        if letters:
            groups.append(_(KEY_GROUP).format(state=_(names[state]), keys=", ".join(letters)))
    return _fit(_(KEYBOARD).format(groups="; ".join(groups)) + ".")


def stats_alt_text(stats: Stats, who: str) -> str:
    """The guess distribution chart in words."""
    bars = ", ".join(bar(guesses, count) for guesses, count in stats.distribution.items())
    return _fit(_(STATS).format(who=who, played=stats.played, bars=bars))


def digest_alt_text(digest: Digest) -> str:
    """The digest's grids in words: who finished each game, and in how many guesses."""
    games = [_(DIGEST_GAME).format(title=_shown_title(game), scores="; ".join(
        f"{score} {', '.join(m.name for m in members)}" for score, members in game.scores))
        for game in digest.games]  # fmt: skip
    return _fit(_sentences(games) or _(NO_GRIDS))


def _shown_title(game: GameDigest) -> str:
    """A game's title, with the mark of shares typed here (not played with the bot)."""
    return f"{game.title} ({_(SHARED_APART)})" if game.shared else game.title


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
    head = _(STUDY).format(title=title, answers=format_number(result["answers"]))
    return _fit(_sentences([head, *players]))


def _mode(mode: str, figures: dict[str, Any]) -> str:
    said = f"{mode} {format_number(figures['mean'], 2)}"
    if figures["failures"]:
        said += " " + _(STUDY_LOST).format(count=format_number(figures["failures"]))
    return said


def _sentences(parts: list[str]) -> str:
    return ". ".join(p for p in parts if p) + "." if parts else ""


def _fit(text: str) -> str:
    """At most :data:`LIMIT` characters, cut at a word and marked as cut."""
    if len(text) <= LIMIT:
        return text
    return text[: LIMIT - 1].rsplit(" ", 1)[0].rstrip(",;:.") + CUT
