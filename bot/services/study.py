"""``/hardmode``: the stored answer to "is hard mode harder?", never a study run in the bot.

The result and its picture are files committed beside the code (``bot/results``), read once
off the event loop and kept. The service hands over the study as data; the words and the
picture's description come from :mod:`bot.render.study`, above it.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from bot.results import DIRECTORY

STUDIED = ("wordle", "primel")


@dataclass(frozen=True)
class HardModeStudy:
    """The stored study of one game: its JSON result and picture, or why there is none."""

    result: dict[str, Any] | None  # ``wordlebot study hard-mode --json``
    picture: bytes | None  # PNG
    filename: str
    message: str | None = None  # why there is no result


@cache
def _load(variant: str) -> HardModeStudy:
    path = DIRECTORY / f"hardmode-{variant}.json"
    try:
        result = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return HardModeStudy(None, None, "", f"No stored study for {variant} yet (`wordlebot "
                             f"study hard-mode --variant {variant} --json`).")  # fmt: skip
    picture_path = DIRECTORY / f"hardmode-{variant}.png"
    picture = picture_path.read_bytes() if picture_path.exists() else None
    return HardModeStudy(result, picture, picture_path.name)


async def hard_mode_study(variant: str = "wordle") -> HardModeStudy:
    """The stored study for ``variant`` (Wordle or Primel), with its picture."""
    if variant not in STUDIED:
        return HardModeStudy(None, None, "", f"The study covers {' and '.join(STUDIED)}.")
    return await asyncio.to_thread(_load, variant)
