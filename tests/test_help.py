"""/help in Discord and in the console: one list (bot.render.help) by what a player wants to
do, one line a command, naming every command either front end has."""

import re

from discord_double import DiscordDouble

from bot.console import SYNTAX, Console
from bot.discord_bot import WordleBot
from bot.render.help import SECTIONS, help_text
from bot.services import Player, open_services
from bot.settings import load_settings

SEED = "2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a1c-help"


async def test_discord_help_names_every_command_and_subcommand_of_the_tree() -> None:
    bot = WordleBot(load_settings(database_path=":memory:", daily_seed=SEED), warm_engine=False)
    try:
        await bot._async_setup_hook()
        await bot.setup_hook()
        payload = [command.to_dict(bot.tree) for command in bot.tree.get_commands()]
        sent = await DiscordDouble(bot).command("help", user_id=1)
    finally:
        await bot.close()
    text = help_text("discord")
    assert len(sent) == 1 and sent[0].ephemeral and sent[0].text == text
    assert len(text) <= 2000  # one message
    missing = []
    for command in payload:
        if command["type"] != 1:  # a message menu: under Apps
            missing += [] if f"Apps > {command['name']}" in text else [command["name"]]
            continue
        if command["name"] == "help":
            continue
        subs = [o["name"] for o in command.get("options", []) if o["type"] in (1, 2)]
        for name in [f"/{command['name']} {sub}" for sub in subs] or [f"/{command['name']}"]:
            if not re.search(rf"{re.escape(name)}\b", text):
                missing.append(name)
    assert missing == []


async def test_console_help_names_every_console_command() -> None:
    services = await open_services(load_settings(database_path=":memory:", daily_seed=SEED))
    shown: list[str] = []
    try:
        await services.storage.claim_guide(1, "ann")  # a returning player: /help alone
        await Console(services, Player(1, "ann"), shown.append, colour=False).handle("/help")
    finally:
        await services.close()
    text = "\n".join(shown)
    assert text == help_text("console")
    missing = [c for c in SYNTAX if not re.search(rf"{re.escape(c)}\b", text)]
    assert missing == []


def test_each_entry_is_one_short_line_under_a_title_of_what_a_player_wants() -> None:
    for front in ("discord", "console"):
        assert all(len(line) <= 80 for line in help_text(front).splitlines()), front
    for section in SECTIONS:
        assert section.entries and section.title[0].isupper()
        for entry in section.entries:
            assert entry.usage.startswith(("/", "Apps > ")) and "\n" not in entry.line
