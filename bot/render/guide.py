"""The first-game guide's words (bot/services/guide.py decides when): what the tiles mean
and the three commands a new player needs, in the reader's language. The commands are
written as typed and never translated."""

from __future__ import annotations

from bot.i18n import _
from bot.render.help import Front
from bot.render.palette import STANDARD, Palette
from bot.render.text import squares_of


def guide_text(front: Front, palette: Palette = STANDARD) -> str:
    """The guide as Markdown (Discord) or plain lines (the console), its squares in the
    player's colours."""
    guess = "/guess word:crane" if front == "discord" else "/guess crane"

    def command(usage: str) -> str:
        return f"`{usage}`" if front == "discord" else usage

    welcome = _("Welcome to wordlebot! A short guide, shown only this once:")
    lines = [
        f"**{welcome}**" if front == "discord" else welcome,
        _("{square} the letter is in the word, in that spot").format(
            square=squares_of("2", palette)),
        _("{square} the letter is in the word, in another spot").format(
            square=squares_of("1", palette)),
        _("{square} the letter is not in the word").format(square=squares_of("0", palette)),
        _("{command} starts today's puzzle, the same for everyone").format(
            command=command("/wordle daily")),
        _("{command} plays a word in your game").format(command=command(guess)),
        _("{command} lists everything else").format(command=command("/help")),
    ]  # fmt: skip
    return "\n".join(lines)
