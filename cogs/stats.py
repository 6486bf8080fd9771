"""Stats, streaks and leaderboards in Discord, with page buttons that survive restarts."""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_bot import WordleBot, fitted
from bot.render import images
from bot.render.alt_text import stats_alt_text
from bot.render.text import METRIC_TITLES, board_text, stats_text
from bot.services.kinds import DAILY_GAMES, GAMES, KINDS, results_kind
from bot.services.skill import coach_dailies
from bot.services.stats import LeaderboardError
from cogs.common import GREEN, answers_failures, anywhere, bot_of, palette_of, refuse

# The games come from the one registry (bot.services.kinds), as the console's do.
GAME_CHOICES = [app_commands.Choice(name=KINDS[g].title, value=g) for g in GAMES]
DAILY_CHOICES = [app_commands.Choice(name=KINDS[g].title, value=g) for g in DAILY_GAMES]
Metric = Literal["wins", "win_rate", "average", "skill", "current_streak", "max_streak"]
Scope = Literal["server", "global"]
Period = Literal["today", "week", "month", "season", "all"]
Season = Literal["current", "previous"]


NO_SERVER_BOARD = ("A server's board lives in its server and counts its members' games; "
                   "here there is none, so this is everyone's board.")  # fmt: skip

PAGE_ID = (
    rf"wb:board:(?P<game>{'|'.join(GAMES)}):(?P<metric>[a-z_]+)"
    r":(?P<scope>server|global):(?P<page>[0-9]+)(?::(?P<period>[a-z]+))?"
)  # the period came later: a button without one is an all-time board


class PageButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=PAGE_ID):
    """A leaderboard page button: everything needed to draw the page is in its custom id."""

    def __init__(self, game: str, metric: str, scope: str, page: int, label: str,
                 period: str = "all") -> None:  # fmt: skip
        super().__init__(discord.ui.Button(
            label=label, style=discord.ButtonStyle.secondary,
            custom_id=f"wb:board:{game}:{metric}:{scope}:{page}:{period}",
        ))  # fmt: skip
        self.game, self.metric, self.scope, self.page = game, metric, scope, page
        self.period = period

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Button[Any],
        match: re.Match[str],
    ) -> PageButton:
        page = int(match["page"])
        return cls(match["game"], match["metric"], match["scope"], page, str(page),
                   match["period"] or "all")  # fmt: skip

    @answers_failures
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        message = await board_message(interaction, self.game, self.metric, self.scope,
                                      self.page, self.period)  # fmt: skip
        if message is None:
            return await refuse(interaction, "That board is not available here")
        await interaction.response.edit_message(**fitted(interaction, message))


async def board_message(
    interaction: discord.Interaction[Any],
    game: str,
    metric: str,
    scope: str,
    page: int,
    period: str = "all",
) -> dict[str, Any] | None:
    """A board page. ``period`` "previous" is the last season's final standings."""
    services = bot_of(interaction).services
    guild_id = interaction.guild_id if scope == "server" else None
    if scope == "server" and guild_id is None:
        return None
    kind = results_kind(game)  # a game with no daily here: its practice games
    board = await services.stats.leaderboard(
        kind, metric, guild_id=guild_id, page=page, today=services.daily.today(),
        period="season" if period == "previous" else period,
        previous_season=period == "previous",
    )  # fmt: skip
    embed = discord.Embed(title=f"{METRIC_TITLES[metric]}: {kind.replace(':', ' ')}, "
                                f"{board.period}",
                          description=f"```\n{board_text(board)}\n```", colour=GREEN)  # fmt: skip
    view = discord.ui.View(timeout=None)
    if board.page > 1:
        view.add_item(PageButton(game, metric, scope, board.page - 1, "Previous", period))
    if board.page < board.pages:
        view.add_item(PageButton(game, metric, scope, board.page + 1, "Next", period))
    return {"embed": embed, "view": view}


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
                                    "daily: always)")  # fmt: skip
    @app_commands.choices(game=GAME_CHOICES)
    async def stats(self, interaction: discord.Interaction[Any], user: discord.User | None = None,
                    game: str = "wordle", practice: bool = False) -> None:  # fmt: skip
        services = bot_of(interaction).services
        who = user or interaction.user
        if game not in KINDS:
            return await refuse(interaction, f"Stats are kept for {', '.join(GAMES)}")
        result = await services.stats.stats(
            who.id, results_kind(game, practice), services.daily.today()
        )
        embed = discord.Embed(description=f"```\n{stats_text(result, who.display_name)}\n```",
                              colour=GREEN)  # fmt: skip
        embed.set_image(url="attachment://stats.png")
        palette = await palette_of(interaction, interaction.user.id)  # who asks sees it
        png = await asyncio.to_thread(images.stats_png, result, palette)
        alt = stats_alt_text(result, who.display_name)
        picture = discord.File(io.BytesIO(png), filename="stats.png", description=alt)
        await interaction.response.send_message(
            **fitted(interaction, {"embed": embed, "file": picture})
        )

    @anywhere
    @app_commands.command(name="streak", description="Your current and best daily streak")
    @app_commands.describe(game="Which daily")
    @app_commands.choices(game=DAILY_CHOICES)
    async def streak(self, interaction: discord.Interaction[Any], game: str = "wordle") -> None:
        services = bot_of(interaction).services
        if game not in DAILY_GAMES:
            return await refuse(interaction, f"Daily streaks are kept for {', '.join(DAILY_GAMES)}")
        result = await services.stats.stats(interaction.user.id, results_kind(game),
                                            services.daily.today())  # fmt: skip
        await interaction.response.send_message(
            f"{game.title()} daily streak: {result.current_streak} (best {result.max_streak})",
            ephemeral=True,
        )

    @anywhere
    @app_commands.command(name="leaderboard", description="Who leads, in this server or everywhere")
    @app_commands.describe(
        metric="What to rank by (average: fair, a loss counts as the fail score; skill: coach's)",
        scope="This server or everyone", game="Which game (no daily here: its practice games)",
        period="Today, this week, this month, this season or all time (streaks: all time)",
        season="With period season: the current season, or the last one's final standings",
    )  # fmt: skip
    @app_commands.choices(game=GAME_CHOICES)
    async def leaderboard(self, interaction: discord.Interaction[Any], metric: Metric = "wins",
                          scope: Scope = "server", game: str = "wordle", period: Period = "all",
                          season: Season = "current") -> None:  # fmt: skip
        note = None
        if interaction.guild_id is None and scope == "server":  # DMs and group DMs
            scope, note = "global", NO_SERVER_BOARD
        shown = "previous" if period == "season" and season == "previous" else period
        try:
            message = await board_message(interaction, game, metric, scope, 1, shown)
        except LeaderboardError as exc:
            return await refuse(interaction, str(exc))
        assert message is not None
        await interaction.response.send_message(**fitted(interaction, {"content": note, **message}))


async def setup(bot: WordleBot) -> None:
    bot.add_dynamic_items(PageButton)
    await bot.add_cog(Stats(bot))
