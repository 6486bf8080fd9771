"""One command model for both front ends: every slash command of the bot's tree is declared
once in ``bot.commands`` with Discord's options, and every one of them runs in the console.

The tree is the real one (every cog loaded, as ``wordlebot run`` loads them); the console is
the real one on a real SQLite file. Message menus ("Analyze Wordle result") are Discord's
alone: the console's ``/analyze`` reads the same pastes.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.commands import COMMANDS, OPTION_TYPES
from bot.console import Console
from bot.discord_bot import WordleBot
from bot.services import Player, open_services
from bot.settings import load_settings
from tests.test_console import script

SEED = "7a1c5e9b3d2f4a6c8e0b1d3f5a7c9e2b-model"
SUBCOMMAND, GROUP = 1, 2
# A value for each required option, as a player would type it at the console.
SAMPLES = {"word": "crane", "confirm": "DELETE", "game": "wordle", "puzzle": "1"}


@pytest.fixture
async def tree_payload() -> list[dict[str, Any]]:
    bot = WordleBot(load_settings(database_path=":memory:", daily_seed=SEED), warm_engine=False)
    try:
        await bot._async_setup_hook()
        await bot.setup_hook()
        return [command.to_dict(bot.tree) for command in bot.tree.get_commands()]
    finally:
        await bot.close()


def leaves(payload: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Every slash command and subcommand by its path, with its options."""
    found: dict[str, list[dict[str, Any]]] = {}

    def walk(path: str, options: list[dict[str, Any]]) -> None:
        subs = [o for o in options if o["type"] in (SUBCOMMAND, GROUP)]
        if not subs:
            found[path] = options
        for sub in subs:
            walk(f"{path} {sub['name']}", sub.get("options") or [])

    for command in payload:
        if command.get("type", 1) == 1:  # chat input; menus are Discord's alone
            walk(command["name"], command.get("options") or [])
    return found


def test_every_slash_command_is_declared_once_with_discords_options(tree_payload) -> None:
    tree = leaves(tree_payload)
    assert sorted(tree) == sorted(COMMANDS)  # none missing on either side
    for path, options in tree.items():
        declared = {p.name: p for p in COMMANDS[path].params}
        assert sorted(o["name"] for o in options) == sorted(declared), path
        for option in options:
            param = declared[option["name"]]
            where = f"/{path} {option['name']}"
            assert option["type"] == OPTION_TYPES[param.kind], where
            assert bool(option.get("required")) == param.required, where
            choices = [str(c["value"]) for c in option.get("choices") or []]
            if choices or param.choices:
                assert sorted(choices) == sorted(param.choices), where


def console_line(path: str) -> str:
    """The command with a value for each required option, in ``name:value`` form."""
    values = [f"{p.name}:{SAMPLES.get(p.name, '1')}" for p in COMMANDS[path].params if p.required]
    return " ".join([f"/{path}", *values])


async def test_every_command_runs_in_the_console(tmp_path, tree_payload) -> None:
    settings = load_settings(database_path=str(tmp_path / "all.sqlite3"), daily_seed=SEED)
    services = await open_services(settings)
    try:
        for path in sorted(leaves(tree_payload)):
            shown: list[str] = []
            console = Console(services, Player(9, "ada"), shown.append, colour=False)
            line = console_line(path)
            await console.run(script(line))
            said = "\n".join(shown[1:-1])  # between the greeting and the goodbye
            assert said.strip(), line
            for failure in ("Unknown command", "is not understood", "Traceback", "Usage:"):
                assert failure not in said, f"{line}: {said}"
    finally:
        await services.close()
