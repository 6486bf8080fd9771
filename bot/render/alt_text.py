"""Images in words: the alt text (an attachment's description) a screen reader reads out
instead of the picture, and that anyone can read where images do not load.

A board says each row: "Row 1 CRANE: C absent, R present elsewhere, A correct, ...". A board
shown publicly without its letters (a daily others still play) says the colours only:
"Row 1: absent, present, correct, ...". Words, never colours, so it reads the same whatever
the player's palette.
"""

from __future__ import annotations

from typing import Any

from bot.services import GameView, Stats
from bot.services.digest import Digest

LIMIT = 1024  # characters Discord keeps of an attachment's description
STATE = {"2": "correct", "1": "present elsewhere", "0": "absent"}
STATE_HIDDEN = {"2": "correct", "1": "present", "0": "absent"}


def row_text(number: int, guess: str, digits: str, *, letters: bool = True) -> str:
    """One row in words."""
    if not letters:
        return f"Row {number}: " + ", ".join(STATE_HIDDEN[d] for d in digits)
    tiles = ", ".join(f"{ch.upper()} {STATE[d]}" for ch, d in zip(guess, digits, strict=True))
    return f"Row {number} {guess.upper()}: {tiles}"


def board_alt_text(game: GameView, *, letters: bool = True) -> str:
    """The board image of ``game`` in words, within Discord's limit (a long multi-board game
    says each board's latest row)."""
    if game.boards is None:
        rows = [row_text(i, g, d, letters=letters) for i, (g, d) in enumerate(game.rows, 1)]
        text = _sentences([f"{game.title} board", *rows, _progress(game)])
        return _fit(text)
    full = _sentences([f"{game.title}, {len(game.boards)} boards", *(
        f"Board {b}: " + ("no rows yet" if not rows else "; ".join(
            row_text(i, g, d, letters=letters) for i, (g, d) in enumerate(rows, 1)))
        for b, rows in enumerate(game.boards, 1)), _progress(game)])  # fmt: skip
    if len(full) <= LIMIT:
        return full
    return _fit(_sentences([f"{game.title}, {len(game.boards)} boards, latest rows", *(
        f"Board {b}: " + _latest(rows, game.length, letters)
        for b, rows in enumerate(game.boards, 1)), _progress(game)]))  # fmt: skip


def _latest(rows: list[tuple[str, str]], length: int, letters: bool) -> str:
    if not rows:
        return "no rows yet"
    guess, digits = rows[-1]
    if digits == "2" * length:
        return f"solved in {len(rows)}"
    return row_text(len(rows), guess, digits, letters=letters)


def _progress(game: GameView) -> str:
    played = len(game.rows)
    if game.status == "won":
        return f"Solved in {played}" + (f" of {game.max_guesses}" if game.max_guesses else "")
    if game.status == "lost":
        return "Not solved"
    if not game.max_guesses:
        return f"{played} guess{'es' * (played != 1)} so far"
    left = game.max_guesses - played
    return f"{left} guess{'es' * (left != 1)} left"


def stats_alt_text(stats: Stats, who: str) -> str:
    """The guess distribution chart in words."""
    bars = ", ".join(f"{guesses} guess{'es' * (guesses != 1)}: {count}"
                     for guesses, count in stats.distribution.items())  # fmt: skip
    return _fit(f"Guess distribution of {who}'s wins, {stats.played} played: {bars}.")


def digest_alt_text(digest: Digest) -> str:
    """The digest's grids in words: who finished each game, and in how many guesses."""
    games = [f"{game.title} grids, colours only: " + "; ".join(
        f"{score} {', '.join(m.name for m in members)}" for score, members in game.scores)
        for game in digest.games]  # fmt: skip
    return _fit(_sentences(games) or "No grids.")


def study_alt_text(result: dict[str, Any]) -> str:
    """The hard-mode study's chart in words: each player's mean guesses and losses per mode
    (the bars are each mode's share of games by guesses)."""
    players = []
    for entry in result["agents"].values():
        modes = ", ".join(
            f"{mode} {figures['mean']:.2f}"
            + (f" ({figures['failures']:,} lost)" if figures["failures"] else "")
            for mode, figures in entry["modes"].items()
            if "mean" in figures
        )  # a mode the player could not play: no bars
        players.append(f"{entry['label']}: {modes}")
    title = result.get("title", result["variant"])
    head = (f"{title}: each player's share of games by guesses in each mode, "
            f"{result['answers']:,} answers; mean guesses")  # fmt: skip
    return _fit(_sentences([head, *players]))


def _sentences(parts: list[str]) -> str:
    return ". ".join(p for p in parts if p) + "." if parts else ""


def _fit(text: str) -> str:
    """At most :data:`LIMIT` characters, cut at a word and marked as cut."""
    if len(text) <= LIMIT:
        return text
    return text[: LIMIT - 1].rsplit(" ", 1)[0].rstrip(",;:.") + "…"
