"""A user install: the bot used where it is not a member (a group DM; a server that did not
install it). Interactions come with ``context`` 2 (a private channel) and no guild, or with a
guild the bot was never given; the only authorising owner is the player. The bot cannot post
or edit a channel message there, so every answer must go through the interaction (callbacks
and webhook follow-ups): any request on the bot's own HTTP client fails these tests. Games
played there are kept under that place."""

from __future__ import annotations

from typing import Any

import pytest
from discord_double import DiscordDouble, message, user

from bot.commands.stats import NO_SERVER_BOARD
from bot.discord_bot import WordleBot
from bot.settings import load_settings

ANN, BOB = 111, 222
GROUP_DM = 930000000000000001  # a group DM of Ann and Bob: the bot is not in it
OTHER_GUILD, OTHER_CHANNEL = 930000000000000002, 930000000000000003  # never installed there
SEED = "u5er-1n5ta11-7a1c5e9b3d2f4a6c8e0b1d3f5a7c9e2b"


class NoChannelMessages:
    """The bot's own HTTP client (channel messages, edits): recorded, and refused."""

    def __init__(self, bot: WordleBot) -> None:
        self.requests: list[str] = []
        bot.http.request = self.request  # type: ignore[method-assign]

    async def request(self, route: Any, **_: Any) -> Any:
        self.requests.append(f"{route.method} {route.path}")
        raise AssertionError(f"a channel request where the bot is not a member: {route.path}")


# What Discord gives an app in a DM or group DM: Embed Links, Attach Files, Mention Everyone.
IN_A_DM = str(1 << 14 | 1 << 15 | 1 << 17)


def in_group_dm(payload: dict[str, Any], user_id: int) -> dict[str, Any]:
    """An interaction from the group DM, through Ann's or Bob's user install."""
    for key in ("guild_id", "member", "guild_locale"):
        payload.pop(key, None)
    payload.update({
        "user": user(user_id), "channel_id": str(GROUP_DM), "context": 2,
        "authorizing_integration_owners": {"1": str(user_id)}, "app_permissions": IN_A_DM,
        "channel": {"id": str(GROUP_DM), "type": 3, "name": "friends", "owner_id": str(ANN),
                    "recipients": [user(ANN), user(BOB)]},
    })  # fmt: skip
    return payload


def in_other_guild(payload: dict[str, Any], user_id: int) -> dict[str, Any]:
    """An interaction from a server that never installed the bot, through a user install."""
    payload.update({
        "guild_id": str(OTHER_GUILD), "channel_id": str(OTHER_CHANNEL), "context": 0,
        "authorizing_integration_owners": {"1": str(user_id)}, "app_permissions": "0",
        "channel": {"id": str(OTHER_CHANNEL), "type": 0, "name": "general",
                    "guild_id": str(OTHER_GUILD), "position": 0, "permission_overwrites": []},
    })  # fmt: skip
    return payload


@pytest.fixture
async def bot():
    settings = load_settings(database_path=":memory:", daily_seed=SEED)
    bot = WordleBot(settings, warm_engine=False)
    try:
        await bot._async_setup_hook()
        await bot.setup_hook()
        bot.services.games.choose_answer = {"wordle": "cigar", "primel": "99991"}.get
        yield bot
    finally:
        await bot.close()


def where(bot: WordleBot, place: Any) -> tuple[DiscordDouble, NoChannelMessages]:
    double = DiscordDouble(bot)
    base = double._base
    double._base = lambda kind, user_id, *rest: place(base(kind, user_id, *rest), user_id)
    return double, NoChannelMessages(bot)


def through_the_interaction(sent) -> bool:
    """Callbacks and the interaction's webhook (follow-ups, edits of its messages) only."""
    return all(s.path.startswith(("/interactions/", "/webhooks/")) for s in sent)


def only(sent):
    """The one answer to an interaction; an older board deleted beside it (one board per game
    in a channel) must go through its own interaction's webhook too."""
    assert through_the_interaction(sent), sent
    answers = [s for s in sent if s.method != "DELETE"]
    assert len(answers) == 1, sent
    return answers[0]


async def test_a_game_and_a_hint_in_a_group_dm_answer_through_the_interaction(bot) -> None:
    double, channel = where(bot, in_group_dm)
    board = only(await double.command("wordle", "practice", user_id=ANN))
    assert board.a_new_message and not board.ephemeral and board.files == ["board.png"]
    guess = next(i for i in board.custom_ids() if ":guess:" in i)
    modal = only(await double.click(guess, user_id=ANN, on=board))
    played = only(await double.submit(modal, {"word": "crane"}, user_id=ANN))
    assert modal.kind == 9 and played.an_update and "CRANE" in played.text
    hint = only(await double.command("hint", user_id=ANN))
    deferred = hint.deferral
    assert deferred.kind == 5 and hint.ephemeral and "CIGAR" in hint.text
    assert hint.path.startswith("/webhooks/")  # a follow-up, not a channel post
    won = only(await double.command("guess", user_id=ANN, word="cigar"))
    assert "Solved in 2/6!" in won.text
    [share_button] = won.custom_ids()  # a finished board: Share alone
    shared = only(await double.click(share_button, user_id=ANN, on=won))
    assert shared.ephemeral and shared.text == "Wordle practice 2/6\n\n🟩🟨🟨⬛⬛\n🟩🟩🟩🟩🟩"
    sent = [board, modal, played, deferred, hint, won, shared]
    assert through_the_interaction(sent) and channel.requests == []
    # Kept under the group DM: not Ann's games in the bot's DMs, nor anywhere else.
    storage = bot.services.storage
    game = await storage.game(int(guess.split(":")[-1]))
    assert game is not None and game.scope == GROUP_DM and game.status == "won"


async def test_games_in_a_group_dm_are_that_places_own(bot) -> None:
    double, channel = where(bot, in_group_dm)
    await double.command("wordle", "practice", user_id=ANN)
    group_dm, double._base = double._base, DiscordDouble._base.__get__(double)
    # The bot's own DMs: another place, another game.
    dm_board = only(await double.command("wordle", "practice", user_id=ANN, guild=False))
    assert "Guess 1 of 6" in dm_board.text and "already have a game" not in dm_board.text
    double._base = group_dm
    again = only(await double.command("wordle", "practice", user_id=ANN))
    assert again.text.startswith("You already have a game going")
    assert [g.scope for g in await bot.services.storage.active_games(ANN, GROUP_DM)] == [GROUP_DM]
    assert channel.requests == []


async def test_a_daily_in_a_group_dm_hides_its_letters_and_says_its_image_in_colours(bot) -> None:
    double, channel = where(bot, in_group_dm)
    only(await double.command("wordle", "daily", user_id=BOB))
    answer = bot.services.daily.answer("wordle", bot.services.daily.today())
    opener = "crane" if answer != "crane" else "slate"
    board = only(await double.command("guess", user_id=BOB, word=opener))
    assert f"||{opener.upper()}||" in board.text and not board.ephemeral
    [attachment] = board.data["attachments"]
    assert attachment["description"].startswith("Wordle board. Row 1: ")
    assert opener.upper() not in attachment["description"]
    assert through_the_interaction([board]) and channel.requests == []


async def test_the_message_menu_and_the_boards_that_need_a_server_in_a_group_dm(bot) -> None:
    double, channel = where(bot, in_group_dm)
    share = message(
        {"content": "Wordle 1,234 3/6\n\n⬛🟨⬛⬛⬛\n🟩🟩⬛🟩🟩\n🟩🟩🟩🟩🟩"}, author_id=BOB
    )
    share["channel_id"] = str(GROUP_DM)
    reading = only(await double.message_command("Analyze Wordle result", share, user_id=ANN))
    deferred = reading.deferral
    assert deferred.kind == 5 and reading.ephemeral and "Wordle #1234" in reading.text
    board = only(await double.command("leaderboard", user_id=ANN))
    assert board.text.startswith(NO_SERVER_BOARD) and "everyone" in board.text
    refused = only(await double.command("settings", "server", user_id=ANN, timezone="UTC"))
    assert refused.ephemeral and refused.text == "That works in a server, not in direct messages."
    assert through_the_interaction([deferred, reading, board, refused])
    assert channel.requests == []


async def test_high_contrast_set_in_a_group_dm_colours_that_players_boards(bot, monkeypatch):
    from cogs import common

    drawn: list[tuple[str, bool]] = []
    draw = common.images.board_png

    def board_png(game, *, letters=True, palette=common.STANDARD):
        drawn.append((palette.name, letters))
        return draw(game, letters=letters, palette=palette)

    monkeypatch.setattr(common.images, "board_png", board_png)
    double, channel = where(bot, in_group_dm)
    mine = only(await double.command("settings", "me", user_id=ANN, colours="high-contrast"))
    assert mine.ephemeral and "high-contrast 🟧🟦⬛" in mine.text
    board = only(await double.command("wordle", "practice", user_id=ANN))
    played = only(await double.command("guess", user_id=ANN, word="crane"))
    assert "🟧🟦🟦⬛⬛  `CRANE`" in played.text  # C right place, R and A elsewhere (CIGAR)
    theirs = only(await double.command("wordle", "practice", user_id=BOB))
    assert drawn == [("high-contrast", True)] * 2 + [("standard", True)]
    assert "🟩" not in played.text and theirs.a_new_message
    won = only(await double.command("guess", user_id=ANN, word="cigar"))
    shared = only(await double.click(won.custom_ids()[0], user_id=ANN, on=won))
    assert shared.text == "Wordle practice 2/6\n\n🟧🟦🟦⬛⬛\n🟧🟧🟧🟧🟧"
    refused = only(await double.click(won.custom_ids()[0], user_id=BOB, on=won))
    assert refused.ephemeral and "share your own" in refused.text
    back = only(await double.command("settings", "me", user_id=ANN, colours="standard"))
    assert "standard 🟩🟨⬛" in back.text
    assert through_the_interaction([mine, board, played, theirs, won, shared, refused, back])
    assert channel.requests == []


async def test_a_server_that_never_installed_the_bot_keeps_its_own_games(bot) -> None:
    double, channel = where(bot, in_other_guild)
    board = only(await double.command("wordle", "practice", user_id=ANN))
    assert board.a_new_message and "Guess 1 of 6" in board.text
    hint = only(await double.command("hint", user_id=ANN))
    deferred = hint.deferral
    assert deferred.kind == 5 and hint.ephemeral and "possible" in hint.text
    [game] = await bot.services.storage.active_games(ANN, OTHER_GUILD)
    assert game.scope == OTHER_GUILD
    assert through_the_interaction([board, deferred, hint]) and channel.requests == []


async def test_the_hard_mode_study_in_a_group_dm_with_its_chart_in_words(bot) -> None:
    double, channel = where(bot, in_group_dm)
    answer = only(await double.command("hardmode", user_id=BOB))
    assert answer.ephemeral and answer.files == ["hardmode-wordle.png"]
    [chart] = answer.data["attachments"]
    assert chart["description"].startswith("Wordle: each player's share of games by guesses")
    assert through_the_interaction([answer]) and channel.requests == []
