"""A player's page on a server's page, the boards' group streak and selectors, and the charts
(issue 41 points 3 and 5): through the real aiohttp application on a real port, on both
engines. The leak property over random seasons (tests/test_web_pages.py) reads these pages
too."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_web_pages import (  # noqa: F401
    ANN,
    BOB,
    GUILD,
    SEED,
    START,
    client_of,
    play,
    settings_me,
    settings_server,
    slug_in,
)

from bot.commands import COMMANDS, Caller
from bot.services import Player
from bot.services.web import HANDLES, LABELS, anonymous_label, public_handle
from bot.services.web_players import group_streak
from bot.web.charts import Bar, bar_chart, column_chart

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
async def web(services):
    client = await client_of(services)
    yield client
    await client.close()


def refs_in(text: str, slug: str) -> list[str]:
    return re.findall(rf'href="/s/{slug}/p/([A-Za-z0-9]+)', text)


async def two_players(services, clock) -> str:
    """Ann (named) and Bob (not) play two days of dailies; the page's slug."""
    slug = slug_in(await settings_server(services, web="on"))
    await settings_me(services, ANN, web_name="on")
    for misses in (1, 2):
        await play(services, ANN, misses)
        await play(services, BOB, 0)
        clock.now += timedelta(days=1)
    return slug


# -- a player's page ------------------------------------------------------------------------


async def test_the_boards_link_each_player_to_their_page_with_charts(services, web,
                                                                     clock) -> None:  # fmt: skip
    slug = await two_players(services, clock)
    boards = await (await web.get(f"/s/{slug}")).text()
    handle = public_handle(services.daily.key(HANDLES), GUILD, ANN.id)
    label = anonymous_label(services.daily.key(LABELS), GUILD, BOB.id)
    assert sorted(refs_in(boards, slug)) == sorted([handle, label])
    answer = await web.get(f"/s/{slug}/p/{handle}")
    assert answer.status == 200 and answer.headers["ETag"]
    text = await answer.text()
    assert "<h1>annabel</h1>" in text and str(ANN.id) not in text
    for figure, value in (("played", "2"), ("win-rate", "100%"), ("current-streak", "2"),
                          ("max-streak", "2")):  # fmt: skip
        assert re.search(rf'id="{figure}"><span class="figure">{re.escape(value)}<', text), figure
    # the guess distribution: a chart with a name and a description, and its figures as a
    # table (her wins in 2 and in 3 guesses)
    chart = re.search(r'<svg class="chart" id="chart-distribution".*?</svg>', text)
    assert chart is not None
    drawing = ElementTree.fromstring(chart.group(0))
    assert drawing.get("role") == "img"
    assert drawing.get("aria-labelledby") == "chart-distribution-title chart-distribution-desc"
    assert drawing.find(f"{SVG}title").text == "Guess distribution"
    assert "2: 1, 3: 1" in drawing.find(f"{SVG}desc").text
    assert len(drawing.findall(f"{SVG}rect")) == 6
    rows = re.findall(r'<tr><th scope="row">(\d)</th><td class="number">(\d+)</td></tr>', text)
    assert rows[:6] == [("1", "0"), ("2", "1"), ("3", "1"), ("4", "0"), ("5", "0"), ("6", "0")]
    # the year in review and skill by month, and the achievements
    assert "2026 in review" in text and 'id="chart-skill"' in text
    assert "Skill by month (0 to 99)" in text and "Mar" in text
    assert re.search(r'<li class="earned"><strong>First win</strong>', text)
    assert "<script" not in text and "style=" not in text
    assert (await web.get(f"/s/{slug}/p/{label}")).status == 200


async def test_a_player_who_did_not_opt_in_is_shown_by_their_label_only(
    services, web, clock
) -> None:
    slug = await two_players(services, clock)
    label = anonymous_label(services.daily.key(LABELS), GUILD, BOB.id)
    text = await (await web.get(f"/s/{slug}/p/{label}")).text()
    assert f"<h1>Player {label}</h1>" in text
    assert "bobbity" not in text and str(BOB.id) not in text and str(GUILD) not in text
    # his handle (were he named) finds nothing, nor does Ann's label: a name and a label are
    # never tied by an address, so opting out later leaves no trail
    assert (
        await web.get(f"/s/{slug}/p/{public_handle(services.daily.key(HANDLES), GUILD, BOB.id)}")
    ).status == 404
    ann_label = anonymous_label(services.daily.key(LABELS), GUILD, ANN.id)
    assert (await web.get(f"/s/{slug}/p/{ann_label}")).status == 404
    await settings_me(services, ANN, web_name="off")
    text = await (await web.get(f"/s/{slug}/p/{ann_label}")).text()
    assert "annabel" not in text and f"Player {ann_label}" in text
    for nobody in (str(BOB.id), "000000", "x" * 40, "..%2F"):
        assert (await web.get(f"/s/{slug}/p/{nobody}")).status == 404, nobody


async def test_a_deleted_player_has_no_page(services, web, clock) -> None:
    slug = await two_players(services, clock)
    handle = public_handle(services.daily.key(HANDLES), GUILD, ANN.id)
    first = await web.get(f"/s/{slug}/p/{handle}")
    assert first.status == 200
    caller = Caller(ANN, GUILD, guild_id=GUILD)
    assert (await COMMANDS["mydata delete"].run(services, caller, confirm="DELETE")).extra[
        "deleted"
    ]
    gone = await web.get(f"/s/{slug}/p/{handle}", headers={"If-None-Match": first.headers["ETag"]})
    assert gone.status == 404 and "annabel" not in await gone.text()
    label = anonymous_label(services.daily.key(LABELS), GUILD, ANN.id)
    assert (await web.get(f"/s/{slug}/p/{label}")).status == 404


async def test_a_player_of_another_server_has_no_page_here(services, web, clock) -> None:
    slug = await two_players(services, clock)
    other = slug_in(await settings_server(services, GUILD + 1, web="on"))
    label = anonymous_label(services.daily.key(LABELS), GUILD, BOB.id)
    assert (await web.get(f"/s/{other}/p/{label}")).status == 404
    assert (await web.get(f"/s/{slug}/p/{label}")).status == 200


async def test_a_players_page_counts_what_they_did_in_that_server_alone(
    services, web, clock
) -> None:
    """Where else someone plays is theirs to tell: games, streaks, the year and achievements
    of another server (or of direct messages) stay off this server's page."""
    slug = await two_players(services, clock)
    elsewhere = GUILD + 1
    days = [(clock.now.date() - timedelta(days=d)).isoformat() for d in range(3, 8)]
    await services.storage.bulk_results([(ANN.id, scope, "wordle:daily", day, False, 6)
                                         for day in days for scope in (elsewhere, 0)])  # fmt: skip
    await services.storage.achievements.award(ANN.id, ["streak_30"], elsewhere, "2026-03-01")
    handle = public_handle(services.daily.key(HANDLES), GUILD, ANN.id)
    text = await (await web.get(f"/s/{slug}/p/{handle}")).text()
    for figure, value in (("played", "2"), ("win-rate", "100%"), ("max-streak", "2")):
        assert re.search(rf'id="{figure}"><span class="figure">{re.escape(value)}<', text), figure
    assert "First win" in text and "30-day streak" not in text
    # /stats, the player's own, still counts everything
    everywhere = await services.stats.stats(ANN.id, "wordle:daily", clock.now.date())
    assert everywhere.played == 12


async def test_a_named_player_is_shown_by_the_name_they_have_now(services, web, clock) -> None:
    slug = await two_players(services, clock)
    handle = public_handle(services.daily.key(HANDLES), GUILD, ANN.id)
    renamed = Player(ANN.id, "annie")
    await settings_me(services, renamed, web_name="on")  # choosing again takes the new name
    assert "<h1>annie</h1>" in await (await web.get(f"/s/{slug}/p/{handle}")).text()
    await play(services, Player(ANN.id, "anna"), 0)  # and so does playing
    text = await (await web.get(f"/s/{slug}")).text()
    assert ">anna<" in text and "annie" not in text and "annabel" not in text


# -- the boards: group streak, selectors, contrast -----------------------------------------


async def test_the_boards_show_the_group_streak(services, web, clock) -> None:
    slug = await two_players(services, clock)  # two days in a row; today nobody yet
    text = await (await web.get(f"/s/{slug}")).text()
    assert (
        '<p id="group-streak">Group streak: 2 days in a row someone here finished Wordle</p>'
    ) in text
    clock.now += timedelta(days=1)  # a whole day without anyone: the run is broken
    text = await (await web.get(f"/s/{slug}")).text()
    assert "Group streak: 0 days" in text
    await play(services, BOB, 0)
    assert "Group streak: 1 day in a row" in await (await web.get(f"/s/{slug}")).text()


@given(days=st.sets(st.integers(0, 40), max_size=30), today=st.integers(0, 40))
def test_the_group_streak_is_the_run_of_days_up_to_today(days, today) -> None:
    start = date(2026, 1, 1)
    played = [(start + timedelta(d)).isoformat() for d in days]
    expected, day = 0, today if today in days else today - 1
    while day in days:
        expected, day = expected + 1, day - 1
    assert group_streak(played, start + timedelta(today)) == expected


async def test_the_boards_offer_the_variants_played_here_and_the_last_season(
    services, web, clock
) -> None:
    slug = await two_players(services, clock)
    day = (clock.now.date() - timedelta(days=1)).isoformat()
    await services.storage.bulk_results([(BOB.id, GUILD, "wordle-es-5:daily", day, True, 4)])
    text = await (await web.get(f"/s/{slug}")).text()
    menu = re.search(r'<ul id="menu-variant">(.*?)</ul>', text)
    assert menu is not None
    assert re.search(r'<a href="\?game=wordle&amp;metric=wins&amp;period=all" '
                     r'aria-current="page">', menu.group(1))  # fmt: skip
    assert "variant=wordle-es-5" in menu.group(1)
    spanish = await (await web.get(f"/s/{slug}?game=wordle&variant=wordle-es-5")).text()
    assert re.search(r'variant=wordle-es-5" aria-current="page"', spanish)
    assert "annabel" not in spanish and re.search(r">Player [0-9A-F]{6}<", spanish)  # only Bob
    for period in ("season", "last_season"):
        answer = await web.get(f"/s/{slug}?period={period}")
        assert answer.status == 200 and 'id="menu-period"' in await answer.text()
    assert (await web.get(f"/s/{slug}?variant=primel")).status == 400  # not a Wordle
    for menu_id in ("menu-game", "menu-period", "menu-board", 'table id="board"', "today"):
        assert menu_id in text, menu_id


async def test_the_high_contrast_palette_is_the_readers_choice(services, web, clock) -> None:
    slug = await two_players(services, clock)
    plain = await (await web.get(f"/s/{slug}")).text()
    assert "<body>" in plain and 'id="contrast" href="?' in plain
    text = await (await web.get(f"/s/{slug}?contrast=more")).text()
    assert '<body class="contrast-more">' in text
    links = re.findall(r'href="([^"]+)"', text)
    menus = [h for h in links if h.startswith("?") and "contrast" not in h]
    assert menus == [re.search(r'id="contrast" href="([^"]+)"', text).group(1)]  # back to normal
    assert all("contrast=more" in h for h in links if "/p/" in h)
    css = await (await web.get("/static/site.css")).text()
    assert "@media (prefers-contrast: more)" in css and "body.contrast-more" in css


# -- the charts, as pure functions ----------------------------------------------------------


@given(values=st.lists(st.one_of(st.none(), st.integers(0, 500)), min_size=1, max_size=12))
def test_a_chart_is_a_named_image_with_its_figures_as_a_table(values) -> None:
    bars = [Bar(f"<{i}>", v, "-" if v is None else str(v)) for i, v in enumerate(values)]
    for draw in (bar_chart, column_chart):
        html = draw("c", "A & B", "desc <x>", ("Label", "Value"), bars)
        svg = ElementTree.fromstring(re.search(r"<svg.*</svg>", html).group(0))  # well formed
        assert svg.get("role") == "img" and svg.get("aria-labelledby") == "c-title c-desc"
        assert svg.find(f"{SVG}title").text == "A & B"
        assert svg.find(f"{SVG}desc").text == "desc <x>"
        table = re.findall(r'<th scope="row">&lt;(\d+)&gt;</th><td class="number">([^<]*)</td>',
                           html)  # fmt: skip
        assert table == [(str(i), b.text) for i, b in enumerate(bars)]
        for rect in svg.iter(f"{SVG}rect"):
            assert float(rect.get("width")) >= 0 and float(rect.get("height")) >= 0
