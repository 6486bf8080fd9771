"""The command model both front ends share: who is asking (:class:`Caller`), a command's
options (:class:`Param`), the command itself (:class:`Command`) and what it answers
(:class:`Reply`), all plain data.

A command is declared once, in a module of this package, with the options Discord shows
(the cogs declare the same names with discord.py's types; ``tests/test_command_model.py``
walks the tree and holds the two together). Its handler calls the services and returns a
:class:`Reply`; the cogs turn that into a Discord answer (``cogs/replies.py``), the console
into lines of text (``bot/console.py``). Each message is therefore written once, here or in
the services and renderers below.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from bot.services import GameView, Player

if TYPE_CHECKING:
    from bot.services import Services

Front = Literal["discord", "console", "web", "activity"]


@dataclass(frozen=True)
class Caller:
    """Who runs a command, and where."""

    player: Player
    scope: int  # where games are kept and counted: a server, a private channel, or DM
    place: int | None = None  # the channel the answer is seen in
    front: Front = "discord"
    shown: int | None = None  # the game a bare command goes to (the console's last board)
    guild_id: int | None = None  # the server, when the command runs in one
    manages_server: bool = False  # holds Manage Server there (admins' commands)
    manages_messages: bool = False  # holds Manage Messages there (moderators' commands)
    locale: str = ""  # the player's language as Discord names it (es-ES, pt-BR), if known


@dataclass(frozen=True)
class Picture:
    """An image to attach: PNG bytes, or a file on disk, described in words."""

    filename: str
    description: str
    data: bytes | None = None
    path: Path | None = None


@dataclass(frozen=True)
class Reply:
    """What a command answers, for any front end to show.

    ``text`` is Markdown (the console strips the marks). ``game`` is a board to show with
    its buttons, ``text`` then being a note on it. ``secret`` is said to the player alone
    after the rest (the answer after giving up). ``picks`` are the games a player may have
    meant when none was named: the front end asks which, and ``pick`` says what to do with
    the one picked (an action and its word).
    """

    text: str = ""
    private: bool = False
    game: GameView | None = None
    secret: str = ""
    picks: tuple[GameView, ...] = ()
    pick: tuple[str, str] = ("", "")
    pictures: tuple[Picture, ...] = ()
    ended: bool = False  # this command ended ``game`` (a race's scoreboard follows that)
    refused: bool = False  # ``text`` says why nothing was done
    # Achievements this command earned its player: ``earned`` is said to them alone after
    # the rest; ``announcement`` in the channel, where its server announces them.
    earned: str = ""
    announcement: str = ""
    # Data one front end knows how to show. "rolled_back": refused, the game shown as stored
    # (a board's button edits the board, then says ``text`` privately).
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def refuse(cls, text: str, picks: tuple[GameView, ...] = (),
               pick: tuple[str, str] = ("", "")) -> Reply:  # fmt: skip
        """A refusal: seen by the person who caused it alone."""
        return cls(text, private=True, picks=picks, pick=pick, refused=True)


class ChannelId(int):
    """An option naming a channel (Discord's channel option; the console has one channel)."""


class RoleId(int):
    """An option naming a role (Discord's role option; the console has none)."""


class UserId(int):
    """An option naming a user (Discord's user option; the console names a local player),
    with the name to call them by."""

    name: str

    def __new__(cls, user_id: int, name: str = "") -> UserId:
        user = super().__new__(cls, user_id)
        user.name = name
        return user


Kind = type[str] | type[int] | type[bool] | type[ChannelId] | type[RoleId] | type[UserId]
# Discord's option type for each kind (its API's ApplicationCommandOptionType).
OPTION_TYPES: dict[Kind, int] = {str: 3, int: 4, bool: 5, UserId: 6, ChannelId: 7, RoleId: 8}


@dataclass(frozen=True)
class Param:
    """One option of a command, by Discord's name. ``choices`` are its values where Discord
    offers a list; ``takes`` says which words the console's positional form gives it
    (``positional=False``: only ``name:value``); ``text`` takes the rest of the line."""

    name: str
    kind: Kind = str
    choices: tuple[str, ...] = ()
    required: bool = False
    positional: bool = True
    takes: Callable[[str], bool] | None = None
    flag: tuple[str, str | None] | None = None  # a yes/no option's words without its name
    text: bool = False


Handler = Callable[..., Awaitable[Reply]]
# A usage line, written when it is said (in the reader's language): ``lambda: _("...")``.
Usage = Callable[[], str]


@dataclass(frozen=True)
class Command:
    """A slash command (or subcommand) by its path, e.g. ``"wordle daily"``."""

    path: str
    run: Handler  # (services, caller, **options) -> Reply
    params: tuple[Param, ...] = ()
    usage: Usage | None = None  # said when the console cannot read a line of it
    console_name: str = ""  # another name the console knows it by (e.g. "/export")
    # A first use of the bot through it earns the first-game guide (bot/services/guide.py);
    # not a deletion of the player's data, which would keep a mark of them.
    guides: bool = True


def guides(path: str) -> bool:
    """Whether a first use through the command at ``path`` (or any name the model does not
    know: the console's own commands) is followed by the first-game guide."""
    spec = COMMANDS.get(path)
    return spec is None or spec.guides


COMMANDS: dict[str, Command] = {}


def command(path: str, *params: Param, usage: Usage | None = None, console_name: str = "",
            guides: bool = True) -> Callable[[Handler], Handler]:  # fmt: skip
    """Register the decorated handler as the command at ``path``."""

    def register(run: Handler) -> Handler:
        if path in COMMANDS:
            raise ValueError(f"command {path!r} is declared twice")
        COMMANDS[path] = Command(path, run, params, usage, console_name, guides)
        return run

    return register


async def run_command(services: Services, caller: Caller, path: str, **options: Any) -> Reply:
    """Run the command at ``path`` with its options (values of their Python types)."""
    return await COMMANDS[path].run(services, caller, **options)
