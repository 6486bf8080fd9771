"""The console's options, read one way for every command: Discord's option names in
``name:value`` form (``/leaderboard metric:wins period:today game:primel``) beside the
console's own positional form (``/leaderboard wins today primel``), both giving the same
values, so both give the same output.

A command's :class:`Syntax` lists its options by Discord's names, in the order the
positional form takes them. A value without a name goes to the first option not yet given
that takes it (an option may pass a value on: a page number is no metric), so the
positional form reads as before. A yes/no option takes ``true``/``false`` by name and its
own words without one (``/stats quordle practice``). A command with subcommands takes the
subcommand first, as Discord does (``/mydata delete confirm:DELETE``). A free-text option
(a guess, a pasted share) takes the rest of the line as typed, up to the next option name.

Nothing is guessed: an unknown option name, an option given twice or a value no option
takes is refused with one line that says what the command takes.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.commands import COMMANDS, ChannelId, Command, Param, RoleId, UserId
from bot.commands.model import Usage
from bot.console_together import CONSOLE_PLACE
from bot.i18n import _, pgettext
from bot.services import Player

YES, NO = "true", "false"
_YES_WORDS = {"true", "yes", "on", "1"}
_NO_WORDS = {"false", "no", "off", "0"}
_NAMED = re.compile(r"([A-Za-z][A-Za-z_]*):(.*)", re.S)


def player_named(name: str) -> Player:
    """A local player: a stable id from the name (``/as`` your login name is you again; a
    user option, ``player:NAME``, names one)."""
    return Player(zlib.crc32(name.encode()) + 1, name)


class OptionError(ValueError):
    """A line the command cannot read, said in one line."""


def _any(word: str) -> bool:
    return True


@dataclass(frozen=True)
class Option:
    name: str  # Discord's option name
    takes: Callable[[str], bool] = _any  # which values it takes without its name
    positional: bool = True  # False: only as name:value
    flag: tuple[str, str | None] | None = None  # a yes/no option: its words for yes and no

    def positional_value(self, word: str) -> str | None:
        """The value ``word`` gives this option without its name, or None if not taken."""
        if self.flag is not None:
            yes, no = self.flag
            lowered = word.lower()
            return YES if lowered == yes else NO if no is not None and lowered == no else None
        return word if self.takes(word) else None

    def named_value(self, value: str) -> str:
        if self.flag is None:
            return value
        lowered = value.lower()
        if lowered in _YES_WORDS or lowered == self.flag[0]:
            return YES
        if lowered in _NO_WORDS or lowered == self.flag[1]:
            return NO
        raise OptionError(_("{option} takes true or false, not {value}")
                          .format(option=self.name, value=repr(value[:20])))  # fmt: skip


@dataclass(frozen=True)
class Syntax:
    options: tuple[Option, ...] = ()
    text: str | None = None  # the option that takes the rest of the line as typed
    subcommands: Mapping[str, Syntax] = field(default_factory=dict)
    usage: Usage | None = None  # said with a refusal (None: the option names)

    def names(self) -> list[str]:
        return [*([self.text] if self.text else []), *(o.name for o in self.options)]


@dataclass(frozen=True)
class Options:
    """A command's values by option name, and its subcommand."""

    values: dict[str, str] = field(default_factory=dict)
    subcommand: str | None = None

    def get(self, name: str, default: str = "") -> str:
        return self.values.get(name, default)

    def __contains__(self, name: str) -> bool:
        return name in self.values

    def flag(self, name: str) -> bool:
        return self.values.get(name) == YES


def parse_options(command: str, syntax: Syntax, text: str) -> Options:
    """The options of ``command`` in ``text`` (what follows the command), or
    :class:`OptionError` with one line saying why not."""
    words = text.split()
    if syntax.subcommands and words and words[0].lower() in syntax.subcommands:
        sub = words[0].lower()
        rest = text.strip()[len(words[0]) :]
        return Options(_values(f"{command} {sub}", syntax.subcommands[sub], rest).values, sub)
    return _values(command, syntax, text)


def _values(command: str, syntax: Syntax, text: str) -> Options:
    if syntax.text is not None:
        return Options(_text_values(syntax, text))
    options = {o.name: o for o in syntax.options}
    values: dict[str, str] = {}
    words = text.split()
    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        named = _NAMED.fullmatch(word)
        if named is not None and named[1].lower() in options:
            name, value = named[1].lower(), named[2]
            if not value and i < len(words) and not _NAMED.fullmatch(words[i]):
                value, i = words[i], i + 1  # "metric: wins", with a space
            if name in values:
                raise OptionError(_("{command}: {option} is given twice")
                                  .format(command=command, option=name))  # fmt: skip
            values[name] = options[name].named_value(value)
            continue
        if named is not None and named[2] and not named[2].startswith("//"):
            raise OptionError(
                _("{command}: there is no option {option}; {usage}").format(
                    command=command, option=repr(named[1][:20]), usage=_takes(command, syntax)
                )
            )
        for option in syntax.options:
            value = None if option.name in values or not option.positional else (
                option.positional_value(word))  # fmt: skip
            if value is not None:
                values[option.name] = value
                break
        else:
            raise OptionError(
                _("{command}: {word} is not understood; {usage}").format(
                    command=command, word=repr(word[:20]), usage=_takes(command, syntax)
                )
            )
    return Options(values)


def _text_values(syntax: Syntax, text: str) -> dict[str, str]:
    """The free-text option takes what comes before the first ``name:``; each named option
    what follows its name, up to the next (the text keeps its lines and spaces)."""
    assert syntax.text is not None
    names = "|".join(re.escape(n) for n in syntax.names())
    marks = list(re.finditer(rf"(?:^|(?<=\s))({names}):", text, re.I))
    values: dict[str, str] = {}
    first = text[: marks[0].start()] if marks else text
    if first.strip():
        values[syntax.text] = first.strip()
    for mark, after in zip(marks, [*marks[1:], None], strict=False):
        name = mark[1].lower()
        value = text[mark.end() : after.start() if after is not None else len(text)].strip()
        option = next((o for o in syntax.options if o.name == name), None)
        if name in values:
            raise OptionError(_("{option} is given twice").format(option=name))
        values[name] = option.named_value(value) if option is not None else value
    return values


def _takes(command: str, syntax: Syntax) -> str:
    if syntax.usage is not None:
        return syntax.usage()
    names = syntax.names()
    if syntax.subcommands:
        return _("{command} takes {options}").format(
            command=command, options=_or(list(syntax.subcommands))
        )
    if not names:
        return _("{command} takes no options").format(command=command)
    return _("{command} takes {options}").format(command=command, options=", ".join(names))


def _or(words: list[str]) -> str:
    """``a, b or c``: the last two joined by the reader's word for "or"."""
    *first, last = words
    if not first:
        return last
    # Translators: joins the last two of a list of choices: "daily, practice or archive".
    return pgettext("list", "{first} or {last}").format(first=", ".join(first), last=last)


def option_of(param: Param) -> Option:
    """The console's reading of a command's option."""
    takes = param.takes
    if takes is None and param.choices:
        takes = lambda word: word.lower() in param.choices  # noqa: E731
    if takes is None and param.kind is int:
        takes = lambda word: re.fullmatch(r"#?-?[0-9]{1,30}", word) is not None  # noqa: E731
    flag = param.flag or ((param.name, None) if param.kind is bool else None)  # true or false
    return Option(param.name, takes or _any, param.positional, flag)


def syntax_of(spec: Command) -> Syntax:
    text = next((p.name for p in spec.params if p.text), None)
    options = tuple(option_of(p) for p in spec.params if not p.text)
    return Syntax(options, text=text, usage=spec.usage or (lambda: usage_of(spec)))


def usage_of(spec: Command) -> str:
    """What a command takes, by Discord's option names (with their choices)."""
    if not spec.params:
        return _("{command} takes no options").format(command=f"/{spec.path}")
    names = [f"{p.name} ({', '.join(p.choices)})" if p.choices else p.name for p in spec.params]
    return _("{command} takes {options}").format(command=f"/{spec.path}",
                                                 options=", ".join(names))  # fmt: skip


def model_syntax() -> dict[str, Syntax]:
    """The console's syntax of every command of the shared model, by ``/name``: a group's
    subcommands under its name (``/wordle daily``), and each command's console name too."""
    syntax: dict[str, Syntax] = {}
    groups: dict[str, dict[str, Syntax]] = {}
    for path, spec in COMMANDS.items():
        name, _space, sub = path.partition(" ")
        if sub:
            groups.setdefault(f"/{name}", {})[sub] = syntax_of(spec)
        else:
            syntax[f"/{name}"] = syntax_of(spec)
        if spec.console_name:
            syntax[spec.console_name] = syntax_of(spec)
    for name, subcommands in groups.items():
        syntax[name] = Syntax(subcommands=subcommands, usage=_group_usage(name, subcommands))
    return syntax


def _group_usage(name: str, subcommands: Mapping[str, Syntax]) -> Usage:
    return lambda: _("{command} takes {options}").format(
        command=name, options=_or(list(subcommands))
    )


def command_path(command: str, options: Options) -> str:
    """The model's path of a console command (``/wordle`` + daily: ``wordle daily``)."""
    for path, spec in COMMANDS.items():
        if spec.console_name and spec.console_name == command:
            return path
    name = command.removeprefix("/")
    for default in ("practice", "start"):  # ``/wordle`` alone: practice; ``/coop``: start
        if options.subcommand is None and f"{name} {default}" in COMMANDS:
            return f"{name} {default}"
    return f"{name} {options.subcommand}" if options.subcommand else name


def typed_options(spec: Command, options: Options) -> dict[str, Any]:
    """The options' values as the command takes them (Discord gives them typed): a number
    as an int, a choice checked against its list, yes/no as a bool."""
    values: dict[str, Any] = {}
    for param in spec.params:
        if param.name not in options:
            if param.required and spec.usage is not None:
                raise OptionError(
                    _("{command}: {option} is needed; {usage}").format(
                        command=f"/{spec.path}", option=param.name, usage=spec.usage()
                    )
                )
            if param.required:
                raise OptionError(
                    _("{command}: {option} is needed").format(
                        command=f"/{spec.path}", option=param.name
                    )
                )
            continue
        raw = options.get(param.name)
        if param.kind is bool:
            values[param.name] = options.flag(param.name)
        elif param.kind is int:
            number = raw.removeprefix("#")
            if not re.fullmatch(r"-?[0-9]{1,30}", number):  # the service says what is out
                raise OptionError(
                    _("{option} takes a whole number, not {value}").format(
                        option=param.name, value=repr(raw[:20])
                    )
                )
            values[param.name] = int(number)
        elif param.kind is ChannelId:  # the console has one channel: its server's
            if raw.lower() != "here" and not raw.startswith("#") and not raw.isdigit():
                raise OptionError(
                    _("{option} takes here: the console has one channel").format(option=param.name)
                )
            values[param.name] = ChannelId(CONSOLE_PLACE)
        elif param.kind is RoleId:
            raise OptionError(
                _("{option}: the console has no roles; a Discord server has").format(
                    option=param.name
                )
            )
        elif param.kind is UserId:
            name = " ".join(raw.split())[:32]
            if not name:
                raise OptionError(
                    _("{option} takes a player's name (as /as gives it)").format(option=param.name)
                )
            values[param.name] = UserId(player_named(name).id, name)
        elif param.choices:
            if raw.lower() not in param.choices:
                raise OptionError(
                    _("{option} takes {choices}, not {value}").format(
                        option=param.name, choices=", ".join(param.choices), value=repr(raw[:20])
                    )
                )
            values[param.name] = raw.lower()
        else:
            values[param.name] = raw
    return values


__all__ = [
    "NO",
    "YES",
    "Option",
    "OptionError",
    "Options",
    "Syntax",
    "command_path",
    "model_syntax",
    "parse_options",
    "player_named",
    "typed_options",
]
