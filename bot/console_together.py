"""The console's commands for playing together at one terminal: local players (``/as
NAME``) share a co-op board, race each other, and set each other challenges, through the same
services as the bot. :class:`bot.console.Console` takes them in."""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.render.text import (
    challenge_text,
    coop_rows,
    coop_standings_text,
    coop_status,
    race_text,
)
from bot.services import DM, GameView, Outcome, Player, Services
from bot.services.challenges import MAX_GUESSES
from bot.services.coop import GAMES as COOP_GAMES
from bot.services.coop import NO_GAME as NO_COOP
from bot.services.coop import CoopOutcome, CoopView
from bot.services.races import RACE_GAMES, RaceBoard

CONSOLE_PLACE = 1  # the console's server and channel for races (races need a channel)


class TogetherCommands:
    services: Services
    player: Player
    write: Callable[[str], None]
    race_id: int | None

    def show(self, game: GameView) -> None: ...  # the console's own

    def keys(self, game: GameView) -> str: ...

    def refused(self, outcome: Outcome) -> None: ...

    # -- co-op: local players (/as NAME) share one board in the console's place ----------

    async def coop(self, args: list[str]) -> None:
        """``/coop [GAME]`` starts (or shows) the shared board; ``/coop end`` ends it;
        ``/coop board`` shows the co-op points."""
        coop, word = self.services.coop, (args[0].lower() if args else "wordle")
        if len(args) > 1 or word not in (*COOP_GAMES, "end", "board"):
            self.write(f"  Usage: /coop [{'|'.join(COOP_GAMES)}] | /coop end | /coop board")
        elif word == "board":
            self.write("Co-op points\n" + coop_standings_text(await coop.standings(DM)))
        else:
            self.coop_shown(await (coop.end(DM) if word == "end" else coop.start(DM, DM, word)))

    async def coop_guess(self, text: str) -> None:
        """``/cg WORD``: guess in the shared board as the player at the keyboard."""
        current = await self.services.coop.current(DM)
        if current.coop is None:
            self.write(f"  {NO_COOP}")
            return
        self.coop_shown(await self.services.coop.guess(self.player, current.coop.coop_id,
                                                       text.strip()))  # fmt: skip

    def coop_shown(self, outcome: CoopOutcome) -> None:
        if outcome.message:
            self.write(f"  {outcome.message}")
        if outcome.ok and outcome.coop is not None:
            self.show_coop(outcome.coop)

    def show_coop(self, view: CoopView) -> None:
        self.write(f"{view.game.title} co-op")
        for line in coop_rows(view):
            self.write("  " + line.replace("`", ""))
        self.write("  " + coop_status(view))
        if not view.over:
            self.write("  " + self.keys(view.game))

    # -- challenges: a word of yours for the other local players ----------------------

    async def challenge(self, args: list[str]) -> None:
        """``/challenge WORD [GUESSES]``: a word of yours for the other local players (a
        number is a Primel challenge)."""
        if not 1 <= len(args) <= 2 or not re.fullmatch(r"[0-9]{1,2}", (args[1:] or ["6"])[0]):
            self.write(f"  Usage: /challenge WORD [GUESSES] (1 to {MAX_GUESSES}), then another "
                       "player (/as NAME) plays it with /play ID")  # fmt: skip
            return
        created = await self.services.challenges.create(
            self.player, DM, 0, args[0], game="primel" if args[0].isdigit() else "wordle",
            guesses=int((args[1:] or ["6"])[0]),
        )  # fmt: skip
        if created.challenge is None:
            self.write(f"  {created.message}")
            return
        number = created.challenge.id
        self.write(f"Challenge {number} made: another player (/as NAME) plays it with /play "
                   f"{number}; /play {number} shows you their results")  # fmt: skip

    async def play(self, args: list[str]) -> None:
        """``/play ID``: play a challenge (its setter sees the results instead)."""
        if len(args) != 1 or not re.fullmatch(r"[0-9]{1,12}", args[0]):
            self.write("  Usage: /play ID (the number /challenge gave)")
            return
        challenges = self.services.challenges
        challenge = await challenges.get(int(args[0]))
        if challenge is not None and challenge.setter_id == self.player.id:
            board = await challenges.board(challenge)
            names = {f.player_id: f.name for f in board.finishes} | {self.player.id: "you"}
            shown = challenge_text(board, lambda p: names.get(p, str(p))).replace("**", "")
            self.write("\n".join(x for x in shown.splitlines() if not x.startswith("Press")))
            return
        outcome = await challenges.play(self.player, int(args[0]))
        if not outcome.ok or outcome.game is None:
            self.refused(outcome)
            return
        self.show(outcome.game)

    # -- races: local players (/as NAME) race in the console's place --------------------

    async def race(self, args: list[str]) -> None:
        """``/race [GAME] [hard]``: a race here, with you in it."""
        if len(args) > 2 or any(a not in (*RACE_GAMES, "hard", "normal") for a in args):
            self.write(f"  Usage: /race [{'|'.join(RACE_GAMES)}] [hard]")
            return
        game = next((a for a in args if a in RACE_GAMES), "wordle")
        mode = "hard" if "hard" in args else "normal"
        created = await self.services.races.create(self.player, CONSOLE_PLACE, CONSOLE_PLACE,
                                                   game, mode)  # fmt: skip
        if not created.ok or created.board is None:  # a cooldown: it says when
            self.write(f"  {created.message}")
            return
        self.race_id = created.board.race.id
        self.write_race(created.board)
        self.write("Other players: /as NAME then /join; the host (you) /start")

    async def join(self) -> None:
        """``/join``: join the race here; once it has started, show your board."""
        if self.race_id is None:
            self.write("  No race here: /race starts one")
            return
        await self.race_clock()
        race = await self.services.storage.races.get(self.race_id)
        if race is not None and race.status != "lobby":
            return await self.race_board()
        outcome = await self.services.races.join(self.race_id, self.player)
        self.write(f"  {outcome.message}")
        if outcome.ok and outcome.board is not None:
            self.write_race(outcome.board)

    async def start_race(self) -> None:
        if self.race_id is None:
            self.write("  No race here: /race starts one")
            return
        outcome = await self.services.races.start(self.race_id, self.player)
        if not outcome.ok or outcome.board is None:
            self.write(f"  {outcome.message}")
            return
        self.write_race(outcome.board)
        await self.race_board()

    async def race_board(self) -> None:
        assert self.race_id is not None
        outcome = await self.services.races.play(self.race_id, self.player)
        if not outcome.ok or outcome.game is None:
            self.refused(outcome)
            return
        self.show(outcome.game)

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
        self.write(race_text(board).replace("**", ""))
