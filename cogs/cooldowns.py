"""The limit on playing and asking for hints as the slash commands, buttons and forms apply
it: the services' own (bot/services/limits.py), so the Hint button is no way around `/hint`'s,
nor the game window around either."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.services.limits import PLAY_RATE, PLAY_SECONDS, Limit, slow_down

__all__ = ["PLAY", "Limit", "play_limit", "play_wait", "slow_down"]


def play_limit(interaction: discord.Interaction[Any]) -> Limit:
    """The limit on playing and asking for hints: five actions in ten seconds, whichever way
    they come (the services', shared with the game window served by this process)."""
    limit: Limit = interaction.client.services.play_limit
    return limit


def play_wait(interaction: discord.Interaction[Any]) -> float | None:
    """Count one action of the player: None if allowed, else the seconds to wait."""
    return play_limit(interaction).retry_after(interaction.user.id)


def _within_play_limit(interaction: discord.Interaction[Any]) -> bool:
    wait = play_wait(interaction)
    if wait is not None:
        cooldown = app_commands.Cooldown(PLAY_RATE, PLAY_SECONDS)  # what the refusal names
        raise app_commands.CommandOnCooldown(cooldown, wait)
    return True


# The limit as a slash command check (its refusal: CommandOnCooldown, answered privately).
PLAY = app_commands.check(_within_play_limit)
