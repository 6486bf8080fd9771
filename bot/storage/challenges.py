"""Challenges with a player's own word: the word, who set it, who may play it, and the message
that shows the results. The word lives only here and in its players' games (kind
"<game>:custom", puzzle "custom:<id>"), never in a message or a custom id.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime

from bot.storage.cooldowns import Rate, Wait, free_at, lock_player, stamp
from bot.storage.database import Database
from bot.storage.records import StoredGame


@dataclass(frozen=True)
class Challenge:
    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    setter_id: int
    target_id: int | None  # the one player it is for; None: anyone but the setter
    game: str  # wordle, primel
    answer: str = field(repr=False)  # never in a log line, not even a repr
    max_guesses: int

    @property
    def kind(self) -> str:
        return f"{self.game}:custom"

    @property
    def puzzle(self) -> str:
        return f"custom:{self.id}"


# The challenges a player set; those that named a player, with the pings of setters who have
# since deleted their data (Storage.delete_player keeps them for the cooldown's window).
SET = "SELECT created_at FROM challenges WHERE setter_id = ?"
NAMED = (
    "SELECT created_at FROM (SELECT created_at FROM challenges WHERE target_id = ? "
    "UNION ALL SELECT created_at FROM recent_pings WHERE target_id = ?) AS named WHERE 1 = 1"
)


class Challenges:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def create(
        self, guild_id: int, channel_id: int, setter_id: int, target_id: int | None, game: str,
        answer: str, max_guesses: int, *, now: datetime | None = None,
        per_setter: Rate | None = None, per_target: Rate | None = None,
    ) -> Challenge | Wait:  # fmt: skip
        """A new challenge (its setter must be a stored player), unless its setter made
        ``per_setter`` challenges already, or its target was named in ``per_target``: then
        when it is allowed (:class:`Wait`, limit "setter" or "target"), and nothing stored."""
        now = now or datetime.now(UTC)
        async with self.db.transaction() as db:
            await lock_player(db, self.db.for_update, setter_id)
            limits: list[tuple[str, Rate | None, str, tuple[int, ...]]] = [
                ("setter", per_setter, SET, (setter_id,))
            ]
            if target_id is not None:
                limits.append(("target", per_target, NAMED, (target_id, target_id)))
            for limit, rate, sql, params in limits:
                until = None if rate is None else await free_at(db, sql, params, rate, now)
                if until is not None:
                    return Wait(limit, until)
            challenge_id = await db.value(
                "INSERT INTO challenges (guild_id, channel_id, setter_id, target_id, game, "
                "answer, max_guesses, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (guild_id, channel_id, setter_id, target_id, game, answer, max_guesses,
                 stamp(now)),
            )  # fmt: skip
        return Challenge(int(challenge_id), guild_id, channel_id, None, setter_id, target_id,
                         game, answer, max_guesses)  # fmt: skip

    async def set_message(self, challenge_id: int, message_id: int) -> None:
        """The public message that shows the challenge and its results."""
        await self.db.write(
            "UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id)
        )

    async def get(self, challenge_id: int) -> Challenge | None:
        row = await self.db.one(
            "SELECT id, guild_id, channel_id, message_id, setter_id, target_id, game, answer, "
            "max_guesses FROM challenges WHERE id = ?",
            (challenge_id,),
        )
        return None if row is None else Challenge(*(row[i] for i in range(9)))

    async def finished(self, challenge: Challenge) -> list[tuple[str, StoredGame]]:
        """The games of the challenge that are over, in the order they ended, with each
        player's name."""
        rows = await self.db.all(
            "SELECT g.*, p.name AS player_name FROM games g JOIN players p ON p.id = g.player_id "
            "WHERE g.kind = ? AND g.puzzle = ? AND g.status != 'playing' "
            "ORDER BY g.updated_at, g.id",
            (challenge.kind, challenge.puzzle),
        )
        return [(str(r["player_name"] or r["player_id"]),
                 StoredGame(r["id"], r["player_id"], r["scope"], r["kind"], r["puzzle"],
                            json.loads(r["state"]), r["version"], r["status"]))
                for r in rows]  # fmt: skip
