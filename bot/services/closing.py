"""A day's games close when its puzzle day ends.

A daily of puzzle day D (every kind that has a daily), a race started on D and a co-op game
started on D close at the end of D (midnight in ``DAILY_TIMEZONE``, the one puzzle day of
:mod:`bot.services.daily`). A daily or a race game still going then is closed as a loss:
a result with the guesses used, on day D, so it counts as played and lost and breaks the
daily streak, as the NYT's streak needs a win on every day. A co-op game is ended as a
moderator ends it (its answer shown, nobody scores).

Two ways, so the rule holds in every process and across restarts: every move checks the
game's stored day against today by the services' clock (:class:`GameService`, the co-op
service), and a job closes the rest in bulk (:class:`ClosingService`, the races' own job
for races). Closing a game is a compare-and-set on its version (retried once the game is
read again) and a co-op game's is guarded by ``status = 'playing'``: two processes never
close one game twice, and a game finished meanwhile stays as it finished.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import date, datetime, time, timedelta

from bot.i18n import _
from bot.services.daily import DailyPuzzles, shown_number
from bot.services.kinds import (
    DAILY_KINDS,
    daily_command,
    guesses_used,
    kind_name,
    parse,
    shown_title,
)
from bot.storage import Result, Storage, StoredGame
from bot.storage.coop import CoopGame
from engine.game import Status

log = logging.getLogger("wordlebot.closing")

ATTEMPTS = 3  # a close that lost a compare-and-set reads the game again, this many times


def day_start(daily: DailyPuzzles, day: date) -> datetime:
    """When puzzle ``day`` begins (midnight in the deployment's zone)."""
    return datetime.combine(day, time(), daily.zone)


def day_of(daily: DailyPuzzles, moment: datetime) -> date:
    """The puzzle day ``moment`` falls on."""
    return moment.astimezone(daily.zone).date()


def closed_note(daily: DailyPuzzles, kind: str, day: date) -> str:
    """That a game of ``day`` closed because its day ended (in the current locale)."""
    if kind.endswith(":race"):
        # Translators: {zone} is a time zone's name (Europe/Paris).
        return _("This race closed at midnight ({zone}), unfinished (a loss)").format(
            zone=daily.zone.key
        )
    return _("wordlebot {title} #{number} closed at midnight ({zone}), unfinished (a loss)"
             ).format(title=shown_title(kind_name(kind)), number=shown_number(day),
                      zone=daily.zone.key)  # fmt: skip


def closed_message(daily: DailyPuzzles, kind: str, day: date) -> str:
    """What a player is told when a move in a game of ``day`` is refused: the day ended."""
    if kind.endswith(":race"):
        return _("{closed}: /race starts a new one").format(closed=closed_note(daily, kind, day))
    today = shown_number(daily.today())
    # Translators: {command} is a command as typed ("/wordle daily"): keep it as it is.
    return _("{closed}; today's is #{number}: {command}").format(
        closed=closed_note(daily, kind, day), number=today,
        command=daily_command(kind_name(kind).name))  # fmt: skip


def over_message(daily: DailyPuzzles, stored: StoredGame) -> str | None:
    """For a move in a daily that is over, of a day that has ended: which daily is today's
    (None for any other game)."""
    if not stored.kind.endswith(":daily") or not stored.puzzle:
        return None
    day, spec = date.fromisoformat(stored.puzzle), kind_name(stored.kind)
    if day >= daily.today():
        return None
    today = shown_number(daily.today())
    return _("wordlebot {title} #{number} is over; today's is #{today}: {command}").format(
        title=shown_title(spec), number=shown_number(day), today=today,
        command=daily_command(spec.name))  # fmt: skip


def coop_closed_message(daily: DailyPuzzles) -> str:
    return _("This co-op game closed at midnight ({zone}): /coop start begins today's").format(
        zone=daily.zone.key
    )


async def game_day(storage: Storage, daily: DailyPuzzles, stored: StoredGame) -> date | None:
    """The puzzle day at whose end ``stored`` closes: a daily's own day, a race game's the
    day its race started; None for every other game (practice, archive, challenges)."""
    flavour, puzzle = stored.kind.partition(":")[2], stored.puzzle or ""
    if flavour == "daily" and puzzle:
        return date.fromisoformat(puzzle)
    if flavour == "race" and puzzle.startswith("race:"):
        race = await storage.races.get(int(puzzle.removeprefix("race:")))
        if race is not None and race.started_at is not None:
            return day_of(daily, race.started_at)
    return None


async def close_game(
    storage: Storage, stored: StoredGame, day: date
) -> tuple[StoredGame | None, bool]:
    """Close a game of ``day`` that is still going as a loss on that day. Returns the game as
    stored afterwards (None if it is gone or kept changing under every attempt) and whether
    this call closed it (not: closed elsewhere, or finished meanwhile)."""
    for _attempt in range(ATTEMPTS):
        if stored.status != Status.PLAYING.value:
            return stored, False
        game = parse(stored.state)
        daily_day = stored.puzzle if stored.kind.endswith(":daily") else None
        result = Result(False, guesses_used(game), daily_day, played_on=day.isoformat())
        saved = await storage.save_game(stored, stored.state, Status.LOST.value, result)
        if saved is not None:
            log.info("game %d of %s closed unfinished", stored.id, day)
            return saved, True
        again = await storage.game(stored.id)  # changed meanwhile: look again
        if again is None:
            return None, False
        stored = again
    return None, False


async def close_dailies(
    storage: Storage,
    daily: DailyPuzzles,
    before: date,
    closed: Callable[[int, str], None] | None = None,
    showing: Callable[[int, str], Awaitable[set[int]]] | None = None,
) -> int:
    """Close every daily still going whose day is before ``before`` (at most today);
    returns how many were found going. ``closed`` is told (scope, day) of each one this
    call closed, and of each server whose board of that day showed its player before
    (``showing``: a share of theirs there stops counting once the loss counts): the live
    board shows the day's last state."""
    before = min(before, daily.today())
    found = await storage.open_dailies(DAILY_KINDS, before.isoformat())
    for stored in found:
        day = stored.puzzle or ""
        shown = await showing(stored.player_id, day) if showing and closed and day else set()
        _saved, done = await close_game(storage, stored, date.fromisoformat(day))
        if done and closed is not None and day:
            for scope in {stored.scope, *shown}:
                closed(scope, day)
    return len(found)


def coop_day_over(daily: DailyPuzzles, coop: CoopGame) -> bool:
    """Whether a co-op game in play was started on a puzzle day that has ended."""
    if coop.status != Status.PLAYING.value or coop.created_at is None:
        return False
    try:
        started = datetime.fromisoformat(coop.created_at)
    except ValueError:  # not a time (never stored by the services): left alone
        return False
    return day_of(daily, started) < daily.today()


async def close_coops(storage: Storage, daily: DailyPuzzles) -> int:
    """End every co-op game in play started on a day that has ended; returns how many."""
    now = daily.clock().isoformat(timespec="seconds")
    closed = 0
    for coop in await storage.coop.all_playing():
        if coop_day_over(daily, coop) and await storage.coop.end(coop.id, now):
            log.info("co-op game %d closed at the end of its day", coop.id)
            closed += 1
    return closed


class ClosingService:
    """The job that closes the dailies and co-op games of days that have ended (any process,
    any number of times; the leader runs it with the other jobs). Once a run finds nothing
    left of the days before today it says yesterday is over (``on_day_over``: its live
    boards show their grids) and rests until the next day: a game of an ended day can only
    appear in the moment around midnight (a start that read the day before), and a move, or
    the digest, closes such a game anyway."""

    def __init__(self, storage: Storage, daily: DailyPuzzles) -> None:
        self.storage = storage
        self.daily = daily  # its clock says which day it is: tests set it
        self._rested: date | None = None  # the day on which a run found nothing to close
        self.on_daily: Callable[[int, str], None] | None = None  # told of each daily closed
        # the servers whose board of a day shows a player (see close_dailies)
        self.boards_showing: Callable[[int, str], Awaitable[set[int]]] | None = None
        # told once a day that yesterday's dailies are all closed (the live boards' grids)
        self.on_day_over: Callable[[date], Awaitable[object]] | None = None

    async def close_dailies(self, before: date) -> int:
        """Close the dailies still going of the days before ``before``, telling the live
        board (the digest closes a day's too, before it reads the day)."""
        return await close_dailies(
            self.storage, self.daily, before, self.on_daily, self.boards_showing
        )

    async def run_due(self) -> int:
        """Close what is due; returns how many games were found to close."""
        today = self.daily.today()
        if self._rested == today:
            return 0
        found = await self.close_dailies(today)
        found += await close_coops(self.storage, self.daily)
        if not found:
            self._rested = today
            if self.on_day_over is not None:
                await self.on_day_over(today - timedelta(days=1))
        return found
