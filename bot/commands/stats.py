"""How you are doing: /stats, /streak and /leaderboard (its page buttons are Discord's way
of asking for another ``page``, the console's is the option itself)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable

from bot.commands.games import LANGUAGE, LENGTH, chosen_game
from bot.commands.model import Caller, Param, Picture, Reply, UserId, command
from bot.i18n import N_, _
from bot.render import images
from bot.render import year as year_card
from bot.render.achievements import achievements_text
from bot.render.alt_text import stats_alt_text
from bot.render.palette import palette_named
from bot.render.text import METRIC_TITLES, board_text, kind_text, stats_text
from bot.services import Services
from bot.services.achievements import listing
from bot.services.kinds import (
    DAILY_GAMES,
    GAMES,
    KINDS,
    kind_name,
    results_kind,
    shown_title,
)
from bot.services.skill import coach_dailies
from bot.services.stats import METRICS, LeaderboardError
from bot.services.year import YearError
from bot.storage.periods import PERIODS
from bot.storage.shares import SHARED

NO_SERVER_BOARD = N_("A server's board lives in its server and counts its members' games; "
                     "here there is none, so this is everyone's board.")  # fmt: skip
# What each command keeps, and for which games (``{games}``).
KEPT = {"stats": N_("Stats are kept for {games}"),
        "streak": N_("Daily streaks are kept for {games}"),
        "leaderboard": N_("Boards are kept for {games}")}  # fmt: skip
SCOPES = ("server", "global")
YEAR_GAMES = {"daily": N_("{game}, dailies"), "practice": N_("{game}, practice games")}
CARDS = ("player", "server")  # /stats year:2026 scope:server draws the server's year
NO_SERVER_YEAR = N_("A server's year lives in its server; here there is none: "
                    "leave scope out for your own year.")  # fmt: skip
SEASONS = ("current", "previous")
MAX_PAGE = 999999
SHARES = "shares"  # /leaderboard's option: the typed shares' board, not the bot's games


def _not(*values: str) -> Callable[[str], bool]:
    """A positional word for an option that is none of ``values`` and no number (the
    console's ``/leaderboard wins today primel 2``; the choices are checked after)."""
    return lambda word: word.lower() not in values and not word.isdigit()


def _game(game: str, kept: tuple[str, ...], command: str) -> Reply | None:
    return None if game in kept else Reply.refuse(_(KEPT[command]).format(games=", ".join(kept)))


@command(
    "stats",
    Param("game", choices=GAMES, takes=_not("practice", "daily")),
    Param("practice", bool, flag=("practice", "daily")),
    Param("user", UserId, positional=False),
    LANGUAGE,
    LENGTH,
    Param("year", int, positional=False),
    Param("scope", choices=CARDS, positional=False),
)
async def stats(services: Services, caller: Caller, game: str = "wordle",
                practice: bool = False, user: UserId | None = None, language: str | None = None,
                length: int | None = None, year: int | None = None,
                scope: str = "player") -> Reply:  # fmt: skip
    """Anyone's statistics (``user``: in the console a local player, by name), with the
    distribution drawn in the colours of who asks; with ``year``, that year's card (``scope``
    server: the server's)."""
    refused = _game(game, GAMES, "stats")
    if refused is not None:
        return refused
    if scope == "server" and year is None:
        return Reply.refuse(_("A server's card is a year's: add a year, as in {example}")
                            .format(example="/stats year:2026 scope:server"))  # fmt: skip
    if scope == "server" and caller.guild_id is None:  # a direct message: no server's year
        return Reply.refuse(_(NO_SERVER_YEAR))
    kind = await chosen_game(services, caller, game, language, length)
    if isinstance(kind, Reply):
        return kind
    game = kind
    who_id, who = (caller.player.id, caller.player.name) if user is None else (user, user.name)
    if year is not None:
        return await _year_card(
            services,
            caller,
            results_kind(game, practice),
            year,
            None if scope == "player" else caller.guild_id,
            who_id,
            who,
        )
    result = await services.stats.stats(who_id, results_kind(game, practice),
                                        services.daily.today())  # fmt: skip
    palette = palette_named(await services.storage.palette(caller.player.id))
    png = await asyncio.to_thread(images.stats_png, result, palette)
    picture = Picture("stats.png", stats_alt_text(result, who), data=png)
    earned = achievements_text(await listing(services.storage, who_id))  # every game's
    return Reply(f"{stats_text(result, who)}\n\n{earned}", pictures=(picture,))


async def _year_card(services: Services, caller: Caller, kind: str, year: int,
                     server: int | None, who_id: int, who: str) -> Reply:  # fmt: skip
    """A player's year card, or with ``server`` the server's (only where games are kept by
    that server), drawn off the event loop; a year with no game says so instead."""
    if server is not None and server != caller.scope:
        return Reply.refuse(_(NO_SERVER_YEAR))
    today = services.daily.today()
    flavour = YEAR_GAMES["daily" if kind.endswith(":daily") else "practice"]
    game = _(flavour).format(game=shown_title(kind_name(kind)))
    palette = palette_named(await services.storage.palette(caller.player.id))
    try:
        if server is None:
            mine = await services.years.player_year(who_id, kind, year, today)
            if mine is None:
                return Reply.refuse(_("{who} finished no game in {year} ({game}): no card to draw")
                                    .format(who=who, game=game, year=year))  # fmt: skip
            png = await asyncio.to_thread(year_card.player_year_png, mine, who, game, palette)
            alt, name = year_card.player_year_alt(mine, who, game), _file_part(who, who_id)
        else:
            ours = await services.years.server_year(server, kind, year, today)
            if ours is None:
                return Reply.refuse(_("Nobody here finished a {game} game in {year}: no card "
                                      "to draw").format(game=game, year=year))  # fmt: skip
            png = await asyncio.to_thread(year_card.server_year_png, ours, game, palette)
            alt, name = year_card.server_year_alt(ours, game), f"server-{server}"
    except YearError as exc:
        return Reply.refuse(str(exc))
    return Reply(alt, pictures=(Picture(f"year-{year}-{name}.png", alt, data=png),))


def _file_part(name: str, player_id: int) -> str:
    """A name as a file's name may hold it anywhere (Discord's attachments too)."""
    return re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-").lower() or str(player_id)


@command("streak", Param("game", choices=DAILY_GAMES), LANGUAGE, LENGTH)
async def streak(services: Services, caller: Caller, game: str = "wordle",
                 language: str | None = None, length: int | None = None) -> Reply:  # fmt: skip
    refused = _game(game, DAILY_GAMES, "streak")
    if refused is not None:
        return refused
    kind = await chosen_game(services, caller, game, language, length)
    if isinstance(kind, Reply):
        return kind
    result = await services.stats.stats(caller.player.id, results_kind(kind),
                                        services.daily.today())  # fmt: skip
    return Reply(_("{game} daily streak: {current} (best {best})").format(
        game=shown_title(KINDS[kind]), current=result.current_streak, best=result.max_streak),
        private=True)  # fmt: skip


@command(
    "leaderboard",
    Param("metric", choices=METRICS, takes=_not(*PERIODS, *GAMES, SHARES)),
    Param("period", choices=PERIODS, takes=_not(*GAMES, SHARES)),
    Param("game", choices=GAMES, takes=_not(SHARES)),
    Param("page", int, takes=str.isdigit),
    Param("scope", choices=SCOPES, positional=False),
    Param("season", choices=SEASONS, positional=False),
    LANGUAGE,
    LENGTH,
    Param(SHARES, bool, flag=(SHARES, None)),
)
async def leaderboard(
    services: Services, caller: Caller, metric: str = "wins", period: str = "all",
    game: str = "wordle", page: int = 1, scope: str = "server", season: str = "current",
    language: str | None = None, length: int | None = None, shares: bool = False,
) -> Reply:  # fmt: skip
    """A page of a board. ``season`` previous with ``period`` season: the last season's
    final standings. A server's board counts the games played in that server: where games
    are not kept by a server (a DM; the console, whose games are kept as a DM's), the board
    is everyone's and the reply says so. ``shares``: the server's board of typed shares of
    the game (the NYT's Wordle, a clone's), never mixed with the games played with the bot.
    ``extra``: the board's title, body and note, and ``pages`` (game, metric, scope, page,
    pages, period: "previous" for the last season, shares), from which Discord makes its page
    buttons."""
    refused = _game(game, GAMES, "leaderboard")
    if refused is not None:
        return refused
    if not 1 <= page <= MAX_PAGE:
        return Reply.refuse(_("A page is a number from 1 to {most}, not {page}")
                            .format(most=MAX_PAGE, page=repr(str(page)[:20])))  # fmt: skip
    kind_name = await chosen_game(services, caller, game, language, length)
    if isinstance(kind_name, Reply):
        return kind_name
    game = kind_name
    server = caller.guild_id if caller.guild_id == caller.scope else None
    note = ""
    if scope == "server" and server is None:
        scope, note = "global", _(NO_SERVER_BOARD)
    if metric == "skill" and caller.front == "console":  # no leader jobs offline: coach now
        while await coach_dailies(services.storage):
            pass
    shown = "previous" if period == "season" and season == "previous" else period
    # A game with no daily here: its practice games; ``shares``: the typed shares' own board.
    kind = f"{game}:{SHARED}" if shares else results_kind(game)
    try:
        board = await services.stats.leaderboard(
            kind, metric, guild_id=server if scope == "server" else None, page=page,
            today=services.daily.today(), period=period, previous_season=shown == "previous",
        )  # fmt: skip
    except LeaderboardError as exc:
        return Reply.refuse(str(exc))
    title = _("{metric}: {game}, {period}").format(
        metric=_(METRIC_TITLES[metric]), game=kind_text(kind), period=board.period
    )
    body = board_text(board)
    return Reply("\n".join(p for p in (note, body) if p), extra={
        "title": title, "body": body, "note": note,
        "pages": (game, metric, scope, board.page, board.pages, shown, shares),
    })  # fmt: skip


def next_pages(pages: tuple[str, str, str, int, int, str, bool]) -> str:
    """The console's page buttons: the commands that show the pages either side."""
    game, metric, scope, page, total, period, shares = pages
    season = " period:season season:previous" if period == "previous" else f" period:{period}"
    typed = " shares:true" if shares else ""
    line = f"/leaderboard metric:{metric}{season} game:{game} scope:{scope}{typed} page:"
    steps = [_("{command} for the previous").format(command=f"{line}{page - 1}")
             if page > 1 else "",
             _("{command} for the next").format(command=f"{line}{page + 1}")
             if page < total else ""]  # fmt: skip
    return "; ".join(s for s in steps if s)


__all__ = ["NO_SERVER_BOARD", "leaderboard", "next_pages", "stats", "streak"]
