"""The live daily board as a message's text: per daily, each finished player's score, then who
is still playing; the shares typed here in sections of their own, marked. Grids in coloured
squares only once the day is closed (the service hands none before). Never a letter of a
guess or an answer."""

from __future__ import annotations

from collections.abc import Callable

from bot.i18n import _, ngettext
from bot.render.palette import STANDARD
from bot.render.text import MESSAGE_LIMIT, SHARED_APART, squares_of
from bot.services.digest import Member
from bot.services.live_board import LiveBoard, LiveGame


def squares(row: str) -> str:
    """A row of pattern digits as squares; a multi-board share's boards apart by spaces."""
    return "".join(squares_of(c, STANDARD) if c in "012" else " " for c in row)


def live_board_text(board: LiveBoard, name: Callable[[Member], str] = lambda m: m.name,
                    limit: int = MESSAGE_LIMIT) -> str:  # fmt: skip
    """The board, within ``limit`` characters: with every grid if they fit, else scores
    only, else as many lines as fit and how many more there are."""
    heading = _("**Today's board** ({day}), updated as players finish").format(day=board.day)
    if not board.games:
        return heading + "\n" + _("Nobody has played today's dailies here yet.")
    for grids in (True, False):
        lines = [heading]
        for game in board.games:
            lines += _game_lines(game, name, grids)
        if not board.closed:
            lines += ["", _("The grids are shown once the day is over.")]
        text = "\n".join(lines)
        if len(text) <= limit:
            return text
    kept: list[str] = []
    for i, line in enumerate(lines):
        left = len(lines) - i
        more = ngettext("(and {count} more line)", "(and {count} more lines)", left).format(
            count=left
        )
        if len("\n".join([*kept, line, more])) > limit:
            return "\n".join([*kept, more])
        kept.append(line)
    return "\n".join(kept)


def _game_lines(game: LiveGame, name: Callable[[Member], str], grids: bool) -> list[str]:
    lines = ["", f"**{game.title}**"]
    if game.shared:
        lines.append(_(SHARED_APART))
    for result in game.finished:
        lines.append(f"{result.score} {name(result.member)}")
        if grids:
            lines += [squares(row) for row in result.rows]
    if game.playing:
        lines.append(_("Still playing: {players}").format(
            players=" ".join(name(m) for m in game.playing)))  # fmt: skip
    if game.hard:
        lines.append(_("*: hard mode"))
    return lines
