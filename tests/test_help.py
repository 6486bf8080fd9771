"""/help in Discord and in the console: one list (bot.render.help) by what a player wants to
do, one line a command, naming every command either front end has."""

import re

import pytest
from discord_double import DiscordDouble
from hypothesis import given
from hypothesis import strategies as st

from bot.console import SYNTAX, Console
from bot.discord_bot import WordleBot
from bot.i18n import use_locale
from bot.render.help import SECTIONS, help_text
from bot.services import Player, open_services
from bot.settings import load_settings
from cogs.replies import pieces

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
    assert all(m.ephemeral and len(m.text) <= 2000 for m in sent)  # messages Discord takes
    assert "\n".join(m.text for m in sent) == text
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


@pytest.mark.parametrize(
    ("locale", "discord_locale"),
    [("es", "es-ES"), ("fr", "fr"), ("de", "de"), ("it", "it"), ("pl", "pl"), ("pt_BR", "pt-BR")],
)
async def test_a_translated_help_longer_than_a_message_comes_whole_in_several(
    locale: str, discord_locale: str
) -> None:
    bot = WordleBot(load_settings(database_path=":memory:", daily_seed=SEED), warm_engine=False)
    try:
        await bot._async_setup_hook()
        await bot.setup_hook()
        double = DiscordDouble(bot)
        double.locale = discord_locale
        sent = await double.command("help", user_id=1)
    finally:
        await bot.close()
    with use_locale(locale):
        text = help_text("discord")
    assert len(text) > 2000  # the case this is for: one message would not hold it
    assert len(sent) == 2 and all(m.ephemeral and len(m.text) <= 2000 for m in sent)
    assert "\n".join(m.text for m in sent) == text


@given(st.lists(st.text(st.characters(blacklist_characters="\n"), max_size=70), max_size=200))
def test_a_long_text_is_cut_between_lines_into_messages(lines: list[str]) -> None:
    text = "\n".join(lines)
    cut = pieces(text, limit=100)
    assert all(len(piece) <= 100 for piece in cut)
    assert "\n".join(cut) == text


def test_each_entry_is_one_short_line_under_a_title_of_what_a_player_wants() -> None:
    for front in ("discord", "console"):
        assert all(len(line) <= 80 for line in help_text(front).splitlines()), front
    for section in SECTIONS:
        assert section.entries and section.title[0].isupper()
        for entry in section.entries:
            assert entry.usage.startswith(("/", "Apps > ")) and "\n" not in entry.line
