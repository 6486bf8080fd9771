"""Achievements' storage: what each player earned, when and where, once; the few totals the
rules read; and whether a server announces them in public.

"Once" is the primary key (player, achievement): an award is an insert that does nothing when
the row exists, so of two processes (or a game finished twice) awarding the same one, one
insert lands and only that one is reported new. The rows go with the player's (ON DELETE
CASCADE: /mydata delete)."""

from __future__ import annotations

from collections.abc import Iterable

from bot.storage.database import Database, Row
from bot.storage.records import GLOBAL

# A stored game's mode as the engine writes it (json.dumps of its to_dict): hard and strict.
HARD_STATES = ('%"mode": "hard"%', '%"mode": "strict"%')
# The player's games won with the bot of kinds LIKE a pattern in a range of guesses: the
# games an achievement of one game reads (a walk of the index results_won: their wins in
# that many guesses only). Shares are never results.
WON_GAMES = (
    "FROM results WHERE player_id = ? AND won = 1 AND guesses BETWEEN ? AND ? AND kind LIKE ?"
)


class Achievements:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def earned(self, player_id: int) -> dict[str, str]:
        """The player's achievements: id -> when (an ISO time), by its primary key."""
        rows = await self.db.all(
            "SELECT achievement, earned_at FROM achievements WHERE player_id = ?", (player_id,)
        )
        return {str(r[0]): str(r[1]) for r in rows}

    async def earned_in(self, player_id: int, scope: int) -> dict[str, str]:
        """Those of the player's achievements earned in ``scope``: id -> when."""
        rows = await self.db.all(
            "SELECT achievement, earned_at FROM achievements WHERE player_id = ? AND scope = ?",
            (player_id, scope),
        )
        return {str(r[0]): str(r[1]) for r in rows}

    async def award(self, player_id: int, ids: Iterable[str], scope: int, now: str) -> list[str]:
        """Record ``ids`` as earned now in ``scope``; returns those that were not earned
        before (each insert counts its own row: only the one that made it says new)."""
        new = []
        for achievement in ids:
            if await self.db.write(
                "INSERT INTO achievements (player_id, achievement, earned_at, scope) "
                "VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (player_id, achievement, now, scope),
            ):
                new.append(achievement)
        return new

    async def won_a_game(self, player_id: int, kinds: str, fewest: int, most: int) -> bool:
        """Whether the player won a game of ``kinds`` (a LIKE pattern) with the bot in
        ``fewest`` to ``most`` guesses: one indexed read."""
        row = await self.db.one(f"SELECT 1 {WON_GAMES} LIMIT 1",
                                (player_id, fewest, most, kinds))  # fmt: skip
        return row is not None

    async def award_for_game(self, player_id: int, achievement: str, kinds: str, fewest: int,
                             most: int) -> bool:  # fmt: skip
        """Record ``achievement`` as earned by the first such game (:meth:`won_a_game`), when
        and where that game ended, in one statement (a player deleted meanwhile: no game,
        nothing recorded); whether it is new."""
        return bool(await self.db.write(
            "INSERT INTO achievements (player_id, achievement, earned_at, scope) "
            f"SELECT player_id, ?, finished_at, scope {WON_GAMES} ORDER BY id LIMIT 1 "
            "ON CONFLICT DO NOTHING",
            (achievement, player_id, fewest, most, kinds),
        ))  # fmt: skip

    async def totals(self, player_id: int) -> list[Row]:
        """The player's own standings of every kind (games played with the bot: the global
        rows hold no shares): kind, played, wins, max_streak. One read on the player's index."""
        return await self.db.all(
            "SELECT kind, played, wins, max_streak FROM standings "
            "WHERE player_id = ? AND scope = ?",
            (player_id, GLOBAL),
        )

    async def games_played(self, player_id: int) -> int:
        """Games the player finished with the bot after one guess at least (one given up
        before its first guess was not played): their results, on their index."""
        row = await self.db.one(
            "SELECT COUNT(*) FROM results WHERE player_id = ? AND guesses > 0", (player_id,)
        )
        return 0 if row is None else int(row[0])

    async def hard_daily_wins(self, player_id: int) -> int:
        """Dailies the player won in hard or strict mode (their results, on their index)."""
        row = await self.db.one(
            "SELECT COUNT(*) FROM results r JOIN games g ON g.id = r.game_id "
            "WHERE r.player_id = ? AND r.won = 1 AND r.day IS NOT NULL "
            "AND (g.state LIKE ? OR g.state LIKE ?)",
            (player_id, *HARD_STATES),
        )
        return 0 if row is None else int(row[0])

    async def public(self, guild_id: int) -> bool:
        """Whether the server announces its players' achievements in the channel."""
        row = await self.db.one(
            "SELECT achievements_public FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return row is not None and bool(row[0])

    async def set_public(self, guild_id: int, public: bool) -> None:
        await self.db.write(
            "INSERT INTO guild_settings (guild_id, achievements_public) VALUES (?, ?) "
            "ON CONFLICT(guild_id) DO UPDATE SET achievements_public = "
            "excluded.achievements_public",
            (guild_id, int(public)),
        )
