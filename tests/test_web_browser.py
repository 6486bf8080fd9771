"""A server's page as a visitor sees it (issue 41, point 6): Debian's Chromium, driven by
Playwright, opens the real application over real storage (SQLite) after a season of games,
clicks through every choice the page offers (games, periods, boards, pages, and the first
link to each other kind of page, such as a player's, with that page's own choices), and
axe-core finds no serious or critical violation on any page, at a phone and a desktop width,
in the normal and the high-contrast palettes, light and dark. The harness (the browser, axe,
the season) is tests/web_browser.py; docs/make_web_screenshots.py takes the docs' pictures
with it. Without the browser or axe-core the tests fail, saying what to install."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import web_browser
from PIL import Image
from web_browser import SHOTS, axe_source, axe_violations, chromium_path, launched, screenshots

from bot.services.kinds import GAMES
from bot.storage.periods import PERIODS

# Each link's href as written, where it leads, and whether it is a choice of a menu that
# marks its current choice (the page it opens should then mark it).
LINKS = """() => [...document.querySelectorAll('a[href]')].map(a =>
    [a.getAttribute('href'), a.href, !!a.closest('ul')?.querySelector('[aria-current]')])"""
STYLED = "() => [...document.styleSheets].some(s => s.cssRules.length > 0)"
# A page's shape: its elements with their attributes and whether they hold any text, without
# the texts, links' targets or how many of each. Pages of one shape (a board of another
# period, say) differ only in words and figures, which axe-core's rules judge only as present
# or not: it checks one page of each shape.
SHAPE = """() => [...new Set([...document.querySelectorAll('*')].map(e => e.tagName + ' '
    + [...e.attributes].map(a => a.name === 'href' ? a.name : a.name + '=' + a.value)
    + (e.textContent.trim() ? '' : ' empty')))].sort().join('|')"""


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[str]:
    database = tmp_path_factory.mktemp("web-browser") / "bot.sqlite3"
    with web_browser.served(f"sqlite:///{database}") as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched() as chromium:
        yield chromium


def kind(url: str) -> str:
    """Which page a link opens, whatever its choices: ``/s/*`` a server's boards,
    ``/s/*/p/*`` a player's."""
    parts = urlsplit(url).path.split("/")
    return "/".join(part if i % 2 or i == 0 else "*" for i, part in enumerate(parts))


def test_a_visitor_clicks_through_every_choice_and_axe_finds_nothing_serious(browser, site):
    source = axe_source()
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    refused: list[str] = []  # what the page's content security policy blocked, if anything
    page.on("console", lambda m: "Content Security Policy" in m.text and refused.append(m.text))
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(site))

    shapes: set[str] = set()

    def check(url: str) -> None:
        assert page.evaluate(STYLED), f"{url}: no style sheet applied"
        shape = page.evaluate(SHAPE)
        if shape not in shapes:
            shapes.add(shape)
            assert axe_violations(page, source) == [], url

    assert page.goto(site).status == 200
    check(site)
    visited = {site}
    # From the server's page: every link to a page of its kind, and the first to each other
    # kind; from the first page of another kind: every link to a page of that kind.
    walks = [(site, True)]
    expanded = {kind(site)}
    while walks:
        parent, first_of_others = walks.pop(0)
        if page.url != parent:
            page.goto(parent)
        others_seen = set()
        for href, url, in_menu in page.evaluate(LINKS):
            url = url.split("#")[0]
            if not url.startswith(origin + "/s/") or url in visited:
                continue
            if kind(url) != kind(parent):
                if not first_of_others or kind(url) in others_seen:
                    continue
                others_seen.add(kind(url))
            if page.url != parent:
                page.goto(parent)
            with page.expect_navigation() as opened:
                page.locator(f"a[href={json.dumps(href)}]").first.click()
            assert opened.value is not None and opened.value.status == 200, url
            assert page.url == url
            if in_menu:
                chosen = page.locator(f'a[href={json.dumps(href)}][aria-current="page"]')
                assert chosen.count() >= 1, f"{url}: its menu does not mark it as chosen"
            check(url)
            visited.add(url)
            if kind(url) not in expanded:
                expanded.add(kind(url))
                walks.append((url, False))
    for path in ("/", "/s/no-such-page"):  # what this server is; a link that leads nowhere
        page.goto(origin + path)
        check(path)
    context.close()
    chosen = {key: {v for url in visited for v in parse_qs(urlsplit(url).query).get(key, ())}
              for key in ("game", "period", "page")}  # fmt: skip
    assert set(PERIODS) <= chosen["period"] and set(GAMES) <= chosen["game"], chosen
    assert chosen["page"] == {"2"}  # eleven players: a board of two pages
    assert refused == []
    assert len(shapes) >= 3, len(shapes)  # a board, an empty board, a streak board at least


def test_the_page_at_a_phone_and_a_desktop_width_in_both_palettes(browser, site, tmp_path):
    """The docs' four pictures (docs/web-*.png come from docs/make_web_screenshots.py), each
    of a page that fits its width and that axe passes; the dark scheme passes axe too."""
    taken = screenshots(browser, site, tmp_path)
    for name, size, _contrast in SHOTS:
        with Image.open(taken[name]) as picture:
            assert picture.size == size, name
    for width in ("phone", "desktop"):  # the high-contrast palette is one of its own
        normal, high = taken[f"web-{width}"], taken[f"web-{width}-contrast"]
        assert normal.read_bytes() != high.read_bytes(), width
    source = axe_source()
    for contrast in ("no-preference", "more"):
        context = browser.new_context(color_scheme="dark", contrast=contrast)
        page = context.new_page()
        assert page.goto(site).status == 200
        assert axe_violations(page, source) == [], ("dark", contrast)
        context.close()


def test_the_pages_policy_holds_in_the_browser_no_inline_script_runs(browser, site) -> None:
    """Why axe-core is evaluated through the DevTools protocol, not added as a script tag: the
    served policy (script-src 'none') refuses any script the page itself would run."""
    from playwright.sync_api import Error

    page = browser.new_page()
    assert page.goto(site).status == 200
    with pytest.raises(Error, match="Content Security Policy"):
        page.add_script_tag(content="window.ran = true")
    assert page.evaluate("window.ran === undefined")
    page.close()


def test_without_the_browser_or_axe_the_tests_fail_saying_what_to_install(
    monkeypatch, tmp_path
) -> None:
    monkeypatch.setenv("WORDLEBOT_CHROMIUM", str(tmp_path / "no-chromium"))
    with pytest.raises(pytest.fail.Exception, match="apt-get install chromium"):
        chromium_path()
    monkeypatch.setattr(web_browser, "AXE", tmp_path / "node_modules" / "axe.min.js")
    with pytest.raises(pytest.fail.Exception, match="npm ci --prefix tests/browser"):
        axe_source()


def test_the_docs_show_the_four_pictures_the_harness_takes() -> None:
    """docs/make_web_screenshots.py writes them (README.md and docs/admins.md show two); each
    is the size of its window and small."""
    for name, size, _contrast in SHOTS:
        path = web_browser.ROOT / "docs" / f"{name}.png"
        with Image.open(path) as picture:
            assert picture.format == "PNG" and picture.size == size, name
        assert path.stat().st_size < 150_000, name
