"""The archive: a past daily, by number or date, for a player who has not played it.

A past daily is a game of set answers (kind ``<game>:archive``, puzzle the ISO date): it
shows its number, has its own stats, and never touches daily streaks or daily boards. Every
refusal is decided before anything is written.
"""

from __future__ import annotations

import re
from datetime import date

from bot.services.daily import EPOCH
from bot.services.games import BUSY, GameService, Outcome, Player, kind_of
from bot.services.kinds import KINDS, daily_command
from bot.storage import StorageBusy
from engine.game import Status
from engine.rules import Mode

ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def archive_kind(variant: str) -> str:
    return f"{variant}:archive"


def pick_day(today: date, number: int | None, day: str | None, variant: str) -> date | str:
    """The puzzle day a number or a date names, or why it cannot be played from the archive.
    The archive starts at #1: #0 (2021-06-19) is where the numbering counts from, and a
    "number 0" is more often a slip than a wish."""
    title = f"wordlebot {KINDS[variant].title}"
    if (number is None) == (day is None):
        return "Give a puzzle number or a date (YYYY-MM-DD), one of the two"
    if day is not None:
        text = day.strip()
        try:
            if not ISO_DATE.fullmatch(text):
                raise ValueError(text)
            number = (date.fromisoformat(text) - EPOCH).days
        except ValueError:
            return f"Not a date: {text[:20]!r}. Give it as YYYY-MM-DD, e.g. 2024-02-29"
    assert number is not None
    if number < 1:
        return f"The archive starts at {title} #1 ({date.fromordinal(EPOCH.toordinal() + 1)})"
    latest = (today - EPOCH).days
    if number == latest:
        return f"{title} #{number} is today's puzzle: play it with {daily_command(variant)}"
    if number > latest:
        return f"{title} #{number} is not out yet: today's is #{latest}"
    return date.fromordinal(EPOCH.toordinal() + number)


async def play_archive(
    games: GameService, player: Player, scope: int, variant: str, *, number: int | None = None,
    day: str | None = None, mode: Mode = Mode.NORMAL, place: int | None = None,
) -> Outcome:  # fmt: skip
    """Start (or show) a past daily from the archive. Refused, with nothing stored: a day
    not yet past, one the player played as the daily, or from the archive before."""
    if variant not in KINDS or not KINDS[variant].daily:
        dailies = ", ".join(name for name, spec in KINDS.items() if spec.daily)
        return Outcome.refuse(f"The archive holds the dailies of {dailies}")
    picked = pick_day(games.daily.today(), number, day, variant)
    if isinstance(picked, str):
        return Outcome.refuse(picked)
    puzzle, label = picked.isoformat(), f"wordlebot {KINDS[variant].title} #{(picked - EPOCH).days}"
    daily, kind = kind_of(variant, True), archive_kind(variant)
    try:
        as_daily = await games.storage.daily_game(player.id, daily, puzzle)
        before = await games.storage.daily_game(player.id, kind, puzzle)
        # No game: perhaps deleted today with the player's data, then a deletion's mark says
        # so (read after the games: see GameService.marked).
        gone = as_daily is None and before is None
        if as_daily is not None or (gone and await games.marked(player.id, daily, puzzle)):
            return Outcome.refuse(f"You played {label} as the daily")
        if gone and await games.marked(player.id, kind, puzzle):
            return Outcome.refuse(f"You have already played {label} from the archive")
    except StorageBusy:
        return Outcome.refuse(BUSY)
    # Won, lost or given up: over is over (only a game still going comes back).
    if before is not None and before.status != Status.PLAYING.value:
        return Outcome.refuse(f"You have already played {label} from the archive")
    answer = games.daily.answer(variant, picked)
    return await games.start_set(player, scope, kind, puzzle, [answer],
                                 mode=mode, place=place)  # fmt: skip
