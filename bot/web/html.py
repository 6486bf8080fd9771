"""The pages' HTML: pure functions of the data a page command returns, in the current locale
(bot.i18n). Every value is escaped; no script, no inline style (the content security policy
allows neither); the style sheet comes from the app's own origin (``/static/site.css``).

Accessible by construction: a ``lang`` attribute, the landmarks (header, nav, main, footer),
tables with a caption and header cells, the current choice of each menu marked
``aria-current``.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from urllib.parse import urlencode

from bot.commands.web import LAST_SEASON, WEB_PERIODS, BoardsView
from bot.i18n import N_, _, format_day, ngettext
from bot.render.text import METRIC_TITLES, board_value, kind_text
from bot.services.kinds import GAMES, KINDS, shown_title
from bot.services.stats import METRICS, PERIOD_LABELS
from bot.services.web import TodayGame
from bot.storage.periods import STREAK_METRICS

STYLE = "/static/site.css"
CURRENT = ' aria-current="page"'
NUMBER = ' class="number"'
# How each period reads in a menu (the boards' own labels, and the season's).
PERIOD_NAMES = {**PERIOD_LABELS, "season": N_("this season"), LAST_SEASON: N_("last season")}
CONTRAST = "contrast"  # the query option asking for the high-contrast palette ("more")


def player_href(slug: str, ref: str, query: str = "") -> str:
    """A player's page under the server's: by their handle or label, never an id."""
    return f"/s/{slug}/p/{ref}{query}"


def layout(locale: str, title: str, body: str, contrast: bool = False) -> str:
    """A whole document around ``body`` (its landmarks); ``contrast``: the high-contrast
    palette, as the reader asked (``?contrast=more``; their system's wish needs no asking)."""
    body_tag = '<body class="contrast-more">' if contrast else "<body>"
    return (
        f'<!DOCTYPE html>\n<html lang="{escape(locale)}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n"
        f'<link rel="stylesheet" href="{STYLE}">\n</head>\n{body_tag}\n{body}\n</body>\n</html>\n'
    )


def message_page(locale: str, title: str, text: str) -> str:
    """A page that only says something: no page here, too many requests, a refusal."""
    body = (f"<header><h1>{escape(title)}</h1></header>\n"
            f'<main><p class="refusal">{escape(text)}</p></main>')  # fmt: skip
    return layout(locale, title, body)


def not_found(locale: str) -> str:
    return message_page(locale, _("No page here"),
                        _("This link leads to no page: it may have been replaced or turned off "
                          "by the server's admins."))  # fmt: skip


def boards_page(view: BoardsView, locale: str) -> str:
    """A server's boards: the menus (game, period, board), the board, today's finishers."""
    title = _("This server's boards")
    board = view.board
    heading = _("{metric}: {game}, {period}").format(
        metric=_(METRIC_TITLES[board.metric]), game=kind_text(board.kind), period=board.period
    )
    parts = [
        f"<header><h1>{escape(title)}</h1></header>",
        _menus(view),
        "<main>",
        _group_streak(view),
        _board_table(view, heading),
        _pager(view),
        _today(view),
        "</main>",
        footer(view.contrast, _link(view, contrast=not view.contrast)),
    ]  # fmt: skip
    return layout(locale, f"{heading} - {title}", "\n".join(p for p in parts if p),
                  view.contrast)  # fmt: skip


def footer(contrast: bool, toggle: str) -> str:
    """What every page of a server says of whom it shows, and the palette's switch."""
    switch = _("Normal contrast") if contrast else _("High contrast")
    return "<footer><p>" + escape(_(
        "A player is shown by name only if they chose to be (/settings me web_name:on); "
        "anyone else under an anonymous label. No page shows an answer, a guess or a "
        "letter.")) + f'</p><p><a id="contrast" href="{escape(toggle)}">{escape(switch)}</a>'\
        "</p></footer>"  # fmt: skip


def _link(view: BoardsView, **changes: object) -> str:
    query: dict[str, object] = {"game": view.game, "metric": view.metric, "period": view.period}
    if view.variant != view.game:
        query["variant"] = view.variant
    if view.contrast:
        query[CONTRAST] = "more"
    if "game" in changes:  # another game: its own default language and length
        query.pop("variant", None)
    query.update(changes)
    if query.get("variant") == query["game"]:
        del query["variant"]
    if query["metric"] in STREAK_METRICS:  # streak boards count all time
        query["period"] = "all"
    if query.get("page") == 1:
        del query["page"]
    if query.get(CONTRAST) is not None and not query[CONTRAST]:
        del query[CONTRAST]
    elif query.get(CONTRAST) is True:
        query[CONTRAST] = "more"
    return "?" + urlencode(query)


def menu(label: str, items: Iterable[tuple[str, str, bool]], ident: str = "") -> str:
    """A list of links under its heading, the current one marked (``ident``: the list's id,
    ``menu-<ident>``, that the browser tests find it by)."""
    links = "".join(
        f'<li><a href="{escape(href)}"{CURRENT if current else ""}>{escape(text)}</a></li>'
        for href, text, current in items
    )
    where = f' id="menu-{ident}"' if ident else ""
    return f"<h2>{escape(label)}</h2><ul{where}>{links}</ul>"


def _menus(view: BoardsView) -> str:
    games = [(_link(view, game=g), shown_title(KINDS[g]), g == view.game) for g in GAMES]
    variants = [(_link(view, variant=v), shown_title(KINDS[v]), v == view.variant)
                for v in view.variants]  # fmt: skip
    periods = [(_link(view, period=p), _(PERIOD_NAMES[p]), p == view.period)
               for p in WEB_PERIODS if view.metric not in STREAK_METRICS]  # fmt: skip
    metrics = [(_link(view, metric=m), _(METRIC_TITLES[m]), m == view.metric) for m in METRICS]
    menus = [menu(_("Game"), games, "game"),
             menu(_("Language and length"), variants, "variant") if len(variants) > 1 else "",
             menu(_("Period"), periods, "period") if periods else "",
             menu(_("Board"), metrics, "board")]  # fmt: skip
    label = _("Boards")
    return f'<nav id="menus" aria-label="{escape(label)}">' + "".join(menus) + "</nav>"


def _group_streak(view: BoardsView) -> str:
    # Translators: the group streak: {count} days in a row on which someone in the server
    # finished the game shown ({game}).
    text = ngettext("Group streak: {count} day in a row someone here finished {game}",
                    "Group streak: {count} days in a row someone here finished {game}",
                    view.group_streak).format(count=view.group_streak,
                                              game=shown_title(KINDS[view.variant]))  # fmt: skip
    return f'<p id="group-streak">{escape(text)}</p>'


def _board_table(view: BoardsView, heading: str) -> str:
    board = view.board
    if not board.entries:
        nobody = _("Nobody is on this board yet.")
        return f"<h2>{escape(heading)}</h2><p>{escape(nobody)}</p>"
    query = _player_query(view.game, view.variant, view.contrast)
    rows = "".join(
        f'<tr><td class="number">{e.rank}</td><th scope="row">'
        f'<a href="{escape(player_href(view.page.slug, e.ref, query))}">{escape(e.name)}</a></th>'
        f'<td class="number">{escape(board_value(board.metric, e.value))}</td>'
        f'<td class="number">{e.played}</td></tr>'
        for e in board.entries
    )
    head = columns((_("Rank"), True), (_("Player"), False),
                    (_(METRIC_TITLES[board.metric]), True), (_("Played"), True))  # fmt: skip
    return table(heading, head, rows).replace("<table>", '<table id="board">', 1)


def _player_query(game: str, variant: str, contrast: bool) -> str:
    query = {"game": game} if game != "wordle" else {}
    if variant != game:
        query["variant"] = variant
    if contrast:
        query[CONTRAST] = "more"
    return "?" + urlencode(query) if query else ""


def columns(*columns: tuple[str, bool]) -> str:
    """The header cells of a table's columns: (title, holds numbers)."""
    return "".join(f'<th scope="col"{NUMBER if number else ""}>{escape(title)}</th>'
                   for title, number in columns)  # fmt: skip


def table(caption: str, head: str, rows: str) -> str:
    return (f"<table><caption>{escape(caption)}</caption><thead><tr>{head}</tr></thead>"
            f"<tbody>{rows}</tbody></table>")  # fmt: skip


def _pager(view: BoardsView) -> str:
    board = view.board
    if board.pages <= 1:
        return ""
    steps = []
    if board.page > 1:
        steps.append(_step(_link(view, page=board.page - 1), _("Previous page")))
    steps.append("<li>" + escape(_("Page {page} of {pages}").format(
        page=board.page, pages=board.pages)) + "</li>")  # fmt: skip
    if board.page < board.pages:
        steps.append(_step(_link(view, page=board.page + 1), _("Next page")))
    label = _("Pages")
    return f'<nav aria-label="{escape(label)}"><ul>{"".join(steps)}</ul></nav>'


def _step(href: str, text: str) -> str:
    return f'<li><a href="{escape(href)}">{escape(text)}</a></li>'


def _today(view: BoardsView) -> str:
    heading = _("Today, {day}: who finished").format(day=format_day(view.day, "yMMMd"))
    if not view.today:
        nobody = _("Nobody here has finished a daily today yet.")
        return f'<section id="today"><h2>{escape(heading)}</h2><p>{escape(nobody)}</p></section>'
    tables = "".join(map(_today_table, view.today))
    return f'<section id="today"><h2>{escape(heading)}</h2>{tables}</section>'


def _today_table(game: TodayGame) -> str:
    rows = "".join(
        f'<tr><th scope="row">{escape(f.name)}</th><td class="number">{escape(f.score)}</td></tr>'
        for f in game.finished
    )
    return table(game.title, columns((_("Player"), False), (_("Score"), True)), rows)
