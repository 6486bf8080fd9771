"""The year in review: a player's and a server's year (bot/services/year.py) from a history
played through the services on a controlled clock, on both engines; the card it draws
(bot/render/year.py) in every language; and /stats year:... in the console."""

import io
import tempfile
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from clock import at
from PIL import Image

from bot.commands.stats import NO_SERVER_YEAR
from bot.console import Console
from bot.i18n import LOCALES, _, use_locale
from bot.render.year import (
    HEIGHT,
    WIDTH,
    player_year_alt,
    player_year_png,
    server_year_alt,
    server_year_png,
)
from bot.services import Player, Services
from bot.services.kinds import parse
from bot.services.skill import coach_dailies
from bot.services.year import YearError
from engine.solver.coach import coach

SEED = "5e1a7c9b3d2f4a6c8e0b1d3f5a7c9e2b-year"
GUILD, OTHER = 100, 200
ANN, BOB, CAT = Player(1, "ann"), Player(2, "bob"), Player(3, "cat")
NOON = at("2026-03-03T12:00")
TODAY = NOON.date()
NEVER = ("aahed", "zymic", "xylyl")  # allowed guesses that are never answers


async def play(services: Services, player: Player, day: date, opener: str | None,
               misses: int = 1, *, won: bool = True, scope: int = GUILD) -> None:  # fmt: skip
    """A daily of ``day`` at noon that day: ``opener`` (None: the answer at once), then
    ``misses`` wrong guesses, then the answer (or give up)."""
    clock = services.daily.clock
    services.daily.clock = lambda: datetime(day.year, day.month, day.day, 12, tzinfo=UTC)
    assert (await services.games.start(player, scope, daily=True)).ok
    answer = services.daily.answer("wordle", day)
    for word in ([opener] if opener else []) + list(NEVER[:misses]):
        assert word != answer
        assert (await services.games.guess(player, scope, word, kind="wordle:daily")).ok
    if won:
        assert (await services.games.guess(player, scope, answer, kind="wordle:daily")).ok
    else:
        assert (await services.games.give_up(player, scope, kind="wordle:daily")).ok
    services.daily.clock = clock


def opener_of(services: Services, day: date) -> str:
    """A first guess that is not ``day``'s answer."""
    return "crane" if services.daily.answer("wordle", day) != "crane" else "slate"


async def coached(services: Services, player: Player, day: date):
    game = parse((await services.storage.daily_game(player.id, "wordle:daily",
                                                    day.isoformat())).state)  # fmt: skip
    return coach(game.variant, game.rows, game.mode)


async def test_a_players_year_counts_its_games_streak_opener_and_highlights(
    database_url, opened
) -> None:
    services = await opened(database_url, NOON)
    await play(services, ANN, date(2025, 12, 31), "crane")  # last year: not counted
    days = [date(2026, 1, 5), date(2026, 1, 6), date(2026, 1, 7), date(2026, 2, 10),
            date(2026, 3, 1), date(2026, 3, 2)]  # fmt: skip
    openers = [("slate" if i in (3, 4) else opener_of(services, day)) for i, day in enumerate(days)]
    for i, (day, opener) in enumerate(zip(days, openers, strict=True)):
        await play(services, ANN, day, opener, misses=i % 3, won=i != 3,
                   scope=GUILD if i % 2 else OTHER)  # fmt: skip
    await play(services, BOB, days[0], "slate")  # someone else's games are theirs
    while await coach_dailies(services.storage):
        pass
    year = await services.years.player_year(ANN.id, "wordle:daily", 2026, TODAY)
    assert year is not None
    assert (year.games, year.wins, year.win_percent) == (6, 5, 83)
    assert year.best_streak == 3  # January's three days; February's loss ends it
    assert year.distribution == {1: 0, 2: 1, 3: 2, 4: 2, 5: 0, 6: 0}  # opener, misses, answer
    favourite = max(set(openers), key=openers.count)
    assert (year.opener, year.opener_games) == (favourite, openers.count(favourite))
    reports = {day: await coached(services, ANN, day) for day in days}
    luck = max(reports.items(), key=lambda kv: kv[1].luck)
    assert (year.luckiest.day, year.luckiest.value) == (luck[0].isoformat(), luck[1].luck)
    skills = {d: r.skill for d, r in reports.items() if r.skill is not None}
    best = max(skills.items(), key=lambda kv: kv[1])
    assert (year.most_skilful.day, year.most_skilful.value) == (best[0].isoformat(), best[1])
    january = [skills[d] for d in days[:3] if d in skills]
    assert year.skill_by_month[1] == round(sum(january) / len(january))
    assert year.skill_by_month[4] is None
    assert await services.years.player_year(ANN.id, "wordle:daily", 2024, TODAY) is None
    with pytest.raises(YearError, match="2027 has not begun yet"):
        await services.years.player_year(ANN.id, "wordle:daily", 2027, TODAY)


async def test_the_card_never_names_a_word_of_a_day_not_over(opened, picture_folder) -> None:
    """A cheater reads a player's card for today's answer: a first guess that solved
    today's daily is no opener until the day is over."""
    services = await opened(":memory:", NOON)
    await play(services, ANN, date(2026, 2, 1), opener_of(services, date(2026, 2, 1)))
    await play(services, ANN, TODAY, None, misses=0)  # solved at once: today's answer
    await play(services, ANN, date(2026, 3, 4), None, misses=0)  # a day to come (clock ahead)
    answer = services.daily.answer("wordle", TODAY)
    year = await services.years.player_year(ANN.id, "wordle:daily", 2026, TODAY)
    assert year.opener == opener_of(services, date(2026, 2, 1)) and year.opener_games == 1
    shown = Console(services, Player(ANN.id, "ann"), (lines := []).append, colour=False)
    await shown.run(_script("/stats year:2026", "/quit"))
    assert any(line.startswith("Picture: ") for line in lines)  # the card was drawn
    assert answer not in "\n".join(lines).lower() and answer.upper() not in "\n".join(lines)
    later = await services.years.player_year(ANN.id, "wordle:daily", 2026, date(2026, 3, 5))
    assert later.games == 3  # the day over (and the one after): every first guess counts
    assert later.opener_games == 1


async def test_a_servers_year_counts_players_group_streak_and_busiest_day(
    database_url, opened
) -> None:
    services = await opened(database_url, NOON)
    for player, day in [(ANN, date(2026, 1, 1)), (BOB, date(2026, 1, 2)), (ANN, date(2026, 1, 3)),
                        (CAT, date(2026, 1, 3)), (BOB, date(2026, 1, 3)), (ANN, date(2026, 2, 7)),
                        (BOB, date(2026, 2, 8))]:  # fmt: skip
        await play(services, player, day, opener_of(services, day), won=player != CAT)
    await play(services, CAT, date(2026, 2, 9), opener_of(services, date(2026, 2, 9)),
               scope=OTHER)  # another server's game: not this one's  # fmt: skip
    year = await services.years.server_year(GUILD, "wordle:daily", 2026, TODAY)
    assert (year.players, year.games, year.wins) == (3, 7, 6)
    assert year.group_streak == 3  # January 1 to 3
    assert (year.busiest_day, year.busiest_games) == ("2026-01-03", 3)
    assert year.games_by_month[1] == 5 and year.games_by_month[2] == 2
    assert year.top == [("ann", 3, 3), ("bob", 3, 3), ("cat", 0, 1)]
    assert await services.years.server_year(GUILD, "wordle:daily", 2025, TODAY) is None


def _script(*lines: str):
    queue = list(lines)

    async def read(_: str) -> str | None:
        return queue.pop(0) if queue else None

    return read


@pytest.fixture
def picture_folder(tmp_path, monkeypatch) -> Path:
    """The console writes its pictures to the temporary folder: this test's own."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path


async def test_the_console_writes_the_card_and_says_where(opened, picture_folder) -> None:
    services = await opened(":memory:", NOON)
    for day in (date(2026, 1, 10), date(2026, 2, 11)):
        await play(services, Player(7, "Tess M."), day, opener_of(services, day))
    await coach_dailies(services.storage)
    lines: list[str] = []
    console = Console(services, Player(7, "Tess M."), lines.append, colour=False)
    await console.run(_script("/stats year:2026", "/stats year:2027", "/stats year:2019",
                              "/stats year:-3", "/stats year:2026 scope:server",
                              "/stats scope:server", "/quit"))  # fmt: skip
    text = "\n".join(lines)
    [said] = [line for line in lines if line.startswith("Picture: ")]
    path = Path(said.removeprefix("Picture: "))
    assert path.parent == picture_folder and path.suffix == ".png"  # a file of its own:
    assert path.name.startswith("wordlebot-year-2026-tess-m-")  # its name, then a random part
    image = Image.open(io.BytesIO(path.read_bytes()))
    assert image.format == "PNG" and image.size == (WIDTH, HEIGHT)
    assert "2 games played; 2 wins (100%)" in text  # the alt text, said too
    assert "2027 has not begun yet: choose 2026 or an earlier year" in text
    assert "A year is a number such as 2026, not -3" in text
    assert "Tess M. finished no game in 2019 (Wordle, dailies): no card to draw" in text
    assert "A server's year lives in its server" in text
    assert "A server's card is a year's: add a year, as in /stats year:2026 scope:server" in text


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_cards_are_pngs_of_their_size_with_their_figures_in_words(opened, locale) -> None:
    services = await opened(":memory:", NOON)
    for player, day in [(ANN, date(2026, 1, 4)), (BOB, date(2026, 1, 5)), (ANN, date(2026, 1, 5)),
                        (ANN, date(2026, 2, 6))]:  # fmt: skip
        await play(services, player, day, opener_of(services, day), misses=1)
    while await coach_dailies(services.storage):
        pass
    mine = await services.years.player_year(ANN.id, "wordle:daily", 2026, TODAY)
    ours = await services.years.server_year(GUILD, "wordle:daily", 2026, TODAY)
    with use_locale(locale):
        for png in (player_year_png(mine, "Ñandú Łukasz", "Wordle"),
                    server_year_png(ours, "Wordle")):  # fmt: skip
            image = Image.open(io.BytesIO(png))
            assert image.format == "PNG" and image.size == (WIDTH, HEIGHT)
            assert len(image.getcolors(1 << 16)) > 20  # drawn, not blank
        alt = player_year_alt(mine, "ann", "Wordle")
        assert "ann" in alt and "3" in alt and mine.opener.upper() in alt
        assert str(mine.luckiest.value) in alt and str(mine.most_skilful.value) in alt
        alt = server_year_alt(ours, "Wordle")
        assert "ann" in alt and "bob" in alt and "2026" in alt


async def test_stats_year_answers_with_the_card_through_the_real_process(server, tmp_path):
    """The stand-in asks /stats year:... of the real process: the card comes as an
    attachment described by its alt text, in the asker's language; a server's card too; a
    year to come is refused privately."""
    from bot_process import GUILDS, BotProcess, command, started

    from bot.services import open_services
    from bot.settings import load_settings

    path = str(tmp_path / "bot.sqlite3")
    year = datetime.now(UTC).year
    seeded = await open_services(load_settings(database_path=path, daily_seed=SEED))
    await seeded.storage.bulk_results([
        (1, GUILDS[0], "wordle:daily", f"{year}-01-01", True, 3, 70, 80),
        (2, GUILDS[0], "wordle:daily", f"{year}-01-01", True, 4, 50, 40),
    ])  # fmt: skip
    await seeded.close()
    bot = BotProcess(server, path)
    await started(server, bot)
    mine = await server.interact(command("stats", user_id=1, year=year))
    [attachment] = mine.answer["attachments"]
    assert mine.accepted and mine.answer_files == [attachment["filename"]]
    assert attachment["filename"].startswith(f"year-{year}-")
    assert "1 game played; 1 win (100%)" in attachment["description"]
    assert "luck 80/99" in attachment["description"]
    ours = await server.interact(command("stats", user_id=1, year=year, scope="server",
                                         language="en", where={"locale": "de"}))  # fmt: skip
    [attachment] = ours.answer["attachments"]
    assert attachment["filename"] == f"year-{year}-server-{GUILDS[0]}.png"
    assert "2 Spieler; 2 Spiele gespielt" in attachment["description"]
    future = await server.interact(command("stats", user_id=1, year=year + 1))
    assert future.private and f"{year + 1} has not begun yet" in future.text()
    # In a direct message there is no server's year: refused plainly, in the asker's language,
    # never the asker's own card instead.
    direct = await server.interact(command("stats", user_id=1, guild=None, year=year,
                                           scope="server", where={"locale": "de"}))  # fmt: skip
    assert direct.private and not direct.answer.get("attachments")
    with use_locale("de"):
        assert direct.answer["content"] == _(NO_SERVER_YEAR) != NO_SERVER_YEAR
    code, err = await bot.stop()
    assert code == 0, err[-2000:]
