"""Every command of the bot, declared once for Discord and the console alike (see
:mod:`bot.commands.model`). Each family of commands is a module here; importing the package
registers them all in :data:`COMMANDS`."""

from __future__ import annotations

from importlib import import_module

from bot.commands.model import (
    COMMANDS,
    OPTION_TYPES,
    Caller,
    ChannelId,
    Command,
    Param,
    Picture,
    Reply,
    RoleId,
    UserId,
    command,
    guides,
    run_command,
)

FAMILIES = ("games", "stats", "help", "analysis", "admin", "digest", "reminders", "together",
            "define", "imports", "liveboard")  # fmt: skip
for _family in FAMILIES:
    import_module(f"bot.commands.{_family}")

__all__ = [
    "COMMANDS",
    "OPTION_TYPES",
    "Caller",
    "ChannelId",
    "Command",
    "Param",
    "Picture",
    "Reply",
    "RoleId",
    "UserId",
    "command",
    "guides",
    "run_command",
]
