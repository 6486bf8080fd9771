"""Storage: the games, results, standings and settings the services keep, on SQLite or
PostgreSQL. The only module that speaks SQL.

Each query is written once, with ``?`` placeholders, in SQL both engines run; the engine
(:mod:`bot.storage.sqlite`, :mod:`bot.storage.postgres`, behind the interface in
:mod:`bot.storage.database`) runs it. A guess that does not end its game is one ``UPDATE``
(its own transaction), checked against the version it was read at; a finished game, its
result and both standings rows commit together.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Collection, Iterable
from contextlib import AbstractAsyncContextManager
from datetime import UTC, date, datetime, timedelta
from typing import Any

from bot.storage import counts
from bot.storage import shares as share_rows
from bot.storage.achievements import Achievements
from bot.storage.answers import LearnedAnswers
from bot.storage.challenges import Challenges
from bot.storage.cooldowns import stamp
from bot.storage.coop import Coop
from bot.storage.database import (
    MEMORY,
    Database,
    DatabaseUrl,
    Duplicate,
    Row,
    Step,
    Steps,
    StorageBusy,
    StorageUnavailable,
    Transaction,
    execute,
    execute_many,
    fetch_all,
    only,
    parse_database_url,
    value,
)
from bot.storage.digests import Digests
from bot.storage.imports import Imports
from bot.storage.live_boards import LiveBoards, boards_showing
from bot.storage.migrations import LATEST
from bot.storage.periods import Ranked, add_to_periods, board_page, period_keys
from bot.storage.races import Races
from bot.storage.records import (
    DEFAULT_SEASON_DAYS,
    GLOBAL,
    Deletion,
    GuildSettings,
    Result,
    Standing,
    StandingRow,
    StoredGame,
    fold,
)
from bot.storage.reminders import Reminders
from bot.storage.request_pace import RequestPace
from bot.storage.retention import Retention
from bot.storage.shares import SHARED, ShareResult
from bot.storage.skills import Skills
from bot.storage.sqlite import BUSY_TIMEOUT_MS, SqliteDatabase
from bot.storage.web_pages import WebPages
from bot.storage.winner_roles import WinnerRoles, roles_held_by
from bot.storage.years import Years

log = logging.getLogger("wordlebot.storage")


async def load_standings(db: Transaction, standings: dict[Any, Any],
                         skills: dict[Any, Any]) -> None:  # fmt: skip
    """The standings a bulk load worked out, with each one's skill, in one load."""
    await db.load(
        "standings", ("scope", "player_id", "kind", "played", "wins", "win_guesses",
                      "current_streak", "max_streak", "last_day", "skilled", "skill_total"),
        [(*key, *value, *skills.get(key, (0, 0))) for key, value in standings.items()],
    )  # fmt: skip


def tally(row: list[int], won: object, guesses: object, skill: object) -> None:
    """One result into a period board's row: played, wins, guesses of the wins, and the
    coach's skill (how many games have one, and their sum)."""
    row[0] += 1
    row[1] += int(won)  # type: ignore[call-overload]
    row[2] += int(guesses) * int(won)  # type: ignore[call-overload]
    if skill is not None:
        row[3] += 1
        row[4] += int(skill)  # type: ignore[call-overload]


PERIODS_MIGRATION = 7  # the schema version that brought boards over periods
COUNTS_MIGRATION = 12  # and the one that keeps how many players each board holds
SHARES_MIGRATION = 15  # and the one that takes shares off the global boards


LEADERBOARD_METRICS = ("wins", "win_rate", "average", "skill", "current_streak", "max_streak")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Storage:
    def __init__(self, db: Database) -> None:
        self.db = db
        self.skills = Skills(db)  # the coach's skill of each daily, for the skill board
        self.digests = Digests(db)  # the daily digest's channels, claims and day reads
        self.reminders = Reminders(db)  # reminders and the daily role, with their claims
        self.challenges = Challenges(db)  # challenges with a player's own word
        self.races = Races(db)  # races, their players' finishes and the race standings
        self.coop = Coop(db)  # co-op channel games, their rows and standings
        self.answers = LearnedAnswers(db)  # NYT answers learned from players' solved shares
        self.winner_roles = WinnerRoles(db)  # the role the day's winners get, and its holders
        self.achievements = Achievements(db)  # what each player earned, once
        self.imports = Imports(db)  # the checkpoints of share channels' history imports
        self.years = Years(db)  # the year card's reads
        self.live_boards = LiveBoards(db)  # the live daily board's channel and messages
        self.retention = Retention(db)  # purging the rows no reader needs any more
        self.web_pages = WebPages(db)  # servers' pages on the web, and who is named there
        self.request_pace = RequestPace(db)  # the deployment's pace of requests to Discord

    # -- opening, closing, migrating -------------------------------------------------------

    @classmethod
    async def open(
        cls, url: str | DatabaseUrl, *, migrate: bool = True,
        busy_timeout_ms: int = BUSY_TIMEOUT_MS, async_moves: bool = False,
    ) -> Storage:  # fmt: skip
        """Open (and migrate) the database a URL or a file path names: SQLite by default,
        PostgreSQL for ``postgresql://``. A database is created only where none exists. A
        locked database is waited for up to ``busy_timeout_ms``; then :class:`StorageBusy`
        is raised and nothing is changed. A database that cannot be used raises
        :class:`StorageUnavailable` with one line for a person, and leaves nothing open.
        ``async_moves`` (PostgreSQL): moves commit without waiting for the server's log
        (POSTGRES_ASYNC_MOVES; a server crash may undo the last ones)."""
        if isinstance(url, str):
            try:
                url = parse_database_url(url)
            except ValueError as exc:
                raise StorageUnavailable(f"DATABASE_URL: {exc}") from None
        db: Database
        if url.engine == "postgresql":
            from bot.storage.postgres import PostgresDatabase  # asyncpg only when used

            db = await PostgresDatabase.open(url, busy_timeout_ms, async_moves=async_moves)
        else:
            db = await SqliteDatabase.open(url.target, busy_timeout_ms)
        storage = cls(db)
        if migrate:
            try:
                await storage.migrate()
            except BaseException:
                await storage.close()
                raise
        return storage

    @property
    def engine(self) -> str:
        return self.db.engine

    async def close(self) -> None:
        """Close once; later calls do nothing (a shutdown may come from several places)."""
        await self.db.close()

    async def schema_version(self) -> int:
        return await self.db.schema_version()

    async def migrate(self, target: int | None = None) -> list[int]:
        """Apply the migrations after the current version up to ``target`` (the latest);
        returns the versions applied."""
        applied = await self.db.migrate(target)
        if PERIODS_MIGRATION in applied:  # boards over periods, from the results so far
            counted = COUNTS_MIGRATION in applied  # then the boards' counts are kept too
            async with self.transaction() as db:
                kinds = [str(r[0]) for r in await db.all("SELECT DISTINCT kind FROM results")]
                if counted:
                    await counts.pause(db, self.db)
                await rebuild_periods(db, kinds)
                if counted:
                    await counts.recount(db, self.db, kinds)
        if SHARES_MIGRATION in applied:  # and the global period boards
            await self.db.run(share_rows.off_global_periods())
        if await self.get_meta(share_rows.APART) is not None:  # migration 29's moves, if due
            async with self.transaction() as db:
                await counts.pause(db, self.db)  # the boards moved are counted again after
                kinds = await db.run(share_rows.move_apart())
                await rebuild_periods(db, kinds)  # from the results and shares they count
                await counts.recount(db, self.db, kinds)
        return applied

    def transaction(self) -> AbstractAsyncContextManager[Transaction]:
        """Statements that commit together or not at all."""
        return self.db.transaction()

    async def backup(self, target: str) -> None:
        """A consistent copy of a live SQLite database; PostgreSQL says to use pg_dump."""
        await self.db.backup(target)

    # -- small helpers -----------------------------------------------------------------

    async def _one(self, sql: str, params: Any = ()) -> Row | None:
        return await self.db.one(sql, params)

    async def _all(self, sql: str, params: Any = ()) -> list[Row]:
        return await self.db.all(sql, params)

    async def _write(self, sql: str, params: Any = (), *, durable: bool = True) -> int:
        """One statement, its own transaction; returns the rows changed."""
        return await self.db.write(sql, params, durable=durable)

    # -- meta, players, guilds ---------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        row = await self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else str(row["value"])

    async def set_meta_once(self, key: str, value: str) -> str:
        """Store ``value`` unless the key is set; returns the stored value either way."""
        await self._write(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT DO NOTHING", (key, value)
        )
        stored = await self.get_meta(key)
        assert stored is not None
        return stored

    async def ensure_player(self, player_id: int, name: str = "") -> None:
        await self._write(
            "INSERT INTO players (id, name, created_at) VALUES (?, ?, ?) "
            "ON CONFLICT(id) DO UPDATE SET name = excluded.name WHERE excluded.name != ''",
            (player_id, name[:100], _now()),
        )

    async def palette(self, player_id: int) -> str:
        """The colours a player chose for their boards ('standard' until they choose)."""
        row = await self._one("SELECT palette FROM players WHERE id = ?", (player_id,))
        return "standard" if row is None else str(row["palette"])

    async def set_palette(self, player_id: int, name: str, palette: str) -> None:
        await self._write(
            "INSERT INTO players (id, name, created_at, palette) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(id) DO UPDATE SET palette = excluded.palette",
            (player_id, name[:100], _now(), palette),
        )

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        row = await self._one(
            "SELECT timezone, hints_in_daily, season_days, fail_score, language, word_length "
            "FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        if row is None:
            return GuildSettings(guild_id)
        length = row["word_length"]
        return GuildSettings(guild_id, row["timezone"], bool(row["hints_in_daily"]),
                             int(row["season_days"]), int(row["fail_score"]), row["language"],
                             None if length is None else int(length))  # fmt: skip

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        await self._write(
            "INSERT INTO guild_settings (guild_id, timezone, hints_in_daily, season_days, "
            "fail_score, language, word_length) VALUES (?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT(guild_id) DO UPDATE SET timezone = excluded.timezone, "
            "hints_in_daily = excluded.hints_in_daily, season_days = excluded.season_days, "
            "fail_score = excluded.fail_score, language = excluded.language, "
            "word_length = excluded.word_length",
            (settings.guild_id, settings.timezone, int(settings.hints_in_daily),
             settings.season_days, settings.fail_score, settings.language,
             settings.word_length),
        )  # fmt: skip

    async def player_names(self, player_ids: Collection[int]) -> dict[int, str]:
        """The names the bot knows these players by (their last game's), where it knows them."""
        if not player_ids:
            return {}
        marks = ", ".join("?" for _ in player_ids)
        rows = await self._all(f"SELECT id, name FROM players WHERE id IN ({marks})",
                               tuple(player_ids))  # fmt: skip
        return {int(row["id"]): str(row["name"]) for row in rows}

    async def player_locale(self, player_id: int) -> str | None:
        """The interface language a player chose (/settings me), or None: Discord's."""
        row = await self._one("SELECT locale FROM players WHERE id = ?", (player_id,))
        return None if row is None else row["locale"]

    async def set_player_locale(self, player_id: int, name: str, locale: str | None) -> None:
        await self._write(
            "INSERT INTO players (id, name, created_at, locale) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(id) DO UPDATE SET locale = excluded.locale",
            (player_id, name[:100], _now(), locale),
        )

    async def guided(self, player_id: int) -> bool:
        """Whether the player was given the first-game guide (a plain read, no write)."""
        row = await self._one("SELECT guided_at FROM players WHERE id = ?", (player_id,))
        return row is not None and row["guided_at"] is not None

    async def claim_guide(self, player_id: int, name: str = "") -> bool:
        """Mark the player as given the first-game guide; True for the one call that marked
        them (a compare-and-set on ``guided_at``: of two processes asking at once, one
        wins). Deleting the player's row (/mydata delete) forgets the mark."""
        now = _now()
        changed = await self._write(
            "INSERT INTO players (id, name, created_at, guided_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(id) DO UPDATE SET guided_at = excluded.guided_at "
            "WHERE players.guided_at IS NULL",
            (player_id, name[:100], now, now),
        )
        return changed == 1

    async def release_guide(self, player_id: int) -> None:
        """Take the mark back: the guide claimed was never said (Discord refused it), so the
        player's next use claims it again."""
        await self._write("UPDATE players SET guided_at = NULL WHERE id = ?", (player_id,))

    # -- games -------------------------------------------------------------------------

    async def active_game(
        self, player_id: int, scope: int, kind: str | None = None
    ) -> StoredGame | None:
        """The player's game in progress of ``kind`` here, or of any kind, the newest."""
        sql = "SELECT * FROM games WHERE player_id = ? AND scope = ? AND status = 'playing' "
        if kind is None:
            row = await self._one(sql + "ORDER BY id DESC LIMIT 1", (player_id, scope))
        else:
            row = await self._one(sql + "AND kind = ?", (player_id, scope, kind))
        return None if row is None else _game(row)

    async def active_games(self, player_id: int, scope: int) -> list[StoredGame]:
        rows = await self._all(
            "SELECT * FROM games WHERE player_id = ? AND scope = ? AND status = 'playing' "
            "ORDER BY id",
            (player_id, scope),
        )
        return [_game(row) for row in rows]

    async def hint_free_games(self, player_id: int) -> list[StoredGame]:
        """The player's games in progress, wherever, that allow no hints: races, and games of
        a set puzzle (a daily, an archive day, a challenge) kept in a server that turned
        daily hints off."""
        rows = await self._all(
            "SELECT g.* FROM games g LEFT JOIN guild_settings s ON s.guild_id = g.scope "
            "WHERE g.player_id = ? AND g.status = 'playing' AND g.puzzle IS NOT NULL "
            "AND (g.kind LIKE ? OR s.hints_in_daily = 0) ORDER BY g.id",
            (player_id, "%:race"),
        )
        return [_game(row) for row in rows]

    async def daily_game(self, player_id: int, kind: str, day: str) -> StoredGame | None:
        row = await self._one(
            "SELECT * FROM games WHERE player_id = ? AND kind = ? AND puzzle = ?",
            (player_id, kind, day),
        )
        return None if row is None else _game(row)

    async def daily_games(self, player_ids: Collection[int], kind: str,
                          day: str) -> list[StoredGame]:  # fmt: skip
        """The daily of ``kind`` and ``day`` of each of these players who started it."""
        if not player_ids:
            return []
        marks = ", ".join("?" for _ in player_ids)
        rows = await self._all(
            f"SELECT * FROM games WHERE kind = ? AND puzzle = ? AND player_id IN ({marks})",
            (kind, day, *player_ids),
        )
        return [_game(row) for row in rows]

    async def open_dailies(self, kinds: tuple[str, ...], before: str) -> list[StoredGame]:
        """The games of ``kinds`` still going whose puzzle (a day) is before ``before``."""
        rows = await self._all(
            "SELECT * FROM games WHERE status = 'playing' AND puzzle < ? AND kind IN "
            f"({', '.join('?' for _ in kinds)}) ORDER BY id",
            (before, *kinds),
        )
        return [_game(row) for row in rows]

    async def game(self, game_id: int) -> StoredGame | None:
        row = await self._one("SELECT * FROM games WHERE id = ?", (game_id,))
        return None if row is None else _game(row)

    async def insert_game(
        self, player_id: int, scope: int, kind: str, puzzle: str | None, state: dict[str, Any]
    ) -> StoredGame | None:
        """A new game, or None when the player already has one of this kind (or today's)."""
        now = _now()
        try:
            game_id = await self.db.run(only(value(
                "INSERT INTO games (player_id, scope, kind, puzzle, state, version, status, "
                "created_at, updated_at) VALUES (?, ?, ?, ?, ?, 0, 'playing', ?, ?) "
                "RETURNING id",
                (player_id, scope, kind, puzzle, json.dumps(state), now, now),
            )))  # fmt: skip
        except Duplicate:
            return None
        return StoredGame(game_id, player_id, scope, kind, puzzle, state, 0, "playing")

    async def save_game(
        self, game: StoredGame, state: dict[str, Any], status: str, result: Result | None = None
    ) -> StoredGame | None:
        """Store the game's next state if nobody changed it since ``game.version`` was read.

        Returns the stored game, or None on a version conflict (nothing written). A result
        is recorded with its standings in the same transaction.
        """
        params = (json.dumps(state), status, _now(), game.id, game.version)
        sql = (
            "UPDATE games SET state = ?, status = ?, updated_at = ?, version = version + 1 "
            "WHERE id = ? AND version = ?"
        )
        if result is None:  # a move: it need not wait for the disk (Database.write)
            if await self._write(sql, params, durable=status != "playing") != 1:
                return None
        else:  # the season's length is a setting: read before the write lock is taken
            season = await self._one(
                "SELECT season_days FROM guild_settings WHERE guild_id = ?", (game.scope,)
            )
            days = season[0] if season is not None and season[0] else DEFAULT_SEASON_DAYS
            if not await self.db.run(self._finish(game, execute(sql, params), result, days)):
                return None
        return StoredGame(
            game.id, game.player_id, game.scope, game.kind, game.puzzle, state, game.version + 1,
            status,
        )  # fmt: skip

    def _finish(
        self, game: StoredGame, update: Step, result: Result, season_days: int
    ) -> Steps[bool]:
        """A game's last state (``update``: False if another change came first) with its
        result, standings and period boards, in a few statements whatever the rows."""
        if (yield update) != 1:
            return False
        played_on = result.day or result.played_on or _now()[:10]
        yield execute(
            "INSERT INTO results (game_id, player_id, scope, kind, day, won, guesses, "
            "finished_at, played_on) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (game.id, game.player_id, game.scope, game.kind, result.day, int(result.won),
             result.guesses, _now(), played_on),
        )  # fmt: skip
        scopes = sorted({game.scope, GLOBAL})  # one order everywhere: no deadlock
        yield from _apply_result(self.db.for_update, scopes, game.player_id, game.kind, result)
        seasons = [(s, season_days if s == game.scope else DEFAULT_SEASON_DAYS) for s in scopes]
        yield from add_to_periods(seasons, game.player_id, game.kind, result,
                                  date.fromisoformat(played_on))  # fmt: skip
        return True

    # -- daily puzzles -----------------------------------------------------------------

    async def served_any_puzzle(self) -> bool:
        """Whether this database ever served a puzzle: a daily recorded or any game stored
        (an archive day, a practice game: a deployment in use)."""
        row = await self._one(
            "SELECT EXISTS (SELECT 1 FROM daily_puzzles) OR EXISTS (SELECT 1 FROM games) AS used"
        )
        return row is not None and bool(row["used"])

    async def record_daily(self, variant: str, day: str, number: int, answer: str) -> None:
        await self._write(
            "INSERT INTO daily_puzzles (variant, day, number, answer) VALUES (?, ?, ?, ?) "
            "ON CONFLICT DO NOTHING",
            (variant, day, number, answer),
        )

    # -- stats and leaderboards --------------------------------------------------------

    async def standing(self, player_id: int, kind: str, scope: int = GLOBAL) -> Standing | None:
        row = await self._one(
            "SELECT s.*, p.name FROM standings s JOIN players p ON p.id = s.player_id "
            "WHERE s.scope = ? AND s.kind = ? AND s.player_id = ?",
            (scope, kind, player_id),
        )
        return None if row is None else _standing(row)

    async def distribution(self, player_id: int, kind: str,
                           scope: int | None = None) -> tuple[int, dict[int, int]]:  # fmt: skip
        """The games the player finished with the bot (in ``scope`` alone if given), and
        their wins by guesses (shares, which also count on the boards, are the player's
        stats' own line)."""
        rows = await self._all(
            "SELECT won, guesses, COUNT(*) AS n FROM results WHERE player_id = ? AND kind = ? "
            + ("" if scope is None else "AND scope = ? ")
            + "GROUP BY won, guesses",
            (player_id, kind) + (() if scope is None else (scope,)),
        )
        wins = {int(r["guesses"]): int(r["n"]) for r in rows if r["won"]}
        return sum(int(r["n"]) for r in rows), wins

    async def leaderboard(
        self,
        scope: int,
        kind: str,
        metric: str,
        *,
        period: str | None = None,
        page: int = 1,
        per_page: int = 10,
        min_games: int = 1,
        fail_score: int = 7,
        today: date,
    ) -> tuple[list[Ranked], int]:
        """One page of the board, all time or over ``period`` (a key of
        :func:`bot.storage.periods.period_key`), and how many players are on it. Tied
        players share a rank; ties are listed by player id."""
        yesterday = (today - timedelta(days=1)).isoformat()
        return await board_page(self.db, scope, kind, metric, period, page=page,
                                per_page=per_page, min_games=min_games,
                                fail_score=fail_score, yesterday=yesterday)  # fmt: skip

    # -- shares ------------------------------------------------------------------------

    async def record_share(
        self, player_id: int, game: str, puzzle: int, won: bool, guesses: int, hard: bool,
        grid: str, *, scope: int, today: date, name: str = "",
        forgotten: tuple[str, str] | None = None, posted_at: datetime | None = None,
    ) -> str:  # fmt: skip
        """Record a result from a share or the Wordle app, posted in ``scope`` on puzzle day
        ``today`` (the message's day, not the reader's): 'new', 'same' (already recorded),
        'replaced', or why it was refused and not stored (:data:`.shares.REFUSED`). It counts
        on its server's boards of shares, apart from the games played here. The
        player is made (named ``name``, when given) only when something is recorded. With
        ``forgotten`` (the player's mark, the message's stored time), a share posted before
        the player deleted their data is 'forgotten' and stored nowhere. ``posted_at``: when
        its message was posted (its last edit; None: now): a message older than the one
        recorded changes nothing ('same')."""
        share = ShareResult(player_id, game, puzzle, won, guesses, hard, grid)
        moment = stamp(posted_at or datetime.now(UTC))
        return await self.db.run(share_rows.record_share(
            self.db.for_update, share, scope, today, _now(), name, forgotten, moment
        ))  # fmt: skip

    async def set_share_channel(self, guild_id: int, channel_id: int, enabled: bool) -> None:
        if enabled:
            await self._write(
                "INSERT INTO share_channels (guild_id, channel_id) VALUES (?, ?) "
                "ON CONFLICT DO NOTHING",
                (guild_id, channel_id),
            )
        else:
            await self._write(
                "DELETE FROM share_channels WHERE guild_id = ? AND channel_id = ?",
                (guild_id, channel_id),
            )

    async def is_share_channel(self, guild_id: int, channel_id: int) -> bool:
        row = await self._one(
            "SELECT 1 FROM share_channels WHERE guild_id = ? AND channel_id = ?",
            (guild_id, channel_id),
        )
        return row is not None

    async def remove_share(self, player_id: int, game: str, puzzle: int) -> bool:
        steps = share_rows.remove_share(self.db.for_update, player_id, game, puzzle)
        return await self.db.run(steps)

    async def last_finished_game(self, player_id: int) -> StoredGame | None:
        row = await self._one(
            "SELECT * FROM games WHERE player_id = ? AND status != 'playing' "
            "ORDER BY id DESC LIMIT 1",
            (player_id,),
        )
        return None if row is None else _game(row)

    async def shares(self, player_id: int) -> list[dict[str, Any]]:
        rows = await self._all(
            "SELECT game, puzzle, won, guesses, hard, grid, recorded_at FROM share_results "
            "WHERE player_id = ? ORDER BY game, puzzle",
            (player_id,),
        )
        return [dict(r) for r in rows]

    # -- data ownership ----------------------------------------------------------------

    async def export_player(self, player_id: int) -> dict[str, Any]:
        """Everything stored about a player, as plain JSON-ready data."""
        tables = {
            "player": "SELECT id, name, created_at, palette, locale, guided_at FROM players "
            "WHERE id = ?",
            "games": "SELECT id, scope, kind, puzzle, state, status, created_at, updated_at "
            "FROM games WHERE player_id = ? ORDER BY id",
            "results": "SELECT game_id, scope, kind, day, won, guesses, finished_at "
            "FROM results WHERE player_id = ? ORDER BY id",
            "standings": "SELECT scope, kind, played, wins, win_guesses, current_streak, "
            "max_streak, last_day FROM standings WHERE player_id = ? ORDER BY kind, scope",
            "shares": "SELECT game, puzzle, won, guesses, hard, grid, recorded_at, posted_at "
            "FROM share_results WHERE player_id = ? ORDER BY game, puzzle",
            "challenges": "SELECT id, guild_id, channel_id, target_id, game, answer, "
            "max_guesses, created_at FROM challenges WHERE setter_id = ? ORDER BY id",
            "coop_rows": "SELECT coop_id, turn, points, played_at FROM coop_rows "
            "WHERE player_id = ? ORDER BY coop_id, turn",
            "coop_standings": "SELECT scope, points, guesses, solves FROM coop_standings "
            "WHERE player_id = ? ORDER BY scope",
            "races": "SELECT race_id, joined_at, finished_at, won, guesses, place "
            "FROM race_players WHERE player_id = ? ORDER BY race_id",
            "race_standings": "SELECT scope, races, wins, podiums, place_total "
            "FROM race_standings WHERE player_id = ? ORDER BY scope",
            "reminders": "SELECT guild_id, channel_id, minute, last_day FROM reminders "
            "WHERE player_id = ? ORDER BY guild_id",
            "winner_roles": "SELECT guild_id, role_id, day FROM winner_roles "
            "WHERE player_id = ? ORDER BY guild_id, role_id",
            "achievements": "SELECT achievement, earned_at, scope FROM achievements "
            "WHERE player_id = ? ORDER BY earned_at, achievement",
            # the share channels' imports this admin started (the id is zeroed on deletion)
            "share_imports": "SELECT guild_id, channel_id, since, status, started_at "
            "FROM share_imports WHERE started_by = ? ORDER BY started_at, channel_id",
        }
        data: dict[str, Any] = {}
        for name, sql in tables.items():
            rows = [dict(r) for r in await self._all(sql, (player_id,))]
            for row in rows:
                if "state" in row:
                    row["state"] = json.loads(row["state"])
            data[name] = rows[0] if name == "player" and rows else rows
        return data

    async def delete_player(
        self, player_id: int, *, mark: Callable[[str, str], str] | None = None,
        today: str | None = None, pings_since: str | None = None,
        lasting: tuple[str, str] | None = None, forget: tuple[str, str] | None = None,
    ) -> Deletion:  # fmt: skip
        """Remove the player and everything of theirs (foreign keys cascade); then the
        engine makes sure the old rows are gone from disk too (SQLite: zeroed pages and a
        truncated write-ahead log; PostgreSQL: a vacuum).

        With ``mark`` (the keyed hash of a game's kind and puzzle) and ``today``, each game
        with a puzzle that is in progress or ended ``today`` leaves its mark until that day
        ends, in the same transaction: no moment sees neither the game nor its mark. With
        ``pings_since`` (a stored time), the players their challenges named since then stay
        named (``recent_pings``): deleting is no way around a target's cooldown. With
        ``lasting`` (a kind's suffix, a day), games of such kinds leave their mark whenever
        they were played, holding until that day (a challenge has no day of its own). With
        ``forget`` (the player's own mark, a stored time), that mark stays for good with the
        later of its times: no share of theirs posted before counts again
        (:func:`.shares.record_share`).

        Returns, read with the player's row locked (no role recorded for them meanwhile goes
        unseen: :meth:`.winner_roles.WinnerRoles.giving` waits for that lock), the winner's
        roles the bot gave them and, with ``today``, the servers whose board of that day
        showed them: what the front ends undo, as no record of it is left."""
        async with self.transaction() as db:
            # The player's row locked first: no game of theirs is inserted until we commit.
            # Made if missing (and deleted below), so that a share recorded meanwhile for one
            # with no data yet waits for the mark too (PostgreSQL: the insert of their row).
            made = await db.execute(
                "INSERT INTO players (id, name, created_at) VALUES (?, '', ?) "
                "ON CONFLICT DO NOTHING", (player_id, _now()),
            ) if forget is not None else 0  # fmt: skip
            await db.one(f"SELECT id FROM players WHERE id = ?{self.db.for_update}", (player_id,))
            roles = await roles_held_by(db, player_id)
            boards = [] if today is None else await boards_showing(db, player_id, today)
            if mark is not None and today is not None:
                suffix, until = lasting or ("", today)
                played = await db.all(
                    "SELECT g.kind, g.puzzle FROM games g LEFT JOIN results r ON r.game_id = g.id "
                    "WHERE g.player_id = ? AND g.puzzle IS NOT NULL "
                    "AND (g.status = 'playing' OR r.played_on = ? OR g.kind LIKE ?)",
                    (player_id, today, f"%{suffix}" if lasting else ""),
                )
                await db.execute("DELETE FROM played_marks WHERE day < ?", (today,))
                marks = sorted({
                    (mark(str(kind), str(puzzle)),
                     until if lasting and str(kind).endswith(suffix) else today)
                    for kind, puzzle in played
                })  # fmt: skip
                if marks:
                    await db.executemany(
                        "INSERT INTO played_marks (mark, day) VALUES (?, ?) "
                        "ON CONFLICT(mark) DO UPDATE SET day = CASE "
                        "WHEN excluded.day > played_marks.day THEN excluded.day "
                        "ELSE played_marks.day END",
                        marks,
                    )
            if pings_since is not None:
                await db.execute(
                    "INSERT INTO recent_pings (target_id, created_at) SELECT target_id, "
                    "created_at FROM challenges WHERE setter_id = ? AND target_id IS NOT NULL "
                    "AND created_at > ? ON CONFLICT DO NOTHING",
                    (player_id, pings_since),
                )
            if forget is not None:
                await db.execute(
                    "INSERT INTO forgotten (mark, deleted_at) VALUES (?, ?) "
                    "ON CONFLICT(mark) DO UPDATE SET deleted_at = CASE "
                    "WHEN excluded.deleted_at > forgotten.deleted_at THEN excluded.deleted_at "
                    "ELSE forgotten.deleted_at END",
                    forget,
                )
            await db.execute("DELETE FROM nyt_answer_votes WHERE player_id = ?", (player_id,))
            # An import they started keeps running, no longer theirs.
            await db.execute("UPDATE share_imports SET started_by = 0 WHERE started_by = ?",
                             (player_id,))  # fmt: skip
            gone = await db.execute("DELETE FROM players WHERE id = ?", (player_id,))
            deleted = gone == 1 and not made
        await self.db.after_delete()
        return Deletion(deleted, roles, boards)

    async def marked(self, mark: str, today: str) -> bool:
        """Whether a deletion left this mark for ``today`` (older marks no longer count)."""
        row = await self._one(
            "SELECT 1 FROM played_marks WHERE mark = ? AND day >= ?", (mark, today)
        )
        return row is not None

    async def purge_marks(self, today: str, pings_before: str | None = None) -> int:
        """Forget the marks of days that have ended, and the pings kept from before
        ``pings_before`` (a stored time); returns how many marks went."""
        async with self.transaction() as db:
            if pings_before is not None:
                await db.execute("DELETE FROM recent_pings WHERE created_at < ?", (pings_before,))
            return await db.execute("DELETE FROM played_marks WHERE day < ?", (today,))

    async def reset_guild_board(self, guild_id: int) -> int:
        """Clear a guild's leaderboard; players' own stats and histories stay."""
        async with self.transaction() as db:
            removed = await db.execute("DELETE FROM standings WHERE scope = ?", (guild_id,))
            await db.execute(
                "INSERT INTO guild_settings (guild_id, board_reset_at) VALUES (?, ?) "
                "ON CONFLICT(guild_id) DO UPDATE SET board_reset_at = excluded.board_reset_at",
                (guild_id, _now()),
            )
        return removed

    async def bulk_results(self, rows: Iterable[tuple[Any, ...]]) -> None:
        """Load many finished games at once (benchmarks, imports): (player, scope, kind, day,
        won, guesses[, the coach's skill[, its luck[, the game's state (JSON text)[, its
        puzzle]]]]) in play order, with their games, results and standings. They are never
        coached again (a game given no state holds no rows)."""
        rows = [(*r, *(None,) * (10 - len(r))) for r in rows]
        now = _now()
        async with self.transaction() as db:
            await counts.pause(db, self.db)
            standings: dict[tuple[int, int, str], StandingRow] = {}
            skills: dict[tuple[int, int, str], tuple[int, int]] = {}
            for kind in {r[2] for r in rows}:  # continue from what is already there
                for old in await db.all(
                    "SELECT scope, player_id, played, wins, win_guesses, current_streak, "
                    "max_streak, last_day, skilled, skill_total FROM standings WHERE kind = ?",
                    (kind,),
                ):
                    key = (old[0], old[1], kind)
                    standings[key] = tuple(old)[2:8]
                    skills[key] = (int(old[8]), int(old[9]))
            for player_id, scope, kind, day, won, guesses, skill, *_ in rows:
                for key in ((scope, player_id, kind), (GLOBAL, player_id, kind)):
                    standings[key] = fold(standings.get(key), Result(won, guesses, day))
                    if skill is not None:
                        skilled, total = skills.get(key, (0, 0))
                        skills[key] = (skilled + 1, total + skill)
            base = int(await db.value("SELECT COALESCE(MAX(id), 0) FROM games"))
            known = {int(r[0]) for r in await db.all("SELECT id FROM players")}
            await db.load(
                "players", ("id", "name", "created_at"),
                [(p, f"player{p}", now) for p in sorted({r[0] for r in rows} - known)],
            )  # fmt: skip
            await db.load(
                "games", ("id", "player_id", "scope", "kind", "puzzle", "state", "version",
                          "status", "created_at", "updated_at"),
                [(base + i + 1, r[0], r[1], r[2], r[9], r[8] or "{}", 0,
                  "won" if r[4] else "lost", now, now) for i, r in enumerate(rows)],
            )  # fmt: skip
            await db.load(
                "results", ("game_id", "player_id", "scope", "kind", "day", "won", "guesses",
                            "finished_at", "played_on", "skill", "coached", "luck"),
                [(base + i + 1, r[0], r[1], r[2], r[3], int(r[4]), r[5], now, r[3] or now[:10],
                  r[6], 1, r[7]) for i, r in enumerate(rows)],
            )  # fmt: skip
            for kind in {r[2] for r in rows}:  # every row of these kinds was read above
                await db.execute("DELETE FROM standings WHERE kind = ?", (kind,))
            await load_standings(db, standings, skills)
            kinds = sorted({r[2] for r in rows})
            await rebuild_periods(db, kinds)
            await counts.recount(db, self.db, kinds)
            await self.db.after_load(db, ("players", "games", "results", "standings"))
        await self.db.optimize(
            ("players", "games", "results", "standings", "period_standings", "board_counts")
        )

    async def bulk_days(self, days: Iterable[list[tuple[Any, ...]]]) -> int:
        """Load many finished games into kinds with none yet, a day at a time (benchmarks at
        ten million results): each list holds one day's rows, as :meth:`bulk_results` takes
        them, days in order. The same rows as :meth:`bulk_results` writes, in memory bounded
        by the players (their standings and the periods still open), not by the rows: the
        periods are counted as they go and each is written once it ends. The indexes of the
        tables it fills (but their keys) are built again after the load, not kept row by row
        (for a load large beside what is there). Returns the rows."""
        now = _now()
        loaded = 0
        filled = ("players", "games", "results", "standings", "period_standings")
        async with self.transaction() as db:
            await counts.pause(db, self.db)
            if self.db.engine == "postgresql":
                indexes = await db.all(
                    "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = "
                    f"current_schema() AND tablename IN ({', '.join('?' * len(filled))}) "
                    "AND indexname NOT IN (SELECT conname FROM pg_constraint)",
                    filled,
                )
            else:
                indexes = await db.all(
                    "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT "
                    f"NULL AND tbl_name IN ({', '.join('?' * len(filled))})",
                    filled,
                )
            for name, _ in indexes:
                await db.execute(f"DROP INDEX {name}")
            seasons = {int(r[0]): int(r[1]) for r in await db.all(
                "SELECT guild_id, season_days FROM guild_settings")}  # fmt: skip
            known = {int(r[0]) for r in await db.all("SELECT id FROM players")}
            base = int(await db.value("SELECT COALESCE(MAX(id), 0) FROM games"))
            standings: dict[tuple[int, int, str], StandingRow] = {}
            skills: dict[tuple[int, int, str], list[int]] = {}
            periods: dict[str, dict[tuple[int, str, int], list[int]]] = {}  # open, by key
            kinds: set[str] = set()
            last: date | None = None
            period_columns = ("scope", "kind", "period", "player_id", "played", "wins",
                              "win_guesses", "skilled", "skill_total")  # fmt: skip

            async def flush(keys: Iterable[str]) -> None:
                await db.load("period_standings", period_columns, [
                    (where, kind, key, player, *value) for key in list(keys)
                    for (where, kind, player), value in periods.pop(key).items()
                ])  # fmt: skip

            for batch in days:
                rows = [(*r, *(None,) * (10 - len(r))) for r in batch]
                if not rows:
                    continue
                day = date.fromisoformat(rows[0][3])
                if (last is not None and day <= last) or any(r[3] != rows[0][3] for r in rows):
                    raise ValueError("bulk_days takes one list a day, the days in order")
                last = day
                new_kinds = {r[2] for r in rows} - kinds
                marks = ", ".join("?" * len(new_kinds))
                if new_kinds and await db.value(
                    f"SELECT COUNT(*) FROM results WHERE kind IN ({marks})", tuple(new_kinds)
                ):
                    raise ValueError("bulk_days loads kinds that have no results yet")
                kinds |= new_kinds
                keys_of = {where: period_keys(day, seasons.get(where, DEFAULT_SEASON_DAYS))
                           for where in {r[1] for r in rows} | {GLOBAL}}  # fmt: skip
                for player_id, scope, kind, played_on, won, guesses, skill, *_ in rows:
                    result = Result(won, guesses, played_on)
                    for where in (scope, GLOBAL) if scope != GLOBAL else (GLOBAL,):
                        key = (where, player_id, kind)
                        standings[key] = fold(standings.get(key), result)
                        if skill is not None:
                            skilled = skills.setdefault(key, [0, 0])
                            skilled[0] += 1
                            skilled[1] += skill
                        for period in keys_of[where]:
                            row = periods.setdefault(period, {}).setdefault(
                                (where, kind, player_id), [0, 0, 0, 0, 0])  # fmt: skip
                            tally(row, won, guesses, skill)
                open_keys = {key for keys in keys_of.values() for key in keys}
                new = sorted({r[0] for r in rows} - known)
                known.update(new)
                await db.load("players", ("id", "name", "created_at"),
                              [(p, f"player{p}", now) for p in new])  # fmt: skip
                await db.load(
                    "games", ("id", "player_id", "scope", "kind", "puzzle", "state", "version",
                              "status", "created_at", "updated_at"),
                    [(base + loaded + i + 1, r[0], r[1], r[2], r[9], r[8] or "{}", 0,
                      "won" if r[4] else "lost", now, now) for i, r in enumerate(rows)],
                )  # fmt: skip
                await db.load(
                    "results", ("game_id", "player_id", "scope", "kind", "day", "won", "guesses",
                                "finished_at", "played_on", "skill", "coached", "luck"),
                    [(base + loaded + i + 1, r[0], r[1], r[2], r[3], int(r[4]), r[5], now,
                      r[3], r[6], 1, r[7]) for i, r in enumerate(rows)],
                )  # fmt: skip
                loaded += len(rows)
                await flush([key for key in periods if key not in open_keys or
                             key.startswith("day:")])  # fmt: skip
            await flush(list(periods))
            await load_standings(db, standings, skills)
            for _, create in indexes:
                await db.execute(create)
            await counts.recount(db, self.db, sorted(kinds))
            await self.db.after_load(db, ("players", "games", "results", "standings"))
        await self.db.optimize(
            ("players", "games", "results", "standings", "period_standings", "board_counts")
        )
        return loaded


def _apply_result(
    for_update: str, scopes: list[int], player_id: int, kind: str, result: Result
) -> Steps[None]:
    """Fold one result into the player's standings row in each of ``scopes`` (sorted). The
    rows are made first if missing, then read and locked (``FOR UPDATE`` on PostgreSQL):
    two results of one player finishing at once in two processes add up, neither overwrites
    the other."""
    yield execute_many(
        "INSERT INTO standings (scope, player_id, kind) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
        [(scope, player_id, kind) for scope in scopes],
    )
    rows = yield fetch_all(
        "SELECT scope, played, wins, win_guesses, current_streak, max_streak, last_day "
        f"FROM standings WHERE kind = ? AND player_id = ? AND scope IN "
        f"({', '.join('?' for _ in scopes)}) ORDER BY scope{for_update}",
        (kind, player_id, *scopes),
    )
    yield execute_many(
        "UPDATE standings SET played = ?, wins = ?, win_guesses = ?, current_streak = ?, "
        "max_streak = ?, last_day = ? WHERE scope = ? AND kind = ? AND player_id = ?",
        [(*fold(tuple(row)[1:], result), row[0], kind, player_id) for row in rows],
    )


async def rebuild_periods(db: Transaction, kinds: list[str]) -> None:
    """Recount the period boards of ``kinds`` from the results (after a bulk load, and once
    when the period boards arrive in an existing database)."""
    if not kinds:
        return
    seasons = {int(r[0]): int(r[1]) for r in await db.all(
        "SELECT guild_id, season_days FROM guild_settings")}  # fmt: skip
    marks = ", ".join("?" * len(kinds))
    counts: dict[tuple[int, str, str, int], list[int]] = {}
    for scope, player_id, kind, won, guesses, played_on, skill, shared in [*await db.all(
        "SELECT scope, player_id, kind, won, guesses, played_on, skill, 0 FROM results "
        f"WHERE kind IN ({marks})", kinds,
    ), *await db.all(  # and the shares that count, on their server's boards only (.shares)
        f"SELECT scope, player_id, game || ':{SHARED}', won, guesses, day, NULL, 1 "
        "FROM share_results "
        f"WHERE counted = 1 AND game || ':{SHARED}' IN ({marks})", kinds,
    )]:  # fmt: skip
        day = date.fromisoformat(played_on)
        for where in {scope} if shared else {scope, GLOBAL}:
            for key in period_keys(day, seasons.get(where, DEFAULT_SEASON_DAYS)):
                tally(counts.setdefault((where, kind, key, player_id), [0, 0, 0, 0, 0]), won,
                      guesses, skill)  # fmt: skip
    await db.execute(f"DELETE FROM period_standings WHERE kind IN ({marks})", kinds)
    await db.load("period_standings", ("scope", "kind", "period", "player_id", "played", "wins",
                                       "win_guesses", "skilled", "skill_total"),
                  [(*key, *value) for key, value in counts.items()])  # fmt: skip


def _game(row: Row) -> StoredGame:
    return StoredGame(
        row["id"], row["player_id"], row["scope"], row["kind"], row["puzzle"],
        json.loads(row["state"]), row["version"], row["status"],
    )  # fmt: skip


def _standing(row: Row) -> Standing:
    return Standing(
        row["player_id"], row["name"], row["played"], row["wins"], row["win_guesses"],
        row["current_streak"], row["max_streak"], row["last_day"],
    )  # fmt: skip


__all__ = ["BUSY_TIMEOUT_MS", "GLOBAL", "LATEST", "MEMORY", "DatabaseUrl", "Duplicate",
           "GuildSettings", "Result", "Standing", "Storage", "StorageBusy", "StorageUnavailable",
           "StoredGame", "parse_database_url"]  # fmt: skip
