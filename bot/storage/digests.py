"""What the daily digest reads and records: the channel each server chose, a day's dailies in
a server, and one claim per server and day.

The claim is the exactly-once guarantee: a digest is claimed (a row keyed by server and
day) before it is sent, as a lease: one process holds it for a while and renews it while it
works; its row records the step reached (claimed, sending, posted, done), so when a process
stops (killed, or stopped past its drain) another, or the restarted one, takes it over once
the lease lapses and resumes at that step. A done digest is never tried again. Every change
is made only while the lease is still its holder's.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.storage.database import Database


@dataclass(frozen=True)
class DigestChannel:
    guild_id: int
    channel_id: int
    admin_id: int | None  # who chose the channel: told if the bot can no longer post there
    timezone: str | None  # the server's zone: its day ends at its own midnight


@dataclass(frozen=True)
class DayResult:
    player_id: int
    name: str
    kind: str
    won: bool
    guesses: int
    state: dict[str, Any]  # a game played here (its rows give the grid and the coaching)
    grid: str | None = None  # a share's instead: boards split by "|", patterns by ","
    puzzle: int | None = None  # a share's puzzle number


@dataclass(frozen=True)
class DayStart:
    """A daily started that day and not finished."""

    player_id: int
    name: str
    kind: str


LEASE = timedelta(seconds=30)  # a digest's claim, renewed while its process works on it


@dataclass(frozen=True)
class Lease:
    """A server's digest of a day, held by one process (``holder``) for a while, and the step
    it reached: ``claimed`` (nothing sent), ``sending`` (a post went out at ``sent_at``, its
    outcome maybe unknown), ``posted`` (``message_id``; the winner's role to move)."""

    guild_id: int
    day: str
    holder: str
    step: str
    message_id: int | None
    sent_at: str | None


def stamp(when: datetime) -> str:
    """A time as the lease columns hold it: UTC, one format, so text compares as time."""
    return when.astimezone(UTC).isoformat(timespec="milliseconds")


def _marks(values: Sequence[object]) -> str:
    """The placeholders of an ``IN (...)`` list of ``values``."""
    return ", ".join("?" for _ in values)


def unfinished_query(kinds: int) -> str:
    """The dailies of a day here of ``kinds`` kinds in progress (parameters: the scope, the
    kinds, the day): an index walk of the games in progress of that day
    (``games_playing_day``, migration 26), never a scan of every game."""
    return (
        "SELECT g.player_id, p.name, g.kind FROM games g JOIN players p ON p.id = g.player_id "
        f"WHERE g.scope = ? AND g.kind IN ({_marks(range(kinds))}) AND g.puzzle = ? "
        "AND g.status = 'playing' ORDER BY g.id"
    )


class Digests:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def set_channel(
        self, guild_id: int, channel_id: int | None, admin_id: int | None
    ) -> None:
        """Post the server's digest to ``channel_id`` (None: no digest)."""
        await self.db.write(
            "INSERT INTO guild_settings (guild_id, digest_channel, digest_admin) VALUES (?, ?, ?) "
            "ON CONFLICT(guild_id) DO UPDATE SET digest_channel = excluded.digest_channel, "
            "digest_admin = excluded.digest_admin",
            (guild_id, channel_id, admin_id),
        )

    async def channels(self) -> list[DigestChannel]:
        rows = await self.db.all(
            "SELECT guild_id, digest_channel, digest_admin, timezone FROM guild_settings "
            "WHERE digest_channel IS NOT NULL ORDER BY guild_id"
        )
        return [DigestChannel(*tuple(row)) for row in rows]

    # -- the lease -------------------------------------------------------------------

    async def claim(
        self, guild_id: int, day: str, channel_id: int | None, holder: str = "",
        now: datetime | None = None, lease: timedelta = LEASE,
    ) -> Lease | None:  # fmt: skip
        """Take the server's digest for ``day`` until ``now + lease``: a new claim, or one
        whose holder's lease lapsed (it stopped: resumed at its step). None when it is done
        (posted, found empty) or another process holds it."""
        now = now or datetime.now(UTC)
        taken = await self.db.write(
            "INSERT INTO digests (guild_id, day, channel_id, claimed_at, step, holder, "
            "lease_until) VALUES (?, ?, ?, ?, 'claimed', ?, ?) ON CONFLICT (guild_id, day) "
            "DO UPDATE SET holder = excluded.holder, lease_until = excluded.lease_until "
            "WHERE digests.step <> 'done' AND digests.lease_until <= ?",
            (guild_id, day, channel_id, stamp(now), holder, stamp(now + lease), stamp(now)),
        )
        if taken != 1:
            return None
        row = await self.db.one(
            "SELECT step, message_id, sent_at FROM digests WHERE guild_id = ? AND day = ? "
            "AND holder = ?",
            (guild_id, day, holder),
        )
        if row is None:  # taken over at once by another (its clock far ahead of ours)
            return None
        return Lease(guild_id, day, holder, str(row[0]), row[1], row[2])

    async def _held(self, lease: Lease, change: str, params: Sequence[object]) -> bool:
        """Apply ``change`` (a SET clause) while ``lease`` is still this holder's."""
        return (
            await self.db.write(
                f"UPDATE digests SET {change} WHERE guild_id = ? AND day = ? AND holder = ? "
                "AND step <> 'done'",
                (*params, lease.guild_id, lease.day, lease.holder),
            )
            == 1
        )

    async def renew(self, lease: Lease, until: datetime) -> bool:
        """Keep the lease until ``until``; False when another process took it over."""
        return await self._held(lease, "lease_until = ?", (stamp(until),))

    async def renew_held(self, holder: str, now: datetime, until: datetime) -> int:
        """Keep every lease ``holder`` still holds at ``now`` until ``until``, in one
        statement (those given back or lapsed stay so); how many."""
        return await self.db.write(
            "UPDATE digests SET lease_until = ? WHERE holder = ? AND step <> 'done' "
            "AND lease_until > ?",
            (stamp(until), holder, stamp(now)),
        )

    async def sending(self, lease: Lease, now: datetime) -> bool:
        """The post is about to be sent (the first time: its nonce holds from ``now``)."""
        return await self._held(lease, "step = 'sending', sent_at = COALESCE(sent_at, ?)",
                                (stamp(now),))  # fmt: skip

    async def unsent(self, lease: Lease) -> None:
        """The only send so far never reached Discord: as if never sent."""
        await self._held(lease, "step = 'claimed', sent_at = NULL", ())

    async def posted(self, lease: Lease, message_id: int) -> bool:
        return await self._held(lease, "step = 'posted', message_id = ?", (message_id,))

    async def done(self, lease: Lease) -> None:
        """Posted and the winner's role moved (or nothing to post): never tried again."""
        await self._held(lease, "step = 'done', lease_until = NULL", ())

    async def release(self, lease: Lease, now: datetime) -> None:
        """Give the lease back (a build that failed, a send to try again, a stop): the next
        run, in any process, resumes at the step reached."""
        await self._held(lease, "lease_until = ?", (stamp(now),))

    async def taken(self, since: str, now: datetime | None = None) -> set[tuple[int, str]]:
        """Every (server, day) from ``since`` on that is done or held by a live lease: what a
        run need not try."""
        rows = await self.db.all(
            "SELECT guild_id, day FROM digests WHERE day >= ? AND (step = 'done' "
            "OR lease_until > ?)",
            (since, stamp(now or datetime.now(UTC))),
        )
        return {(int(r[0]), str(r[1])) for r in rows}

    async def claimed(self, guild_id: int) -> list[tuple[str, int | None]]:
        """(day, message id or None when nothing was posted) of every claim, oldest first."""
        rows = await self.db.all(
            "SELECT day, message_id FROM digests WHERE guild_id = ? ORDER BY day", (guild_id,)
        )
        return [(str(r[0]), r[1]) for r in rows]

    # -- a day's dailies in a server ---------------------------------------------------

    async def finished(
        self, scope: int, day: str, kinds: Sequence[str]
    ) -> dict[str, list[DayResult]]:
        """The day's results here of each of ``kinds`` that has any: the dailies played, then
        the shares that count for a daily kind (one result a player and puzzle: see
        :mod:`bot.storage.shares`). One query a table, whatever the number of kinds."""
        wanted = tuple(dict.fromkeys(kinds))
        if not wanted:
            return {}
        found: dict[str, list[DayResult]] = {}
        # ORDER BY +r.id: in id order SQLite's planner would walk every result (of every
        # server) to skip a sort of the day's few; the unary plus keeps it on results_day.
        rows = await self.db.all(
            "SELECT r.player_id, p.name, r.kind, r.won, r.guesses, g.state FROM results r "
            "JOIN players p ON p.id = r.player_id JOIN games g ON g.id = r.game_id "
            f"WHERE r.scope = ? AND r.kind IN ({_marks(wanted)}) AND r.day = ? ORDER BY +r.id",
            (scope, *wanted, day),
        )
        for r in rows:
            found.setdefault(r[2], []).append(
                DayResult(r[0], r[1], r[2], bool(r[3]), int(r[4]), json.loads(r[5]))
            )
        games = tuple(kind.partition(":")[0] for kind in wanted if kind.endswith(":daily"))
        if not games:
            return found
        shared = await self.db.all(
            "SELECT s.player_id, p.name, s.game, s.won, s.guesses, s.grid, s.puzzle "
            "FROM share_results s JOIN players p ON p.id = s.player_id "
            f"WHERE s.scope = ? AND s.game IN ({_marks(games)}) AND s.day = ? AND s.counted = 1 "
            "ORDER BY s.id",
            (scope, *games, day),
        )
        for r in shared:  # after the kind's games played here, as they were always shown
            kind = f"{r[2]}:daily"
            found.setdefault(kind, []).append(
                DayResult(r[0], r[1], kind, bool(r[3]), int(r[4]), {}, r[5], int(r[6]))
            )
        return found

    async def unfinished(
        self, scope: int, day: str, kinds: Sequence[str]
    ) -> dict[str, list[DayStart]]:
        """The dailies of ``day`` here of each of ``kinds`` started and not finished, by
        kind (a kind with none left out); one query."""
        wanted = tuple(dict.fromkeys(kinds))
        if not wanted:
            return {}
        rows = await self.db.all(unfinished_query(len(wanted)), (scope, *wanted, day))
        found: dict[str, list[DayStart]] = {}
        for r in rows:
            found.setdefault(r[2], []).append(DayStart(r[0], r[1], r[2]))
        return found

    async def wins_played(self, scope: int, kind: str, first: str, last: str,
                          limit: int) -> list[tuple[int, str, int]]:  # fmt: skip
        """(player, name, wins) of the dailies of ``kind`` won with the bot here from ``first``
        to ``last``, most wins first (ties by player id), the first ``limit``: a share, which
        anyone can type, is not a win on a podium. On the index of a day's results."""
        rows = await self.db.all(
            "SELECT r.player_id, p.name, COUNT(*) AS wins FROM results r "
            "JOIN players p ON p.id = r.player_id WHERE r.scope = ? AND r.kind = ? "
            "AND r.day BETWEEN ? AND ? AND r.won = 1 GROUP BY r.player_id, p.name "
            "ORDER BY wins DESC, r.player_id LIMIT ?",
            (scope, kind, first, last, limit),
        )
        return [(int(r[0]), str(r[1]), int(r[2])) for r in rows]

    async def days_played(self, scope: int, kind: str, until: str, limit: int) -> list[str]:
        """The latest days, up to ``until``, on which someone here finished the daily or
        recorded a share that counts for it."""
        rows = await self.db.all(
            "SELECT day FROM (SELECT day FROM results WHERE scope = ? AND kind = ? AND day <= ? "
            "UNION SELECT day FROM share_results WHERE scope = ? AND game = ? AND day <= ? "
            "AND counted = 1) d ORDER BY day DESC LIMIT ?",
            (scope, kind, until, scope, kind.partition(":")[0], until, limit),
        )
        return [str(r[0]) for r in rows]
