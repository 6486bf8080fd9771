"""The archive: a past daily, by number or date, for a player who has not played it.

A past daily is a game of set answers (kind ``<game>:archive``, puzzle the ISO date): it
shows its number (its date, #20260301), has its own stats, and never touches daily streaks
or daily boards. Every refusal is decided before anything is written.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from bot.i18n import N_, _
from bot.services.daily import EPOCH, numbered_day, shown_number
from bot.services.games import BUSY, GameService, Outcome, Player, kind_of
from bot.services.kinds import KINDS, daily_command, shown_title
from bot.storage import StorageBusy
from engine.game import Status
from engine.rules import Mode

ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
PLAYED_FROM_ARCHIVE = N_("You have already played {game} from the archive")


def archive_kind(variant: str) -> str:
    return f"{variant}:archive"


def pick_day(today: date, number: int | None, day: str | None, variant: str) -> date | str:
    """The puzzle day a number or a date names, or why it cannot be played from the archive
    (in the current locale). A number is the one a daily is shown with (its date,
    #20260301), or the count of days from #0 (2021-06-19) that named the dailies before
    (:func:`bot.services.daily.numbered_day`). The archive starts the day after #0, where
    the old numbering counted from (a "number 0" is more often a slip than a wish)."""
    title = shown_title(KINDS[variant])
    if (number is None) == (day is None):
        return _("Give a puzzle number or a date (YYYY-MM-DD), one of the two")
    if day is not None:
        text = day.strip()
        try:
            if not ISO_DATE.fullmatch(text):
                raise ValueError(text)
            picked = date.fromisoformat(text)
        except ValueError:
            return _("Not a date: {text}. Give it as YYYY-MM-DD, e.g. 2024-02-29").format(
                text=repr(text[:20])
            )
    else:
        assert number is not None
        found = numbered_day(number) if number >= 1 else EPOCH
        if found is None:  # past every date: no day of ours yet
            return _("wordlebot {title} #{number} is not out yet: today's is #{latest}").format(
                title=title, number=number, latest=shown_number(today)
            )
        picked = found
    first = EPOCH + timedelta(days=1)
    if picked < first:
        return _("The archive starts at wordlebot {title} #{number} ({day})").format(
            title=title, number=shown_number(first), day=first
        )
    if picked == today:
        # Translators: {command} is a command as typed ("/wordle daily"): keep it as it is.
        return _("wordlebot {title} #{number} is today's puzzle: play it with {command}").format(
            title=title, number=shown_number(picked), command=daily_command(variant)
        )
    if picked > today:
        return _("wordlebot {title} #{number} is not out yet: today's is #{latest}").format(
            title=title, number=shown_number(picked), latest=shown_number(today)
        )
    return picked


async def play_archive(
    games: GameService, player: Player, scope: int, variant: str, *, number: int | None = None,
    day: str | None = None, mode: Mode = Mode.NORMAL, place: int | None = None,
) -> Outcome:  # fmt: skip
    """Start (or show) a past daily from the archive. Refused, with nothing stored: a day
    not yet past, one the player played as the daily, or from the archive before."""
    if variant not in KINDS or not KINDS[variant].daily:
        dailies = ", ".join(name for name, spec in KINDS.items() if spec.daily)
        return Outcome.refuse(_("The archive holds the dailies of {games}").format(games=dailies))
    picked = pick_day(games.daily.today(), number, day, variant)
    if isinstance(picked, str):
        return Outcome.refuse(picked)
    puzzle, label = (
        picked.isoformat(),
        f"wordlebot {shown_title(KINDS[variant])} #{shown_number(picked)}",
    )
    daily, kind = kind_of(variant, True), archive_kind(variant)
    try:
        as_daily = await games.storage.daily_game(player.id, daily, puzzle)
        before = await games.storage.daily_game(player.id, kind, puzzle)
        # No game: perhaps deleted today with the player's data, then a deletion's mark says
        # so (read after the games: see GameService.marked).
        gone = as_daily is None and before is None
        if as_daily is not None or (gone and await games.marked(player.id, daily, puzzle)):
            return Outcome.refuse(_("You played {game} as the daily").format(game=label))
        if gone and await games.marked(player.id, kind, puzzle):
            return Outcome.refuse(_(PLAYED_FROM_ARCHIVE).format(game=label))
    except StorageBusy:
        return Outcome.refuse(_(BUSY))
    # Won, lost or given up: over is over (only a game still going comes back).
    if before is not None and before.status != Status.PLAYING.value:
        return Outcome.refuse(_(PLAYED_FROM_ARCHIVE).format(game=label))
    answer = games.daily.answer(variant, picked)
    return await games.start_set(player, scope, kind, puzzle, [answer],
                                 mode=mode, place=place)  # fmt: skip
