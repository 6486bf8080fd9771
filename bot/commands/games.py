"""Playing: start a game of any kind, guess, give up, and ask for a hint."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from bot.commands.model import Caller, Param, Reply, command
from bot.i18n import _
from bot.render.achievements import announcement_text, earned_text
from bot.render.text import hint_text, multi_hint_text
from bot.services import Outcome, Services
from bot.services.archive import play_archive
from bot.services.games import NO_GAME
from bot.services.kinds import (
    DAILY_GAMES,
    DEFAULT_LANGUAGE,
    LANGUAGES,
    NotShipped,
    kind_for,
    word_language,
)
from bot.storage import StorageBusy
from engine.rules import Mode

MODES = tuple(m.value for m in Mode)
MODE = Param("mode", choices=MODES)
LANGUAGE = Param("language", choices=tuple(LANGUAGES), positional=False)
LENGTH = Param("length", int, positional=False)
PRIVATE_KINDS = (":race", ":custom")  # a board its player alone may see


def board_reply(outcome: Outcome, *, answer_privately: bool = False,
                pick: tuple[str, str] = ("", "")) -> Reply:  # fmt: skip
    """A game's outcome as a reply: its board, or a refusal (with the games the player
    may have meant). A note that reveals an answer (giving up) never goes on the board:
    with ``answer_privately`` it is said to the player alone."""
    rolled_back = outcome.rolled_back  # refused, with the game as stored: shown
    game = outcome.game
    if game is None or (not outcome.ok and outcome.message and not rolled_back):
        return Reply.refuse(outcome.message or _(NO_GAME), outcome.choices, pick)
    note = outcome.message if outcome.message and not game.over else ""
    secret = outcome.message if answer_privately and outcome.ok and game.over else ""
    return Reply(note or "", private=game.kind.endswith(PRIVATE_KINDS), game=game,
                 secret=secret or "", ended=outcome.ok and game.over, refused=not outcome.ok,
                 extra={"rolled_back": True} if rolled_back else {})  # fmt: skip


async def start(services: Services, caller: Caller, variant: str, *, daily: bool = False,
                mode: str = "normal", challenge: bool = False) -> Reply:  # fmt: skip
    outcome = await services.games.start(
        caller.player, caller.scope, variant, daily=daily, mode=Mode(mode),
        challenge=challenge, place=caller.place,
    )  # fmt: skip
    return board_reply(outcome)


async def archive(services: Services, caller: Caller, variant: str, *, number: int | None,
                  date: str | None, mode: str) -> Reply:  # fmt: skip
    outcome = await play_archive(
        services.games, caller.player, caller.scope, variant, number=number, day=date,
        mode=Mode(mode), place=caller.place,
    )  # fmt: skip
    return board_reply(outcome)


async def game_in(services: Services, caller: Caller, game: str, language: str | None,
                  length: int | None) -> str:  # fmt: skip
    """The game to play: Wordle in the language and length asked for, else the server's,
    else the player's own language where the lists hold it, else English; five letters where
    the language has them. Raises :class:`NotShipped` for what the lists do not hold."""
    if game == "wordle" and language is None:
        guild = caller.guild_id
        settings = await services.storage.guild_settings(guild) if guild else None
        language = (getattr(settings, "language", None) or word_language(caller.locale)
                    or DEFAULT_LANGUAGE)  # fmt: skip
        if length is None and settings is not None:
            length = getattr(settings, "word_length", None)
    return kind_for(game, language, length)


async def chosen_game(services: Services, caller: Caller, game: str, language: str | None,
                      length: int | None) -> str | Reply:  # fmt: skip
    """:func:`game_in`, or the refusal that says what the lists hold."""
    try:
        return await game_in(services, caller, game, language, length)
    except NotShipped as exc:
        return Reply.refuse(str(exc))


def _archive_number(word: str) -> bool:
    return re.fullmatch(r"#?-?[0-9]{1,30}", word) is not None


def _daily_family(game: str) -> None:
    """``/wordle daily|practice|archive``, ``/primel ...``: one set of handlers a game.
    Wordle takes a language and a length."""
    words = (LANGUAGE, LENGTH) if game == "wordle" else ()

    async def play(services: Services, caller: Caller, language: str | None,
                   length: int | None, **how: Any) -> Reply:  # fmt: skip
        kind = await chosen_game(services, caller, game, language, length)
        if isinstance(kind, Reply):
            return kind
        if "number" in how:
            return await archive(services, caller, kind, **how)
        return await start(services, caller, kind, **how)

    @command(f"{game} daily", MODE, *words)
    async def daily(services: Services, caller: Caller, mode: str = "normal",
                    language: str | None = None, length: int | None = None) -> Reply:  # fmt: skip
        return await play(services, caller, language, length, daily=True, mode=mode)

    @command(f"{game} practice", MODE, *words)
    async def practice(services: Services, caller: Caller, mode: str = "normal",
                       language: str | None = None, length: int | None = None
                       ) -> Reply:  # fmt: skip
        return await play(services, caller, language, length, mode=mode)

    @command(
        f"{game} archive",
        Param("number", int, takes=_archive_number),
        Param("date", takes=lambda w: w.lower() not in MODES),
        MODE,
        *words,
        usage=lambda: _(
            "/{game} archive takes a puzzle number or a date (YYYY-MM-DD), then a mode: "
            "{modes} (e.g. /{game} archive 1000)"
        ).format(game=game, modes=", ".join(MODES)),
    )
    async def past(services: Services, caller: Caller, number: int | None = None,
                   date: str | None = None, mode: str = "normal", language: str | None = None,
                   length: int | None = None) -> Reply:  # fmt: skip
        return await play(services, caller, language, length, number=number, date=date,
                          mode=mode)  # fmt: skip


for _game in DAILY_GAMES:
    _daily_family(_game)


@command("absurdle", Param("challenge", bool, flag=("challenge", None)), MODE)
async def absurdle(services: Services, caller: Caller, challenge: bool = False,
                   mode: str = "normal") -> Reply:  # fmt: skip
    return await start(services, caller, "absurdle", mode=mode, challenge=challenge)


def _boards(name: str) -> None:
    @command(name, MODE)
    async def multi(services: Services, caller: Caller, mode: str = "normal") -> Reply:
        return await start(services, caller, name, mode=mode)


for _name in ("dordle", "quordle", "octordle"):
    _boards(_name)


async def with_achievements(services: Services, caller: Caller, outcome: Outcome,
                            reply: Reply) -> Reply:  # fmt: skip
    """``reply`` with the achievements ``outcome`` earned: told to the player privately, and
    in the channel too where the server announces them (``/settings server achievements``);
    the game's scope is no guide there: a DM has no server, so it stays private."""
    if not outcome.earned:
        return reply
    announcement = ""
    if caller.guild_id is not None:
        try:
            public = await services.storage.achievements.public(caller.guild_id)
        except StorageBusy:  # the move is saved: the announcement alone is lost
            public = False
        if public:
            who = caller.player.name if caller.front == "console" else f"<@{caller.player.id}>"
            announcement = announcement_text(who, outcome.earned)
    return dataclasses.replace(reply, earned=earned_text(outcome.earned),
                               announcement=announcement)  # fmt: skip


@command("guess", Param("word", required=True, text=True))
async def guess(services: Services, caller: Caller, word: str) -> Reply:
    outcome = await services.games.guess(
        caller.player, caller.scope, word.strip(), game_id=caller.shown, place=caller.place
    )
    reply = board_reply(outcome, pick=("guess", word.strip().lower()))
    return await with_achievements(services, caller, outcome, reply)


@command("giveup")
async def giveup(services: Services, caller: Caller) -> Reply:
    outcome = await services.games.give_up(
        caller.player, caller.scope, game_id=caller.shown, place=caller.place
    )
    reply = board_reply(outcome, answer_privately=True, pick=("giveup", ""))
    return await with_achievements(services, caller, outcome, reply)


@command("hint", Param("history", text=True))
async def hint(services: Services, caller: Caller, history: str | None = None) -> Reply:
    """Private help: for the game in progress, or a history typed from elsewhere."""
    games = services.games
    if history and history.strip():
        outcome = await games.hint_history(caller.player, history, scope=caller.scope)
    else:
        outcome = await games.hint(
            caller.player, caller.scope, game_id=caller.shown, place=caller.place
        )
    if outcome.multi is not None:
        return Reply(multi_hint_text(outcome.multi), private=True)
    if outcome.hint is None:
        return Reply.refuse(outcome.message or _(NO_GAME))
    return Reply(hint_text(outcome.hint), private=True)
