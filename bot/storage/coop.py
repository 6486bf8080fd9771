"""What co-op channel games read and record: the shared game of a channel, who played each of
its rows (and for how many points), the co-op standings of each server, and its cooldown.

One game in play per channel: the unique partial index ``coop_one_per_channel`` refuses a
second, whichever process asks. A row is stored in one transaction with the game's next state,
checked against the version it was read at, and with its player's standings: two players
guessing at once never both apply to the same board.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bot.storage.database import Database, Duplicate

DEFAULT_COOLDOWN = 30  # seconds between one player's guesses (guild_settings.coop_cooldown)


@dataclass(frozen=True)
class CoopGame:
    id: int
    guild_id: int
    channel_id: int
    game: str  # a kind's name: wordle, primel, quordle...
    state: dict[str, Any]
    status: str  # playing, won, lost, ended
    version: int
    created_at: str | None = None  # ISO time, from the services' clock


@dataclass(frozen=True)
class CoopRow:
    turn: int  # 1 for the board's first row
    player_id: int
    name: str
    points: int
    played_at: str  # ISO time, from the services' clock


@dataclass(frozen=True)
class CoopStanding:
    player_id: int
    name: str
    points: int
    guesses: int
    solves: int


class Coop:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def start(self, guild_id: int, channel_id: int, game: str, state: dict[str, Any],
                    now: str) -> CoopGame | None:  # fmt: skip
        """A new game in the channel, or None when one is in play there already."""
        try:
            async with self.db.transaction() as db:
                coop_id = await db.value(
                    "INSERT INTO coop_games (guild_id, channel_id, game, state, status, version, "
                    "created_at, updated_at) VALUES (?, ?, ?, ?, 'playing', 0, ?, ?) RETURNING id",
                    (guild_id, channel_id, game, json.dumps(state), now, now),
                )
        except Duplicate:
            return None
        return CoopGame(int(coop_id), guild_id, channel_id, game, state, "playing", 0, now)

    async def game(self, coop_id: int) -> CoopGame | None:
        row = await self.db.one("SELECT * FROM coop_games WHERE id = ?", (coop_id,))
        return None if row is None else _game(row)

    async def playing(self, channel_id: int) -> CoopGame | None:
        """The channel's game in play, if any."""
        row = await self.db.one(
            "SELECT * FROM coop_games WHERE channel_id = ? AND status = 'playing'", (channel_id,)
        )
        return None if row is None else _game(row)

    async def all_playing(self) -> list[CoopGame]:
        """Every game in play, in every channel (the closing job reads their start)."""
        rows = await self.db.all("SELECT * FROM coop_games WHERE status = 'playing' ORDER BY id")
        return [_game(row) for row in rows]

    async def rows(self, coop_id: int) -> list[CoopRow]:
        """Who played the game's rows, in order (a deleted player's rows are gone)."""
        rows = await self.db.all(
            "SELECT r.turn, r.player_id, p.name, r.points, r.played_at FROM coop_rows r "
            "JOIN players p ON p.id = r.player_id WHERE r.coop_id = ? ORDER BY r.turn",
            (coop_id,),
        )
        return [CoopRow(*tuple(row)) for row in rows]

    async def last_played(self, coop_id: int, player_id: int) -> str | None:
        """When the player last guessed in the game."""
        row = await self.db.one(
            "SELECT MAX(played_at) FROM coop_rows WHERE coop_id = ? AND player_id = ?",
            (coop_id, player_id),
        )
        return None if row is None else row[0]

    async def play(
        self, game: CoopGame, state: dict[str, Any], status: str, turn: int, player_id: int,
        points: int, solves: int, now: str,
    ) -> CoopGame | None:  # fmt: skip
        """Store the game's next state with its row ``turn`` (the player's, who must exist)
        and the player's standings, if nobody changed the game since ``game.version`` was
        read; None when somebody did (nothing written)."""
        async with self.db.transaction() as db:
            changed = await db.execute(
                "UPDATE coop_games SET state = ?, status = ?, updated_at = ?, "
                "version = version + 1 WHERE id = ? AND version = ? AND status = 'playing'",
                (json.dumps(state), status, now, game.id, game.version),
            )
            if changed != 1:
                return None
            await db.execute(
                "INSERT INTO coop_rows (coop_id, turn, player_id, points, played_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (game.id, turn, player_id, points, now),
            )
            await db.execute(
                "INSERT INTO coop_standings (scope, player_id, points, guesses, solves) "
                "VALUES (?, ?, ?, 1, ?) ON CONFLICT (scope, player_id) DO UPDATE SET "
                "points = coop_standings.points + excluded.points, "
                "guesses = coop_standings.guesses + 1, "
                "solves = coop_standings.solves + excluded.solves",
                (game.guild_id, player_id, points, solves),
            )
        return CoopGame(game.id, game.guild_id, game.channel_id, game.game, state, status,
                        game.version + 1, game.created_at)  # fmt: skip

    async def end(self, coop_id: int, now: str) -> bool:
        """End a game in play (a moderator's ``/coop end``); False when it was over."""
        return (
            await self.db.write(
                "UPDATE coop_games SET status = 'ended', updated_at = ?, version = version + 1 "
                "WHERE id = ? AND status = 'playing'",
                (now, coop_id),
            )
            == 1
        )

    async def standings(self, scope: int, limit: int = 10) -> list[CoopStanding]:
        """The server's co-op board: most points first (then fewest guesses)."""
        rows = await self.db.all(
            "SELECT s.player_id, p.name, s.points, s.guesses, s.solves FROM coop_standings s "
            "JOIN players p ON p.id = s.player_id WHERE s.scope = ? "
            "ORDER BY s.points DESC, s.guesses, s.player_id LIMIT ?",
            (scope, limit),
        )
        return [CoopStanding(*tuple(row)) for row in rows]

    async def cooldown(self, guild_id: int) -> int:
        """Seconds a player waits between two guesses in the server's co-op games."""
        row = await self.db.one(
            "SELECT coop_cooldown FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return DEFAULT_COOLDOWN if row is None else int(row[0])

    async def set_cooldown(self, guild_id: int, seconds: int) -> None:
        await self.db.write(
            "INSERT INTO guild_settings (guild_id, coop_cooldown) VALUES (?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET coop_cooldown = excluded.coop_cooldown",
            (guild_id, seconds),
        )


def _game(row: Any) -> CoopGame:
    return CoopGame(int(row["id"]), int(row["guild_id"]), int(row["channel_id"]), row["game"],
                    json.loads(row["state"]), row["status"], int(row["version"]),
                    row["created_at"])  # fmt: skip
