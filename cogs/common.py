"""What every cog shares: who and where an interaction is, and the board message."""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING, Any

import discord

from bot.render import images
from bot.render.text import board_rows, keyboard_markdown, status_line, title
from bot.services import DM, GameView, Player

if TYPE_CHECKING:
    from bot.discord_bot import WordleBot

GREEN = discord.Colour.from_rgb(*images.GREEN)
GREY = discord.Colour.from_rgb(*images.GREY)


def player_of(interaction: discord.Interaction[Any]) -> Player:
    return Player(interaction.user.id, interaction.user.display_name)


def scope_of(interaction: discord.Interaction[Any]) -> int:
    return interaction.guild_id or DM


def place_of(interaction: discord.Interaction[Any]) -> int:
    """Where the player looks at a board: the channel (a DM is a channel too)."""
    return interaction.channel_id or scope_of(interaction)


def bot_of(interaction: discord.Interaction[Any]) -> WordleBot:
    return interaction.client  # type: ignore[no-any-return]


async def refuse(interaction: discord.Interaction[Any], message: str) -> None:
    """A refusal, seen only by the person who caused it."""
    if interaction.response.is_done():
        await interaction.followup.send(message, ephemeral=True)
    else:
        await interaction.response.send_message(message, ephemeral=True)


async def board_message(game: GameView, view: discord.ui.View | None) -> dict[str, Any]:
    """The public board: emoji rows, keyboard and an image. A daily game shows its letters
    and answer only behind spoilers, and its image has colours only. The image is drawn in a
    worker thread: the event loop never waits on Pillow."""
    hidden = game.daily
    lines = board_rows(game, hide_letters=hidden)
    lines.append(status_line(game, spoiler=hidden))
    if not hidden and not game.over:
        lines.append("")
        lines.append(keyboard_markdown(game))
    embed = discord.Embed(
        title=title(game),
        description="\n".join(lines),
        colour=GREEN if game.status == "won" else GREY,
    )
    embed.set_image(url="attachment://board.png")
    png = await asyncio.to_thread(images.board_png, game, letters=not hidden)
    message: dict[str, Any] = {
        "embed": embed,
        "attachments": [discord.File(io.BytesIO(png), filename="board.png")],
    }
    message["view"] = view if view is not None else discord.utils.MISSING
    return message
