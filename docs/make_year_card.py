"""Draw the year card the docs show (docs/year-card.png), from a year played through the
bot's own services on a clock moved day by day, coached as the leader job coaches, and drawn
by the bot's renderer (bot/render/year.py). Run from the repository's root after changing
the card (it takes about a minute: the coach measures every game):

    python docs/make_year_card.py [--locale fr] [--server]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from bot.commands.stats import YEAR_GAMES
from bot.i18n import _, use_locale
from bot.render.year import player_year_alt, player_year_png, server_year_alt, server_year_png
from bot.services import Player, Services, open_services
from bot.services.skill import coach_dailies
from bot.settings import load_settings
from engine import get_variant, score

HERE = Path(__file__).resolve().parent
SEED = "0d9c3b5e7a1f2468ace013579bdf2468-year-card"
GUILD = 100
TODAY = date(2026, 12, 31)  # the year's last day: its cards are drawn the day after
PLAYERS = [Player(1, "Ana Lúcia"), Player(2, "Björn"), Player(3, "Chloé"), Player(4, "Dawid")]


async def play_daily(services: Services, player: Player, day: date, rng: random.Random) -> None:
    """One daily as a fair human might play it: a favourite opener most days, then any word
    still possible, up to six guesses."""
    services.daily.clock = lambda: datetime(day.year, day.month, day.day, 12, tzinfo=UTC)
    variant = get_variant("wordle")
    answer = services.daily.answer("wordle", day)
    assert (await services.games.start(player, GUILD, daily=True)).ok
    candidates = list(variant.answers.words)
    guess = rng.choices(["crane", "slate", "adieu"], [7, 2, 1])[0]
    for _turn in range(6):
        outcome = await services.games.guess(player, GUILD, guess, kind="wordle:daily")
        assert outcome.ok, outcome
        if guess == answer:
            return
        pattern = score(guess, answer)
        candidates = [w for w in candidates if score(guess, w) == pattern]
        guess = rng.choice(candidates[:3] if rng.random() < 0.2 else candidates)


async def seeded() -> Services:
    services = await open_services(load_settings(database_url=":memory:", daily_seed=SEED))
    rng = random.Random(2026)
    day = date(2026, 1, 1)
    while day <= TODAY:
        for i, player in enumerate(PLAYERS):
            if rng.random() < (0.86, 0.6, 0.45, 0.3)[i] - (0.4 if day.month == 8 else 0):
                await play_daily(services, player, day, rng)
        day += timedelta(days=1)
    while await coach_dailies(services.storage, batch=200):
        pass
    return services


async def main(locale: str, server: bool) -> int:
    services = await seeded()
    after = TODAY + timedelta(days=1)
    with use_locale(locale):
        game = _(YEAR_GAMES["daily"]).format(game="Wordle")  # as /stats year:2026 names it
        if server:
            ours = await services.years.server_year(GUILD, "wordle:daily", 2026, after)
            assert ours is not None
            png, alt = server_year_png(ours, game), server_year_alt(ours, game)
            name = "year-card-server.png"
        else:
            who = PLAYERS[0]
            mine = await services.years.player_year(who.id, "wordle:daily", 2026, after)
            assert mine is not None
            png, alt = player_year_png(mine, who.name, game), player_year_alt(mine, who.name, game)
            name = "year-card.png"
    await services.close()
    path = HERE / name if locale == "en" else Path(f"/tmp/{locale}-{name}")
    path.write_bytes(png)
    print(path)
    print(alt)
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--locale", default="en")
    parser.add_argument("--server", action="store_true")
    options = parser.parse_args()
    sys.exit(asyncio.run(main(options.locale, options.server)))
