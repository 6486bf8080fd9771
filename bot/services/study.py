"""``/hardmode``: the stored answer to "is hard mode harder?", never a study run in the bot.

The result and its picture are files committed beside the code (``bot/results``), read once
off the event loop and kept. The service hands over the study as data; the words and the
picture's description come from :mod:`bot.render.study`, above it.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from bot.i18n import _
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
        return HardModeStudy(None, None, "")  # said in the reader's language: hard_mode_study
    picture_path = DIRECTORY / f"hardmode-{variant}.png"
    picture = picture_path.read_bytes() if picture_path.exists() else None
    return HardModeStudy(result, picture, picture_path.name)


async def hard_mode_study(variant: str = "wordle") -> HardModeStudy:
    """The stored study for ``variant`` (Wordle or Primel), with its picture."""
    if variant not in STUDIED:
        return HardModeStudy(
            None,
            None,
            "",
            _("The study covers {game} and {other}.").format(game=STUDIED[0], other=STUDIED[1]),
        )
    study = await asyncio.to_thread(_load, variant)
    if study.result is None:
        return replace(
            study,
            message=_("No stored study for {game} yet ({command}).").format(
                game=variant, command=f"`wordlebot study hard-mode --variant {variant} --json`"
            ),
        )
    return study
