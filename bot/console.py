"""The offline console: the bot's commands at a terminal, through the same services and the
same SQLite file. Scriptable: when standard input is not a terminal it reads one command a
line, so tests and shell scripts can drive it.

Commands (a bare word is a guess)::

    /wordle daily | /wordle practice [hard|strict]     /primel daily | /primel practice [hard]
    /absurdle [challenge] [hard]   /dordle | /quordle | /octordle [hard]
    /guess WORD   /giveup   /hint [HISTORY]   /stats [wordle|primel] [daily|practice]
    /streak   /leaderboard [METRIC] [PAGE]   /analyze PASTE   /coach   /export   /help   /quit
"""

from __future__ import annotations

import asyncio
import getpass
import sys
import zlib
from collections.abc import Awaitable, Callable

from bot.render.text import (
    analysis_text,
    board_rows,
    board_text,
    coaching_text,
    keyboard,
    share_text,
    stats_text,
    status_line,
    title,
)
from bot.services import DM, GameView, Player, Services, kind_of, open_services
from bot.services.analysis import analyze, coach_game, record_shares
from bot.services.kinds import KINDS
from bot.services.stats import METRICS, LeaderboardError
from bot.settings import Settings
from engine.history import HistoryError, parse_history
from engine.pattern import PatternError
from engine.rules import Mode
from engine.solver.hints import hint
from engine.solver.position import InconsistentHistory
from engine.variants import get_variant

HELP = __doc__.split("::", 1)[1].strip("\n") if __doc__ else ""
ANSI = {"2": "\x1b[1;97;42m", "1": "\x1b[1;97;43m", "0": "\x1b[1;97;100m"}
RESET = "\x1b[0m"
KEY_ANSI = {0: "", 1: "\x1b[90m", 2: "\x1b[33m", 3: "\x1b[32m"}

Reader = Callable[[str], Awaitable[str | None]]


def console_player() -> Player:
    """The person at the terminal: a stable id from their login name."""
    name = getpass.getuser()
    return Player(zlib.crc32(name.encode()) + 1, name)


class Console:
    def __init__(self, services: Services, player: Player, write: Callable[[str], None],
                 colour: bool) -> None:  # fmt: skip
        self.services, self.player, self.write, self.colour = services, player, write, colour

    async def run(self, read: Reader) -> None:
        self.write("wordlebot console. Type /help for commands, /quit to leave.")
        while True:
            line = await read("> ")
            if line is None:
                return
            line = line.strip()
            if not line:
                continue
            if line.lower() in {"/quit", "/exit", "quit", "exit"}:
                return
            await self.handle(line)

    async def handle(self, line: str) -> None:
        command, _, rest = line.partition(" ")
        command = command.lower()
        args = rest.split()
        if not command.startswith("/"):
            return await self.guess(line)
        handlers = {
            "/wordle": lambda: self.start("wordle", args),
            "/primel": lambda: self.start("primel", args),
            "/absurdle": lambda: self.start("absurdle", ["practice", *args]),
            "/dordle": lambda: self.start("dordle", ["practice", *args]),
            "/quordle": lambda: self.start("quordle", ["practice", *args]),
            "/octordle": lambda: self.start("octordle", ["practice", *args]),
            "/guess": lambda: self.guess(rest),
            "/giveup": self.give_up,
            "/hint": lambda: self.hint(rest),
            "/stats": lambda: self.stats(args),
            "/streak": lambda: self.stats(args, streak_only=True),
            "/leaderboard": lambda: self.leaderboard(args),
            "/export": self.export,
            "/analyze": lambda: self.analyze(rest),
            "/coach": self.coach,
            "/help": self.help,
        }
        handler = handlers.get(command)
        if handler is None:
            self.write(f"Unknown command {command[:20]}. Type /help.")
            return
        await handler()

    async def help(self) -> None:
        self.write(HELP)

    async def start(self, variant: str, args: list[str]) -> None:
        daily = bool(args) and args[0].lower() == "daily"
        mode = Mode.NORMAL
        for word in args[1:] if args else []:
            if word.lower() in {m.value for m in Mode}:
                mode = Mode(word.lower())
        challenge = "challenge" in (a.lower() for a in args)
        outcome = await self.services.games.start(
            self.player, DM, variant, daily=daily, mode=mode, challenge=challenge
        )
        if outcome.message:
            self.write(outcome.message)
        if outcome.game is not None:
            self.show(outcome.game)

    async def guess(self, text: str) -> None:
        outcome = await self.services.games.guess(self.player, DM, text.strip())
        if not outcome.ok:
            self.write(f"  {outcome.message}")
            return
        assert outcome.game is not None
        self.show(outcome.game)

    async def give_up(self) -> None:
        outcome = await self.services.games.give_up(self.player, DM)
        self.write(outcome.message or "")
        if outcome.game is not None and outcome.ok:
            self.show(outcome.game)

    async def hint(self, text: str) -> None:
        if text.strip():  # a history typed for a game played elsewhere
            variant = get_variant("wordle")
            try:
                rows = parse_history(text, variant)
                result = await asyncio.to_thread(hint, variant, rows)
            except (HistoryError, PatternError, InconsistentHistory) as exc:
                self.write(f"  {exc}")
                return
        else:
            outcome = await self.services.games.hint(self.player, DM)
            if outcome.multi is not None:
                for board, words in enumerate(outcome.multi.candidates, 1):
                    shown = ", ".join(w.upper() for w in words[:8]) or "solved"
                    self.write(f"Board {board}: {len(words)} possible: {shown}")
                self.write(f"Best guess for all boards: {outcome.multi.guess.upper()}")
                return
            if outcome.hint is None:
                self.write(f"  {outcome.message}")
                return
            result = outcome.hint
        shown = ", ".join(w.upper() for w in result.candidates[:12])
        more = f" and {result.remaining - 12} more" if result.remaining > 12 else ""
        self.write(f"{result.remaining} possible: {shown}{more}")
        for s in result.suggestions:
            finish = f", {s.expected_guesses:.2f} guesses to finish" if s.expected_guesses else ""
            self.write(f"  {s.guess.upper()}  {s.entropy:.2f} bits, {s.expected:.1f} left on "
                       f"average, worst {s.worst}{finish}")  # fmt: skip

    async def stats(self, args: list[str], *, streak_only: bool = False) -> None:
        variant = args[0].lower() if args else "wordle"
        daily = not (len(args) > 1 and args[1].lower() == "practice")
        if variant not in KINDS:
            self.write(f"Stats are kept for {', '.join(KINDS)}")
            return
        today = self.services.daily.today()
        stats = await self.services.stats.stats(self.player.id, kind_of(variant, daily), today)
        if streak_only:
            self.write(f"Current streak {stats.current_streak}, max streak {stats.max_streak}")
        else:
            self.write(stats_text(stats, self.player.name))

    async def leaderboard(self, args: list[str]) -> None:
        metric = args[0].lower() if args else "wins"
        page = int(args[1]) if len(args) > 1 and args[1].isdigit() else 1
        try:
            board = await self.services.stats.leaderboard(
                "wordle:daily", metric, page=page, today=self.services.daily.today()
            )
        except LeaderboardError as exc:
            self.write(str(exc))
            return
        self.write(board_text(board))

    async def analyze(self, text: str) -> None:
        text, _, words = text.partition(" words:")  # /analyze SHARE words: crane moist
        result = await analyze(text, words)
        self.write(analysis_text(result).replace("**", ""))
        if result.shares:
            notes = await record_shares(self.services.storage, self.player.id, self.player.name,
                                        result.shares)  # fmt: skip
            self.write("\n".join(notes))

    async def coach(self) -> None:
        stored = await self.services.storage.last_finished_game(self.player.id)
        report = None if stored is None else await coach_game(stored.state)
        if report is None:
            self.write("Finish a Wordle or Primel game first, then ask for coaching")
            return
        self.write(coaching_text(report))

    async def export(self) -> None:
        self.write(await self.services.export_player(self.player.id))

    def show(self, game: GameView) -> None:
        self.write(title(game))
        if game.boards is not None:
            for line in board_rows(game):
                self.write("  " + line.replace("`", ""))
        for guess, digits in [] if game.boards is not None else game.rows:
            self.write("  " + self.tiles(guess, digits))
        self.write("  " + status_line(game, spoiler=False))
        if game.over:
            self.write(share_text(game))
        else:
            self.write("  " + self.keys(game))

    def tiles(self, guess: str, digits: str) -> str:
        if not self.colour:
            squares = "".join({"2": "🟩", "1": "🟨", "0": "⬛"}[d] for d in digits)
            return f"{squares} {guess.upper()}"
        return "".join(
            f"{ANSI[d]} {ch.upper()} {RESET}" for ch, d in zip(guess, digits, strict=True)
        )

    def keys(self, game: GameView) -> str:
        rows = keyboard(game)
        if self.colour:
            return "  ".join(
                "".join(f"{KEY_ANSI[s]}{k.upper()}{RESET}" for k, s in row) for row in rows
            )
        # Plain text: unused A, absent a (lower case), present A?, correct A!
        marks = {0: "{}", 1: "{}", 2: "{}?", 3: "{}!"}
        return "  ".join(
            " ".join(marks[s].format(k if s == 1 else k.upper()) for k, s in row) for row in rows
        )


async def run_console(settings: Settings, read: Reader | None = None,
                      write: Callable[[str], None] = print) -> None:  # fmt: skip
    """Open the database from the settings and take commands until /quit or end of input."""
    interactive = read is None and sys.stdin.isatty()
    reader = read or (_prompt if interactive else _lines)
    services = await open_services(settings)
    try:
        console = Console(
            services, console_player(), write, colour=interactive and sys.stdout.isatty()
        )
        await console.run(reader)
    finally:
        await services.close()


async def _prompt(prompt: str) -> str | None:
    try:
        return await asyncio.to_thread(input, prompt)
    except EOFError:
        return None


async def _lines(_: str) -> str | None:
    line = sys.stdin.readline()
    return line if line else None


__all__ = ["METRICS", "Console", "console_player", "run_console"]
