"""What a server's page on the web reads and records: the page's random slug (its link), the
choice to be indexed, each player's choice to be named, and the version a page's ETag is made
of (bot/services/web.py).

A slug is unique across servers; a new link replaces the old slug in one write, so the old
one finds nothing from that moment, in every process.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from bot.storage.database import Database

PEOPLE = "web_people"  # the meta key counting changes to who is shown how


@dataclass(frozen=True)
class PageRow:
    guild_id: int
    slug: str
    indexed: bool


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class WebPages:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def of_guild(self, guild_id: int) -> PageRow | None:
        row = await self.db.one(
            "SELECT guild_id, slug, indexed FROM web_pages WHERE guild_id = ?", (guild_id,)
        )
        return None if row is None else PageRow(int(row[0]), str(row[1]), bool(row[2]))

    async def by_slug(self, slug: str) -> PageRow | None:
        row = await self.db.one(
            "SELECT guild_id, slug, indexed FROM web_pages WHERE slug = ?", (slug,)
        )
        return None if row is None else PageRow(int(row[0]), str(row[1]), bool(row[2]))

    async def guilds(self) -> list[int]:
        """Every server with a page."""
        return [int(r[0]) for r in await self.db.all("SELECT guild_id FROM web_pages", ())]

    async def open(self, guild_id: int, slug: str) -> str:
        """The server's page with ``slug``, unless it has one: returns its slug either way."""
        await self.db.write(
            "INSERT INTO web_pages (guild_id, slug, created_at) VALUES (?, ?, ?) "
            "ON CONFLICT(guild_id) DO NOTHING",
            (guild_id, slug, _now()),
        )
        page = await self.of_guild(guild_id)
        assert page is not None
        return page.slug

    async def relink(self, guild_id: int, slug: str) -> bool:
        """Give the server's page a new slug (False: it has no page)."""
        changed = await self.db.write(
            "UPDATE web_pages SET slug = ?, created_at = ? WHERE guild_id = ?",
            (slug, _now(), guild_id),
        )
        return changed == 1

    async def set_indexed(self, guild_id: int, indexed: bool) -> bool:
        changed = await self.db.write(
            "UPDATE web_pages SET indexed = ? WHERE guild_id = ?", (int(indexed), guild_id)
        )
        return changed == 1

    async def close(self, guild_id: int) -> bool:
        """Remove the server's page (False: it had none)."""
        return await self.db.write("DELETE FROM web_pages WHERE guild_id = ?", (guild_id,)) == 1

    async def set_named(self, player_id: int, name: str, named: bool) -> None:
        """Whether the player is shown by name on pages (by ``name``, their name now, if
        given), and a change to who is shown how."""
        async with self.db.transaction() as tx:
            await tx.execute(
                "INSERT INTO players (id, name, created_at, web_name) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(id) DO UPDATE SET web_name = excluded.web_name, name = CASE "
                "WHEN excluded.name = '' THEN players.name ELSE excluded.name END",
                (player_id, name[:100], _now(), int(named)),
            )
            await tx.execute(_BUMP, (PEOPLE,))

    async def named(self, player_id: int) -> bool:
        row = await self.db.one("SELECT web_name FROM players WHERE id = ?", (player_id,))
        return row is not None and bool(row[0])

    async def names(self, player_ids: Iterable[int]) -> dict[int, str]:
        """The names of those of ``player_ids`` who chose to be named."""
        ids = sorted(set(player_ids))
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        rows = await self.db.all(
            f"SELECT id, name FROM players WHERE web_name = 1 AND name != '' AND id IN ({marks})",
            ids,
        )
        return {int(r[0]): str(r[1]) for r in rows}

    async def players(self, guild_id: int) -> list[int]:
        """Everyone with a result kept in the server (a player page can only be theirs)."""
        rows = await self.db.all(
            "SELECT DISTINCT player_id FROM standings WHERE scope = ? ORDER BY player_id",
            (guild_id,),
        )
        return [int(r[0]) for r in rows]

    async def kinds(self, guild_id: int) -> list[str]:
        """The kinds of game with results kept in the server (the page's game menus)."""
        rows = await self.db.all(
            "SELECT DISTINCT kind FROM standings WHERE scope = ? ORDER BY kind", (guild_id,)
        )
        return [str(r[0]) for r in rows]

    async def days_played(self, guild_id: int, kind: str, before: str, limit: int) -> list[str]:
        """The latest ``limit`` puzzle days before ``before`` (ISO) on which someone here
        finished the daily ``kind``, newest first: one index seek a day (a loose scan of
        results_day), not a read of every result."""
        rows = await self.db.all(
            "WITH RECURSIVE d(day) AS ("
            " SELECT MAX(day) FROM results WHERE scope = ? AND kind = ? AND day < ?"
            " UNION ALL"
            " SELECT (SELECT MAX(r.day) FROM results r"
            "         WHERE r.scope = ? AND r.kind = ? AND r.day < d.day)"
            " FROM d WHERE d.day IS NOT NULL"
            ") SELECT day FROM d WHERE day IS NOT NULL LIMIT ?",
            (guild_id, kind, before, guild_id, kind, limit),
        )
        return [str(r[0]) for r in rows]

    async def people_changed(self) -> None:
        """Someone is shown differently now (their data deleted): every page's version moves."""
        await self.db.write(_BUMP, (PEOPLE,))

    async def version(self, guild_id: int) -> tuple[object, ...]:
        """What a server's page shows changes only with this: its standings (a new result
        adds to the games played, a game coached to those measured, a player deleted takes
        their rows), a board reset, and who is shown how. Three indexed reads, the first of
        a row per player and game kind here, not of every result."""
        results = await self.db.one(
            "SELECT COUNT(*), SUM(played), SUM(skilled) FROM standings WHERE scope = ?",
            (guild_id,),
        )
        reset = await self.db.one(
            "SELECT board_reset_at FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        people = await self.db.one("SELECT value FROM meta WHERE key = ?", (PEOPLE,))
        return (
            *(tuple(results) if results is not None else ()),
            None if reset is None else reset[0],
            None if people is None else people[0],
        )


# A counter kept as text in ``meta``, moved on in place (one row: no race between processes).
_BUMP = ("INSERT INTO meta (key, value) VALUES (?, '1') ON CONFLICT(key) DO UPDATE "
         "SET value = CAST(CAST(meta.value AS INTEGER) + 1 AS TEXT)")  # fmt: skip
