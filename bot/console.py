"""The offline console: the bot's commands at a terminal, through the same services and the
same SQLite file. Scriptable: when standard input is not a terminal it reads one command a
line, so tests and shell scripts can drive it.

What it offers, grouped by what a player wants to do, is ``/help``
(:mod:`bot.render.help`, the same list Discord's ``/help`` shows, less what needs Discord).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import getpass
import io
import os
import sys
import tempfile
import threading
from collections.abc import Awaitable, Callable, Iterator
from datetime import date
from pathlib import Path

from bot.commands import COMMANDS, Caller, Picture, Reply, guides
from bot.commands.stats import next_pages
from bot.console_options import (
    Option,
    OptionError,
    Options,
    Syntax,
    command_path,
    model_syntax,
    parse_options,
    player_named,
    typed_options,
)
from bot.console_together import CONSOLE_PLACE, TogetherCommands
from bot.i18n import N_, _, current_locale, negotiate, set_locale, use_locale
from bot.render.guide import guide_text
from bot.render.letters import capital, capitals
from bot.render.palette import STANDARD, palette_named
from bot.render.text import (
    board_rows,
    digest_text,
    finished_definition,
    keyboard,
    plain,
    share_text,
    squares_of,
    status_line,
    title,
)
from bot.services import DM, GameView, Player, Services, open_services
from bot.services.games import BUSY
from bot.services.stats import METRICS
from bot.settings import Settings
from bot.storage import StorageBusy
from engine.shares import ALL_SQUARES
from engine.shares.clones import CLONE_GAMES

ANSI = {"2": "\x1b[1;97;42m", "1": "\x1b[1;97;43m", "0": "\x1b[1;97;100m"}
ANSI_HIGH_CONTRAST = {**ANSI, "2": "\x1b[1;97;48;5;208m", "1": "\x1b[1;97;48;5;75m"}
RESET = "\x1b[0m"
KEY_ANSI = {0: "", 1: "\x1b[90m", 2: "\x1b[33m", 3: "\x1b[32m"}

Reader = Callable[[str], Awaitable[str | None]]
SAVED = N_("Your games are saved: come back with wordlebot console.")
NOT_TEXT = N_("That line is not UTF-8 text, so it was not read: set your terminal to UTF-8 "
              "and type it again.")  # fmt: skip
SQUARES = ALL_SQUARES | {chr(0x30 + d) + "\ufe0f\u20e3" for d in range(10)}  # every game's
_NOTHING_YET = "\x00"  # no line arrived in time (a line never holds NUL: it is stripped)
CLONE_NAMES = tuple(c.title.lower() for c in CLONE_GAMES.values())  # headers of other languages'
MAX_LINE = 4000  # characters read from one line; the rest is dropped unread


def console_player() -> Player:
    """The person at the terminal: a stable id from their login name."""
    return player_named(getpass.getuser())


class Console(TogetherCommands):
    """``locale``: the language asked for at the start (``--locale``); a player's own choice
    (/settings me language) wins while that player is at the keyboard."""

    def __init__(self, services: Services, player: Player, write: Callable[[str], None],
                 colour: bool, locale: str | None = None) -> None:  # fmt: skip
        self.services, self.player, self.write, self.colour = services, player, write, colour
        self.locale = negotiate(locale)  # the console's language when a player has none
        self.shown: int | None = None  # the game whose board was printed last
        self.palette = STANDARD  # the player's colours (/colours), read when they sit down
        self.race_id: int | None = None  # the race made here last
        self._pushed: list[str | None] = []  # lines read ahead, to be handled next
        self._pending: asyncio.Task[str | None] | None = None

    async def run(self, read: Reader) -> None:
        """Take commands until /quit or the end of input, in the player's language (set for
        this task: :func:`run_console` gives it its own context)."""
        await self.sit_down()
        self.write(_("wordlebot console. Type /help for commands, /quit to leave."))
        while True:
            line = await self._next(read, "> ")
            if line is None:
                self.write("")  # Ctrl-D: end the prompt's line
                self.write(_(SAVED))
                return
            line = line.replace("\x00", "").strip()[:MAX_LINE]
            if not _is_text(line):
                self.write("  " + _(NOT_TEXT))
                continue
            if not line:
                continue
            if line.lower() in {"/quit", "/exit", "quit", "exit"}:
                return
            if line.lower().startswith("/analyze"):  # a share pasted over several lines
                line = "\n".join([line, *await self._share_lines(read)])
            await self.handle(line)

    async def _next(self, read: Reader, prompt: str, wait: float | None = None) -> str | None:
        """The next line (one pushed back first); with ``wait``, ``_NOTHING_YET`` when none
        comes in time (the read goes on and its line is handled next)."""
        if self._pushed:
            return self._pushed.pop()
        if self._pending is None:
            self._pending = asyncio.ensure_future(read(prompt))
        if wait is not None:
            done, _pending = await asyncio.wait({self._pending}, timeout=wait)
            if not done:
                return _NOTHING_YET
        line, self._pending = await self._pending, None
        return line

    async def _share_lines(self, read: Reader) -> list[str]:
        """The lines that follow an /analyze and belong to the pasted share: pasted text
        arrives at once, so a pause ends it, and so does a line no share holds (a command,
        a guess). Blank lines stay in: a share has them between its header, its grid and
        its link."""
        lines: list[str] = []
        blanks = 0
        while blanks <= 2:
            line = await self._next(read, "", wait=0.3)
            if line is _NOTHING_YET:
                break
            if line is None or (line.strip() and not _share_line(line)):
                self._pushed.append(line)  # not part of the share: handled next
                break
            if line.strip():
                lines.append(line.strip()[:MAX_LINE])
                blanks = 0
            else:
                blanks += 1  # a share has blank lines between its header and its grid
        return lines

    async def handle(self, line: str) -> None:
        """One line: a bare word is a guess; a command's options are read by
        :func:`bot.console_options.parse_options`, by name or by position (see SYNTAX)."""
        if not line.startswith("/"):
            await self.first_guide()
            return await self.guess(line)
        command, rest = [*line.split(None, 1), ""][:2]  # a paste may start on the next line
        command = command.lower()
        syntax = SYNTAX.get(command)
        if syntax is None:
            self.write(_("Unknown command {command}. Type /help.").format(command=command[:20]))
            return
        try:
            options = parse_options(command, syntax, rest)
        except OptionError as exc:
            self.write(f"  {exc}")
            return
        try:
            path = command_path(command, options)
            if command != "/as" and guides(path):  # handing the keyboard over is no use
                await self.first_guide()
            if path in COMMANDS:
                await self.perform(path, options)
            else:
                await self.run_command(command, options)
        except OptionError as exc:
            self.write(f"  {exc}")
        except StorageBusy:  # the database did not answer in time: nothing was changed
            self.write(_(BUSY))

    async def first_guide(self) -> None:
        """Before the reply to a player's first command ever (in any process, on Discord
        too): the first-game guide, once (bot/services/guide.py decides)."""
        try:
            first = await self.services.guide.first_use(self.player)
        except StorageBusy:  # a later command guides
            return
        if first:
            self.write(guide_text("console", self.palette))
            self.write("")

    async def perform(self, path: str, options: Options) -> None:
        """Run a command of the shared model (:mod:`bot.commands`) and show its reply."""
        spec = COMMANDS[path]
        caller = self.caller()
        await self.reply(await spec.run(self.services, caller, **typed_options(spec, options)))

    def caller(self) -> Caller:
        """The player at the keyboard, in the console's one server and channel, where they
        hold every permission (they run it)."""
        return Caller(self.player, DM, place=CONSOLE_PLACE, front="console", shown=self.shown,
                      guild_id=CONSOLE_PLACE, manages_server=True, manages_messages=True,
                      locale=current_locale())  # fmt: skip

    async def sit_down(self) -> None:
        """The player at the keyboard (at the start, after /as): their colours, and their
        language (their /settings me language, else the console's)."""
        storage = self.services.storage
        self.palette = palette_named(await storage.palette(self.player.id))
        set_locale(await storage.player_locale(self.player.id) or self.locale)

    async def reply(self, reply: Reply) -> None:
        """A command's reply as lines of text: its words, its board, its pictures (written
        to files), then what only its player may see."""
        if reply.text:
            self.write(("  " if reply.refused else "") + plain(reply.text))
        if reply.picks:  # several games, none shown yet: say how to show the one meant
            commands = ", ".join(f"{title(g)}: {_start_command(g)}" for g in reply.picks)
            self.write("  " + _("Show the game you mean first. {commands}")
                       .format(commands=commands))  # fmt: skip
        if "race" in reply.extra:  # a race's message (Discord's, with its buttons)
            self.write_race(reply.extra["race"])
        if "coop" in reply.extra:  # the shared board (Discord's message, with Guess)
            self.show_coop(reply.extra["coop"])
        if reply.game is not None:
            self.show(reply.game)
        for picture in reply.pictures:
            self.write(_("Picture: {path}").format(path=saved(picture)))
        if reply.secret:
            self.write(plain(reply.secret))
        if reply.earned:  # to the player alone (Discord: a private follow-up)
            self.write(plain(reply.earned))
        if reply.announcement:  # the console's server announces achievements
            self.write(plain(reply.announcement))
        if "document" in reply.extra:  # a file in Discord: printed whole, as it is
            self.write(reply.extra["document"][1])
        if "palette" in reply.extra:  # the player's colours, from the next board on
            self.palette = palette_named(reply.extra["palette"])
        if "locale" in reply.extra:  # the player's language (none: the console's), from now
            set_locale(reply.extra["locale"] or self.locale)
        if reply.extra.get("deleted"):  # the player's games and settings are gone
            self.shown, self.palette = None, STANDARD
        if "pages" in reply.extra and next_pages(reply.extra["pages"]):  # Discord's buttons
            self.write(next_pages(reply.extra["pages"]))
        if reply.game is not None:
            await self.raced(reply.game)

    async def run_command(self, command: str, o: Options) -> None:
        """The handler of each command in :data:`SYNTAX`, given its options."""
        words = _words(o)
        handlers: dict[str, Callable[[], Awaitable[None]]] = {
            "/digest": lambda: self.digest(words("day")),
            "/as": lambda: self.play_as(o.get("name")),
            "/cg": lambda: self.coop_guess(o.get("word")),
            "/join": self.join,
            "/start": self.start_race,
            "/play": lambda: self.play(words("id")),
        }
        handler = handlers.get(command)
        usage = SYNTAX[command].usage
        if handler is None and SYNTAX[command].subcommands and usage is not None:
            self.write(f"  {usage()}")  # a group without its subcommand
            return
        if handler is None:  # a command whose options are known but not its handler here
            self.write(_("Unknown command {command}. Type /help.").format(command=command[:20]))
            return
        await handler()

    async def play_as(self, name: str) -> None:
        """Another local player takes the keyboard (races and co-op at one terminal)."""
        name = " ".join(name.split())[:32]
        if not name:
            self.write(_("Usage: /as NAME"))
            return
        self.player, self.shown = player_named(name), None
        await self.sit_down()
        self.write(_("You are {name} now.").format(name=name))

    async def guess(self, text: str) -> None:
        """A bare word: a guess in the game shown last."""
        await self.perform("guess", Options({"word": text}))

    async def digest(self, args: list[str]) -> None:
        """The digest the bot would post for a day (the latest one due by default), of the
        games played here."""
        digests = self.services.digests
        try:
            day = date.fromisoformat(args[0]) if args else digests.due_day(None)
        except ValueError:
            self.write(
                _("Not a date: {day}. Use /digest YYYY-MM-DD.").format(day=repr(args[0][:20]))
            )
            return
        problem = digests.day_problem(day, None)
        if problem is not None:
            self.write(f"  {problem}")
            return
        self.write(digest_text(await digests.digest(DM, day)).replace("**", ""))

    def show(self, game: GameView) -> None:
        self.shown = game.game_id  # what a bare word, /giveup or /hint now goes to
        self.write(title(game))
        if game.boards is not None:
            for line in board_rows(game, palette=self.palette):
                self.write("  " + line.replace("`", ""))
        for guess, digits in [] if game.boards is not None else game.rows:
            self.write("  " + self.tiles(guess, digits))
        self.write("  " + status_line(game, spoiler=False))
        if meaning := finished_definition(game, spoiler=False):
            self.write("  " + meaning)
        if game.over:
            self.write(share_text(game, self.palette))
        else:
            self.write("  " + self.keys(game))

    def tiles(self, guess: str, digits: str) -> str:
        if not self.colour:
            return f"{squares_of(digits, self.palette)} {capitals(guess)}"
        ansi = ANSI_HIGH_CONTRAST if self.palette.high_contrast else ANSI
        return "".join(
            f"{ansi[d]} {capital(ch)} {RESET}" for ch, d in zip(guess, digits, strict=True)
        )

    def keys(self, game: GameView) -> str:
        """Unused A, absent a (lower case), present A?, correct A!: marks, not colour alone
        (in colour too, the key's colour comes on top)."""
        marks = {0: "{}", 1: "{}", 2: "{}?", 3: "{}!"}
        colour = KEY_ANSI if self.colour else dict.fromkeys(KEY_ANSI, "")
        reset = RESET if self.colour else ""
        return "  ".join(
            " ".join(f"{colour[s]}{marks[s].format(k if s == 1 else capital(k))}{reset}"
                     for k, s in row)
            for row in keyboard(game)
        )  # fmt: skip


async def run_console(settings: Settings, read: Reader | None = None,
                      write: Callable[[str], None] = print, locale: str | None = None
                      ) -> None:  # fmt: skip
    """Open the database from the settings and take commands until /quit or end of input,
    in ``locale`` (``--locale``: a shipped language's tag, nearest match; English by default)
    unless the player chose theirs. Ctrl-C leaves at once: every accepted guess is already
    stored."""
    interactive = read is None and sys.stdin.isatty()
    reader = read or (_prompt if interactive else _lines)
    if read is None and isinstance(sys.stdin, io.TextIOWrapper):  # the process's own stdin:
        sys.stdin.reconfigure(errors="surrogateescape")  # bytes not UTF-8 come as surrogates
    services = await open_services(settings)
    editing = _line_editing() if interactive else contextlib.nullcontext()
    web_server = None
    with editing, use_locale(locale):  # the language goes back as it was at the end
        try:
            if settings.web_port is not None:  # the pages too (aiohttp imported only then)
                from bot.web.server import WebServer

                web_server = WebServer(services, settings)
                await web_server.start()
                write(await _web_line(services))
            console = Console(services, console_player(), write,
                              colour=interactive and sys.stdout.isatty(),
                              locale=locale)  # fmt: skip
            await console.run(reader)
        except asyncio.CancelledError:  # Ctrl-C: asyncio.run cancels us, then raises it
            write("")
            write(_(SAVED))
            raise
        finally:
            if web_server is not None:
                await web_server.stop()
            await services.close()


async def _web_line(services: Services) -> str:
    """Where the console's own server's page is (or how to give it one)."""
    page = await services.web.page_of(CONSOLE_PLACE)
    if page is None:
        return _("Web pages are served at {link}; /settings server web:on gives this "
                 "console's server a page.").format(link=services.web.base_url)  # fmt: skip
    return _("This console's server's page: {link}").format(link=services.web.link(page.slug))


@contextlib.contextmanager
def _line_editing() -> Iterator[None]:
    """Arrows, history (this session's) and the rest of readline's keys at the prompt,
    where the platform has the module: once imported, ``input()`` reads through it. The
    terminal's modes are put back at the end, as readline changes them while it reads and
    Ctrl-C leaves while it still reads (the terminal would no longer echo)."""
    try:
        import readline  # noqa: F401
        import termios
    except ImportError:  # Windows, or Python built without it: plain lines, as before
        yield
        return
    modes = termios.tcgetattr(sys.stdin.fileno())
    try:
        yield
    finally:
        termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, modes)


def _in_daemon_thread(function: Callable[[], str | None]) -> Awaitable[str | None]:
    """Run a blocking read in a daemon thread: Ctrl-C must not wait for Enter, which it
    would with asyncio.to_thread (the interpreter joins that pool's threads at exit)."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[str | None] = loop.create_future()

    def work() -> None:
        try:
            result: str | None = function()
        except EOFError:
            result = None
        except BaseException as exc:  # handed to the waiting coroutine
            loop.call_soon_threadsafe(_settle, future, None, exc)
            return
        loop.call_soon_threadsafe(_settle, future, result, None)

    threading.Thread(target=work, daemon=True).start()
    return future


def _settle(future: asyncio.Future[str | None], result: str | None,
            error: BaseException | None) -> None:  # fmt: skip
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


async def _prompt(prompt: str) -> str | None:
    return await _in_daemon_thread(lambda: input(prompt))


async def _lines(prompt: str) -> str | None:
    line = await _in_daemon_thread(sys.stdin.readline)
    return line if line else None


def _is_text(line: str) -> bool:
    """Whether a line was UTF-8 (the reader turns other bytes into lone surrogates)."""
    return not any("\ud800" <= ch <= "\udfff" for ch in line)


def _share_line(line: str) -> bool:
    """Whether a line can belong to a pasted share: squares, a header or the game's link;
    never a command (``/leaderboard game:primel`` names a game but is no header) nor a line
    that is not text."""
    text = line.strip()
    lowered = text.lower()
    if text.startswith("/") or not _is_text(text):
        return False
    return (
        any(square in text for square in SQUARES)
        or any(name in lowered for name in ("wordle", "primel", "ordle", "absurdle", *CLONE_NAMES))
        or "http" in lowered
        or ".com" in lowered
    )


def _words(o: Options) -> Callable[..., list[str]]:
    """The values of the options named, in that order, as the positional form gives them."""
    return lambda *names: [o.get(name) for name in names if name in o]


def _not(*values: str) -> Callable[[str], bool]:
    return lambda word: word.lower() not in values and not word.isdigit()


NONE = Syntax()
# Every command's options, by Discord's names where Discord has the command, in the order
# the positional form takes them. One list for the parser and the handlers.
_MODEL = model_syntax()
SYNTAX: dict[str, Syntax] = {
    **_MODEL,
    # Discord's /digest channel and /digest off, and the console's own /digest [DAY].
    "/digest": dataclasses.replace(
        _MODEL["/digest"],
        options=(Option("day"),),
        usage=lambda: _(
            "/digest takes channel or off, or a day (YYYY-MM-DD) to show its digest here"
        ),
    ),
    "/as": Syntax(text="name"),
    "/cg": Syntax(text="word"),  # the shared board's Guess
    "/join": NONE,  # a race lobby's Join (Play once it runs)
    "/start": NONE,  # a race lobby's Start
    "/play": Syntax((Option("id"),)),  # a challenge's Play
}


def saved(picture: Picture) -> Path:
    """Where a reply's picture is on disk: its own file, or a new file of its own in the
    temporary folder, which only its user may read: two people at one machine, or two
    pictures of one name, never write over each other."""
    if picture.path is not None:
        return picture.path
    name = Path(picture.filename)
    handle, path = tempfile.mkstemp(prefix=f"wordlebot-{name.stem}-", suffix=name.suffix)
    with os.fdopen(handle, "wb") as file:
        file.write(picture.data or b"")
    return Path(path)


def _start_command(game: GameView) -> str:
    variant, flavour = game.kind.split(":")
    if variant in ("wordle", "primel"):
        return f"/{variant} {flavour}"
    return f"/{variant}{' challenge' if flavour == 'challenge' else ''}"


__all__ = ["METRICS", "Console", "console_player", "run_console"]
