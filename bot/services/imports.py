"""Reading a share channel's history (/import): from a day an admin chooses to the newest
message, one page of Discord's history at a time, each message counted as it would have
been live.

The counting is not here: the front end counts each message through the very function the
share channels' listener uses (``cogs.analysis.count_post``), so a share counts for the day
its message was posted, under the same caps, whether it is read live or a year later, and a
share counted before counts nothing again (the storage's rules: :mod:`bot.storage.shares`).
What is here is the walk: where it starts, a checkpoint after every message (a kill loses
at most the message in hand, which counts nothing twice when read again), who runs it
(:mod:`bot.storage.imports`: one owner, taken over once its lease runs out), and the one
message that shows its progress, edited at most every :data:`PROGRESS_SECONDS`.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta, tzinfo
from datetime import time as day_time
from typing import Any

from bot.i18n import N_, _, format_number
from bot.storage import Storage
from bot.storage.imports import Checkpoint, ImportCounts
from bot.storage.shares import RECORDED

log = logging.getLogger("wordlebot.imports")

MAX_DAYS_BACK = 366  # how far back an import may start
PAGE = 100  # messages a history request returns at most (Discord's limit)
LEASE = timedelta(seconds=60)  # an owner silent this long has stopped: its import is taken over
HEARTBEAT_SECONDS = 15.0  # how often a running import says it is alive while it waits
PROGRESS_SECONDS = 3.0  # the progress message is edited at most this often
BAR = 20  # characters of the progress bar
DISCORD_EPOCH_MS = 1420070400000  # a Discord id's time counts from here (2015-01-01)

NOT_A_DATE = N_("Give the first day to read as YYYY-MM-DD, for example {example}.")
IN_THE_FUTURE = N_("{day} has not come yet: give a day from {first} to {today}.")
TOO_OLD = N_("An import reaches back {days} days at most: give a day from {first} to {today}.")


def stamp(when: datetime) -> str:
    """A time as the checkpoints store it: UTC, to the microsecond (so text compares)."""
    return when.astimezone(UTC).isoformat(timespec="microseconds")


def snowflake_at(when: datetime) -> int:
    """The smallest Discord id of a message posted at ``when``."""
    return max(0, int(when.timestamp() * 1000) - DISCORD_EPOCH_MS) << 22


def snowflake_time(message_id: int) -> datetime:
    return datetime.fromtimestamp(((message_id >> 22) + DISCORD_EPOCH_MS) / 1000, UTC)


def day_start(day: date, zone: tzinfo) -> datetime:
    """The first instant of a puzzle day (midnight in the deployment's zone)."""
    return datetime.combine(day, day_time(0), zone)


def since_day(text: str, today: date) -> date | str:
    """The first day an admin asks to read, or why it cannot be read (a line to show)."""
    first = today - timedelta(days=MAX_DAYS_BACK)
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text.strip()):
        return _(NOT_A_DATE).format(example=today - timedelta(days=30))
    try:
        day = date.fromisoformat(text.strip())
    except ValueError:
        return _(NOT_A_DATE).format(example=today - timedelta(days=30))
    if day > today:
        return _(IN_THE_FUTURE).format(day=day, first=first, today=today)
    if day < first:
        return _(TOO_OLD).format(days=MAX_DAYS_BACK, first=first, today=today)
    return day


def tally(counts: ImportCounts, outcomes: Sequence[str] | None) -> ImportCounts:
    """``counts`` with one more message read, whose shares had ``outcomes`` (None: the
    message holds no share)."""
    counts = replace(counts, messages_read=counts.messages_read + 1)
    if outcomes is None:
        return replace(counts, not_shares=counts.not_shares + 1)
    counted = sum(o in RECORDED and o != "same" for o in outcomes)
    already = sum(o == "same" for o in outcomes)
    return replace(counts, counted=counts.counted + counted, already=counts.already + already,
                   refused=counts.refused + len(outcomes) - counted - already)  # fmt: skip


def progress_text(checkpoint: Checkpoint, counts: ImportCounts, reached: datetime | None,
                  now: datetime, zone: tzinfo, *, done: bool = False) -> str:  # fmt: skip
    """The progress message: what is read, a bar from the first day to now (by the time of
    the last message read), and the counts; at the end, the summary."""
    channel = f"<#{checkpoint.channel_id}>"
    start = day_start(date.fromisoformat(checkpoint.since), zone)
    span = max((now - start).total_seconds(), 1.0)
    part = 1.0 if done else (
        0.0 if reached is None else min(max((reached - start).total_seconds() / span, 0.0), 1.0)
    )  # fmt: skip
    filled = round(part * BAR)
    title = (_("Import of {channel} since {day}: done.") if done
             else _("Importing the shares posted in {channel} since {day}…")).format(
        channel=channel, day=checkpoint.since)  # fmt: skip
    lines = [title, f"`{'▓' * filled}{'░' * (BAR - filled)}` {round(part * 100)}%"]
    if reached is not None and not done:
        lines[-1] += " · " + _("up to {day}").format(day=reached.astimezone(zone).date())
    lines.append(_("Messages read: {read} · shares counted: {counted} · already counted: "
                   "{already} · refused by the rules: {refused} · not shares: {other}").format(
        read=format_number(counts.messages_read), counted=format_number(counts.counted),
        already=format_number(counts.already), refused=format_number(counts.refused),
        other=format_number(counts.not_shares)))  # fmt: skip
    return "\n".join(lines)


class HistoryClosed(Exception):
    """The channel's history cannot be read (deleted, or the bot may not read it): the
    import ends, saying this line."""


# A page of history, oldest first: (message id, the message as the front end knows it).
Page = list[tuple[int, Any]]


@dataclass
class ImportRun:
    """One owner's walk of one channel's history, from its checkpoint to the newest message.
    The front end gives the Discord side: ``fetch`` a page after a message id, ``count`` a
    message (its shares' outcomes, None where it holds none), ``show`` the progress text
    (and at the end the summary)."""

    storage: Storage
    checkpoint: Checkpoint
    owner: str
    clock: Callable[[], datetime]
    zone: tzinfo
    fetch: Callable[[int], Awaitable[Page]]
    count: Callable[[Any], Awaitable[Sequence[str] | None]]
    show: Callable[[str], Awaitable[None]]

    async def run(self) -> str:
        """Walk to the end: "done", "lost" (another owner took the import over: this one
        stops, changing nothing) or "closed" (the history cannot be read)."""
        beating = asyncio.create_task(self._heartbeat())
        try:
            return await self._walk()
        finally:
            beating.cancel()

    async def _walk(self) -> str:
        cp = self.checkpoint
        imports = self.storage.imports
        counts = cp.counts
        start = day_start(date.fromisoformat(cp.since), self.zone)
        after = cp.last_message_id or snowflake_at(start) - 1
        reached = None if cp.last_message_id is None else snowflake_time(cp.last_message_id)
        await self.show(progress_text(cp, counts, reached, self.clock(), self.zone))
        shown = time.monotonic()
        while True:
            try:
                page = await self.fetch(after)
            except HistoryClosed as exc:
                await imports.finish(cp.guild_id, cp.channel_id, self.owner, stamp(self.clock()))
                await self.show(str(exc))
                return "closed"
            for message_id, message in page:
                counts = tally(counts, await self.count(message))
                if not await imports.advance(cp.guild_id, cp.channel_id, self.owner,
                                             message_id, counts, stamp(self.clock())):  # fmt: skip
                    log.info("import of channel %s taken over elsewhere", cp.channel_id)
                    return "lost"
                after, reached = message_id, snowflake_time(message_id)
                if time.monotonic() - shown >= PROGRESS_SECONDS:
                    shown = time.monotonic()
                    await self.show(progress_text(cp, counts, reached, self.clock(), self.zone))
            if len(page) < PAGE:
                break
        if not await imports.finish(cp.guild_id, cp.channel_id, self.owner, stamp(self.clock())):
            return "lost"
        await self.show(progress_text(cp, counts, reached, self.clock(), self.zone, done=True))
        return "done"

    async def _heartbeat(self) -> None:
        cp = self.checkpoint
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            try:
                await self.storage.imports.heartbeat(cp.guild_id, cp.channel_id, self.owner,
                                                     stamp(self.clock()))  # fmt: skip
            except Exception:  # a busy database now: the next beat, or the lease, decides
                log.warning("an import's heartbeat failed", exc_info=True)
