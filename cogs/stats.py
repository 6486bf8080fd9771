"""Stats, streaks and leaderboards in Discord, with page buttons that survive restarts."""

from __future__ import annotations

import re
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.commands import COMMANDS, Reply, UserId
from bot.commands.stats import MAX_PAGE
from bot.discord_bot import WordleBot, answer, fitted
from bot.i18n import _, pgettext
from bot.services.kinds import DAILY_GAMES, GAMES, KINDS
from bot.services.skill import coach_dailies
from cogs.common import GREEN, Admitted, answers_failures, anywhere, bot_of, in_time, refuse
from cogs.games import LANGUAGES, WORDS, Length
from cogs.replies import caller_of, perform, picture_file

# The games come from the one registry (bot.services.kinds), as the console's do.
GAME_CHOICES = [app_commands.Choice(name=KINDS[g].title, value=g) for g in GAMES]
DAILY_CHOICES = [app_commands.Choice(name=KINDS[g].title, value=g) for g in DAILY_GAMES]
Metric = Literal["wins", "win_rate", "average", "skill", "current_streak", "max_streak"]
Scope = Literal["server", "global"]
Period = Literal["today", "week", "month", "season", "all"]
Season = Literal["current", "previous"]
Card = Literal["player", "server"]

PAGE_ID = (
    r"wb:board:(?P<game>[a-z0-9-]{1,24}):(?P<metric>[a-z_]+)"
    r":(?P<scope>server|global):(?P<page>[0-9]+)(?::(?P<period>[a-z]+))?(?P<shares>:shares)?"
)  # the period came later: a button without one is an all-time board; so did the shares'


class PageButton(Admitted, discord.ui.DynamicItem[discord.ui.Button[Any]], template=PAGE_ID):
    """A leaderboard page button: everything needed to draw the page is in its custom id."""

    def __init__(self, game: str, metric: str, scope: str, page: int, label: str,
                 period: str = "all", shares: bool = False) -> None:  # fmt: skip
        super().__init__(discord.ui.Button(
            label=label, style=discord.ButtonStyle.secondary,
            custom_id=f"wb:board:{game}:{metric}:{scope}:{page}:{period}"
                      + (":shares" if shares else ""),
        ))  # fmt: skip
        self.game, self.metric, self.scope, self.page = game, metric, scope, page
        self.period, self.shares = period, shares

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> PageButton:
        page = int(match["page"])
        return cls(match["game"], match["metric"], match["scope"], page, str(page),
                   match["period"] or "all", bool(match["shares"]))  # fmt: skip

    @answers_failures
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if self.scope == "server" and interaction.guild_id is None:
            return await refuse(interaction, _("That board is not available here"))
        previous = self.period == "previous"  # the last season's final standings
        spec = KINDS.get(self.game)
        if spec is None:
            return await refuse(interaction, _("That board is not available here"))
        words = {"language": spec.language, "length": spec.length} if spec.base else {}
        work = COMMANDS["leaderboard"].run(
            bot_of(interaction).services, caller_of(interaction), metric=self.metric,
            period="season" if previous else self.period, game=spec.base or self.game,
            page=self.page, scope=self.scope, season="previous" if previous else "current",
            shares=self.shares, **words,
        )  # fmt: skip
        reply = await in_time(interaction, work, update=True)
        if reply.refused:
            return await refuse(interaction, reply.text)
        message = fitted(interaction, board_message(reply))
        if interaction.response.is_done():  # deferred: the board was slow to come
            await interaction.edit_original_response(**message)
        else:
            await interaction.response.edit_message(**message)


def board_message(reply: Reply) -> dict[str, Any]:
    """A board page as Discord shows it: the board in an embed, its note above, and a button
    for each page either side (from the reply's ``extra``)."""
    extra = reply.extra
    embed = discord.Embed(title=extra["title"], description=f"```\n{extra['body']}\n```",
                          colour=GREEN)  # fmt: skip
    game, metric, scope, page, pages, period, shares = extra["pages"]
    view = discord.ui.View(timeout=None)
    if page > 1:
        view.add_item(PageButton(game, metric, scope, page - 1, pgettext("button", "Previous"),
                                 period, shares))  # fmt: skip
    if page < pages:
        view.add_item(PageButton(game, metric, scope, page + 1, pgettext("button", "Next"),
                                 period, shares))  # fmt: skip
    return {"content": extra["note"] or None, "embed": embed, "view": view}


async def run(interaction: discord.Interaction[Any], path: str, **options: Any) -> Reply:
    work = COMMANDS[path].run(bot_of(interaction).services, caller_of(interaction), **options)
    return await in_time(interaction, work)


class Stats(commands.Cog):
    def __init__(self, bot: WordleBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.leader_jobs.append(self.coach_dailies)

    async def cog_unload(self) -> None:
        self.bot.leader_jobs.remove(self.coach_dailies)

    async def coach_dailies(self) -> None:
        """The skill board's job: coach the dailies finished since the last run."""
        await coach_dailies(self.bot.services.storage)

    @anywhere
    @app_commands.command(name="stats", description="Played, win %, streaks and guess distribution")
    @app_commands.describe(user="Whose stats (you by default)", game="Which game",
                           practice="Practice games instead of the dailies (a game with no "
                                    "daily: always)",
                           year="A year in review: that year's card",
                           scope="With a year: your card, or this server's", **WORDS)  # fmt: skip
    @app_commands.choices(game=GAME_CHOICES, language=LANGUAGES)
    async def stats(self, interaction: discord.Interaction[Any], user: discord.User | None = None,
                    game: str = "wordle", practice: bool = False, language: str | None = None,
                    length: Length | None = None,
                    year: app_commands.Range[int, 1, 9999] | None = None,
                    scope: Card = "player") -> None:  # fmt: skip
        who = None if user is None else UserId(user.id, user.display_name)
        reply = await run(interaction, "stats", game=game, practice=practice, user=who,
                          language=language, length=length, year=year, scope=scope)  # fmt: skip
        if reply.refused:
            return await refuse(interaction, reply.text)
        if year is not None:  # the card says it all; its alt text is its words
            await answer(interaction, files=[picture_file(reply.pictures[0])], private=False)
            return None
        embed = discord.Embed(description=f"```\n{reply.text}\n```", colour=GREEN)
        embed.set_image(url=f"attachment://{reply.pictures[0].filename}")
        await answer(interaction, embed=embed, files=[picture_file(reply.pictures[0])],
                     private=False)  # fmt: skip

    @anywhere
    @app_commands.command(name="streak", description="Your current and best daily streak")
    @app_commands.describe(game="Which daily", **WORDS)
    @app_commands.choices(game=DAILY_CHOICES, language=LANGUAGES)
    async def streak(self, interaction: discord.Interaction[Any], game: str = "wordle",
                     language: str | None = None,
                     length: Length | None = None) -> None:  # fmt: skip
        await perform(interaction, "streak", game=game, language=language, length=length)

    @anywhere
    @app_commands.command(name="leaderboard", description="Who leads, in this server or everywhere")
    @app_commands.describe(
        metric="What to rank by (average: fair, a loss counts as the fail score; skill: coach's)",
        scope="This server or everyone", game="Which game (no daily here: its practice games)",
        period="Today, this week, this month, this season or all time (streaks: all time)",
        season="With period season: the current season, or the last one's final standings",
        page="Which page (the buttons turn them too)",
        shares="The board of shares typed here (the NYT's Wordle, a clone's), not the bot's "
               "own puzzle",
        **WORDS,
    )  # fmt: skip
    @app_commands.choices(game=GAME_CHOICES, language=LANGUAGES)
    async def leaderboard(
        self, interaction: discord.Interaction[Any], metric: Metric = "wins",
        scope: Scope = "server", game: str = "wordle", period: Period = "all",
        season: Season = "current", page: app_commands.Range[int, 1, MAX_PAGE] = 1,
        language: str | None = None, length: Length | None = None, shares: bool = False,
    ) -> None:  # fmt: skip
        reply = await run(interaction, "leaderboard", metric=metric, period=period, game=game,
                          page=page, scope=scope, season=season, language=language,
                          length=length, shares=shares)  # fmt: skip
        if reply.refused:
            return await refuse(interaction, reply.text)
        await answer(interaction, private=False, **board_message(reply))


async def setup(bot: WordleBot) -> None:
    bot.add_dynamic_items(PageButton)
    await bot.add_cog(Stats(bot))
