"""/help: the commands by what a player wants to do (:mod:`bot.render.help`), for the front
end that asks."""

from __future__ import annotations

from bot.commands.model import Caller, Reply, command
from bot.render.help import help_text
from bot.services import Services


@command("help")
async def help_(services: Services, caller: Caller) -> Reply:
    front = caller.front  # a page never asks for /help: it reads as Discord's
    return Reply(help_text("discord" if front == "web" else front), private=True)


__all__ = ["help_"]
