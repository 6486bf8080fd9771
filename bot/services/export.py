"""A player's data as they may see it: everything stored, except what would spoil a game.

A game still in progress is exported without its answer(s) or Absurdle target: otherwise
today's daily could be read from an export and then played for a perfect score. Finished
games are exported whole.
"""

from __future__ import annotations

from typing import Any

from bot.i18n import N_, _

HIDDEN = N_("hidden until the game ends")
# What each stored game keeps secret while it is being played (see the engine's to_dict).
SECRETS = ("answer", "answers", "target")


def public_game(game: dict[str, Any]) -> dict[str, Any]:
    """An exported game row, its secrets replaced while the game is in progress."""
    if game.get("status") != "playing" or not isinstance(game.get("state"), dict):
        return game
    hidden = _(HIDDEN)
    state = {key: hidden if key in SECRETS and value is not None else value
             for key, value in game["state"].items()}  # fmt: skip
    return {**game, "state": state}


def public_export(data: dict[str, Any]) -> dict[str, Any]:
    return {**data, "games": [public_game(g) for g in data.get("games", [])]}
