"""The console's side of playing together at one terminal: local players (``/as NAME``)
share a co-op board, race each other, and set each other challenges, in the console's one
server and channel (:data:`CONSOLE_PLACE`). The slash commands (``/race``, ``/raceboard``,
``/coop start|board|end``, ``/challenge``) run from :mod:`bot.commands.together` as in
Discord; the commands here stand for Discord's buttons and forms and call the same functions
they do: ``/join`` and ``/start`` a race lobby's Join and Start (``/join`` is Play once the
race runs), ``/cg WORD`` the shared board's Guess, ``/play ID`` a challenge's Play.
:class:`bot.console.Console` takes them in."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

from bot.commands import Caller, Reply
from bot.commands.together import (
    coop_guess_here,
    join_race,
    play_challenge,
    play_race,
    start_race,
)
from bot.i18n import N_, _
from bot.render.text import challenge_text, coop_rows, coop_status, plain, race_text
from bot.services import GameView, Services
from bot.services.coop import CoopView
from bot.services.races import RaceBoard

CONSOLE_PLACE = 1  # the console's server and channel (races, co-op and challenges need one)
NO_RACE_HERE = N_("No race here: /race starts one")


class TogetherCommands:
    # The console's own (bot.console.Console):
    services: Services
    write: Callable[[str], None]
    race_id: int | None
    caller: Callable[[], Caller]  # the player at the keyboard, in the console's place
    reply: Callable[[Reply], Awaitable[None]]  # a command's reply, printed
    keys: Callable[[GameView], str]  # a game's keyboard, as one line

    # -- co-op: local players (/as NAME) share one board in the console's place ----------

    async def coop_guess(self, text: str) -> None:
        """``/cg WORD``: guess on the shared board as the player at the keyboard."""
        await self.reply(await coop_guess_here(self.services, self.caller(), text))

    def show_coop(self, view: CoopView) -> None:
        self.write(_("{game} co-op").format(game=view.game.title))
        for line in coop_rows(view):
            self.write("  " + line.replace("`", ""))
        self.write("  " + coop_status(view))
        if not view.over:
            self.write("  " + self.keys(view.game))

    # -- challenges: a word of yours for the other local players ----------------------

    async def play(self, args: list[str]) -> None:
        """``/play ID``: play a challenge. Its setter sees its message instead (who played
        it, in colours only): the console has no channel to show it in."""
        if len(args) != 1 or not re.fullmatch(r"[0-9]{1,12}", args[0]):
            self.write("  " + _("Usage: /play ID (the number /challenge gave)"))
            return
        caller = self.caller()
        challenge = await self.services.challenges.get(int(args[0]))
        if challenge is not None and challenge.setter_id == caller.player.id:
            board = await self.services.challenges.board(challenge)
            names = {f.player_id: f.name for f in board.finishes} | {caller.player.id: _("you")}
            shown = plain(challenge_text(board, lambda p: names.get(p, str(p)))).splitlines()
            del shown[1:2]  # its second line says to press Play: the setter does not
            self.write("\n".join(shown))
            return
        await self.reply(await play_challenge(self.services, caller, int(args[0])))

    # -- races: local players (/as NAME) race in the console's place --------------------

    async def join(self) -> None:
        """``/join``: the lobby's Join; once the race runs, its Play (your board)."""
        if self.race_id is None:
            self.write("  " + _(NO_RACE_HERE))
            return
        await self.race_clock()
        race = await self.services.storage.races.get(self.race_id)
        if race is not None and race.status != "lobby":
            return await self.reply(await play_race(self.services, self.caller(), self.race_id))
        await self.reply(await join_race(self.services, self.caller(), self.race_id))

    async def start_race(self) -> None:
        """``/start``: the lobby's Start (the host's), then the host's board."""
        if self.race_id is None:
            self.write("  " + _(NO_RACE_HERE))
            return
        started = await start_race(self.services, self.caller(), self.race_id)
        await self.reply(started)
        if not started.refused:
            await self.reply(await play_race(self.services, self.caller(), self.race_id))

    async def raced(self, game: GameView) -> None:
        """After a guess: a race game that ended moves its race on (and the clock any)."""
        if game.over and game.kind.endswith(":race"):
            done = await self.services.races.game_over(game.game_id)
            if done.changed and done.board is not None:
                self.write_race(done.board)
        await self.race_clock()

    async def race_clock(self) -> None:
        """Start lobbies and end races whose time has come (the bot's loop does it there)."""
        for outcome in await self.services.races.run_due():
            if outcome.board is not None and outcome.board.race.id == self.race_id:
                self.write_race(outcome.board)

    def write_race(self, board: RaceBoard) -> None:
        """A race's message: the lobby, the live scoreboard, the podium."""
        self.race_id = board.race.id  # the race here: /join and /start go to it
        self.write(plain(race_text(board)))
