"""What the game window is sent, as JSON: a command's reply, a game as the window draws it
(the letters and marks of its rows, its keyboard as the images draw it, its words for screen
readers), and the window's own words in the reader's language. The answer is in a game only
once it is over (the services' game view holds it no sooner)."""

from __future__ import annotations

from typing import Any

from bot.commands.model import Reply
from bot.i18n import pgettext
from bot.render.alt_text import board_alt_text, keyboard_alt_text, row_text
from bot.render.keyboards import key_states
from bot.render.text import plain
from bot.services.games import GameView


def window_strings() -> dict[str, str]:
    """The window's own words, in the reader's language (the rest comes in the replies)."""
    return {
        "daily": pgettext("window", "Today's puzzle"),
        "practice": pgettext("window", "Practice"),
        "enter": pgettext("window", "Enter"),
        "delete": pgettext("window", "Delete"),
        "hint": pgettext("window", "Hint"),
        "giveup": pgettext("window", "Give up"),
        "keyboard": pgettext("window", "Keyboard"),
        "players": pgettext("window", "Playing here"),
        "share": pgettext("button", "Share"),  # the boards' own button's word
    }


def reply_json(reply: Reply) -> dict[str, Any]:
    """A reply as the window shows it (a private reply is the player's own anyway)."""
    return {  # as plain text, the Markdown's marks taken out (the console's way)
        "text": plain(reply.text),
        "refused": reply.refused,
        "secret": plain(reply.secret),
        "earned": plain(reply.earned),
        "game": None if reply.game is None else game_json(reply.game),
        "picks": [{"id": g.game_id, "title": g.title} for g in reply.picks],
        "rolled_back": bool(reply.extra.get("rolled_back")),
    }


def game_json(game: GameView) -> dict[str, Any]:
    """A game as the window draws it: its rows (the letters and each tile's mark: 0 absent,
    1 elsewhere, 2 right) with each row in words for screen readers, its keyboard as its
    language lays it out with what is known of each key (0 unused, 1 absent, 2 elsewhere,
    3 right, as the images draw it), and the whole board in words (the images' alt text)."""

    def rows_json(rows: list[tuple[str, str]]) -> list[dict[str, str]]:
        return [{"word": word, "marks": marks, "label": row_text(number, word, marks)}
                for number, (word, marks) in enumerate(rows, 1) if marks]  # fmt: skip

    return {
        "id": game.game_id,
        "kind": game.kind,
        "variant": game.variant,
        "title": game.title,
        "mode": game.mode,
        "day": game.day,
        "number": game.number,
        "status": game.status,
        "over": game.over,
        "max_guesses": game.max_guesses,
        "length": game.length,
        "guesses": [word for word, _marks in game.rows],
        "rows": rows_json(game.rows),
        "boards": None if game.boards is None else [rows_json(b) for b in game.boards],
        "remaining": game.remaining,
        "answer": game.answer if game.over else None,
        "keys": [[[key, state] for key, state in row] for row in key_states(game)],
        "alt": board_alt_text(game),
        "keyboard_alt": keyboard_alt_text(game),
    }
