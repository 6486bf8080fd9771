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
from bot.services.kinds import GAMES, results_kind
from bot.services.stats import METRICS, LeaderboardError
from bot.services.web import ShownBoard, TodayGame, WebPage
from bot.storage.periods import PERIODS

VISITOR = Player(0, "")  # who visits a page: nobody the bot knows


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


PageCommand = Callable[..., Awaitable["BoardsView | Reply"]]
PAGES: dict[str, PageCommand] = {}


def page_command(name: str) -> Callable[[PageCommand], PageCommand]:
    def register(run: PageCommand) -> PageCommand:
        PAGES[name] = run
        return run

    return register


def visitor(page: WebPage, locale: str) -> Caller:
    """The caller a request to ``page`` becomes, reading in ``locale``."""
    return Caller(VISITOR, page.guild_id, guild_id=page.guild_id, front="web", locale=locale)


@page_command("boards")
async def boards(services: Services, caller: Caller, page: WebPage, game: str = "wordle",
                 metric: str = "wins", period: str = "all", number: int = 1,
                 **_unused: Any) -> BoardsView | Reply:  # fmt: skip
    """The server's board of ``game`` by ``metric`` over ``period`` (as /leaderboard reads
    it: the server's own language and length of Wordle), with today's finishers."""
    for name, value, known in (("game", game, GAMES), ("metric", metric, METRICS),
                               ("period", period, PERIODS)):  # fmt: skip
        if value not in known:
            return Reply.refuse(_("Unknown {option} {value}; choose one of {choices}").format(
                option=name, value=repr(value[:20]), choices=", ".join(known)))  # fmt: skip
    # The server's own Wordle (its language and length), whatever the reader's language.
    kind = await chosen_game(services, replace(caller, locale=""), game, None, None)
    if isinstance(kind, Reply):
        return kind
    try:
        board = await services.web.board(page, results_kind(kind), metric, period, number)
    except LeaderboardError as exc:
        return Reply.refuse(str(exc))
    day, today = await services.web.today(page)
    return BoardsView(page, game, metric, period, board, day, today)
