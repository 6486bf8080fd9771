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
INDEXED_FAIL_SCORE = 7  # the default fail score, the one the plain-average indexes count
WALK_ROWS = 2000  # how far past a page's rows the fair-average board reads its index


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
    if metric == "win_rate":
        value, descending = db.ratio("s.wins", "s.played"), True
        where, params = f"{where} AND s.played >= ?", [*params, max(1, min_games)]
    elif metric == "skill":  # the coach's mean skill of the player's dailies
        value, descending = db.ratio("s.skill_total", "s.skilled"), True
        where, params = f"{where} AND s.skilled >= ?", [*params, max(1, min_games)]
    elif metric == "average":
        where = f"{where} AND s.played > 0"
        return await _fair_average_page(db, table, where, params, page, per_page, fail_score)
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
            (*params, per_page, offset),
        ),
        db.one(f"SELECT COUNT(*) FROM {table} WHERE {where}", params),
    )
    total = int(total_row[0]) if total_row else 0
    if not rows:
        return [], total
    better = ">" if descending else "<"
    ahead = await db.one(  # tied players share a rank: 1 + how many are strictly better
        f"SELECT COUNT(*) FROM {table} WHERE {where} AND {value} {better} ?",
        (*params, rows[0]["value"]),
    )
    return _ranks(rows, offset, int(ahead[0] if ahead else 0)), total


def _ranks(rows: Sequence[Row], offset: int, ahead: int) -> list[Ranked]:
    """A page's rows ranked: tied players share a rank, the first is 1 + those ahead."""
    ranked: list[Ranked] = []
    for i, row in enumerate(rows):
        if i == 0:
            rank = 1 + ahead
        elif row["value"] == rows[i - 1]["value"]:
            rank = ranked[-1].rank
        else:
            rank = offset + i + 1
        ranked.append(Ranked(rank, row, float(row["value"])))
    return ranked


async def _fair_average_page(
    db: Database, table: str, where: str, params: list[Any], page: int, per_page: int,
    fail_score: int,
) -> tuple[list[Ranked], int]:  # fmt: skip
    """A page of the fair-average board: its size and mean in one pass and, at once, the
    rows that can be on the page (:func:`_best_by_plain_average`); the board sorted whole
    only when those rows cannot be told apart."""
    offset = (max(page, 1) - 1) * per_page
    wanted = offset + per_page
    reads = [db.all(
        f"SELECT COUNT(*), SUM(s.played), SUM(s.wins), SUM(s.win_guesses) FROM {table} "
        f"WHERE {where}",
        params,
    )]  # fmt: skip
    if fail_score == INDEXED_FAIL_SCORE:  # two connections on PostgreSQL: at once
        plain = db.ratio(f"s.win_guesses + (s.played - s.wins) * {INDEXED_FAIL_SCORE}",
                         "s.played")  # fmt: skip
        reads.append(db.all(
            f"SELECT s.player_id, s.played, s.wins, s.win_guesses, {plain} AS plain "
            f"FROM {table} WHERE {where} ORDER BY {plain}, s.player_id LIMIT ?",
            (*params, wanted + WALK_ROWS),
        ))  # fmt: skip
    (totals, *walked) = await asyncio.gather(*reads)
    total, played, wins, win_guesses = (int(x or 0) for x in totals[0])
    if offset >= total:
        return [], total
    mean = (win_guesses + (played - wins) * fail_score) / played
    prior = PRIOR_GAMES * mean
    real = "CAST(? AS DOUBLE PRECISION)"
    value = f"({real} + s.win_guesses + (s.played - s.wins) * {real}) / ({real} + s.played)"
    value_params = [prior, fail_score, PRIOR_GAMES]
    best = _best_by_plain_average(walked[0], wanted, mean, fail_score) if walked else None
    if best is None:  # the whole board, sorted by the database
        rows = await db.all(
            f"SELECT s.player_id, {value} AS value FROM {table} WHERE {where} "
            f"ORDER BY value, s.player_id LIMIT ?",
            (*value_params, *params, wanted),
        )
        best = [(float(r["value"]), int(r["player_id"])) for r in rows]
    shown = [player for _, player in best[offset:]]
    rows = await db.all(
        f"SELECT s.*, {value} AS value, p.name FROM {table} "
        f"JOIN players p ON p.id = s.player_id WHERE {where} "
        f"AND s.player_id IN ({', '.join('?' for _ in shown)}) ORDER BY value, s.player_id",
        (*value_params, *params, *shown),
    )
    ahead = sum(1 for v, _ in best[:offset] if v < best[offset][0])
    return _ranks(rows, offset, ahead), total


def _best_by_plain_average(
    walked: Sequence[Row], wanted: int, mean: float, fail_score: int
) -> list[tuple[float, int]] | None:
    """The best ``wanted`` (fair average, player) of a board, in order, from its first rows
    by plain average (the index of migration 11: a loss counted as :data:`INDEXED_FAIL_SCORE`);
    None when those rows cannot be shown to hold them.

    A row's fair average is the mean of its own games and of :data:`PRIOR_GAMES` games at
    the board's mean, so it lies strictly between its plain average and the mean. Let
    ``bound`` be the ``wanted``-th best fair average among the rows read: the board's best
    ``wanted`` are no worse. If ``bound`` is below the mean, each of them has a plain average
    below ``bound``; so if the last row read has a plain average above ``bound``, every one
    of them was read. Fair averages are worked out here as the database works them out (the
    same operations on the same doubles), so both order a board alike."""
    prior = PRIOR_GAMES * mean

    def fair(row: Row) -> float:
        played, wins = int(row["played"]), int(row["wins"])
        return (prior + int(row["win_guesses"]) + (played - wins) * float(fail_score)) / (
            PRIOR_GAMES + played
        )

    best = sorted((fair(r), int(r["player_id"])) for r in walked)[:wanted]
    if len(walked) < wanted + WALK_ROWS:  # the whole board was read
        return best
    bound = best[-1][0]
    margin = 1e-9 * max(1.0, bound)  # for rounding: never a row too few
    if bound < mean - margin and float(walked[-1]["plain"]) > bound + margin:
        return best
    return None  # a board of few games each: its rows pulled hard towards the mean
