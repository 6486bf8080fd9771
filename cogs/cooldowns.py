"""Per-player rate limits shared by every path to an action: a slash command, its button and
its form count against one limit, so the Hint button is no way around `/hint`'s.

discord.py's own cooldown scans every key it holds on each call, which under load (thousands
of players active within the window) cost more of the event loop than the games themselves;
here the keys are kept in order of last use, so expired ones are dropped from the front.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands

from bot.i18n import _, format_number


class Limit:
    """At most ``rate`` actions per ``per`` seconds for each key (a player's id)."""

    def __init__(self, rate: int, per: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.per, self.clock = rate, per, clock
        self.buckets: OrderedDict[int, app_commands.Cooldown] = OrderedDict()

    def retry_after(self, key: int) -> float | None:
        """Count one action for ``key``: None if allowed, else the seconds to wait."""
        now = self.clock()
        while self.buckets:  # the least recently used first: drop those past their window
            oldest = next(iter(self.buckets.values()))
            if now <= oldest._last + self.per:
                break
            self.buckets.popitem(last=False)
        bucket = self.buckets.pop(key, None) or app_commands.Cooldown(self.rate, self.per)
        self.buckets[key] = bucket  # now the most recently used
        return bucket.update_rate_limit(now)


def slow_down(wait: float) -> str:
    return _("Slow down: try again in {seconds} s.").format(seconds=format_number(wait))


def play_limit(interaction: discord.Interaction[Any]) -> Limit:
    """The bot's limit on playing and asking for hints: five actions in ten seconds, whichever
    way they come (each bot has its own, made on first use)."""
    client = interaction.client
    limit: Limit | None = getattr(client, "play_limit", None)
    if limit is None:
        limit = client.play_limit = Limit(5, 10.0)
    return limit


def play_wait(interaction: discord.Interaction[Any]) -> float | None:
    """Count one action of the player: None if allowed, else the seconds to wait."""
    return play_limit(interaction).retry_after(interaction.user.id)


def _within_play_limit(interaction: discord.Interaction[Any]) -> bool:
    wait = play_wait(interaction)
    if wait is not None:
        bucket = play_limit(interaction).buckets[interaction.user.id]
        raise app_commands.CommandOnCooldown(bucket, wait)
    return True


# The limit as a slash command check (its refusal: CommandOnCooldown, answered privately).
PLAY = app_commands.check(_within_play_limit)
