"""What races read and record: the race (its answers, status and stored times), its players
and their finishes, and the race standings.

Every change of a race is a conditional statement, so any process may take it and only one
succeeds: a lobby starts once (``status = 'lobby'``), a race ends once (``'running'``) and a
player finishes once (``finished_at IS NULL``). A finish first bumps the race's ``version``,
which holds the race's row until the transaction ends: finishes of one race are stamped and
placed one after another, whatever process records them.

Places: a player who solves takes 1 + the solvers stamped before them (an equal stamp shares
the place); stamps never go backwards within a race (a late clock takes the latest stamp), so
a place given is never taken back. At the end everyone else (gave up, out of guesses, still
playing at the time limit) shares the place after the last solver. Standings are added once,
in the transaction that ends the race.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from bot.storage.cooldowns import Rate, Wait, free_at, lock_player, stamp
from bot.storage.database import Database
from bot.storage.records import GLOBAL

LOBBY, RUNNING, OVER = "lobby", "running", "over"


def _time(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


@dataclass(frozen=True)
class Race:
    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    host_id: int
    game: str  # a game name: wordle, primel, dordle...
    mode: str
    answers: list[str]
    status: str  # lobby, running, over
    created_at: datetime
    start_by: datetime
    started_at: datetime | None
    end_by: datetime | None
    ended_at: datetime | None
    version: int

    @property
    def kind(self) -> str:
        return f"{self.game}:race"

    @property
    def puzzle(self) -> str:
        return f"race:{self.id}"


@dataclass(frozen=True)
class Racer:
    player_id: int
    name: str
    joined_at: datetime
    finished_at: datetime | None
    won: bool | None
    guesses: int | None
    place: int | None


@dataclass(frozen=True)
class RaceStanding:
    player_id: int
    name: str
    races: int
    wins: int
    podiums: int
    mean_place: float


def _race(row: object) -> Race:
    r = dict(row)  # type: ignore[call-overload]
    return Race(
        int(r["id"]), int(r["guild_id"]), int(r["channel_id"]),
        None if r["message_id"] is None else int(r["message_id"]), int(r["host_id"]),
        r["game"], r["mode"], json.loads(r["answers"]), r["status"],
        datetime.fromisoformat(r["created_at"]), datetime.fromisoformat(r["start_by"]),
        _time(r["started_at"]), _time(r["end_by"]), _time(r["ended_at"]), int(r["version"]),
    )  # fmt: skip


class Races:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def create(
        self, guild_id: int, channel_id: int, host_id: int, game: str, mode: str,
        answers: list[str], now: datetime, start_by: datetime, *, per_host: Rate | None = None,
    ) -> Race | Wait:  # fmt: skip
        """A lobby, its host (who must exist) its first player; or when one is allowed
        (:class:`Wait`), nothing stored: limit "channel" while a lobby of the channel waits
        for players (until it starts), "host" once its host opened ``per_host`` races."""
        async with self.db.transaction() as db:
            await lock_player(db, self.db.for_update, host_id)
            waiting = await db.value(
                "SELECT MAX(start_by) FROM races WHERE status = ? AND start_by > ? "
                "AND channel_id = ?",
                (LOBBY, stamp(now), channel_id),
            )
            if waiting is not None:
                return Wait("channel", datetime.fromisoformat(waiting))
            until = None if per_host is None else await free_at(
                db, "SELECT created_at FROM races WHERE host_id = ?", (host_id,), per_host, now
            )  # fmt: skip
            if until is not None:
                return Wait("host", until)
            race_id = await db.value(
                "INSERT INTO races (guild_id, channel_id, host_id, game, mode, answers, status, "
                "created_at, start_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (guild_id, channel_id, host_id, game, mode, json.dumps(answers), LOBBY,
                 stamp(now), stamp(start_by)),
            )  # fmt: skip
            await db.execute(
                "INSERT INTO race_players (race_id, player_id, joined_at) VALUES (?, ?, ?)",
                (race_id, host_id, stamp(now)),
            )
        race = await self.get(int(race_id))
        assert race is not None
        return race

    async def get(self, race_id: int) -> Race | None:
        row = await self.db.one("SELECT * FROM races WHERE id = ?", (race_id,))
        return None if row is None else _race(row)

    async def set_message(self, race_id: int, message_id: int) -> None:
        await self.db.write("UPDATE races SET message_id = ? WHERE id = ?", (message_id, race_id))

    async def players(self, race_id: int) -> list[Racer]:
        """Solvers by place, then the others by when they finished, then who still plays."""
        rows = await self.db.all(
            "SELECT rp.*, p.name FROM race_players rp JOIN players p ON p.id = rp.player_id "
            "WHERE rp.race_id = ? ORDER BY rp.place IS NULL, rp.place, "
            "rp.finished_at IS NULL, rp.finished_at, rp.joined_at, rp.player_id",
            (race_id,),
        )
        return [
            Racer(int(r["player_id"]), str(r["name"]), datetime.fromisoformat(r["joined_at"]),
                  _time(r["finished_at"]), None if r["won"] is None else bool(r["won"]),
                  r["guesses"], r["place"])
            for r in rows
        ]  # fmt: skip

    async def join(self, race_id: int, player_id: int, now: datetime, limit: int) -> str:
        """Add a player (who must exist) to a lobby: 'joined', 'already', 'full' or
        'closed' (started, over or unknown)."""
        async with self.db.transaction() as db:
            # Bump the version first: it holds the race's row, so the count below stays true.
            if not await db.execute("UPDATE races SET version = version + 1 WHERE id = ? "
                                    "AND status = ?", (race_id, LOBBY)):  # fmt: skip
                return "closed"
            if await db.one("SELECT 1 FROM race_players WHERE race_id = ? AND player_id = ?",
                            (race_id, player_id)):  # fmt: skip
                return "already"
            count = await db.value("SELECT COUNT(*) FROM race_players WHERE race_id = ?",
                                   (race_id,))  # fmt: skip
            if count >= limit:
                return "full"
            await db.execute(
                "INSERT INTO race_players (race_id, player_id, joined_at) VALUES (?, ?, ?)",
                (race_id, player_id, stamp(now)),
            )
        return "joined"

    async def start(self, race_id: int, now: datetime, end_by: datetime, least: int) -> bool:
        """Start a lobby of at least ``least`` players; False when it was started (or
        ended) elsewhere, or has too few."""
        return bool(await self.db.write(
            "UPDATE races SET status = ?, started_at = ?, end_by = ?, version = version + 1 "
            "WHERE id = ? AND status = ? AND (SELECT COUNT(*) FROM race_players "
            "WHERE race_id = ?) >= ?",
            (RUNNING, stamp(now), stamp(end_by), race_id, LOBBY, race_id, least),
        ))  # fmt: skip

    async def cancel(self, race_id: int, now: datetime) -> bool:
        """End a lobby that never started (no standings)."""
        return bool(await self.db.write(
            "UPDATE races SET status = ?, ended_at = ?, version = version + 1 "
            "WHERE id = ? AND status = ?", (OVER, stamp(now), race_id, LOBBY),
        ))  # fmt: skip

    async def finish(self, race_id: int, player_id: int, won: bool, guesses: int,
                     now: datetime) -> bool:  # fmt: skip
        """Record a player's finish once, with its place if they solved it; False when the
        race is not running, they are not in it, or their finish was recorded before."""
        async with self.db.transaction() as db:
            if not await db.execute("UPDATE races SET version = version + 1 WHERE id = ? "
                                    "AND status = ?", (race_id, RUNNING)):  # fmt: skip
                return False
            latest = await db.value("SELECT MAX(finished_at) FROM race_players WHERE race_id = ?",
                                    (race_id,))  # fmt: skip
            at = max(stamp(now), latest or "")
            place = None
            if won:
                place = 1 + await db.value(
                    "SELECT COUNT(*) FROM race_players WHERE race_id = ? AND won = 1 "
                    "AND finished_at < ?", (race_id, at),
                )  # fmt: skip
            return bool(await db.execute(
                "UPDATE race_players SET finished_at = ?, won = ?, guesses = ?, place = ? "
                "WHERE race_id = ? AND player_id = ? AND finished_at IS NULL",
                (at, int(won), guesses, place, race_id, player_id),
            ))  # fmt: skip

    async def end(self, race_id: int, now: datetime) -> bool:
        """End a running race once: everyone who did not solve it shares the place after the
        last solver, and every player's standings (here and everyone's) take the race."""
        async with self.db.transaction() as db:
            guild = await db.value(
                "UPDATE races SET status = ?, ended_at = ?, version = version + 1 "
                "WHERE id = ? AND status = ? RETURNING guild_id", (OVER, stamp(now), race_id,
                                                                   RUNNING),
            )  # fmt: skip
            if guild is None:
                return False
            solvers = await db.value("SELECT COUNT(*) FROM race_players WHERE race_id = ? "
                                     "AND won = 1", (race_id,))  # fmt: skip
            await db.execute(
                "UPDATE race_players SET place = ?, won = COALESCE(won, 0) "
                "WHERE race_id = ? AND place IS NULL", (solvers + 1, race_id),
            )  # fmt: skip
            rows = await db.all("SELECT player_id, won, place FROM race_players WHERE race_id = ? "
                                "ORDER BY player_id", (race_id,))  # fmt: skip
            for scope in sorted({int(guild), GLOBAL}):
                await db.executemany(
                    "INSERT INTO race_standings (scope, player_id, races, wins, podiums, "
                    "place_total) VALUES (?, ?, 1, ?, ?, ?) ON CONFLICT (scope, player_id) DO "
                    "UPDATE SET races = race_standings.races + 1, "
                    "wins = race_standings.wins + excluded.wins, "
                    "podiums = race_standings.podiums + excluded.podiums, "
                    "place_total = race_standings.place_total + excluded.place_total",
                    [(scope, r["player_id"], int(bool(r["won"]) and r["place"] == 1),
                      int(bool(r["won"]) and r["place"] <= 3), r["place"]) for r in rows],
                )  # fmt: skip
        return True

    async def due(self, now: datetime) -> list[Race]:
        """Lobbies whose start time has come and running races past their time limit."""
        rows = await self.db.all(
            "SELECT * FROM races WHERE (status = ? AND start_by <= ?) OR (status = ? AND "
            "end_by <= ?) ORDER BY id",
            (LOBBY, stamp(now), RUNNING, stamp(now)),
        )
        return [_race(r) for r in rows]

    async def running_since_before(self, moment: datetime) -> list[Race]:
        """Running races started before ``moment`` (a puzzle day's start: they close)."""
        rows = await self.db.all(
            "SELECT * FROM races WHERE status = ? AND started_at < ? ORDER BY id",
            (RUNNING, stamp(moment)),
        )
        return [_race(r) for r in rows]

    async def unnoticed(self) -> list[tuple[int, int]]:
        """(race, player) of running races whose race game is over but whose finish was not
        recorded (the process that took the last guess stopped before it could)."""
        rows = await self.db.all(
            "SELECT rp.race_id, rp.player_id FROM races r JOIN race_players rp "
            "ON rp.race_id = r.id JOIN games g ON g.player_id = rp.player_id "
            "AND g.kind = r.game || ':race' AND g.puzzle = 'race:' || CAST(r.id AS TEXT) "
            "WHERE r.status = ? AND rp.finished_at IS NULL AND g.status != 'playing' "
            "ORDER BY g.updated_at",
            (RUNNING,),
        )
        return [(int(r[0]), int(r[1])) for r in rows]

    async def game_ids(self, race: Race) -> dict[int, int]:
        """Each player's race game, by player (those who have opened theirs)."""
        rows = await self.db.all(
            "SELECT g.player_id, g.id FROM race_players rp JOIN games g ON g.player_id = "
            "rp.player_id AND g.kind = ? AND g.puzzle = ? WHERE rp.race_id = ?",
            (race.kind, race.puzzle, race.id),
        )
        return {int(r[0]): int(r[1]) for r in rows}

    async def standings(self, scope: int, limit: int = 10) -> list[RaceStanding]:
        """The race board: most wins, then podiums, then the lowest mean place."""
        rows = await self.db.all(
            "SELECT s.player_id, p.name, s.races, s.wins, s.podiums, s.place_total "
            "FROM race_standings s JOIN players p ON p.id = s.player_id WHERE s.scope = ? "
            "AND s.races > 0 ORDER BY s.wins DESC, s.podiums DESC, "
            "CAST(s.place_total AS REAL) / s.races, s.player_id LIMIT ?",
            (scope, limit),
        )
        return [RaceStanding(int(r[0]), str(r[1]), int(r[2]), int(r[3]), int(r[4]),
                             int(r[5]) / int(r[2])) for r in rows]  # fmt: skip
