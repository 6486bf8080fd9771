"""``/hardmode``: the stored answer to "is hard mode harder?", never a study run in the bot.

The result and its picture are files committed beside the code (``bot/results``), read once
off the event loop and kept.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from functools import cache

from bot.render.alt_text import study_alt_text
from bot.render.study import answer_sentences, hard_mode_text
from bot.results import DIRECTORY

STUDIED = ("wordle", "primel")


@dataclass(frozen=True)
class HardModeAnswer:
    text: str  # Markdown, short enough for one message
    picture: bytes | None  # PNG
    filename: str
    alt: str = ""  # the picture in words (its attachment's description)


@cache
def _load(variant: str) -> HardModeAnswer:
    path = DIRECTORY / f"hardmode-{variant}.json"
    try:
        result = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return HardModeAnswer(f"No stored study for {variant} yet (`wordlebot study hard-mode "
                              f"--variant {variant} --json`).", None, "")  # fmt: skip
    picture_path = DIRECTORY / f"hardmode-{variant}.png"
    picture = picture_path.read_bytes() if picture_path.exists() else None
    return HardModeAnswer(hard_mode_text(result, answer_sentences(result)), picture,
                          picture_path.name, study_alt_text(result))  # fmt: skip


async def hard_mode_answer(variant: str = "wordle") -> HardModeAnswer:
    """The answer for ``variant`` (Wordle or Primel), with its picture."""
    if variant not in STUDIED:
        return HardModeAnswer(f"The study covers {' and '.join(STUDIED)}.", None, "")
    return await asyncio.to_thread(_load, variant)
