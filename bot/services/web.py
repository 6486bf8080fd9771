"""A server's page on the web (issue 41): its link, who is named on it, and the figures it
shows, for any front end (the aiohttp pages in bot/web/, the settings commands).

Opt-in twice over. A server has a page only once its admins turn it on; its link holds a random
slug (``secrets.token_urlsafe``), never the server's id, and a new link or turning it off makes
the old slug find nothing at once. A player is named only if they chose to be
(``/settings me web_name:on``); anyone else is shown under a label made from a keyed hash of
the server and the player (the key derived from the deployment's secret seed): stable on one
server's page, different on another's, and no way back to the id without the seed.

What a page may show is decided here, once: boards (ranks, values, games played) and today's
finishers with their scores. Never a grid, a word, an answer, a letter or an id: the data
handed to the renderers holds none of them.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta

from bot.i18n import _, negotiate
from bot.services.daily import DailyPuzzles
from bot.services.live_board import LiveBoardService
from bot.services.stats import Board, StatsService
from bot.services.web_players import ShownPlayer, group_streak, player_figures
from bot.storage import Storage
from bot.storage.web_pages import PageRow

LABELS = "web-labels"  # the purpose of the key anonymous labels are made with
HANDLES = "web-handles"  # and of named players' handles (their page's address)
STREAK_READ = 40  # the days a group streak reads at first (a longer run reads on)
SLUG_BYTES = 18  # 24 characters of the URL-safe alphabet: 144 bits, never guessed
PAGE_ROUTE = "/s/"  # where a slug's page lives under the base URL (bot/web/app.py)


@dataclass(frozen=True)
class WebPage:
    """A server's page as a slug opens it."""

    guild_id: int
    slug: str
    indexed: bool  # search engines may index it
    locale: str  # the server's language, the page's unless the reader asks for another


@dataclass(frozen=True)
class ShownEntry:
    rank: int
    name: str  # the name the player chose to show, else their label
    named: bool  # whether ``name`` is their own
    value: float
    played: int
    ref: str = ""  # their player page's address under the server's (bot/services/web_players.py)


@dataclass(frozen=True)
class ShownBoard:
    kind: str
    metric: str
    period: str  # as a person reads it, in the page's language
    page: int
    pages: int
    entries: tuple[ShownEntry, ...]


@dataclass(frozen=True)
class Finisher:
    name: str
    named: bool
    score: str  # "3/6", "X/6", "4/6*": the score alone, never a grid
    ref: str = ""


@dataclass(frozen=True)
class TodayGame:
    kind: str
    title: str
    finished: tuple[Finisher, ...]


@dataclass(frozen=True)
class Shown:
    """How a player is shown on a server's page: a name, and their page's address."""

    name: str
    named: bool
    ref: str  # a named player's handle, anyone else's label: never the one for the other


def _keyed(key: bytes, guild_id: int, player_id: int) -> str:
    """A player's keyed hash on one server (hex): stable there, unlike on another server,
    and no way back to the id without the key."""
    return hmac.new(key, f"{guild_id}\x00{player_id}".encode(), hashlib.sha256).hexdigest()


def anonymous_label(key: bytes, guild_id: int, player_id: int) -> str:
    """A player's label on one server's page: six hex digits of a keyed hash."""
    return _keyed(key, guild_id, player_id)[:6].upper()


def public_handle(key: bytes, guild_id: int, player_id: int) -> str:
    """A named player's page address on one server: from another key than their label, so
    a page that showed their name never ties it to the label they have once they opt out."""
    return _keyed(key, guild_id, player_id)[:10]


class WebService:
    def __init__(self, storage: Storage, daily: DailyPuzzles, stats: StatsService,
                 live_boards: LiveBoardService, base_url: str = "") -> None:  # fmt: skip
        self.storage = storage
        self.daily = daily
        self.stats = stats
        self.live_boards = live_boards
        self.base_url = base_url.rstrip("/")  # "" when no web server is set up

    # -- the link, for the server's admins --------------------------------------------------

    def link(self, slug: str) -> str:
        return f"{self.base_url}{PAGE_ROUTE}{slug}"

    async def page_of(self, guild_id: int) -> PageRow | None:
        return await self.storage.web_pages.of_guild(guild_id)

    async def turn_on(self, guild_id: int) -> str:
        """The server's page (a page already on keeps its link): returns its slug."""
        return await self.storage.web_pages.open(guild_id, secrets.token_urlsafe(SLUG_BYTES))

    async def new_link(self, guild_id: int) -> str:
        """A new slug for the server's page (made if it had none); the old one is gone."""
        slug = secrets.token_urlsafe(SLUG_BYTES)
        if not await self.storage.web_pages.relink(guild_id, slug):
            return await self.storage.web_pages.open(guild_id, slug)
        return slug

    async def turn_off(self, guild_id: int) -> bool:
        return await self.storage.web_pages.close(guild_id)

    async def keep_only(self, present: set[int], mine: Callable[[int], bool]) -> list[int]:
        """Turn off the page of each server of this process (``mine``) that the bot is no
        longer in (not in ``present``): one that removed it while it was offline. Returns
        those servers."""
        gone = [g for g in await self.storage.web_pages.guilds() if mine(g) and g not in present]
        for guild_id in gone:
            await self.turn_off(guild_id)
        return gone

    async def set_indexed(self, guild_id: int, indexed: bool) -> bool:
        return await self.storage.web_pages.set_indexed(guild_id, indexed)

    # -- what a page reads ------------------------------------------------------------------

    async def page(self, slug: str) -> WebPage | None:
        """The page a slug opens, or None: no such slug (never was, a new link, off)."""
        if not slug or len(slug) > 64:
            return None
        row = await self.storage.web_pages.by_slug(slug)
        if row is None:
            return None
        language = (await self.storage.guild_settings(row.guild_id)).language
        return WebPage(row.guild_id, row.slug, row.indexed, negotiate(language))

    async def version(self, page: WebPage) -> str:
        """A short tag that changes whenever what the page shows may have: its results, a
        board reset, who is named or deleted, its link and indexing, and the puzzle day."""
        parts = (page.slug, page.indexed, self.daily.today(),
                 *await self.storage.web_pages.version(page.guild_id))  # fmt: skip
        return hashlib.sha256(repr(parts).encode()).hexdigest()[:20]

    async def board(self, page: WebPage, kind: str, metric: str, period: str,
                    number: int = 1, previous_season: bool = False) -> ShownBoard:  # fmt: skip
        """A page of one of the server's boards (raises LeaderboardError as /leaderboard)."""
        board = await self.stats.leaderboard(kind, metric, guild_id=page.guild_id, page=number,
                                             today=self.daily.today(), period=period,
                                             previous_season=previous_season)  # fmt: skip
        shown = await self._names(page.guild_id, [e.player_id for e in board.entries])
        return _shown_board(board, shown)

    async def today(self, page: WebPage) -> tuple[date, tuple[TodayGame, ...]]:
        """Today's dailies played here with the bot: who finished and their score."""
        day = self.daily.today()
        live = await self.live_boards.board(page.guild_id, day)
        played = [g for g in live.games if not g.shared]
        ids = [r.member.player_id for g in played for r in g.finished]
        shown = await self._names(page.guild_id, ids)
        games = tuple(
            TodayGame(g.kind, g.title, tuple(
                Finisher(shown[r.member.player_id].name, shown[r.member.player_id].named,
                         r.score, shown[r.member.player_id].ref) for r in g.finished))
            for g in played
        )  # fmt: skip
        return day, games

    async def kinds(self, page: WebPage) -> list[str]:
        """The kinds of game played in the server (its page's game and variant menus)."""
        return await self.storage.web_pages.kinds(page.guild_id)

    async def group_streak(self, page: WebPage, kind: str) -> int:
        """Days in a row, up to today, on which someone in the server finished ``kind``."""
        today = self.daily.today()
        if not kind.endswith(":daily"):  # no puzzle day: the days games were played on
            days = await self.storage.years.server_days(page.guild_id, kind, "0001-01-01",
                                                        today.isoformat())  # fmt: skip
            return group_streak([day for day, _games, _wins in days], today)
        seen: list[str] = []
        before, limit = (today + timedelta(days=1)).isoformat(), STREAK_READ
        while True:  # a page of days at a time, while the run may go on past it
            more = await self.storage.web_pages.days_played(page.guild_id, kind, before, limit)
            seen += more
            run = group_streak(seen, today)
            if len(more) < limit or run < len(seen):
                return run
            before, limit = more[-1], limit * 4

    async def player(self, page: WebPage, ref: str, kind: str) -> ShownPlayer | None:
        """The page of the player of the server whose address is ``ref`` (a named player's
        handle, anyone else's label), or None: no such player here (never, or deleted)."""
        if not 1 <= len(ref) <= 16:
            return None
        players = await self.storage.web_pages.players(page.guild_id)
        shown = await self._names(page.guild_id, players)
        found = next((p for p in players if shown[p].ref == ref), None)
        if found is None:
            return None
        who = shown[found]
        return await player_figures(self.storage, self.stats, page.guild_id, found, kind,
                                    self.daily.today(), who.name, who.named, who.ref)  # fmt: skip

    async def _names(self, guild_id: int, player_ids: list[int]) -> dict[int, Shown]:
        """Each player's name on the page: their own if they chose it, else their label."""
        return shown_players(await self.storage.web_pages.names(player_ids), player_ids,
                             guild_id, self.daily.key(LABELS), self.daily.key(HANDLES))  # fmt: skip


def shown_players(chosen: dict[int, str], player_ids: list[int], guild_id: int, labels: bytes,
                  handles: bytes) -> dict[int, Shown]:  # fmt: skip
    """Those of ``chosen`` by their name and handle, anyone else by their label."""
    shown: dict[int, Shown] = {}
    for player in player_ids:
        if player in chosen:
            shown[player] = Shown(chosen[player], True, public_handle(handles, guild_id, player))
        else:
            label = anonymous_label(labels, guild_id, player)
            shown[player] = Shown(_("Player {label}").format(label=label), False, label)
    return shown


def _shown_board(board: Board, shown: dict[int, Shown]) -> ShownBoard:
    entries = tuple(ShownEntry(e.rank, shown[e.player_id].name, shown[e.player_id].named,
                               e.value, e.played, shown[e.player_id].ref)
                    for e in board.entries)  # fmt: skip
    return ShownBoard(board.kind, board.metric, board.period, board.page, board.pages, entries)
