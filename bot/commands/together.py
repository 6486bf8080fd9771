"""Playing together in a server channel: races (/race, /raceboard), one shared board for the
channel (/coop start, /coop board, /coop end) and a word of your own for others
(/challenge).

These commands post a public message with buttons in Discord (a race's lobby and
scoreboard, the shared board, a challenge's Play). Their replies carry that message's data
in ``Reply.extra`` (``"race"``: a :class:`~bot.services.races.RaceBoard`, ``"coop"``: a
:class:`~bot.services.coop.CoopView`, ``"challenge"``: a
:class:`~bot.services.challenges.ChallengeBoard`); the cogs build the message and its buttons
from it, the console prints it. What the buttons do is here too (:func:`join_race`,
:func:`start_race`, :func:`play_race`, :func:`coop_guess`, :func:`play_challenge`): a button
in Discord and the console's command that stands for it (``/join``, ``/start``, ``/cg``,
``/play``) run the same function.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Protocol

from bot.commands.games import LANGUAGE, LENGTH, board_reply, chosen_game
from bot.commands.model import Caller, Param, Reply, UserId, command
from bot.i18n import N_, _
from bot.render.text import coop_standings_text, race_standings_text
from bot.services import Outcome, Player, Services
from bot.services.challenges import GAMES as CHALLENGE_GAMES
from bot.services.challenges import MAX_GUESSES, NOT_FOUND
from bot.services.coop import GAMES as COOP_GAMES
from bot.services.coop import NO_GAME as NO_COOP
from bot.services.coop import CoopOutcome
from bot.services.races import NEED_CHANNEL, RACE_GAMES, RaceOutcome

RACE_OVER = N_("That race is over")
NO_MANAGE = N_("You need the Manage Messages permission to end a co-op game.")
COOP_NEEDS_CHANNEL = N_("Co-op games are a channel's: use /coop in a server")
CHALLENGE_NEEDS_CHANNEL = N_("Challenges need a channel: use /challenge in a server")


class _Named(Protocol):
    @property
    def player_id(self) -> int: ...

    @property
    def name(self) -> str: ...


def _names(caller: Caller) -> Callable[[_Named], str]:
    """How a player is shown: a mention in Discord (the bot pings nobody: its messages allow
    no mentions), the name at the console."""
    if caller.front == "discord":
        return lambda p: f"<@{p.player_id}>"
    return lambda p: p.name


def _channel(caller: Caller) -> tuple[int, int] | None:
    """The server and channel the command runs in, if it runs in one."""
    if caller.guild_id is None or caller.place is None:
        return None
    return caller.guild_id, caller.place


def _private_board(outcome: Outcome) -> Reply:
    """A player's own board of a race or a challenge, for them alone (its note, such as
    "here is your game in progress", is not said: the board is the answer)."""
    reply = board_reply(outcome)
    return reply if reply.refused else replace(reply, text="", private=True)


# -- races ----------------------------------------------------------------------------------


def _race_reply(outcome: RaceOutcome, refusal: str, note: str = "") -> Reply:
    """The race's message (``extra["race"]``) and a note, or the refusal (``refusal``: a
    marked message, said when the service gave none)."""
    if not outcome.ok or outcome.board is None:
        return Reply.refuse(outcome.message or _(refusal))
    return Reply(note or outcome.message or "", extra={"race": outcome.board})


@command("race", Param("game", choices=RACE_GAMES), Param("mode", choices=("normal", "hard")),
         LANGUAGE, LENGTH)  # fmt: skip
async def race(services: Services, caller: Caller, game: str = "wordle", mode: str = "normal",
               language: str | None = None, length: int | None = None) -> Reply:  # fmt: skip
    """A race's lobby in this channel, its host in it (Discord: the lobby's message, with
    Join and Start)."""
    here = _channel(caller)
    if here is None:
        return Reply.refuse(_(NEED_CHANNEL))
    game_or_refusal = await chosen_game(services, caller, game, language, length)
    if isinstance(game_or_refusal, Reply):
        return game_or_refusal
    game = game_or_refusal
    outcome = await services.races.create(caller.player, *here, game, mode)
    note = (_("Other players: /as NAME, then /join; the host (you) /start")
            if caller.front == "console" else "")  # fmt: skip
    return _race_reply(outcome, NEED_CHANNEL, note)


async def join_race(services: Services, caller: Caller, race_id: int) -> Reply:
    """A lobby's Join: the player is in (a private note), the lobby shows them."""
    outcome = await services.races.join(race_id, caller.player)
    return _race_reply(outcome, RACE_OVER, outcome.message or _("You're in"))


async def start_race(services: Services, caller: Caller, race_id: int) -> Reply:
    """A lobby's Start (its host's): the race runs. The host's board comes next
    (:func:`play_race`), the others press Play."""
    return _race_reply(await services.races.start(race_id, caller.player), RACE_OVER)


async def play_race(services: Services, caller: Caller, race_id: int) -> Reply:
    """A running race's Play: the player's own board, privately."""
    return _private_board(await services.races.play(race_id, caller.player, caller.place))


@command("raceboard")
async def raceboard(services: Services, caller: Caller) -> Reply:
    if caller.guild_id is None:
        return Reply.refuse(_("Races are kept by server: use /raceboard in one"))
    standings = await services.races.standings(caller.guild_id)
    return Reply(race_standings_text(standings, _names(caller)))


# -- co-op ----------------------------------------------------------------------------------


def _coop_reply(outcome: CoopOutcome) -> Reply:
    """The shared board (``extra["coop"]``), a note above it, or the refusal."""
    if not outcome.ok or outcome.coop is None:
        return Reply.refuse(outcome.message or _(NO_COOP))
    return Reply(outcome.message or "", extra={"coop": outcome.coop})


@command("coop start", Param("game", choices=COOP_GAMES), LANGUAGE, LENGTH)
async def coop_start(services: Services, caller: Caller, game: str = "wordle",
                     language: str | None = None, length: int | None = None) -> Reply:  # fmt: skip
    """The channel's shared board: a new one, or the one going (Discord: the board's message,
    with its Guess button)."""
    here = _channel(caller)
    if here is None:
        return Reply.refuse(_(COOP_NEEDS_CHANNEL))
    game_or_refusal = await chosen_game(services, caller, game, language, length)
    if isinstance(game_or_refusal, Reply):
        return game_or_refusal
    game = game_or_refusal
    return _coop_reply(await services.coop.start(*here, game))


@command("coop board")
async def coop_board(services: Services, caller: Caller) -> Reply:
    if caller.guild_id is None:
        return Reply.refuse(_(COOP_NEEDS_CHANNEL))
    standings = await services.coop.standings(caller.guild_id)
    heading = _("Co-op points")
    return Reply(f"**{heading}**\n{coop_standings_text(standings, _names(caller))}")


@command("coop end")
async def coop_end(services: Services, caller: Caller) -> Reply:
    """A moderator ends the channel's game: its answer is shown, nobody scores."""
    if caller.place is None:
        return Reply.refuse(_(COOP_NEEDS_CHANNEL))
    if not caller.manages_messages:
        return Reply.refuse(_(NO_MANAGE))
    return _coop_reply(await services.coop.end(caller.place))


async def coop_guess(services: Services, caller: Caller, coop_id: int, word: str) -> Reply:
    """A guess on a shared board (Discord: its Guess button's form)."""
    return _coop_reply(await services.coop.guess(caller.player, coop_id, word.strip()))


async def coop_guess_here(services: Services, caller: Caller, word: str) -> Reply:
    """A guess on the shared board of the caller's channel (the console's ``/cg``)."""
    current = None if caller.place is None else await services.coop.current(caller.place)
    if current is None or current.coop is None:
        return Reply.refuse(_(NO_COOP))
    return await coop_guess(services, caller, current.coop.coop_id, word)


# -- challenges -----------------------------------------------------------------------------


@command(
    "challenge",
    Param("word", required=True),
    Param("player", UserId, positional=False),
    Param("guesses", int),
    Param("game", choices=CHALLENGE_GAMES),
    LANGUAGE,
    LENGTH,
    usage=lambda: _(
        "/challenge takes word, then guesses (1 to {most}), game ({games}) and player:NAME "
        "(one player only), e.g. /challenge cigar 4; another player (/as NAME) plays it with "
        "/play ID"
    ).format(most=MAX_GUESSES, games=", ".join(CHALLENGE_GAMES)),
)
async def challenge(services: Services, caller: Caller, word: str, player: UserId | None = None,
                    guesses: int = 6, game: str = "wordle", language: str | None = None,
                    length: int | None = None) -> Reply:  # fmt: skip
    """A word of the caller's for others to play privately (Discord: the challenge's
    message, with its Play button, pinging ``player`` if named). Its language is the one
    asked for, else the server's or the setter's; its length, the word's own."""
    here = _channel(caller)
    if here is None:
        return Reply.refuse(_(CHALLENGE_NEEDS_CHANNEL))
    if game == "wordle" and length is None:
        length = len(word.strip()) if 4 <= len(word.strip()) <= 11 else None
    game_or_refusal = await chosen_game(services, caller, game, language, length)
    if isinstance(game_or_refusal, Reply):
        return game_or_refusal
    game = game_or_refusal
    target = None if player is None else Player(int(player), player.name)
    created = await services.challenges.create(caller.player, *here, word, game=game,
                                               guesses=guesses, target=target)  # fmt: skip
    if created.challenge is None:
        return Reply.refuse(created.message or _("No challenge was made"))
    board = await services.challenges.board(created.challenge)
    number = created.challenge.id
    if caller.front != "console":
        return Reply(extra={"challenge": board})
    return Reply(_("Challenge {number} made: another player (/as NAME) plays it with /play "
                   "{number}; /play {number} shows you their results").format(number=number),
                 extra={"challenge": board})  # fmt: skip


async def play_challenge(services: Services, caller: Caller, challenge_id: int) -> Reply:
    """A challenge's Play: the player's own board, privately."""
    outcome = await services.challenges.play(caller.player, challenge_id, caller.place)
    if not outcome.ok and not outcome.message:
        return Reply.refuse(_(NOT_FOUND))
    return _private_board(outcome)
