"""Purging the rows nothing reads any more (bot/services/retention.py runs it on the clock).

What grows with every day and is read only for a while:

- ``period_standings``: one row per player, scope and period (a day, a week, a month, a
  season). A board shows the current period (and the previous season), never an older one;
  the year card, the archive, streaks and the export read ``results`` and ``standings``.
  A period's rows go once no board can show it; its ``board_counts`` with them.
- ``digests``: one claim per server and day, read while that day's digest is due.
- ``live_boards``: one message per server and day, edited while that day is played.

Every delete takes at most ``batch`` rows (one short transaction, whatever the backlog); a
delete that finds the rows gone (another process purged them) deletes nothing: two purges
at once, or one run twice, leave the same database. (Two purges ending one board at once
may leave counts of the empty board, which no board shows: the next run deletes them.)
Rows a late write adds to an old period (a share imported months later) are purged at the
next run, as their board is never shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from bot.storage.database import Database
from bot.storage.periods import EPOCH, period_days, season_of


@dataclass(frozen=True)
class Board:
    scope: int
    kind: str
    period: str


def shown_until(period: str) -> date | None:
    """The last day a board of ``period`` (a stored key) can be shown: its last day, or for a
    season the last day of the next (while it is the previous season); None if unknown."""
    kind, _, rest = period.partition(":")
    try:
        if kind == "season":
            length, number = (int(x) for x in rest.split(":"))
            following = EPOCH + timedelta(days=(number + 1) * length)
            return season_of(following, length).last
        first = date.fromisoformat(f"{rest}-01" if kind == "month" else rest)
    except ValueError:
        return None
    name = {"day": "today", "week": "week", "month": "month"}.get(kind)
    days = None if name is None else period_days(name, first, 1)
    return None if days is None else days[1]


class Retention:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def ended_boards(self, before: date) -> list[Board]:
        """The period boards no board has shown since before ``before``. Read from the
        boards' counts (a row or a few per board), never from the standings themselves."""
        rows = await self.db.all(
            "SELECT DISTINCT scope, kind, period FROM board_counts WHERE period <> '' "
            "ORDER BY period, scope, kind"
        )
        boards = []
        for scope, kind, period in rows:
            until = shown_until(str(period))
            if until is not None and until < before:
                boards.append(Board(int(scope), str(kind), str(period)))
        return boards

    async def purge_board(self, board: Board, batch: int) -> int:
        """Delete up to ``batch`` rows of an ended board; once none is left, its counts go
        too. Returns the rows deleted (0: the board is gone)."""
        key = (board.scope, board.kind, board.period)
        gone = await self.db.write(
            "DELETE FROM period_standings WHERE scope = ? AND kind = ? AND period = ? "
            "AND player_id IN (SELECT player_id FROM period_standings "
            "WHERE scope = ? AND kind = ? AND period = ? ORDER BY player_id LIMIT ?)",
            (*key, *key, batch),
        )
        if gone < batch:  # the last rows went: the counts of the empty board go after them
            # (a statement of its own: PostgreSQL counts a delete as its transaction commits)
            await self.db.write(
                "DELETE FROM board_counts WHERE scope = ? AND kind = ? AND period = ? "
                "AND NOT EXISTS (SELECT 1 FROM period_standings "
                "WHERE scope = ? AND kind = ? AND period = ?)",
                (*key, *key),
            )
        return int(gone)

    async def purge_days(self, table: str, before: str, batch: int) -> int:
        """Delete up to ``batch`` rows of ``digests`` or ``live_boards`` of days before
        ``before`` (an ISO date); returns how many went."""
        assert table in ("digests", "live_boards"), table
        return int(
            await self.db.write(
                f"DELETE FROM {table} WHERE (guild_id, day) IN (SELECT guild_id, day "
                f"FROM {table} WHERE day < ? ORDER BY day, guild_id LIMIT ?)",
                (before, batch),
            )
        )
