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
import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from bot.storage import counts
from bot.storage.database import Database, Row, Steps, execute_many
from bot.storage.records import Result

EPOCH = date(2021, 6, 19)  # puzzle #0: seasons count from here
PERIODS = ("today", "week", "month", "season", "all")
PRIOR_GAMES = 3
INDEXED_FAIL_SCORE = 7  # the default fail score, the one the plain-average indexes count
WALK_ROWS = 2000  # how far past a page's rows the fair-average board reads its index
GROUP_ROWS = 2000  # a fair-average read of more rows than this is bounded first
SCORE = f"s.win_guesses + (s.played - s.wins) * {INDEXED_FAIL_SCORE}"  # the indexes' sum


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


def period_days(period: str, day: date, season_days: int) -> tuple[date, date] | None:
    """The first and last day of the ``period`` holding ``day`` (None: all time)."""
    if period == "today":
        return day, day
    if period == "week":
        monday = day - timedelta(days=day.weekday())
        return monday, monday + timedelta(days=6)
    if period == "month":
        first = day.replace(day=1)
        return first, (first + timedelta(days=32)).replace(day=1) - timedelta(days=1)
    if period == "season":
        season = season_of(day, season_days)
        return season.first, season.last
    return None


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


METRIC_SQL = {  # (value, higher is better, condition to appear, its count: measure, level)
    "wins": ("s.wins", True, "s.wins > 0", ("wins", 1)),
    "current_streak": ("s.current_streak", True,
                       "s.current_streak > 0 AND (s.last_day IS NULL OR s.last_day >= ?)",
                       ("streak", None)),
    "max_streak": ("s.max_streak", True, "s.max_streak > 0", ("max_streak", 1)),
}  # fmt: skip
STREAK_METRICS = ("current_streak", "max_streak")  # all time only


async def board_page(
    db: Database, scope: int, kind: str, metric: str, period: str | None, *, page: int,
    per_page: int, min_games: int, fail_score: int, yesterday: str,
) -> tuple[list[Ranked], int]:  # fmt: skip
    """One page of a board (all time when ``period`` is None) and how many are on it (kept
    in :mod:`.counts`, not counted here)."""
    board = (scope, kind, period or "")
    if period is None:
        where, params = "s.scope = ? AND s.kind = ?", [scope, kind]
        table = "standings s"
    else:
        where, params = "s.scope = ? AND s.kind = ? AND s.period = ?", [scope, kind, period]
        table = "period_standings s"
    key, key_params = where.replace("s.", "x."), list(params)
    if metric == "win_rate":
        value, descending = db.ratio("s.wins", "s.played"), True
        where, params = f"{where} AND s.played >= ?", [*params, max(1, min_games)]
        measure, level = "played", max(1, min_games)
    elif metric == "skill":  # the coach's mean skill of the player's dailies
        value, descending = db.ratio("s.skill_total", "s.skilled"), True
        where, params = f"{where} AND s.skilled >= ?", [*params, max(1, min_games)]
        measure, level = "skilled", max(1, min_games)
    elif metric == "average":
        return await _fair_average_page(db, board, table, where, params, page, per_page,
                                        fail_score)  # fmt: skip
    else:
        if period is not None and metric in STREAK_METRICS:
            raise ValueError("streak boards are all-time boards")
        value, descending, condition, (measure, fixed_level) = METRIC_SQL[metric]
        where = f"{where} AND {condition}"
        if "?" in condition:
            params = [*params, yesterday]
        # a live streak (no fixed level): its last daily yesterday or later
        level = int(yesterday.replace("-", "")) if fixed_level is None else fixed_level
    order = "DESC" if descending else "ASC"
    offset = (max(page, 1) - 1) * per_page
    if measure == "streak" or level <= counts.LEVELS:
        on_board = counts.at_least(db, *board, measure, level)
    else:  # a minimum past the levels kept: counted
        on_board = _count(db, f"SELECT COUNT(*) FROM {table} WHERE {where}", params)
    rows, total = await asyncio.gather(  # two connections on PostgreSQL: at once
        db.all(  # the page's players first, from the board's index alone (it holds what
            # the order and the condition read: a streak gone cold is passed over there, not
            # read from the table), then their rows and names
            f"SELECT x.*, t.value, p.name FROM (SELECT s.player_id, {value} AS value "
            f"FROM {table} WHERE {where} ORDER BY value {order}, s.player_id LIMIT ? OFFSET ?) t "
            f"JOIN {table.split()[0]} x ON {key} AND x.player_id = t.player_id "
            f"JOIN players p ON p.id = t.player_id ORDER BY t.value {order}, t.player_id",
            (*params, per_page, offset, *key_params),
        ),
        on_board,
    )
    if not rows:
        return [], total
    better = ">" if descending else "<"
    ahead = await _count(  # tied players share a rank: 1 + how many are strictly better
        db, f"SELECT COUNT(*) FROM {table} WHERE {where} AND {value} {better} ?",
        (*params, rows[0]["value"]),
    )  # fmt: skip
    return _ranks(rows, offset, ahead), total


async def _count(db: Database, sql: str, params: Sequence[Any]) -> int:
    row = await db.one(sql, params)
    return int(row[0]) if row is not None else 0


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
    db: Database, board: tuple[int, str, str], table: str, where: str, params: list[Any],
    page: int, per_page: int, fail_score: int,
) -> tuple[list[Ranked], int]:  # fmt: skip
    """A page of the fair-average board. Its size and mean come from :mod:`.counts`; its best
    rows from the groups of players with as many games (:func:`_best_by_groups`), or, on a
    board with players past the levels kept, from the first rows by plain average
    (:func:`_best_by_plain_average`); the board is sorted whole only when neither can be
    used (another fail score) or those rows cannot be told apart."""
    offset = (max(page, 1) - 1) * per_page
    wanted = offset + per_page
    reads = (db, table, where, params)  # where: the board; a group adds its games
    where = f"{where} AND s.played > 0"
    totals = await counts.totals(db, *board)
    if offset >= totals.players:
        return [], totals.players
    missed = (totals.played - totals.wins) * fail_score
    mean = (totals.win_guesses + missed) / totals.played
    prior = PRIOR_GAMES * mean
    # The sum of a row's guesses is worked out first, in integers: rows with as many games
    # and the same sum then have the same fair average, to the last bit, on both engines.
    value = ("(CAST(? AS DOUBLE PRECISION) + (s.win_guesses + (s.played - s.wins) * "
             "CAST(? AS INTEGER))) / (CAST(? AS DOUBLE PRECISION) + s.played)")  # fmt: skip
    value_params = [prior, fail_score, PRIOR_GAMES]
    best: list[tuple[float, int]] | None = None
    if fail_score == INDEXED_FAIL_SCORE and totals.levels[-1] < counts.LEVELS:
        best = await _best_by_groups((*reads, value, value_params), totals, wanted, prior)
    elif fail_score == INDEXED_FAIL_SCORE:
        plain = db.ratio(SCORE, "s.played")
        walked = await db.all(
            f"SELECT s.player_id, s.played, s.wins, s.win_guesses, {plain} AS plain "
            f"FROM {table} WHERE {where} ORDER BY {plain}, s.player_id LIMIT ?",
            (*params, wanted + WALK_ROWS),
        )
        best = _best_by_plain_average(walked, wanted, mean, fail_score)
    if best is None:  # the whole board, sorted by the database
        rows = await db.all(
            f"SELECT s.player_id, {value} AS value FROM {table} WHERE {where} "
            f"ORDER BY value, s.player_id LIMIT ?",
            (*value_params, *params, wanted),
        )
        best = _valued(rows)
    shown = [player for _, player in best[offset:]]
    if not shown:  # the board lost players since its counts were read: none left to show
        return [], totals.players
    rows = await db.all(
        f"SELECT s.*, {value} AS value, p.name FROM {table} "
        f"JOIN players p ON p.id = s.player_id WHERE {where} "
        f"AND s.player_id IN ({', '.join('?' for _ in shown)}) ORDER BY value, s.player_id",
        (*value_params, *params, *shown),
    )
    ahead = sum(1 for v, _ in best[:offset] if v < best[offset][0])
    return _ranks(rows, offset, ahead), totals.players


async def _best_by_groups(
    reads: tuple[Database, str, str, list[Any], str, list[Any]], totals: counts.Totals,
    wanted: int, prior: float,
) -> list[tuple[float, int]]:  # fmt: skip
    """The best ``wanted`` (fair average, player) of a board whose players have under
    :data:`counts.LEVELS` games each, in order, read group by group.

    A player's fair average depends only on their games and their sum of guesses (a loss
    counted as :data:`INDEXED_FAIL_SCORE`), and grows with the sum; so within a group of
    players with as many games the order is the index's, and the board's best ``wanted``
    are among the best ``wanted`` of each group. When that is many rows (page 50 of a board
    of 40 groups: 20,000), a first read takes the first few of each group, enough to make
    ``wanted``; the ``wanted``-th best of those, ``bound``, is no better than the board's
    ``wanted``-th best, so a second read of each group's rows no worse than ``bound`` (a sum
    of guesses, in the index's order) holds the board's best ``wanted``: a row it leaves is
    worse than ``bound``, or than ``wanted`` rows of its own group."""
    db, table, where, params, value, value_params = reads
    each = f"SELECT s.player_id, {value} AS value FROM {table} WHERE {where}"
    if db.engine == "postgresql":  # one statement whatever the groups: planned at once.
        # The groups come as text: a list would make asyncpg look its array type up on each
        # connection's first use (9 ms).
        sql = (
            "SELECT g.player_id, g.value FROM unnest(string_to_array(?, ',')::int[], "
            "string_to_array(?, ',')::bigint[]) AS l(played, top) "
            f"CROSS JOIN LATERAL ({each} AND s.played = l.played AND {SCORE} <= l.top "
            f"ORDER BY {SCORE}, s.player_id LIMIT ?) AS g ORDER BY g.value, g.player_id LIMIT ?"
        )
    else:  # SQLite plans a union of the groups in no time
        groups = [f"SELECT * FROM ({each} AND s.played = ? AND {SCORE} <= ? "
                  f"ORDER BY {SCORE}, s.player_id LIMIT ?) AS g{i}"
                  for i in range(len(totals.levels))]  # fmt: skip
        sql = (f"SELECT player_id, value FROM ({' UNION ALL '.join(groups)}) AS u "
               "ORDER BY value, player_id LIMIT ?")  # fmt: skip

    async def best(per_group: int, bound: float | None = None) -> list[tuple[float, int]]:
        tops = [  # the greatest sum of guesses no worse than bound (and a hair more)
            2**62 if bound is None else math.floor(bound * (PRIOR_GAMES + p) - prior + 1e-6)
            for p in totals.levels
        ]
        if db.engine == "postgresql":
            groups = [",".join(map(str, totals.levels)), ",".join(map(str, tops))]
            args = [*groups, *value_params, *params, per_group, wanted]
        else:
            args = [x for played, top in zip(totals.levels, tops, strict=True)
                    for x in (*value_params, *params, played, top, per_group)]  # fmt: skip
            args.append(wanted)
        return _valued(await db.all(sql, args))

    if totals.players <= wanted or len(totals.levels) * wanted <= GROUP_ROWS:
        return await best(wanted)
    few = 1  # the fewest of each group that make wanted
    while sum(min(n, few) for n in totals.at_level) < wanted:
        few *= 2
    first = await best(few)
    if len(first) < wanted:  # never, while the counts hold
        return await best(wanted)
    return await best(wanted, first[-1][0])


def _valued(rows: Sequence[Row]) -> list[tuple[float, int]]:
    return [(float(r["value"]), int(r["player_id"])) for r in rows]


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
        return (prior + (int(row["win_guesses"]) + (played - wins) * fail_score)) / (
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
