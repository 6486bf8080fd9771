"""A paste made plain before it is read: line breaks, composed letters, and squares written
as emoji names.

Discord names its emoji in English whatever the client's language (``:green_square:``); a
copy from a chat that stores names rather than characters brings them in. Slack names them
its own way (``:large_green_square:``), and in the user's language (a French Slack writes
``:grand_carré_rouge:``: github.com/bmaparpaing/sutom-slackbot keeps such SUTOM posts).
"""

from __future__ import annotations

import re
import unicodedata

_KEYCAP = "\ufe0f\u20e3"
_NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
EMOJI_NAMES = {
    # Discord (and GitHub)
    "green_square": "🟩",
    "yellow_square": "🟨",
    "orange_square": "🟧",
    "blue_square": "🟦",
    "red_square": "🟥",
    "brown_square": "🟫",
    "black_large_square": "⬛",
    "white_large_square": "⬜",
    "yellow_circle": "🟡",
    "keycap_ten": "🔟",
    "clock11": "🕚",
    "clock12": "🕛",
    "clock1": "🕐",
    # Slack, English
    "large_green_square": "🟩",
    "large_yellow_square": "🟨",
    "large_orange_square": "🟧",
    "large_blue_square": "🟦",
    "large_red_square": "🟥",
    "large_brown_square": "🟫",
    "large_yellow_circle": "🟡",
    # Slack, French
    "grand_carré_vert": "🟩",
    "grand_carré_jaune": "🟨",
    "grand_carré_orange": "🟧",
    "grand_carré_bleu": "🟦",
    "grand_carré_rouge": "🟥",
    "grand_carré_noir": "⬛",
    "grand_carré_blanc": "⬜",
    "grand_cercle_jaune": "🟡",
} | {name: f"{digit}{_KEYCAP}" for digit, name in enumerate(_NUMBERS)}
_NAME = re.compile(r":([^\W\d][\w+-]*):")

MAX_TEXT = 20_000  # a paste is read this far


def plain(text: str) -> str:
    """``text`` with one kind of line break, composed letters (a decomposed ö in "Wördl" reads
    the same) and emoji names written as the emoji."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")[:MAX_TEXT]
    text = unicodedata.normalize("NFC", text)
    if ":" in text:
        text = _NAME.sub(lambda m: EMOJI_NAMES.get(m[1].lower(), m[0]), text)
    return text
