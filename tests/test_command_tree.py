"""The whole command tree, as `wordlebot sync` publishes it, against Discord's documented
limits (docs.discord.com, Interactions > Application Commands: "Application Command Naming",
the command and option structures, "Registering a Command"), and where each command may be
used (contexts) and installed (integration types).

The payloads are what ``tree.sync`` sends (``Tree.sync_payload``: discord.py's translated
payload, every name and description with its localisations from bot/locales), from the real
bot with every cog loaded, never connected. Discord refuses the whole tree over one bad
localised name, and discord.py checks none: every localisation is held to the rules of the
field it translates."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest

from bot.discord_bot import WordleBot
from bot.settings import load_settings

CHAT_INPUT, USER, MESSAGE = 1, 2, 3  # command types
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2  # option types
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2  # interaction context types
GUILD_INSTALL, USER_INSTALL = 0, 1  # integration types
GLOBAL_CHAT_INPUT, GLOBAL_MENUS = 100, 5  # per type (discord.py counts menus against 5)
TOTAL_CHARACTERS = 4000  # names, descriptions and choice values of a command, all counted
# The Discord locales we translate into (bot.i18n.LOCALES, in Discord's spelling).
TRANSLATED = {"es-ES", "es-419", "pt-BR", "fr", "de", "it", "pl"}

# Where each command is offered. Anywhere: a player's own games, hints, stats and data, in a
# server, in the bot's DMs and in other private channels (group DMs through a user install).
# Servers that installed the bot only: what a server sets up, or what edits or posts channel
# messages later (races, co-op, challenges, digests, reminders), which a bot that is not a
# member of the channel cannot do.
ANYWHERE = {
    "define",
    "wordle",
    "primel",
    "absurdle",
    "dordle",
    "quordle",
    "octordle",
    "guess",
    "giveup",
    "hint",
    "analyze",
    "coach",
    "stats",
    "streak",
    "leaderboard",
    "mydata",
    "settings",
    "hardmode",
    "help",
    "Analyze Wordle result",
}
SERVERS = {
    "sharechannel",
    "import",
    "resetboard",
    "digest",
    "liveboard",
    "remind",
    "missing",
    "race",
    "raceboard",
    "coop",
    "challenge",
    "Record results",
}


def name_problems(name: str, where: str) -> list[str]:
    """Discord's regex ``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, lower case
    where a letter has a lower case (Devanagari and Thai combining marks: none used here)."""
    problems = []
    if not 1 <= len(name) <= 32:
        problems.append(f"{where}: name {name!r} is not 1-32 characters")
    if any(ch not in "-_'" and unicodedata.category(ch)[0] not in "LN" for ch in name):
        problems.append(f"{where}: name {name!r} has a character Discord refuses")
    if name != name.lower():
        problems.append(f"{where}: name {name!r} is not lower case")
    return problems


def description_problems(description: str, where: str) -> list[str]:
    if not 1 <= len(description) <= 100:
        return [f"{where}: description is not 1-100 characters ({len(description)})"]
    if description.strip() in ("…", "...", "-"):  # discord.py's stand-in for a missing one
        return [f"{where}: no real description"]
    return []


def localised(item: dict[str, Any], field: str) -> dict[str, str]:
    """``field`` ("name", "description") in every language the payload gives it: the default
    under "", then each of ``<field>_localizations``."""
    return {"": item.get(field, ""), **(item.get(f"{field}_localizations") or {})}


def in_locale(items: list[dict[str, Any]], locale: str) -> list[str]:
    """The names a user of ``locale`` sees (the default where one has no localisation)."""
    return [localised(i, "name").get(locale, i["name"]) for i in items]


def repeats(items: list[dict[str, Any]], where: str) -> list[str]:
    """Names must be unique at one level in every locale, localisations included."""
    locales = {locale for i in items for locale in localised(i, "name")}
    return [f"{where}: names repeat [{locale or 'default'}]" for locale in sorted(locales)
            if len(set(in_locale(items, locale))) != len(items)]  # fmt: skip


def text_problems(item: dict[str, Any], where: str) -> list[str]:
    """The name and description of a command or option, in each locale."""
    problems = []
    for locale, name in localised(item, "name").items():
        problems += name_problems(name, f"{where} [{locale}]" if locale else where)
    for locale, description in localised(item, "description").items():
        problems += description_problems(description, f"{where} [{locale}]" if locale else where)
    return problems


def option_problems(options: list[dict[str, Any]], where: str, depth: int) -> list[str]:
    """Options at one level: at most 25, unique names, required before optional,
    subcommands never beside plain options, groups only at the top, 25 choices each."""
    problems = []
    if len(options) > 25:
        problems.append(f"{where}: {len(options)} options (at most 25)")
    problems += repeats(options, where)
    nested = [o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in options]
    if any(nested) and not all(nested):
        problems.append(f"{where}: subcommands mixed with options")
    required = [bool(o.get("required")) for o in options]
    if not any(nested) and required != sorted(required, reverse=True):
        problems.append(f"{where}: a required option after an optional one")
    for option in options:
        at = f"{where} {option['name']}"
        problems += text_problems(option, at)
        if option["type"] == SUB_COMMAND_GROUP and depth > 0:
            problems.append(f"{at}: a subcommand group below the top level")
        if option["type"] == SUB_COMMAND and depth > 1:
            problems.append(f"{at}: a subcommand nested too deep")
        choices = option.get("choices") or []
        if len(choices) > 25:
            problems.append(f"{at}: {len(choices)} choices (at most 25)")
        for choice in choices:
            for name in localised(choice, "name").values():
                if not 1 <= len(name) <= 100:
                    problems.append(f"{at}: choice name {name!r} not 1-100 characters")
            if isinstance(choice["value"], str) and not 1 <= len(choice["value"]) <= 100:
                problems.append(f"{at}: choice value {choice['value']!r} not 1-100 characters")
        if option["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP):
            problems += option_problems(option.get("options") or [], at, depth + 1)
    return problems


def longest(item: dict[str, Any], field: str) -> int:
    return max(len(text) for text in localised(item, field).values())


def characters(item: dict[str, Any]) -> int:
    """What counts toward a command's 4,000: names, descriptions, values, all the way down,
    each name and description by its longest localisation (Discord's rule)."""
    total = longest(item, "name") + longest(item, "description")
    total += sum(longest(c, "name") + len(str(c["value"])) for c in item.get("choices") or [])
    return total + sum(characters(o) for o in item.get("options") or [])


def tree_problems(commands: list[dict[str, Any]]) -> list[str]:
    """Everything in ``commands`` (the sync payload) that Discord would refuse."""
    problems = []
    chat = [c for c in commands if c.get("type", CHAT_INPUT) == CHAT_INPUT]
    if len(chat) > GLOBAL_CHAT_INPUT:
        problems.append(f"{len(chat)} chat-input commands (at most {GLOBAL_CHAT_INPUT})")
    for kind in (CHAT_INPUT, USER, MESSAGE):
        same = [c for c in commands if c.get("type", CHAT_INPUT) == kind]
        problems += repeats(same, f"commands of type {kind}")
        if kind != CHAT_INPUT and len(same) > GLOBAL_MENUS:
            problems.append(f"more than {GLOBAL_MENUS} menu commands of type {kind}")
    for command in commands:
        where = f"/{command['name']}"
        if command.get("type", CHAT_INPUT) != CHAT_INPUT:  # a menu: any case, spaces, no text
            names = localised(command, "name").values()
            if not all(1 <= len(name) <= 32 for name in names) or command.get("description"):
                problems.append(f"{where}: a menu's name is 1-32 characters, no description")
            continue
        problems += text_problems(command, where)
        problems += option_problems(command.get("options") or [], where, 0)
        if characters(command) > TOTAL_CHARACTERS:
            problems.append(f"{where}: {characters(command)} characters (at most 4000)")
    return problems


@pytest.fixture
async def tree_payload() -> list[dict[str, Any]]:
    bot = WordleBot(
        load_settings(database_path=":memory:", daily_seed="7a1c5e9b3d2f4a6c8e0b1d3f5a7c9e2b-tree"),
        warm_engine=False,
    )
    try:
        await bot._async_setup_hook()
        await bot.setup_hook()  # sets the translator, as before any sync
        return await bot.tree.sync_payload()
    finally:
        await bot.close()


async def test_every_command_is_within_discords_limits(tree_payload) -> None:
    assert tree_problems(tree_payload) == []
    assert len(tree_payload) > 20  # the whole tree, menus included, was read


def texts(item: dict[str, Any], where: str) -> list[tuple[str, dict[str, Any], str]]:
    """``(where, item, field)`` for every name and description of a command, choices too."""
    found = [(where, item, field) for field in ("name", "description") if item.get(field)]
    for choice in item.get("choices") or []:
        found.append((f"{where} ({choice['value']})", choice, "name"))
    for option in item.get("options") or []:
        found += texts(option, f"{where} {option['name']}")
    return found


async def test_every_name_and_description_is_translated(tree_payload) -> None:
    """Each shipped language localises the whole tree: a user with Discord in Spanish,
    Portuguese, French, German, Italian or Polish meets no English command. The translator
    leaves out a translation equal to the English (a game's name, "normal"), so Discord
    shows the default: only those may lack a localisation."""
    from bot.i18n import catalog_path, negotiate
    from bot.i18n.extract import read

    kept_as_is = {
        locale: {m.id for m in read(catalog_path(negotiate(locale))) if m.id and m.string == m.id}
        for locale in TRANSLATED
    }
    missing = [
        f"{where} {field} [{locale}]"
        for command in tree_payload
        for where, item, field in texts(command, "/" + command["name"])
        for locale in sorted(TRANSLATED - set(item.get(f"{field}_localizations") or {}))
        if item[field] not in kept_as_is[locale]
    ]
    assert missing == []
    spanish = {c["name"]: c.get("name_localizations") or {} for c in tree_payload}
    assert spanish["stats"]["es-ES"] == spanish["stats"]["es-419"] == "estadísticas"


async def test_no_picker_shows_an_ellipsis(tree_payload) -> None:
    """discord.py fills a missing description with "…": Discord shows that in the picker."""

    def blank(item: dict[str, Any], where: str) -> list[str]:
        here = [where] if item.get("description") == "…" else []
        return here + [
            b for o in item.get("options") or [] for b in blank(o, f"{where} {o['name']}")
        ]

    assert [b for c in tree_payload for b in blank(c, "/" + c["name"])] == []


def test_the_checks_catch_what_discord_refuses() -> None:
    """The validator itself: each rule refuses a command that breaks it."""
    option = {"name": "word", "description": "Your word", "type": 3, "required": True}
    good = {"name": "play", "description": "Play a game", "type": 1, "options": [option]}
    assert tree_problems([good]) == []
    bad = [
        {**good, "name": "Play"},
        {**good, "name": "a" * 33},
        {**good, "name": "play game"},
        {**good, "description": "…"},
        {**good, "description": "x" * 101},
        {**good, "options": [{**option, "name": f"o{i}"} for i in range(26)]},
        {**good, "options": [{**option, "required": False}, {**option, "name": "w2"}]},
        {
            **good,
            "options": [
                {**option, "choices": [{"name": str(i), "value": str(i)} for i in range(26)]}
            ],
        },
        {**good, "options": [option, {"name": "sub", "description": "A sub", "type": 1}]},
        {
            **good,
            "options": [
                {
                    "name": "g",
                    "description": "A group",
                    "type": 2,
                    "options": [{"name": "h", "description": "A group", "type": 2, "options": []}],
                }
            ],
        },
        {
            **good,
            "options": [
                {
                    **option,
                    "choices": [{"name": f"{i:>100}", "value": f"{i:>100}"} for i in range(20)],
                }
            ],
        },  # 4,000+ in all
    ]
    for command in bad:
        assert tree_problems([command]) != [], command
    assert tree_problems([{**good, "name": f"c{i}"} for i in range(101)]) != []
    menus = [{"name": f"Menu {i}", "description": "", "type": MESSAGE} for i in range(6)]
    assert tree_problems(menus) != [] and tree_problems(menus[:5]) == []


def test_the_checks_hold_every_localisation_to_discords_rules() -> None:
    """A localised name or description breaks the sync as surely as a default one: each rule
    refuses a command whose localisation breaks it, and the budget counts the longest."""
    option = {"name": "word", "description": "Your word", "type": 3, "required": True,
              "name_localizations": {"fr": "mot"}}  # fmt: skip
    good = {"name": "play", "description": "Play a game", "type": 1, "options": [option],
            "name_localizations": {"fr": "jouer"},
            "description_localizations": {"fr": "Jouer une partie"}}  # fmt: skip
    assert tree_problems([good]) == []
    other = {**option, "name": "letter", "name_localizations": {"fr": "lettre"}}
    bad = [
        {**good, "name_localizations": {"fr": "Jouer"}},
        {**good, "name_localizations": {"de": "ein spiel"}},
        {**good, "name_localizations": {"pl": "g" * 33}},
        {**good, "description_localizations": {"it": "x" * 101}},
        {**good, "options": [{**option, "name_localizations": {"es": "tu palabra"}}]},
        {**good, "options": [option, {**other, "name_localizations": {"fr": "mot"}}]},
        {**good, "options": [option, {**other, "name_localizations": {"es": "word"}}]},
        {**good, "options": [{**option, "choices": [
            {"name": "a", "value": "a", "name_localizations": {"de": "x" * 101}}]}]},
    ]  # fmt: skip
    for command in bad:
        assert tree_problems([command]) != [], command
    assert tree_problems([good, {**good, "name": "start"}]) != []  # both "jouer" in French
    menu = {"name": "Analyze", "type": MESSAGE, "name_localizations": {"fr": "Analyser"}}
    assert tree_problems([menu]) == []
    assert tree_problems([{**menu, "name_localizations": {"fr": "A" * 33}}]) != []
    # 20 choices of 100-character values: within 4,000 in English, past it in German.
    choices = [{"name": f"n{i}", "value": f"{i:>100}"} for i in range(20)]
    wide = [{**c, "name_localizations": {"de": "x" * 100}} for c in choices]
    assert tree_problems([{**good, "options": [{**option, "choices": choices}]}]) == []
    assert tree_problems([{**good, "options": [{**option, "choices": wide}]}]) != []


async def test_each_command_is_offered_where_it_works(tree_payload) -> None:
    offered = {
        c["name"]: (set(c.get("contexts") or ()), set(c.get("integration_types") or ()))
        for c in tree_payload
    }
    assert set(offered) <= ANYWHERE | SERVERS, set(offered) - ANYWHERE - SERVERS
    for name, (contexts, installs) in offered.items():
        if name in ANYWHERE:
            assert (contexts, installs) == (
                {GUILD, BOT_DM, PRIVATE_CHANNEL},
                {GUILD_INSTALL, USER_INSTALL},
            ), name
        else:
            assert (contexts, installs) == ({GUILD}, {GUILD_INSTALL}), name


async def test_stats_and_boards_offer_every_game_of_the_registry(tree_payload) -> None:
    """The games come from bot.services.kinds (as the console's do): none can be left out."""
    from bot.services.kinds import DAILY_GAMES, GAMES

    options = {c["name"]: {o["name"]: o for o in c.get("options") or []} for c in tree_payload}

    def offered(command: str) -> set[str]:
        return {choice["value"] for choice in options[command]["game"].get("choices") or []}

    every = {"wordle", "primel", "absurdle", "dordle", "quordle", "octordle"}
    assert offered("stats") == offered("leaderboard") == set(GAMES) == every
    assert offered("streak") == set(DAILY_GAMES) == {"wordle", "primel"}  # daily streaks
