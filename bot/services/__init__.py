"""The service layer every front end calls: games, stats, data ownership.

:func:`open_services` opens the database from the settings and wires the services up.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import cached_property

from bot.services.analysis import BUDGET, AnalysisGate, AnalysisService
from bot.services.challenges import ChallengeService
from bot.services.closing import ClosingService
from bot.services.coop import CoopService
from bot.services.daily import EPOCH, DailyPuzzles, started_clock, system_clock
from bot.services.digest import DigestService
from bot.services.export import public_export
from bot.services.games import DM, GameService, GameView, HintOutcome, Outcome, Player, kind_of
from bot.services.guide import GuideService
from bot.services.limits import PLAY_RATE, PLAY_SECONDS, Limit
from bot.services.live_board import WINDOW, LiveBoardService
from bot.services.races import RaceService
from bot.services.reminders import ReminderService
from bot.services.request_budget import RATE, RequestBudget
from bot.services.retention import RetentionService
from bot.services.stats import Board, Stats, StatsService
from bot.services.web import WebService
from bot.services.winner_role import RoleDoor, take_from_player
from bot.services.year import YearService
from bot.settings import RETENTION_DAYS, Settings
from bot.storage import Storage

DRAW_FROM = "daily_draw_from"  # the meta key of the first drawn day, beside "daily_seed"


@dataclass
class Services:
    storage: Storage
    daily: DailyPuzzles
    games: GameService
    stats: StatsService
    digests: DigestService
    reminders: ReminderService
    coop: CoopService
    analysis_gate: AnalysisGate = field(default_factory=AnalysisGate)
    analysis_budget: float = BUDGET  # seconds of reading grids per paste
    live_board_window: float = WINDOW  # seconds: one edit of a server's live board in each
    web_base_url: str = ""  # where servers' pages are reached (bot/web/), "" if nowhere
    retention_days: int = RETENTION_DAYS  # rows no reader needs stay this long (0: forever)
    # Playing and hints: five a player in ten seconds, whichever front end they come from
    play_limit: Limit = field(default_factory=lambda: Limit(PLAY_RATE, PLAY_SECONDS))
    races: RaceService = field(init=False)  # plays through ``games``: made from it
    closing: ClosingService = field(init=False)  # the job closing the days that ended
    live_boards: LiveBoardService = field(init=False)  # the live daily board's edits
    retention: RetentionService = field(init=False)  # the job purging what nobody reads
    request_rate: float = RATE  # requests a second to Discord, for the whole deployment
    requests: RequestBudget = field(init=False)  # the deployment's budget of requests

    def __post_init__(self) -> None:
        self.races = RaceService(self.storage, self.daily, self.games)
        self.closing = self.digests.closing  # one closing service for the job and the digest
        self.live_boards = LiveBoardService(self.storage, self.daily, self.live_board_window)
        self.retention = RetentionService(self.storage, self.daily, self.retention_days)
        self.games.on_daily = self.live_boards.changed  # a daily started or ended: its board
        self.games.boards_showing = self.live_boards.showing  # and those it takes a share from
        self.closing.on_daily = self.live_boards.changed  # closed at midnight: its last state
        self.closing.boards_showing = self.live_boards.showing  # and a share's board that day
        self.closing.on_day_over = self.live_boards.day_over  # the day's grids, once closed
        self.requests = RequestBudget(self.storage.request_pace, self.request_rate)

    async def export_player(self, player_id: int) -> str:
        """Everything stored about a player, as JSON they can keep (games in progress
        without their answers)."""
        return json.dumps(public_export(await self.storage.export_player(player_id)), indent=2)

    async def delete_player(self, player_id: int, door: RoleDoor | None = None) -> bool:
        """Delete everything stored about a player; what they played today stays played
        until the day ends (an anonymous mark each: bot/services/deletion.py). With ``door``
        (Discord's), the winner's roles the bot gave them are taken back at once: the
        records that would let a digest do it go with their data (the roles to take are
        read in the deletion's transaction: one recorded just before it is taken too)."""
        await self.guide.settled(player_id)  # a first use being marked is marked first
        deletion = await self.games.delete_player(player_id)
        await self.storage.web_pages.people_changed()  # no page's cached copy shows them
        self.guide.forget(player_id)  # their next command is a first use again
        if door is not None:
            await take_from_player(door, player_id, deletion.roles)
        return deletion.deleted

    async def reset_guild_board(self, guild_id: int) -> int:
        return await self.storage.reset_guild_board(guild_id)

    async def close(self) -> None:
        self.live_boards.detach()
        await self.requests.close()
        await self.storage.close()

    @cached_property
    def analysis(self) -> AnalysisService:
        """/analyze for every front end: its limits and hint rules (through ``analysis_gate``)."""
        return AnalysisService(self.storage, self.daily, self.analysis_gate, self.analysis_budget)

    @cached_property
    def guide(self) -> GuideService:
        """The first-game guide: whom to guide, once each (bot/services/guide.py)."""
        return GuideService(self.storage)

    @cached_property
    def years(self) -> YearService:
        """The year card's figures (bot/services/year.py)."""
        return YearService(self.storage)

    @cached_property
    def web(self) -> WebService:
        """Servers' pages on the web: their links and what they show (bot/services/web.py)."""
        return WebService(self.storage, self.daily, self.stats, self.live_boards,
                          self.web_base_url)  # fmt: skip

    @cached_property
    def challenges(self) -> ChallengeService:
        """Challenges with a player's own word (played through ``games``)."""
        return ChallengeService(self.storage, self.games)


async def open_services(settings: Settings) -> Services:
    storage = await Storage.open(settings.database, async_moves=settings.postgres_async_moves)
    if settings.daily_seed is not None:
        seed = settings.daily_seed.get_secret_value()
    else:  # one secret per deployment, made on first start and kept with the data
        seed = await storage.set_meta_once("daily_seed", secrets.token_hex(32))
    clock = system_clock if settings.clock_start is None else started_clock(settings.clock_start)
    daily = DailyPuzzles(seed, settings.zone, clock)
    daily.draw_from = await _draw_from(storage, daily.today())
    lease = timedelta(seconds=settings.digest_lease_seconds)
    digests = DigestService(storage, daily, timedelta(seconds=settings.digest_delay_seconds), lease)
    return Services(storage, daily, GameService(storage, daily), StatsService(storage), digests,
                    ReminderService(storage, daily), CoopService(storage, daily),
                    analysis_budget=settings.analysis_budget_seconds,
                    live_board_window=settings.live_board_seconds,
                    web_base_url=settings.web_link_base,
                    request_rate=settings.discord_requests_per_second,
                    retention_days=settings.retention_days)  # fmt: skip


async def _draw_from(storage: Storage, today: date) -> date:
    """The deployment's first drawn day (bot/services/daily.py), recorded once: tomorrow for
    a database that served puzzles under the cycles (today's may have been played), #0 for
    one that never served any. Kept as recorded across restarts and every process."""
    first = today + timedelta(days=1) if await storage.served_any_puzzle() else EPOCH
    return date.fromisoformat(await storage.set_meta_once(DRAW_FROM, first.isoformat()))


__all__ = [
    "DM", "Board", "GameView", "HintOutcome", "Outcome", "Player", "Services", "Stats",
    "kind_of", "open_services",
]  # fmt: skip
