"""A player's page: their figures, charts and achievements (bot/services/web_players.py
decides what they are; this only draws them), in the current locale."""

from __future__ import annotations

from datetime import date
from html import escape

from bot.commands.web import PlayerView
from bot.i18n import _, format_day
from bot.render.text import kind_text
from bot.render.year import (
    BEST_STREAK,
    DISTRIBUTION,
    LUCK,
    LUCKIEST,
    SKILFUL,
    SKILL,
    SKILL_BY_MONTH,
    TITLE,
    WIN_RATE,
    highlight_text,
)
from bot.services.web_players import ShownAchievement, ShownPlayer, ShownYear
from bot.web.charts import Bar, bar_chart, column_chart
from bot.web.html import footer, layout, player_href


def player_page(view: PlayerView, locale: str) -> str:
    player = view.player
    back = f"/s/{view.page.slug}" + ("?contrast=more" if view.contrast else "")
    toggle = player_href(view.page.slug, player.ref, "" if view.contrast else "?contrast=more")
    parts = [
        f"<header><h1>{escape(player.name)}</h1>"
        f"<p>{escape(kind_text(player.kind))}</p></header>",
        f'<nav aria-label="{escape(_("Boards"))}"><a id="boards-link" href="{escape(back)}">'
        f"{escape(_('This server'))}</a></nav>",
        "<main>",
        _figures(player),
        _distribution(player),
        _year(player.year, player.name) if player.year is not None else "",
        _achievements(player.achievements),
        "</main>",
        footer(view.contrast, toggle),
    ]  # fmt: skip
    return layout(locale, player.name, "\n".join(p for p in parts if p), view.contrast)


def _figure(ident: str, value: str, label: str) -> str:
    return (f'<li id="{ident}"><span class="figure">{escape(value)}</span> '
            f'<span class="figure-label">{escape(label)}</span></li>')  # fmt: skip


def _figures(player: ShownPlayer) -> str:
    return '<ul class="figures-row" id="stats">' + "".join((
        _figure("played", str(player.played), _("Played")),
        _figure("win-rate", f"{player.win_percent}%", _("Win rate")),
        _figure("current-streak", str(player.current_streak), _("Current streak")),
        _figure("max-streak", str(player.max_streak), _("Max streak")),
    )) + "</ul>"  # fmt: skip


def _distribution(player: ShownPlayer) -> str:
    most = max((wins for _n, wins in player.distribution), default=0)
    bars = [Bar(str(n), wins, str(wins), best=most > 0 and wins == most)
            for n, wins in player.distribution]  # fmt: skip
    described = ", ".join(f"{b.label}: {b.text}" for b in bars)
    description = _("Guess distribution of {who}'s wins, {played} played: {bars}.").format(
        who=player.name, played=player.played, bars=described)  # fmt: skip
    return (f'<section id="distribution"><h2>{escape(_(DISTRIBUTION))}</h2>'
            + bar_chart("chart-distribution", _(DISTRIBUTION), description,
                        (_("Guesses"), _("Wins")), bars) + "</section>")  # fmt: skip


def _year(year: ShownYear, who: str) -> str:
    title = _(TITLE).format(year=year.year)
    months = [
        Bar(format_day(date(year.year, m, 1), "MMM"), skill, "-" if skill is None else str(skill))
        for m, skill in year.skill_by_month
    ]
    described = ", ".join(f"{b.label}: {b.text}" for b in months if b.value is not None)
    description = _("skill by month: {months}").format(months=described or "-")
    items = [
        _figure("year-games", str(year.games), _("Played")),
        _figure("year-win-rate", f"{year.win_percent}%", _(WIN_RATE)),
        _figure("year-best-streak", str(year.best_streak), _(BEST_STREAK)),
    ]
    notes = (f"<dl><dt>{escape(_(LUCKIEST))}</dt><dd>{escape(highlight_text(LUCK, year.luckiest))}"
             f"</dd><dt>{escape(_(SKILFUL))}</dt>"
             f"<dd>{escape(highlight_text(SKILL, year.most_skilful))}</dd></dl>")  # fmt: skip
    chart = column_chart("chart-skill", _(SKILL_BY_MONTH), description,
                         (_("Month"), _("Skill")), months)  # fmt: skip
    return (f'<section id="year"><h2>{escape(title)}</h2>'
            f'<ul class="figures-row">{"".join(items)}</ul>{notes}'
            f"<h3>{escape(_(SKILL_BY_MONTH))}</h3>{chart}</section>")  # fmt: skip


def _achievement(item: ShownAchievement) -> str:
    earned = _("earned {day}").format(day=format_day(date.fromisoformat(item.earned_on),
                                                      "yMMMd"))  # fmt: skip
    return (f'<li class="earned"><strong>{escape(_(item.title))}</strong>: '
            f"{escape(_(item.description))} ({escape(earned)})</li>")  # fmt: skip


def _achievements(items: tuple[ShownAchievement, ...]) -> str:
    heading = escape(_("Achievements earned here"))
    none = escape(_("None yet."))
    listed = f"<ul>{''.join(map(_achievement, items))}</ul>" if items else f"<p>{none}</p>"
    return f'<section id="achievements"><h2>{heading}</h2>{listed}</section>'
