"""A server's page on the web (issue 41): the life of its link, who is named on it, a
deletion leaving every page at once, nothing that gives an answer away (a property over
random seasons of games), the security headers, the rate limit and the ETag; on both engines,
through the real aiohttp application on a real port (aiohttp's test server) and, for the
link's life, through the real bot fed Discord's payloads with its web server on its loop."""

from __future__ import annotations

import asyncio
import itertools
import re
from datetime import timedelta

import aiohttp
import pytest
from aiohttp.test_utils import TestClient, TestServer
from clock import Clock, at
from discord_double import GUILD_ID
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.commands import COMMANDS, Caller
from bot.services import Player, Services, open_services
from bot.services.achievements import CATALOGUE
from bot.services.stats import METRICS
from bot.services.web import HANDLES, LABELS, anonymous_label, public_handle
from bot.settings import load_settings
from bot.storage.periods import PERIODS
from bot.web.app import make_app
from bot.web.limits import RateLimit
from engine.variants import get_variant

SEED = "web-pages-5eed-8c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f"
START = at("2026-03-01T12:00")
GUILD = 700000000000000001  # an id as long as Discord's, so a leak of one is plain to see
ADMIN = Player(710000000000000001, "admin")
ANN, BOB = Player(720000000000000001, "annabel"), Player(730000000000000002, "bobbity")
NEVER = ("aahed", "zymic")  # allowed guesses that are never answers


async def settings_server(services: Services, guild: int = GUILD, **options) -> str:
    caller = Caller(ADMIN, guild, place=guild, guild_id=guild, manages_server=True)
    return (await COMMANDS["settings server"].run(services, caller, **options)).text


async def settings_me(services: Services, player: Player, **options) -> str:
    return (await COMMANDS["settings me"].run(services, Caller(player, GUILD), **options)).text


async def play(services: Services, player: Player, misses: int, finish: bool = True) -> None:
    assert (await services.games.start(player, GUILD, daily=True)).ok
    for word in NEVER[:misses]:
        assert (await services.games.guess(player, GUILD, word, kind="wordle:daily")).ok
    if finish:
        answer = services.daily.answer("wordle", services.daily.today())
        assert (await services.games.guess(player, GUILD, answer, kind="wordle:daily")).ok


def slug_in(text: str) -> str:
    found = re.search(r"/s/([A-Za-z0-9_-]+)", text)
    assert found is not None, text
    return found.group(1)


async def client_of(services: Services, **app) -> TestClient:
    client = TestClient(TestServer(make_app(services, **app)))
    await client.start_server()
    return client


@pytest.fixture
async def web(services):
    """A client of the real application on a real port, on each engine's services."""
    client = await client_of(services)
    yield client
    await client.close()


# -- the life of a link --------------------------------------------------------------------


async def test_a_link_lives_from_on_to_new_link_to_off(services, web) -> None:
    said = await settings_server(services)
    assert "Web page: off" in said  # off until the admins turn it on
    assert (await web.get("/s/" + str(GUILD))).status == 404  # never the server's id
    first = slug_in(await settings_server(services, web="on"))
    assert str(GUILD) not in first and len(first) >= 20
    assert (await web.get(f"/s/{first}")).status == 200
    assert slug_in(await settings_server(services, web="on")) == first  # on again: same link
    second = slug_in(await settings_server(services, web="new-link"))
    assert second != first
    assert (await web.get(f"/s/{first}")).status == 404  # the old one, at once
    assert (await web.get(f"/s/{second}")).status == 200
    assert "Web page: off" in await settings_server(services, web="off")
    gone = await web.get(f"/s/{second}")
    assert gone.status == 404 and str(GUILD) not in await gone.text()


async def test_a_server_the_bot_leaves_keeps_no_page(database_url, make_double) -> None:
    """Through Discord: /settings server web:on, the page served by the bot's own web server
    on its loop (WEB_PORT), then the bot is removed from the server (GUILD_DELETE)."""
    double = await make_double(database_url, web_port=0)
    server = double.bot.web_server
    assert server is not None
    [reply] = await double.command("settings", "server", user_id=1, web="on")
    link = re.search(r"http://\S+/s/[A-Za-z0-9_-]+", reply.text)
    assert link is not None and link.group(0).startswith(server.local_url), reply.text
    async with aiohttp.ClientSession() as session:
        async with session.get(link.group(0)) as page:
            assert page.status == 200
        double.bot._connection.parse_guild_delete({"id": str(GUILD_ID)})
        for _ in range(500):
            if await double.bot.services.web.page_of(GUILD_ID) is None:
                break
            await asyncio.sleep(0.01)
        async with session.get(link.group(0)) as page:
            assert page.status == 404


async def test_a_server_that_removed_the_bot_while_it_was_offline_keeps_no_page(
    database_url, make_double
) -> None:
    """READY lists the servers the bot is in: a page of any other goes when it connects."""
    double = await make_double(database_url)
    web = double.bot.services.web
    for guild in (GUILD_ID, GUILD):  # the double's server, and one that removed the bot
        await web.turn_on(guild)
    double.bot.dispatch("ready")
    for _ in range(500):
        if await web.page_of(GUILD) is None:
            break
        await asyncio.sleep(0.01)
    assert await web.page_of(GUILD) is None and await web.page_of(GUILD_ID) is not None


# -- who is named ---------------------------------------------------------------------------


async def test_only_players_who_chose_it_are_named(services, web, clock) -> None:
    slug = slug_in(await settings_server(services, web="on"))
    await play(services, ANN, 1)
    await play(services, BOB, 0)
    assert "anonymous label" in await settings_me(services, ANN)
    assert "show your name" in await settings_me(services, ANN, web_name="on")
    for path in (f"/s/{slug}", f"/s/{slug}?period=today", f"/s/{slug}?metric=average"):
        text = await (await web.get(path)).text()
        assert "annabel" in text
        assert "bobbity" not in text
        labels = set(re.findall(r"Player [0-9A-F]{6}", text))
        assert len(labels) == 1  # Bob, under his label
        assert str(ANN.id) not in text and str(BOB.id) not in text
    again = await (await web.get(f"/s/{slug}?metric=win_rate")).text()
    assert labels <= set(re.findall(r"Player [0-9A-F]{6}", again))  # stable
    await settings_me(services, ANN, web_name="off")
    assert "annabel" not in await (await web.get(f"/s/{slug}")).text()


async def test_a_deleted_player_is_on_no_page_at_once(services, web) -> None:
    slug = slug_in(await settings_server(services, web="on"))
    await play(services, ANN, 0)
    await settings_me(services, ANN, web_name="on")
    first = await web.get(f"/s/{slug}")
    assert "annabel" in await first.text()
    tag = first.headers["ETag"]
    caller = Caller(ANN, GUILD, guild_id=GUILD)
    assert (await COMMANDS["mydata delete"].run(services, caller, confirm="DELETE")).extra[
        "deleted"
    ]
    after = await web.get(f"/s/{slug}", headers={"If-None-Match": tag})
    assert after.status == 200 and after.headers["ETag"] != tag  # no cached copy holds them
    text = await after.text()
    assert "annabel" not in text and "Player " not in text


# -- headers, the rate limit, the ETag ------------------------------------------------------


async def test_every_answer_carries_the_security_headers(services, web) -> None:
    slug = slug_in(await settings_server(services, web="on"))
    for path, status in ((f"/s/{slug}", 200), ("/s/nothing-here", 404), ("/", 200),
                         ("/static/site.css", 200), ("/nowhere", 404)):  # fmt: skip
        answer = await web.get(path)
        assert answer.status == status, path
        policy = answer.headers["Content-Security-Policy"]
        assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
        assert "'unsafe-inline'" not in policy
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.headers["Referrer-Policy"] == "no-referrer"
        assert "noindex" in answer.headers["X-Robots-Tag"]
    await settings_server(services, web_index=True)
    indexed = await web.get(f"/s/{slug}")
    assert "noindex" not in indexed.headers["X-Robots-Tag"]
    text = await indexed.text()
    assert "<script" not in text and "style=" not in text  # nothing inline the policy bars


async def test_a_page_is_accessible_markup_in_the_readers_language(services, web) -> None:
    slug = slug_in(await settings_server(services, web="on"))
    await play(services, ANN, 2)
    text = await (await web.get(f"/s/{slug}")).text()
    assert '<html lang="en">' in text
    for landmark in ("<header>", "<nav ", "<main>", "<footer>", "<caption>", 'scope="col"',
                     'scope="row"', 'aria-current="page"'):  # fmt: skip
        assert landmark in text, landmark
    assert "3/6" in text  # today's board: her score
    french = await web.get(f"/s/{slug}", headers={"Accept-Language": "fr-CA,fr;q=0.9,en;q=0.5"})
    in_french = await french.text()
    assert '<html lang="fr">' in in_french and ">Joueur</th>" in in_french
    # the server's own board (English Wordle), not the reader's language's Wordle
    assert "wordle du jour" in in_french and "français" not in in_french
    assert french.headers["Vary"] == "Accept-Language"
    unknown = await web.get(f"/s/{slug}", headers={"Accept-Language": "ja, *;q=0.1"})
    assert '<html lang="en">' in await unknown.text()  # the server's language


async def test_a_matching_etag_is_answered_304_until_the_standings_change(services, web) -> None:
    slug = slug_in(await settings_server(services, web="on"))
    await play(services, ANN, 0)
    first = await web.get(f"/s/{slug}")
    tag = first.headers["ETag"]
    assert first.headers["Cache-Control"] == "no-cache"
    same = await web.get(f"/s/{slug}", headers={"If-None-Match": tag})
    assert same.status == 304 and same.headers["ETag"] == tag
    other = await web.get(f"/s/{slug}?period=today", headers={"If-None-Match": tag})
    assert other.status == 200  # another board has its own tag
    await play(services, BOB, 1)
    changed = await web.get(f"/s/{slug}", headers={"If-None-Match": tag})
    assert changed.status == 200 and changed.headers["ETag"] != tag
    assert "Player " in await changed.text()


async def test_a_client_asking_too_fast_is_answered_429(services) -> None:
    now = [0.0]
    client = await client_of(services, limit=RateLimit(60, burst=3, clock=lambda: now[0]))
    try:
        statuses = [(await client.get("/")).status for _ in range(3)]
        refused = await client.get("/")
        assert statuses == [200, 200, 200] and refused.status == 429
        assert refused.headers["Retry-After"] == "1"  # a token a second
        assert refused.headers["Content-Security-Policy"]
        now[0] += 1.0
        assert (await client.get("/")).status == 200
    finally:
        await client.close()


async def test_a_bad_choice_is_refused_without_a_trace(services, web) -> None:
    slug = slug_in(await settings_server(services, web="on"))
    for query in ("period=yesterday", "metric=<script>", "page=0", "metric=max_streak&period=week"):
        answer = await web.get(f"/s/{slug}?{query}")
        assert answer.status in (200, 400), query
        assert "<script>" not in await answer.text()


# -- nothing leaks, whatever was played -----------------------------------------------------

WORDLE = get_variant("wordle")
SEASON = st.lists(  # a season: each day, each player's guesses before the end (or none)
    st.lists(st.one_of(st.none(), st.tuples(st.integers(0, 5), st.booleans())), min_size=3,
             max_size=3),
    min_size=1, max_size=4,
)  # fmt: skip
PLAYERS = [
    Player(740000000000000000 + i, name) for i, name in enumerate(("qxvoz", "jkwyb", "fzpud"))
]


EXAMPLES = itertools.count()
# The words any boards page holds whatever was played: a word played that is one of them
# proves nothing, one that is not must never appear.
TEMPLATE = {"wordlebot", "wordle", "player", "rank", "played", "score", "page", "of", "previous",
            "next"}  # fmt: skip


def words_of(text: str) -> set[str]:
    return set(re.findall(r"[a-z]+", re.sub(r"<[^>]*>", " ", text).lower()))


# And what a player's page says of the achievements earned there ("First win": a player who
# missed with FIRST, then won, leaked nothing); the control player's page has none.
EARNABLE = set().union(*(words_of(f"{a.title} {a.description}") for a in CATALOGUE))


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)  # each its own server
@given(season=SEASON, named=st.lists(st.booleans(), min_size=3, max_size=3),
       picks=st.randoms(use_true_random=False),
       deleted=st.sampled_from([None, 0, 1, 2]))  # fmt: skip
def test_no_page_holds_a_word_played_an_answer_or_an_id(database_url, season, named, picks,
                                                        deleted):  # fmt: skip
    """Nor anyone who did not choose to be named, nor a player who deleted their data: on
    every board and on every player's page (a deleted player's has gone)."""
    asyncio.run(_season(database_url, season, named, picks, deleted))


async def _season(url: str, season, named, picks, deleted) -> None:
    """A season of dailies on a server of its own (a PostgreSQL database outlives an
    example), then, after one player (or none) deleted their data, every board of its page
    read."""
    example = next(EXAMPLES)
    guild = GUILD + 1000 * example
    players = [Player(p.id + 1000 * example, p.name) for p in PLAYERS]
    clock = Clock(START)
    services = await open_services(load_settings(database_url=url, daily_seed=SEED))
    services.daily.clock = clock
    client = await client_of(services, per_minute=10**6)
    try:
        slug = slug_in(await settings_server(services, guild, web="on"))
        empty = slug_in(await settings_server(services, guild + 1, web="on"))
        secrets: set[str] = set()
        allowed = WORDLE.guesses.words
        for day, moves in enumerate(season):
            for player, move, by_name in zip(players, moves, named, strict=True):
                if day == 0:
                    await settings_me(services, player, web_name="on" if by_name else "off")
                if move is None:
                    continue
                misses, won = move
                assert (await services.games.start(player, guild, daily=True)).ok
                answer = services.daily.answer("wordle", services.daily.today())
                words = [picks.choice(allowed) for _ in range(misses)] + [answer] * won
                for word in words:
                    outcome = await services.games.guess(player, guild, word, kind="wordle:daily")
                    secrets.add(word)
                    if outcome.game is None or outcome.game.over:
                        break
            secrets.add(services.daily.answer("wordle", services.daily.today()))
            if day < len(season) - 1:
                clock.now += timedelta(days=1)
        secrets.add(services.daily.answer("wordle", services.daily.today() + timedelta(days=1)))
        ids = {str(p.id) for p in players} | {str(guild)}
        gone: set[str] = set()
        refs = {p.id: (anonymous_label(services.daily.key(LABELS), guild, p.id),
                       public_handle(services.daily.key(HANDLES), guild, p.id))
                for p in players}  # fmt: skip
        if deleted is not None:
            player = players[deleted]
            gone = {player.name, *refs[player.id]}
            await COMMANDS["mydata delete"].run(services, Caller(player, guild), confirm="DELETE")
        today = services.daily.today()
        finished = set()  # who finished a game (here: their only server), and kept it
        for p in players:
            if (await services.stats.stats(p.id, "wordle:daily", today)).played:
                finished.add(p.id)
        linked: set[str] = set()
        for metric in METRICS:
            for period in PERIODS:
                query = f"?metric={metric}&period={period}"
                text = await (await client.get(f"/s/{slug}{query}")).text()
                fixed = TEMPLATE | words_of(await (await client.get(f"/s/{empty}{query}")).text())
                leaked = (words_of(text) - fixed) & secrets
                assert leaked == set(), (metric, period, leaked)
                assert [i for i in ids | gone if i in text] == [], (metric, period)
                for player, by_name in zip(players, named, strict=True):
                    assert by_name or player.name not in text
                linked |= set(re.findall(rf"/s/{slug}/p/([A-Za-z0-9]+)", text))
        # every player's page (and a control page on the empty server: its template's words)
        control = 750000000000000000 + example
        first_day = START.date().isoformat()
        await services.storage.bulk_results(
            [(control, guild + 1, "wordle:daily", first_day, True, 3, 50, 50)]
        )
        control_ref = anonymous_label(services.daily.key(LABELS), guild + 1, control)
        fixed = TEMPLATE | EARNABLE
        fixed |= words_of(await (await client.get(f"/s/{empty}/p/{control_ref}")).text())
        fixed |= words_of(await (await client.get(f"/s/{empty}/p/nobody")).text())  # a 404
        for player, by_name in zip(players, named, strict=True):
            pages = 0
            for ref in refs[player.id]:
                answer = await client.get(f"/s/{slug}/p/{ref}")
                text = await answer.text()
                if answer.status == 200:
                    assert player.name not in gone and ref == refs[player.id][by_name]
                    linked.discard(ref)
                    pages += 1
                leaked = (words_of(text) - fixed) & secrets
                assert leaked == set(), (player, leaked)
                assert [i for i in ids | gone if i in text] == [], player
                assert all(by or p.name not in text for p, by in zip(players, named, strict=True))
            # one page each, by label or handle as they chose; none once deleted
            assert pages == (player.id in finished and player.name not in gone), player
        assert linked == set()  # every page a board links to was read, and none was missing
    finally:
        await client.close()
        await services.close()
