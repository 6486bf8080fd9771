"""How many players each board holds, kept as they change, so a page never counts its board.

A board is a scope, a game kind and a period ('' for all time). ``board_counts`` holds, for
each board, how many of its rows reach each *level* of a measure: a row with 7 games played
counts at level 7 of 'played'; levels stop at :data:`LEVELS` ("that many or more"). So "who
has played at least 5 games" is the sum of the levels from 5 up, a read of a few hundred
rows where counting the board read all of it (100,000 rows: 13 to 33 ms on PostgreSQL).

The measures: 'played' (which also holds the sums of games, wins and winning guesses, for a
board's mean), 'wins', 'skilled' (dailies the coach scored), 'max_streak' and, for a live
streak, 'streak': the day of the row's last daily as a number (20261122; a streak with no
day counts as always live), so the live streaks are the levels from yesterday up.

Triggers on ``standings`` and ``period_standings`` keep the counts in the transaction that
changes a row, whichever code changes it (results, shares counted and taken back, the coach,
a player deleted, a board reset). Each row counts in one of :data:`SLOTS` slots (its player
id modulo the slots), so games finishing at once in two processes seldom wait on one row.
On PostgreSQL the triggers run as the transaction commits, so a count row is locked for
the commit alone. A bulk load (an import, a copy, a migration) stops the triggers, which
would otherwise rewrite one row thousands of times in one transaction, and recounts the
boards of what it loaded (:func:`pause`, :func:`recount`).

The SQL below is part of migration 12: change it only with a new migration.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the migrations import this module: it imports nothing of storage
    from bot.storage.database import Database, Transaction

LEVELS = 64  # levels 1..63 are exact; 64 is "64 or more"
SLOTS = 16
ALWAYS_LIVE = 99991231  # the 'streak' level of a streak with no day
COLUMNS = "scope, kind, period, measure, level, slot, players, played, wins, win_guesses"
KEY = "scope, kind, period, measure, level, slot"


def _contributions(row: str, table: str, sign: str, least: str, source: str = "") -> list[str]:
    """What one row of ``table`` adds (``sign`` 1) or takes away (-1) to each measure, as
    SELECTs of the columns of ``board_counts``; ``row`` is how its columns are named
    ('NEW.', 'OLD.', 's.') and ``source`` the FROM clause, if any."""
    r = row
    period = f"{r}period" if table == "period_standings" else "''"
    key = f"{r}scope, {r}kind, {period}"
    slot = f"{r}player_id % {SLOTS}"
    day = f"COALESCE(CAST(REPLACE({r}last_day, '-', '') AS INTEGER), {ALWAYS_LIVE})"
    measures = [  # (measure, level, when the row counts in it)
        ("wins", f"{least}({r}wins, {LEVELS})", f"{r}wins > 0"),
        ("skilled", f"{least}({r}skilled, {LEVELS})", f"{r}skilled > 0"),
    ]
    if table == "standings":  # streaks are all-time boards
        measures += [
            ("max_streak", f"{least}({r}max_streak, {LEVELS})", f"{r}max_streak > 0"),
            ("streak", day, f"{r}current_streak > 0"),
        ]
    played = (
        f"SELECT {r}scope AS scope, {r}kind AS kind, {period} AS period, 'played' AS measure, "
        f"{least}({r}played, {LEVELS}) AS level, {slot} AS slot, {sign} AS players, "
        f"{sign} * {r}played AS played, {sign} * {r}wins AS wins, "
        f"{sign} * {r}win_guesses AS win_guesses{source} WHERE {r}played > 0"
    )
    return [played] + [
        f"SELECT {key}, '{name}', {level}, {slot}, {sign}, 0, 0, 0{source} WHERE {when}"
        for name, level, when in measures
    ]


def _summed(selects: list[str]) -> str:
    """The contributions of ``selects`` summed by count row, inserted into ``board_counts``."""
    return (
        f"INSERT INTO board_counts ({COLUMNS}) "
        f"SELECT {KEY}, SUM(players), SUM(played), SUM(wins), SUM(win_guesses) "
        f"FROM ({' UNION ALL '.join(selects)}) AS c GROUP BY {KEY}"
    )


def _add(selects: list[str]) -> str:
    """One statement adding the contributions of ``selects`` to ``board_counts``, a row of
    it at a time in key order: two statements lock the rows they share in the same order.
    (Two transactions of several statements each may not: then PostgreSQL ends one as a
    deadlock, which the player sees as "busy, try again", nothing changed.)"""
    return (
        f"{_summed(selects)} "
        "HAVING SUM(players) <> 0 OR SUM(played) <> 0 OR SUM(wins) <> 0 "
        f"OR SUM(win_guesses) <> 0 ORDER BY {KEY} "
        f"ON CONFLICT ({KEY}) DO UPDATE SET players = board_counts.players + excluded.players, "
        "played = board_counts.played + excluded.played, "
        "wins = board_counts.wins + excluded.wins, "
        "win_guesses = board_counts.win_guesses + excluded.win_guesses"
    )


def _recount_sql(least: str, kinds: Sequence[str] = ()) -> tuple[str, list[str]]:
    """The counts of every board (or of the boards of ``kinds``), from the rows themselves,
    and the statement's parameters."""
    where = f" AND s.kind IN ({', '.join('?' * len(kinds))})" if kinds else ""
    selects = [
        select + where
        for table in ("standings", "period_standings")
        for select in _contributions("s.", table, "1", least, f" FROM {table} s")
    ]
    return _summed(selects), list(kinds) * len(selects)


TABLE = {
    "sqlite": """
    CREATE TABLE board_counts (
        scope INTEGER NOT NULL,
        kind TEXT NOT NULL,
        period TEXT NOT NULL,
        measure TEXT NOT NULL,
        level INTEGER NOT NULL,
        slot INTEGER NOT NULL,
        players INTEGER NOT NULL,
        played INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        win_guesses INTEGER NOT NULL,
        PRIMARY KEY (scope, kind, period, measure, level, slot)
    ) WITHOUT ROWID;
    """,
    "postgresql": """
    CREATE TABLE board_counts (
        scope BIGINT NOT NULL,
        kind TEXT NOT NULL,
        period TEXT NOT NULL,
        measure TEXT NOT NULL,
        level INTEGER NOT NULL,
        slot INTEGER NOT NULL,
        players BIGINT NOT NULL,
        played BIGINT NOT NULL,
        wins BIGINT NOT NULL,
        win_guesses BIGINT NOT NULL,
        PRIMARY KEY (scope, kind, period, measure, level, slot)
    );
    """,
}


def sqlite_triggers() -> list[str]:
    """Three triggers on each table: a row inserted, deleted or changed."""
    script = []
    for table in ("standings", "period_standings"):
        for event, selects in (
            ("INSERT", _contributions("NEW.", table, "1", "MIN")),
            ("DELETE", _contributions("OLD.", table, "-1", "MIN")),
            ("UPDATE", _contributions("OLD.", table, "-1", "MIN")
             + _contributions("NEW.", table, "1", "MIN")),
        ):  # fmt: skip
            script.append(
                f"CREATE TRIGGER {table}_counted_{event.lower()} AFTER {event} ON {table}\n"
                f"BEGIN\n    {_add(selects)};\nEND;\n"
            )
    return script


SQLITE_TRIGGERS = [f"{table}_counted_{event}" for table in ("standings", "period_standings")
                   for event in ("insert", "delete", "update")]  # fmt: skip


def postgres_triggers() -> str:
    """A row trigger on each table, run as the transaction commits (a constraint trigger,
    deferred): a board's count rows are locked for the commit alone, not for the rest of
    the transaction, so games finishing at once wait on each other less."""
    script = []
    for table in ("standings", "period_standings"):
        old = _contributions("OLD.", table, "-1", "LEAST")
        new = _contributions("NEW.", table, "1", "LEAST")
        script.append(f"""
    CREATE FUNCTION count_{table}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'INSERT' THEN
            {_add(new)};
        ELSIF TG_OP = 'DELETE' THEN
            {_add(old)};
        ELSE
            {_add(old + new)};
        END IF;
        RETURN NULL;
    END $$;
    CREATE CONSTRAINT TRIGGER {table}_counted AFTER INSERT OR UPDATE OR DELETE ON {table}
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION count_{table}();
""")
    return "".join(script)


def migration(engine: str) -> str:
    """Migration 12's script for ``engine``: the table, its triggers, and the counts of
    the boards already there."""
    if engine == "sqlite":
        return TABLE["sqlite"] + "".join(sqlite_triggers()) + _recount_sql("MIN")[0] + ";\n"
    return TABLE["postgresql"] + postgres_triggers() + _recount_sql("LEAST")[0] + ";\n"


async def pause(tx: Transaction, db: Database) -> None:
    """Before a bulk load: the triggers stop, in its transaction, until :func:`recount`
    (PostgreSQL: disabled, which makes other writers of the tables wait for the load;
    SQLite: dropped, under the one write lock the load holds anyway). Counting as it loads
    would rewrite each count row thousands of times in one transaction (on PostgreSQL, a
    queue of an event a row; on SQLite, an import 2.4 times slower)."""
    for statement in _switch(db, on=False):
        await tx.execute(statement)


async def recount(tx: Transaction, db: Database, kinds: Sequence[str] | None = None) -> None:
    """After a bulk load: the boards of ``kinds`` (every board when None) counted again from
    their rows, and the triggers back."""
    least = "LEAST" if db.engine == "postgresql" else "MIN"
    if kinds is None:
        await tx.execute("DELETE FROM board_counts")
        await tx.execute(*_recount_sql(least))
    elif kinds:
        marks = ", ".join("?" * len(kinds))
        await tx.execute(f"DELETE FROM board_counts WHERE kind IN ({marks})", list(kinds))
        await tx.execute(*_recount_sql(least, kinds))
    for statement in _switch(db, on=True):
        await tx.execute(statement)


def _switch(db: Database, *, on: bool) -> list[str]:
    if db.engine == "postgresql":
        verb = "ENABLE" if on else "DISABLE"
        return [f"ALTER TABLE {table} {verb} TRIGGER {table}_counted"
                for table in ("standings", "period_standings")]  # fmt: skip
    if on:
        return sqlite_triggers()
    return [f"DROP TRIGGER {name}" for name in SQLITE_TRIGGERS]


@dataclass(frozen=True)
class Totals:
    """A board's players and, over them, games, wins and winning guesses; and the levels of
    'played' its players are at (levels under :data:`LEVELS` are exact counts of games)."""

    players: int
    played: int
    wins: int
    win_guesses: int
    levels: tuple[int, ...]
    at_level: tuple[int, ...]  # the players at each of those levels


async def totals(db: Database, scope: int, kind: str, period: str) -> Totals:
    rows = await db.all(
        "SELECT level, SUM(players), SUM(played), SUM(wins), SUM(win_guesses) "
        "FROM board_counts WHERE scope = ? AND kind = ? AND period = ? AND measure = 'played' "
        "GROUP BY level HAVING SUM(players) > 0 ORDER BY level",
        (scope, kind, period),
    )
    players, played, wins, win_guesses = (sum(int(r[i]) for r in rows) for i in range(1, 5))
    levels = tuple(int(r[0]) for r in rows)
    at_level = tuple(int(r[1]) for r in rows)
    return Totals(players, played, wins, win_guesses, levels, at_level)


async def at_least(
    db: Database, scope: int, kind: str, period: str, measure: str, level: int
) -> int:
    """How many players of the board reach ``level`` of ``measure`` (at most
    :data:`LEVELS`, but for 'streak', whose levels are days)."""
    if measure != "streak" and not 1 <= level <= LEVELS:
        raise ValueError(f"levels go from 1 to {LEVELS}")
    found = await db.one(
        "SELECT SUM(players) FROM board_counts WHERE scope = ? AND kind = ? "
        "AND period = ? AND measure = ? AND level >= ?",
        (scope, kind, period, measure, level),
    )
    return int(found[0] or 0) if found is not None else 0
