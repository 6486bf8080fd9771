"""Leaderboards over a period and the fair ranking every board uses.

A period is a puzzle day, a week (Monday to Sunday), a month, or a server's season (its
length is a server setting; seasons are counted from puzzle #0, so every server of one
length shares the same calendar). Each finished game adds to one ``period_standings`` row
per period, scope (its server, and everyone) and player, in the transaction that records it,
so a period's board is read, never recounted.

Fair ranking: the average-guesses board counts a lost game as the server's fail score
(default 7) and ranks by a Bayesian average, each player's games plus :data:`PRIOR_GAMES`
games at the board's mean, so one lucky game does not top it; tied players share a rank
(1, 2, 2, 4).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from bot.storage.database import Database, Row, Steps, execute_many
from bot.storage.records import Result

EPOCH = date(2021, 6, 19)  # puzzle #0: seasons count from here
PERIODS = ("today", "week", "month", "season", "all")
PRIOR_GAMES = 3


@dataclass(frozen=True)
class Season:
    number: int
    length: int
    first: date
    last: date

    @property
    def key(self) -> str:
        return f"season:{self.length}:{self.number}"


def season_of(day: date, length: int) -> Season:
    number = (day - EPOCH).days // length
    first = EPOCH + timedelta(days=number * length)
    return Season(number, length, first, first + timedelta(days=length - 1))


def period_key(period: str, day: date, season_days: int) -> str | None:
    """The stored key of the ``period`` holding ``day`` (None: all time, the standings)."""
    if period == "today":
        return f"day:{day.isoformat()}"
    if period == "week":
        return f"week:{(day - timedelta(days=day.weekday())).isoformat()}"
    if period == "month":
        return f"month:{day.isoformat()[:7]}"
    if period == "season":
        return season_of(day, season_days).key
    if period == "all":
        return None
    raise ValueError(f"unknown period {period[:20]!r}; choose one of {', '.join(PERIODS)}")


def period_keys(day: date, season_days: int) -> list[str]:
    return [key for p in PERIODS if (key := period_key(p, day, season_days)) is not None]


def add_to_periods(
    scopes: Sequence[tuple[int, int]], player_id: int, kind: str, result: Result, day: date,
    *, sign: int = 1,
) -> Steps[None]:  # fmt: skip
    """Count one result in each period holding ``day``, in each of ``scopes`` (a scope and
    its season length): an increment, so results finishing at once in two processes both
    count. With ``sign`` -1 it is taken back (a share that stops counting), and a row left
    with no game goes. One statement for all the rows."""
    won = int(result.won)
    rows = [(scope, kind, key, player_id) for scope, season_days in scopes
            for key in period_keys(day, season_days)]  # fmt: skip
    yield execute_many(
        "INSERT INTO period_standings (scope, kind, period, player_id, played, wins, "
        "win_guesses) VALUES (?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT(scope, kind, period, player_id) DO UPDATE SET "
        "played = period_standings.played + excluded.played, "
        "wins = period_standings.wins + excluded.wins, "
        "win_guesses = period_standings.win_guesses + excluded.win_guesses",
        [(*row, sign, sign * won, sign * result.guesses * won) for row in rows],
    )
    if sign < 0:
        yield execute_many(
            "DELETE FROM period_standings WHERE scope = ? AND kind = ? AND period = ? "
            "AND player_id = ? AND played <= 0",
            rows,
        )


@dataclass(frozen=True)
class Ranked:
    rank: int  # shared by tied players
    row: Row
    value: float


METRIC_SQL = {  # (value, higher is better, condition to appear)
    "wins": ("s.wins", True, "s.wins > 0"),
    "current_streak": ("s.current_streak", True,
                       "s.current_streak > 0 AND (s.last_day IS NULL OR s.last_day >= ?)"),
    "max_streak": ("s.max_streak", True, "s.max_streak > 0"),
}  # fmt: skip
STREAK_METRICS = ("current_streak", "max_streak")  # all time only


async def board_page(
    db: Database, scope: int, kind: str, metric: str, period: str | None, *, page: int,
    per_page: int, min_games: int, fail_score: int, yesterday: str,
) -> tuple[list[Ranked], int]:  # fmt: skip
    """One page of a board (all time when ``period`` is None) and how many are on it."""
    if period is None:
        where, params = "s.scope = ? AND s.kind = ?", [scope, kind]
        table = "standings s"
    else:
        where, params = "s.scope = ? AND s.kind = ? AND s.period = ?", [scope, kind, period]
        table = "period_standings s"
    value_params: list[Any] = []
    if metric == "win_rate":
        value, descending = db.ratio("s.wins", "s.played"), True
        where, params = f"{where} AND s.played >= ?", [*params, max(1, min_games)]
    elif metric == "skill":  # the coach's mean skill of the player's dailies
        value, descending = db.ratio("s.skill_total", "s.skilled"), True
        where, params = f"{where} AND s.skilled >= ?", [*params, max(1, min_games)]
    elif metric == "average":
        totals = await db.one(
            f"SELECT SUM(s.played), SUM(s.wins), SUM(s.win_guesses) FROM {table} WHERE {where}",
            params,
        )
        played, wins, win_guesses = (int(x or 0) for x in (totals or (0, 0, 0)))
        mean = (win_guesses + (played - wins) * fail_score) / played if played else 0.0
        real = "CAST(? AS DOUBLE PRECISION)"
        value = f"({real} + s.win_guesses + (s.played - s.wins) * {real}) / ({real} + s.played)"
        value_params, descending = [PRIOR_GAMES * mean, fail_score, PRIOR_GAMES], False
        where = f"{where} AND s.played > 0"
    else:
        if period is not None and metric in STREAK_METRICS:
            raise ValueError("streak boards are all-time boards")
        value, descending, condition = METRIC_SQL[metric]
        where = f"{where} AND {condition}"
        if "?" in condition:
            params = [*params, yesterday]
    order = "DESC" if descending else "ASC"
    offset = (max(page, 1) - 1) * per_page
    rows, total_row = await asyncio.gather(  # two connections on PostgreSQL: at once
        db.all(  # the page first, then the names of its few players
            f"SELECT t.*, p.name FROM (SELECT s.*, {value} AS value FROM {table} "
            f"WHERE {where} ORDER BY value {order}, s.player_id LIMIT ? OFFSET ?) t "
            f"JOIN players p ON p.id = t.player_id ORDER BY t.value {order}, t.player_id",
            (*value_params, *params, per_page, offset),
        ),
        db.one(f"SELECT COUNT(*) FROM {table} WHERE {where}", params),
    )
    total = int(total_row[0]) if total_row else 0
    if not rows:
        return [], total
    better = ">" if descending else "<"
    ahead = await db.one(  # tied players share a rank: 1 + how many are strictly better
        f"SELECT COUNT(*) FROM {table} WHERE {where} AND {value} {better} ?",
        (*params, *value_params, rows[0]["value"]),
    )
    ranked: list[Ranked] = []
    for i, row in enumerate(rows):
        if i == 0:
            rank = 1 + int(ahead[0] if ahead else 0)
        elif row["value"] == rows[i - 1]["value"]:
            rank = ranked[-1].rank
        else:
            rank = offset + i + 1
        ranked.append(Ranked(rank, row, float(row["value"])))
    return ranked, total
