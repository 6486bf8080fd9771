"""What a visit to a server's page runs: each request becomes a :class:`Caller` (a visitor
with no Discord id, in the page's server, on the ``web`` front) and one of these commands,
which call the services as every front end does. They are not slash commands
(:data:`bot.commands.COMMANDS` holds those): :data:`PAGES` holds them, by route name.

A command returns the data its page shows (:class:`BoardsView`) or a refusal to show (a
:class:`Reply` that says why, e.g. an unknown period); bot/web/ renders it as HTML.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from bot.commands.games import chosen_game
from bot.commands.model import Caller, Reply
from bot.i18n import _
from bot.services import Player, Services
from bot.services.kinds import GAMES, KINDS, results_kind
from bot.services.stats import METRICS, LeaderboardError
from bot.services.web import ShownBoard, TodayGame, WebPage
from bot.services.web_players import ShownPlayer
from bot.storage.periods import PERIODS

VISITOR = Player(0, "")  # who visits a page: nobody the bot knows
LAST_SEASON = "last_season"  # the season before this one: its final standings
WEB_PERIODS = (*PERIODS, LAST_SEASON)


@dataclass(frozen=True)
class BoardsView:
    """A server's boards page: the board asked for, and today's finishers."""

    page: WebPage
    game: str
    metric: str
    period: str
    board: ShownBoard
    day: date
    today: tuple[TodayGame, ...]
    variant: str = ""  # the game's language and length shown (a KINDS name)
    variants: tuple[str, ...] = ()  # those of the game played in the server
    group_streak: int = 0  # days in a row someone here finished the variant's game
    contrast: bool = False  # the reader asked for the high-contrast palette


@dataclass(frozen=True)
class PlayerView:
    """A player's page on a server's page."""

    page: WebPage
    variant: str
    player: ShownPlayer
    contrast: bool = False


PageCommand = Callable[..., Awaitable["BoardsView | PlayerView | Reply | None"]]
PAGES: dict[str, PageCommand] = {}


def page_command(name: str) -> Callable[[PageCommand], PageCommand]:
    def register(run: PageCommand) -> PageCommand:
        PAGES[name] = run
        return run

    return register


def visitor(page: WebPage, locale: str) -> Caller:
    """The caller a request to ``page`` becomes, reading in ``locale``."""
    return Caller(VISITOR, page.guild_id, guild_id=page.guild_id, front="web", locale=locale)


def _unknown(name: str, value: str, known: tuple[str, ...]) -> Reply:
    return Reply.refuse(_("Unknown {option} {value}; choose one of {choices}").format(
        option=name, value=repr(value[:20]), choices=", ".join(known)))  # fmt: skip


async def _variant(services: Services, caller: Caller, game: str,
                   variant: str | None) -> str | Reply:  # fmt: skip
    """The language and length of ``game`` asked for, else the server's own Wordle (its
    language and length), whatever the reader's language."""
    if variant is None:
        return await chosen_game(services, replace(caller, locale=""), game, None, None)
    own = tuple(n for n, spec in KINDS.items() if n == game or spec.base == game)
    return variant if variant in own else _unknown("variant", variant, own)


@page_command("boards")
async def boards(services: Services, caller: Caller, page: WebPage, game: str = "wordle",
                 metric: str = "wins", period: str = "all", number: int = 1,
                 variant: str | None = None, **_unused: Any) -> BoardsView | Reply:  # fmt: skip
    """The server's board of ``game`` (in ``variant``, a language and length) by ``metric``
    over ``period`` (as /leaderboard reads it; ``last_season``: the last season's final
    standings), with today's finishers and the group streak."""
    for name, value, known in (("game", game, GAMES), ("metric", metric, METRICS),
                               ("period", period, WEB_PERIODS)):  # fmt: skip
        if value not in known:
            return _unknown(name, value, known)
    kind = await _variant(services, caller, game, variant)
    if isinstance(kind, Reply):
        return kind
    previous = period == LAST_SEASON
    try:
        board = await services.web.board(page, results_kind(kind), metric,
                                         "season" if previous else period, number,
                                         previous_season=previous)  # fmt: skip
    except LeaderboardError as exc:
        return Reply.refuse(str(exc))
    day, today = await services.web.today(page)
    played = {k.partition(":")[0] for k in await services.web.kinds(page)} | {kind}
    variants = tuple(n for n, spec in KINDS.items()
                     if n in played and (n == game or spec.base == game))  # fmt: skip
    streak = await services.web.group_streak(page, results_kind(kind))
    return BoardsView(page, game, metric, period, board, day, today, kind, variants, streak)


@page_command("player")
async def player(services: Services, caller: Caller, page: WebPage, ref: str,
                 game: str = "wordle", variant: str | None = None,
                 **_unused: Any) -> PlayerView | Reply | None:  # fmt: skip
    """A player's page (None: no player of the server by ``ref``): their figures in
    ``game`` (the server's own Wordle unless ``variant`` says another)."""
    if game not in GAMES:
        return _unknown("game", game, GAMES)
    kind = await _variant(services, caller, game, variant)
    if isinstance(kind, Reply):
        return kind
    shown = await services.web.player(page, ref, results_kind(kind))
    return None if shown is None else PlayerView(page, kind, shown)
