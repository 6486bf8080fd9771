"""/help: the commands by what a player wants to do (:mod:`bot.render.help`), for the front
end that asks."""

from __future__ import annotations

from bot.commands.model import Caller, Reply, command
from bot.render.help import help_text
from bot.services import Services


@command("help")
async def help_(services: Services, caller: Caller) -> Reply:
    front = caller.front  # a page or the game window reads Discord's commands
    return Reply(help_text("console" if front == "console" else "discord"), private=True)


__all__ = ["help_"]
