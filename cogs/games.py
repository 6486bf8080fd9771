"""Wordle and Primel in Discord: slash commands, and the board's buttons and guess modal."""

from __future__ import annotations

import re
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_bot import answer, fitted, turned_away
from bot.render.text import candidates_text, percent, share_text, title
from bot.services import GameView, Outcome
from bot.services.archive import play_archive
from bot.services.games import GAME_OVER, NO_GAME, NOT_YOURS, ROLLED_BACK
from cogs.common import (
    FORM_SECONDS,
    answers_failures,
    anywhere,
    board_message,
    board_posted,
    bot_of,
    form_values,
    guess_form_field,
    in_time,
    palette_of,
    place_of,
    player_of,
    refuse,
    scope_of,
)
from cogs.cooldowns import PLAY, play_wait, slow_down
from engine.rules import Mode

ModeChoice = Literal["normal", "hard", "strict"]
MODE = "hard: greens stay, yellows must be reused; strict: every guess could be the answer"
BUTTONS = {
    "guess": ("Guess", discord.ButtonStyle.success),
    "hint": ("Hint", discord.ButtonStyle.secondary),
    "giveup": ("Give up", discord.ButtonStyle.danger),
}


class GameButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"wb:game:(?P<action>guess|hint|giveup):(?P<game>[0-9]+)",
):
    """A board button; its custom id carries the game, so it works after a restart."""

    def __init__(self, action: str, game_id: int) -> None:
        label, style = BUTTONS[action]
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"wb:game:{action}:{game_id}")
        )
        self.action, self.game_id = action, game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Button[Any],
        match: re.Match[str],
    ) -> GameButton:
        return cls(match["action"], int(match["game"]))

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        return not await turned_away(interaction)

    @answers_failures
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        services = bot_of(interaction).services
        player = player_of(interaction)
        game = await services.games.game(self.game_id)
        if game is None:
            return await refuse(interaction, NO_GAME)
        if game.player_id != player.id:
            return await refuse(interaction, NOT_YOURS)
        if game.over:
            return await refuse(interaction, GAME_OVER)
        services.games.shown(player.id, place_of(interaction), self.game_id)
        if self.action == "guess":
            await interaction.response.send_modal(GuessModal(self.game_id, game))
        elif self.action == "hint":
            wait = play_wait(interaction)  # the limit of /hint, on its button too
            if wait is not None:
                return await refuse(interaction, slow_down(wait))
            await send_hint(interaction, game_id=self.game_id)
        else:
            outcome = await in_time(
                interaction,
                services.games.give_up(player, scope_of(interaction), game_id=self.game_id),
                update=True,
            )
            await update_board(interaction, outcome)
            await tell_answer(interaction, outcome)


class ShareButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"wb:share:(?P<game>[0-9]+)"
):
    """A finished board's Share: the share text, privately, ready to copy (NYT format in the
    player's colours). Its custom id carries the game, so it works after a restart."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="Share", style=discord.ButtonStyle.primary,
                                           custom_id=f"wb:share:{game_id}"))  # fmt: skip
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Button[Any],
        match: re.Match[str],
    ) -> ShareButton:
        return cls(int(match["game"]))

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        return not await turned_away(interaction)

    @answers_failures
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        game = await bot_of(interaction).services.games.game(self.game_id)
        if game is None:
            return await refuse(interaction, NO_GAME)
        if game.player_id != interaction.user.id:
            return await refuse(interaction, "Only its player can share a game: share your own")
        if not game.over:
            return await refuse(interaction, "Finish the game first, then share it")
        palette = await palette_of(interaction, game.player_id)
        await interaction.response.send_message(share_text(game, palette), ephemeral=True)


class PickButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"wb:pick:(?P<action>guess|giveup):(?P<game>[0-9]+):(?P<word>[a-z0-9]{0,16})",
):
    """When several games could be meant, one button per game: pressing it takes the action
    (the guess is in the custom id) on that game. Works after a restart too."""

    def __init__(self, action: str, game_id: int, word: str, label: str) -> None:
        super().__init__(discord.ui.Button(
            label=label[:80], style=discord.ButtonStyle.primary,
            custom_id=f"wb:pick:{action}:{game_id}:{word}",
        ))  # fmt: skip
        self.action, self.game_id, self.word = action, game_id, word

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Button[Any],
        match: re.Match[str],
    ) -> PickButton:
        return cls(match["action"], int(match["game"]), match["word"], item.label or "")

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        return not await turned_away(interaction)

    @answers_failures
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        games = bot_of(interaction).services.games
        player, scope, place = player_of(interaction), scope_of(interaction), place_of(interaction)
        if self.action == "guess":
            work = games.guess(player, scope, self.word, game_id=self.game_id, place=place)
        else:
            work = games.give_up(player, scope, game_id=self.game_id, place=place)
        outcome = await in_time(interaction, work)
        await show_board(interaction, outcome)
        await tell_answer(interaction, outcome)


def choices_view(outcome: Outcome, action: str, word: str = "") -> discord.ui.View | None:
    """Buttons naming each game the player could have meant (Discord allows 25)."""
    if not outcome.choices or not re.fullmatch(r"[a-z0-9]{0,16}", word):
        return None
    view = discord.ui.View(timeout=None)
    for game in outcome.choices[:25]:
        view.add_item(PickButton(action, game.game_id, word, title(game)))
    return view


async def tell_answer(interaction: discord.Interaction[Any], outcome: Outcome) -> None:
    """The answer after giving up, privately: a daily's answer must not reach the channel
    while others are still playing it (a practice game's may, but one rule is simpler)."""
    if outcome.ok and outcome.message and outcome.game is not None and outcome.game.over:
        await answer(interaction, outcome.message, private=True)


# This process's mark in the guess modal's custom id: a modal submitted after a restart
# carries another process's mark, is unknown to discord.py (which would drop it silently) and
# is answered by :meth:`Games.on_interaction` instead.
# The form's id names the game; forms opened by older versions also carry a mark of the
# process that opened them, which no longer matters (every submit takes one path).
MODAL_ID = re.compile(r"wb:modal:guess:(?P<game>[0-9]+)(?::[0-9a-f]+)?")


class GuessModal(discord.ui.Modal):
    def __init__(self, game_id: int, game: GameView) -> None:
        limit = f" of {game.max_guesses}" if game.max_guesses else ""
        super().__init__(title=f"Guess {len(game.rows) + 1}{limit}", timeout=FORM_SECONDS,
                         custom_id=f"wb:modal:guess:{game_id}")  # fmt: skip
        self.game_id = game_id
        unit = "digit" if game.variant == "primel" else "letter"
        label, self.word = guess_form_field(f"Your {game.length}-{unit} guess")
        self.add_item(label)

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """Never run here: :meth:`Games.on_interaction` plays every submitted guess. discord.py
        learns of a modal only once the reply that opened it completes, so a quick submit
        could reach it unregistered and be dropped; one path for all avoids that race (and
        serves forms opened before a restart the same way)."""
        return False


def buttons(game: GameView) -> discord.ui.View:
    """A game's buttons: Guess, Hint (not in a race) and Give up; once it is over, Share."""
    view = discord.ui.View(timeout=None)
    if game.over:
        view.add_item(ShareButton(game.game_id))
        return view
    race = game.kind.endswith(":race")  # no hints in a race
    for action in ("guess", "giveup") if race else ("guess", "hint", "giveup"):
        view.add_item(GameButton(action, game.game_id))
    return view


def report_over(interaction: discord.Interaction[Any], outcome: Outcome) -> None:
    """Tell the cogs that follow games (a race's scoreboard) that one has just ended: the
    ``game_over`` event, with its view."""
    if outcome.ok and outcome.game is not None and outcome.game.over:
        bot_of(interaction).dispatch("game_over", outcome.game)


async def drawn_board(
    interaction: discord.Interaction[Any], game: GameView, *, update: bool = False
) -> dict[str, Any]:
    """The board message in its player's colours. Reading the palette and drawing can take
    long too (a busy database, a busy worker pool), so they run under the same deferral
    timer as the service call: the interaction is deferred rather than missing its window."""

    async def draw() -> dict[str, Any]:
        palette = await palette_of(interaction, game.player_id)
        return await board_message(game, buttons(game), palette)

    return await in_time(interaction, draw(), update=update)


async def show_board(
    interaction: discord.Interaction[Any], outcome: Outcome, *, picks: discord.ui.View | None = None
) -> None:
    """Answer a command with the board in a new message, or refuse privately (with buttons
    to pick a game when several could be meant). A note that reveals an answer (giving up)
    is not put on the public board: :func:`tell_answer` sends it privately."""
    shown_older = outcome.message == ROLLED_BACK  # refused, with the game as stored: shown
    if outcome.game is None or (not outcome.ok and outcome.message and not shown_older):
        text = outcome.message or NO_GAME
        if picks is None:
            return await refuse(interaction, text)
        await answer(interaction, text, view=picks, private=True)
        return
    message = await drawn_board(interaction, outcome.game)
    if outcome.message and not outcome.game.over:
        message["content"] = outcome.message
    private = outcome.game.kind.endswith((":race", ":custom"))  # its player's board alone
    files = message.pop("attachments")
    await answer(interaction, files=files, private=private, **message)
    if not private:  # one board per game in the channel: the one it replaces goes
        board_posted(interaction, outcome.game.game_id)
    report_over(interaction, outcome)


async def update_board(interaction: discord.Interaction[Any], outcome: Outcome) -> None:
    """Answer a button or the modal by editing the board in place, or refuse privately (a
    game found older than the board showed: the board shows it, and the player is told)."""
    shown_older = outcome.message == ROLLED_BACK and outcome.game is not None
    if (not outcome.ok or outcome.game is None) and not shown_older:
        return await refuse(interaction, outcome.message or NO_GAME)
    assert outcome.game is not None
    message = await drawn_board(interaction, outcome.game, update=True)
    message = fitted(interaction, message)
    if interaction.response.is_done():  # deferred: the service or the drawing was slow
        await interaction.edit_original_response(**message)
    else:
        await interaction.response.edit_message(**message)
    if shown_older:
        await answer(interaction, ROLLED_BACK, private=True)
    report_over(interaction, outcome)


async def send_hint(interaction: discord.Interaction[Any], *, game_id: int | None = None) -> None:
    """A private hint; solver work may take a moment, so the reply is deferred first."""
    bot = bot_of(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    outcome = await bot.services.games.hint(
        player_of(interaction), scope_of(interaction), game_id=game_id, place=place_of(interaction)
    )
    if outcome.multi is not None:
        text = format_multi_hint(outcome.multi)
    elif outcome.hint is None:
        text = outcome.message or NO_GAME
    else:
        text = format_hint(outcome.hint)
    await answer(interaction, text, private=True)


def format_multi_hint(result: Any) -> str:
    lines = []
    for board, words in enumerate(result.candidates, 1):
        if not words:
            lines.append(f"Board {board}: solved")
            continue
        shown = ", ".join(w.upper() for w in words[:8])
        more = f" and {len(words) - 8} more" if len(words) > 8 else ""
        lines.append(f"Board {board}: {len(words)} possible: {shown}{more}")
    lines.append(f"Best guess for all boards: `{result.guess.upper()}`")
    return "\n".join(lines)


def format_hint(result: Any) -> str:
    shown = candidates_text(result, 15)
    more = f" and {result.remaining - 15} more" if result.remaining > 15 else ""
    lines = [f"**{result.remaining}** possible: {shown}{more}", "Best guesses:"]
    for s in result.suggestions:
        finish = f", {s.expected_guesses:.2f} guesses to finish" if s.expected_guesses else ""
        chance = f": {percent(s.chance)}" if s.chance else ""
        mark = f" (could be it{chance})" if s.possible else ""
        lines.append(
            f"`{s.guess.upper()}` {s.entropy:.2f} bits, {s.expected:.1f} left on average,"
            f" worst {s.worst}{mark}{finish}"
        )
    return "\n".join(lines)


class Games(commands.Cog):
    wordle = anywhere(app_commands.Group(name="wordle", description="Play Wordle"))
    primel = anywhere(
        app_commands.Group(name="primel", description="Play Primel: guess the 5-digit prime")
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    @answers_failures
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A submitted guess form, whenever and wherever it was opened (see GuessModal)."""
        if interaction.type is not discord.InteractionType.modal_submit or not interaction.data:
            return
        match = MODAL_ID.fullmatch(str(interaction.data.get("custom_id", "")))
        if match is None:
            return  # not ours
        if await turned_away(interaction):
            return
        wait = play_wait(interaction)  # the limit of /guess, on its form too
        if wait is not None:
            return await refuse(interaction, slow_down(wait))
        values = form_values(interaction.data)
        work = bot_of(interaction).services.games.guess(
            player_of(interaction), scope_of(interaction), str(values[0] if values else ""),
            game_id=int(match["game"]), place=place_of(interaction),
        )  # fmt: skip
        await update_board(interaction, await in_time(interaction, work, update=True))

    async def start(
        self, interaction: discord.Interaction[Any], variant: str, daily: bool, mode: str = "normal"
    ) -> None:
        services = bot_of(interaction).services
        work = services.games.start(
            player_of(interaction), scope_of(interaction), variant, daily=daily, mode=Mode(mode),
            place=place_of(interaction),
        )  # fmt: skip
        await show_board(interaction, await in_time(interaction, work))

    @wordle.command(name="daily", description="Today's Wordle: the same word for everyone")
    @app_commands.describe(mode=MODE)
    async def wordle_daily(
        self, interaction: discord.Interaction[Any], mode: ModeChoice = "normal"
    ) -> None:
        await self.start(interaction, "wordle", True, mode)

    @wordle.command(name="practice", description="A practice Wordle with a random word")
    @app_commands.describe(mode=MODE)
    async def wordle_practice(
        self, interaction: discord.Interaction[Any], mode: ModeChoice = "normal"
    ) -> None:
        await self.start(interaction, "wordle", False, mode)

    @primel.command(name="daily", description="Today's Primel")
    @app_commands.describe(mode=MODE)
    async def primel_daily(
        self, interaction: discord.Interaction[Any], mode: ModeChoice = "normal"
    ) -> None:
        await self.start(interaction, "primel", True, mode)

    @primel.command(name="practice", description="A practice Primel")
    @app_commands.describe(mode=MODE)
    async def primel_practice(
        self, interaction: discord.Interaction[Any], mode: ModeChoice = "normal"
    ) -> None:
        await self.start(interaction, "primel", False, mode)

    async def archive(
        self, interaction: discord.Interaction[Any], variant: str, number: int | None,
        day: str | None, mode: str,
    ) -> None:  # fmt: skip
        work = play_archive(
            bot_of(interaction).services.games, player_of(interaction), scope_of(interaction),
            variant, number=number, day=day, mode=Mode(mode), place=place_of(interaction),
        )  # fmt: skip
        await show_board(interaction, await in_time(interaction, work))

    @wordle.command(name="archive", description="A past daily you have not played yet")
    @app_commands.describe(number="The puzzle's number (#0 was 2021-06-19)",
                           date="Or its date, YYYY-MM-DD", mode=MODE)  # fmt: skip
    async def wordle_archive(
        self, interaction: discord.Interaction[Any], number: int | None = None,
        date: str | None = None, mode: ModeChoice = "normal",
    ) -> None:  # fmt: skip
        await self.archive(interaction, "wordle", number, date, mode)

    @primel.command(name="archive", description="A past Primel daily you have not played yet")
    @app_commands.describe(number="The puzzle's number (#0 was 2021-06-19)",
                           date="Or its date, YYYY-MM-DD", mode=MODE)  # fmt: skip
    async def primel_archive(
        self, interaction: discord.Interaction[Any], number: int | None = None,
        date: str | None = None, mode: ModeChoice = "normal",
    ) -> None:  # fmt: skip
        await self.archive(interaction, "primel", number, date, mode)

    @anywhere
    @app_commands.command(name="absurdle", description="Wordle against an adversary that dodges")
    @app_commands.describe(challenge="Get a target word and force the adversary to it", mode=MODE)
    async def absurdle(self, interaction: discord.Interaction[Any], challenge: bool = False,
                       mode: ModeChoice = "normal") -> None:  # fmt: skip
        services = bot_of(interaction).services
        player, scope = player_of(interaction), scope_of(interaction)
        work = services.games.start(
            player, scope, "absurdle", mode=Mode(mode), challenge=challenge,
            place=place_of(interaction),
        )  # fmt: skip
        await show_board(interaction, await in_time(interaction, work))

    async def multi(self, interaction: discord.Interaction[Any], name: str, mode: str) -> None:
        services = bot_of(interaction).services
        work = services.games.start(
            player_of(interaction), scope_of(interaction), name, mode=Mode(mode),
            place=place_of(interaction),
        )  # fmt: skip
        await show_board(interaction, await in_time(interaction, work))

    @anywhere
    @app_commands.command(name="dordle", description="Two boards at once, 7 guesses")
    @app_commands.describe(mode=MODE)
    async def dordle(
        self, interaction: discord.Interaction[Any], mode: ModeChoice = "normal"
    ) -> None:
        await self.multi(interaction, "dordle", mode)

    @anywhere
    @app_commands.command(name="quordle", description="Four boards at once, 9 guesses")
    @app_commands.describe(mode=MODE)
    async def quordle(
        self, interaction: discord.Interaction[Any], mode: ModeChoice = "normal"
    ) -> None:
        await self.multi(interaction, "quordle", mode)

    @anywhere
    @app_commands.command(name="octordle", description="Eight boards at once, 13 guesses")
    @app_commands.describe(mode=MODE)
    async def octordle(
        self, interaction: discord.Interaction[Any], mode: ModeChoice = "normal"
    ) -> None:
        await self.multi(interaction, "octordle", mode)

    @anywhere
    @app_commands.command(name="guess", description="Guess a word in your game")
    @app_commands.describe(word="Your guess")
    @PLAY
    async def guess(
        self, interaction: discord.Interaction[Any], word: app_commands.Range[str, 1, 100]
    ) -> None:
        services = bot_of(interaction).services
        work = services.games.guess(
            player_of(interaction), scope_of(interaction), word, place=place_of(interaction)
        )
        outcome = await in_time(interaction, work)
        await show_board(interaction, outcome, picks=choices_view(outcome, "guess", word.lower()))

    @anywhere
    @app_commands.command(name="giveup", description="Give up your game and see the answer")
    async def giveup(self, interaction: discord.Interaction[Any]) -> None:
        services = bot_of(interaction).services
        work = services.games.give_up(
            player_of(interaction), scope_of(interaction), place=place_of(interaction)
        )
        outcome = await in_time(interaction, work)
        await show_board(interaction, outcome, picks=choices_view(outcome, "giveup"))
        await tell_answer(interaction, outcome)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(GameButton, PickButton, ShareButton)
    await bot.add_cog(Games(bot))
