"""Every sentence the front ends write (the commands in bot/commands, the Discord cogs and the
console) comes from the catalog: nothing of theirs reaches a player in English when the
reader speaks another language.

Two ways of looking: the code itself (no sentence-like string outside ``_()``, ``N_()``,
``ngettext`` or ``pgettext``, but for docstrings, logs, the command tree's own strings,
which discord.py's Translator serves, and the few kept on purpose below), and the console
and the buttons run with a catalog that marks every message it is asked for (``⟦...⟧``), where
what is left once the marks are taken out holds no English sentence. What the services and
renderers write is theirs (their own tests): the console's script here keeps to what the
front ends say themselves.
"""

from __future__ import annotations

import ast
import asyncio
import gettext
import re
from pathlib import Path
from types import SimpleNamespace
from typing import ClassVar

import pytest

import bot.i18n as i18n
from bot.console import Console, run_console
from bot.console_options import player_named
from bot.i18n import current_locale
from bot.i18n.extract import tree_messages
from bot.services import Player, open_services
from bot.settings import load_settings

ROOT = Path(__file__).resolve().parent.parent
FRONT_ENDS = sorted(
    [*ROOT.glob("cogs/*.py"), *ROOT.glob("bot/commands/*.py"), *ROOT.glob("bot/console*.py")]
)
SEED = "7a1c5e9b3d2f4a6c8e0b1d3f5a7c9e2b-tests"
MARKERS = {"_", "N_", "gettext", "ngettext", "pgettext", "npgettext"}
LOGS = {"debug", "info", "warning", "error", "exception", "critical"}
# Sentences kept in English on purpose: (file, start of the text, why).
KEPT = [
    ("cogs/admin.py", "Synced {} commands globally.", "the owner's @bot sync: an operator's"),
]
WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
PUNCTUATION = ",.;:!?()\"'"


def english_run(text: str, most: int = 2) -> str | None:
    """The first run of more than ``most`` plain words in ``text`` (an English sentence, or
    the start of one), or None. Commands (/as), option values (period:season), placeholders
    ({}), numbers and squares break a run."""
    run: list[str] = []
    for token in text.split():
        if WORD.fullmatch(token.strip(PUNCTUATION)) and token[0] not in "/<#@":
            run.append(token)
            if len(run) > most:
                return " ".join(run)
        else:
            run = []
    return None


def in_tree(text: str, tree: set[str]) -> bool:
    """Whether ``text`` is one of the command tree's strings (an f-string's ``{}`` standing
    for anything; a description cut at Discord's 100 characters ends with "…")."""
    pattern = re.compile(".*".join(map(re.escape, text.split("{}"))), re.S)
    return any(
        pattern.fullmatch(shown) or (shown.endswith("…") and text.startswith(shown[:-1]))
        for shown in tree
    )


def _literal(node: ast.expr) -> str | None:
    """A string constant's text, an f-string's with ``{}`` for each field, else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return None


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


class Sentences(ast.NodeVisitor):
    """The sentence-like strings of a module that no marker, log, docstring or exception
    for operators holds."""

    def __init__(self) -> None:
        self.found: list[tuple[int, str]] = []
        self.f_strings_marked: list[int] = []
        self._skip: set[int] = set()

    def visit_Module(self, node: ast.Module) -> None:
        self._docstrings(node)
        self.generic_visit(node)

    def _docstrings(self, node: ast.AST) -> None:
        body = getattr(node, "body", None)
        if body and isinstance(body[0], ast.Expr) and _literal(body[0].value) is not None:
            self._skip.add(id(body[0].value))

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._docstrings(node)
        self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._docstrings(node)
        self.generic_visit(node)

    def visit_Raise(self, node: ast.Raise) -> None:
        """An exception a player sees is an OptionError (the console says it); others are
        for operators."""
        if isinstance(node.exc, ast.Call) and _name(node.exc.func) != "OptionError":
            for inner in ast.walk(node.exc):
                self._skip.add(id(inner))
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        name = _name(node.func)
        if name in MARKERS:
            for argument in node.args:
                if isinstance(argument, ast.JoinedStr):
                    self.f_strings_marked.append(node.lineno)
                self._skip.add(id(argument))
        elif name in LOGS and isinstance(node.func, ast.Attribute):
            for inner in ast.walk(node):
                self._skip.add(id(inner))
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        self._check(node)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        self._check(node)  # its parts are not looked at one by one

    def _check(self, node: ast.expr) -> None:
        text = _literal(node)
        if text is not None and id(node) not in self._skip and english_run(text) is not None:
            self.found.append((node.lineno, text))


@pytest.fixture(scope="module")
def tree_strings() -> set[str]:
    """What the command tree shows (names, descriptions, choices): the Translator's."""
    return {message for (_context, message) in asyncio.run(tree_messages())}  # type: ignore[misc]


def test_no_sentence_of_the_front_ends_is_left_out_of_the_catalog(tree_strings) -> None:
    kept = {(file, start) for file, start, _why in KEPT}
    unmarked, f_strings = [], []
    for path in FRONT_ENDS:
        relative = path.relative_to(ROOT).as_posix()
        visitor = Sentences()
        visitor.visit(ast.parse(path.read_text(encoding="utf-8")))
        f_strings += [f"{relative}:{line}" for line in visitor.f_strings_marked]
        for line, text in visitor.found:
            if in_tree(text, tree_strings) or any(
                relative == file and text.startswith(start) for file, start in kept
            ):
                continue
            unmarked.append(f"{relative}:{line}: {text[:70]!r}")
    assert f_strings == [], "an f-string in _() is no msgid: use named {fields} and .format"
    assert unmarked == [], "\n".join(unmarked)


def test_the_sentence_finder_finds_sentences() -> None:
    assert english_run("Slow down: try again in 3 s.") == "Slow down: try"
    assert english_run("/leaderboard metric:wins period:season game:wordle page:2") is None
    assert english_run("Wordle #1000 🟩🟩⬛ 3/6") is None
    source = (
        'def f():\n    """A docstring, not said."""\n    return refuse("Nothing was said here")\n'
    )
    visitor = Sentences()
    visitor.visit(ast.parse(source))
    assert [text for _line, text in visitor.found] == ["Nothing was said here"]


class Marked(gettext.NullTranslations):
    """A catalog that marks every message it translates, with its locale: ``⟦es:...⟧``."""

    doubled: ClassVar[list[str]] = []

    def __init__(self, locale: str) -> None:
        super().__init__()
        self.locale = locale

    def _mark(self, message: str) -> str:
        if message.startswith("⟦") and message.endswith("⟧"):
            Marked.doubled.append(message)  # translated twice: a bug
        return f"⟦{self.locale}:{message}⟧"

    def gettext(self, message: str) -> str:
        return self._mark(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._mark(singular if n == 1 else plural)

    def pgettext(self, context: str, message: str) -> str:
        return self._mark(message)

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return self._mark(singular if n == 1 else plural)


@pytest.fixture
def marked(monkeypatch) -> list[str]:
    """Every locale's catalog marks what it translates (English's too); yields the messages
    translated twice."""
    Marked.doubled = []
    catalogs: dict[str, Marked] = {}
    monkeypatch.setattr(i18n, "translations", lambda locale: catalogs.setdefault(
        locale, Marked(locale)))  # fmt: skip
    return Marked.doubled


MARK = re.compile(r"⟦[^⟦⟧]*⟧")


def unmarked(text: str) -> str:
    """``text`` without what the catalog gave (marks inside marks first)."""
    while MARK.search(text):
        text = MARK.sub(" ", text)
    return text


def script(*lines: str):
    queue = list(lines)

    async def read(prompt: str) -> str | None:
        return queue.pop(0) if queue else None

    return read


# What the front ends answer on their own (refusals, notes, usage lines, settings), not what
# a renderer or a service writes.
OWN_WORDS = (
    "/nonsense", "/leaderboard nonsense", "/leaderboard page:0", "/stats game:nothing",
    "/settings", "/mydata", "/as", "/play", "/play x", "/join", "/start", "/digest 2024-13-45",
    "/settings me", "/settings me colours:high-contrast",
    "/settings server timezone:Nowhere/Land", "/settings server season_days:999",
    "/settings server timezone:Europe/Paris hints_in_daily:true",
    "/settings server daily_role:admins", "/settings server channel:#general",
    "/remind on 08:00", "/missing", "/remind off", "/remind off",
    "/digest channel", "/digest off", "/resetboard", "/sharechannel on", "/sharechannel off",
    "/streak", "/coach", "/mydata delete confirm:nope", "/challenge", "/challenge cigar 4 nine",
    "/wordle archive soon later", "/stats practice:maybe", "/hardmode game:chess",
    "/resetboard now", "/as ann",
)  # fmt: skip


async def test_the_console_says_nothing_of_its_own_in_english(tmp_path, marked) -> None:
    settings = load_settings(database_path=str(tmp_path / "t.sqlite3"), daily_seed=SEED)
    services = await open_services(settings)
    shown: list[str] = []
    console = Console(services, Player(5, "tess"), shown.append, colour=False, locale="es")
    try:
        await console.run(script(*OWN_WORDS))
    finally:
        await services.close()
    said = "\n".join(shown)
    for wanted in ("⟦es:wordlebot console", "⟦es:Unknown command", "⟦es:Usage: /as NAME⟧",
                   "⟦es:You are ann now.⟧", "takes no options⟧", "⟦es:Server time zone",
                   "⟦es:Your colours", "⟦es:No race here", "⟦es:Your games are saved"):  # fmt: skip
        assert wanted in said, wanted
    english = [f"{line!r}: {english_run(unmarked(line))!r}" for line in shown
               if english_run(unmarked(line)) is not None]  # fmt: skip
    assert english == [], "\n".join(english)
    assert marked == []


async def test_the_console_speaks_the_locale_asked_for_and_each_players_own(
    tmp_path, marked
) -> None:
    """--locale es; a player's /settings me language wins, from its reply on, and is read
    again for whoever takes the keyboard (/as); the commands learn it as the caller's."""
    settings = load_settings(database_path=str(tmp_path / "l.sqlite3"), daily_seed=SEED)
    first: list[str] = []
    await run_console(settings, script("/nonsense"), first.append, locale="de")
    assert first[:2] == ["⟦de:wordlebot console. Type /help for commands, /quit to leave.⟧",
                         "⟦de:Unknown command {command}. Type /help.⟧".replace(
                             "{command}", "/nonsense")]  # fmt: skip
    assert current_locale() == "en"  # the console's language ends with it
    services = await open_services(settings)
    shown: list[str] = []
    tess = player_named("tess")  # as /as tess names her again
    console = Console(services, tess, shown.append, colour=False, locale="es-419")
    locales: list[str] = []
    handle = console.handle

    async def noting(line: str) -> None:
        locales.append(console.caller().locale)
        await handle(line)

    console.handle = noting  # type: ignore[method-assign]
    try:
        await console.run(script(
            "/nonsense", "/settings me language:fr", "/nonsense", "/as ann", "/nonsense",
            "/as tess", "/nonsense", "/settings me language:auto", "/nonsense",
        ))  # fmt: skip
    finally:
        await services.close()
    unknown = [line[1:3] for line in shown if "Unknown command" in line]
    assert shown[0].startswith("⟦es:wordlebot console")
    assert unknown == ["es", "fr", "es", "fr", "es"]
    assert any(line.startswith("⟦fr:Your colours") for line in shown)  # the reply: in French
    assert locales == ["es", "es", "fr", "fr", "es", "es", "fr", "fr", "es"]


async def test_buttons_and_forms_take_their_words_from_the_catalog(marked) -> None:
    from bot.commands import Reply
    from cogs.challenges import PlayButton
    from cogs.cooldowns import slow_down
    from cogs.coop import CoopButton, CoopModal
    from cogs.races import RaceButton
    from cogs.replies import GameButton, GuessModal, ShareButton
    from cogs.stats import board_message

    game = SimpleNamespace(rows=[("crane", "01002")], max_guesses=6, variant="wordle", length=5)
    primel = SimpleNamespace(rows=[], max_guesses=6, variant="primel", length=5)
    labels = [GameButton(action, 1).item.label for action in ("guess", "hint", "giveup")]
    labels += [ShareButton(1).item.label, PlayButton(1).item.label, CoopButton(1).item.label]
    labels += [RaceButton(action, 1).item.label for action in ("join", "start", "play")]
    page = Reply(extra={"title": "t", "body": "b", "note": "", "pages": (
        "wordle", "wins", "server", 2, 3, "all", False)})  # fmt: skip
    labels += [item.item.label for item in board_message(page)["view"].children]
    assert len(labels) == 11 and all(label.startswith("⟦en:") for label in labels), labels
    forms = [
        GuessModal(1, game),
        GuessModal(2, primel),  # type: ignore[arg-type]
        CoopModal(SimpleNamespace(game=game, coop_id=3)),
    ]  # type: ignore[arg-type]
    for form in forms:
        assert form.title.startswith("⟦en:"), form.title
        field = form.children[0]
        assert field.text.startswith("⟦en:Your 5-"), field.text  # type: ignore[attr-defined]
    assert slow_down(3.2) == "⟦en:Slow down: try again in {seconds} s.⟧".replace("{seconds}", "3")
    assert marked == []


async def test_a_discord_player_is_answered_in_the_language_they_choose_at_once(
    double, marked
) -> None:
    """The reply of /settings me language: speaks the new language, and so does the next
    interaction (the bot's memory of players' choices forgets the old one); Discord's own
    locale (en-US here) speaks for the others, and for the player who goes back to auto."""
    from discord_double import only

    assert only(await double.command("streak", user_id=7)).text.startswith("⟦en:")
    chosen = only(await double.command("settings", "me", user_id=7, language="pl"))
    assert chosen.ephemeral and chosen.text.startswith("⟦pl:Your colours"), chosen.text
    streak = only(await double.command("streak", user_id=7)).text
    assert streak == "⟦pl:{game} daily streak: {current} (best {best})⟧".format(
        game="Wordle", current=0, best=0
    )
    assert only(await double.command("streak", user_id=8)).text.startswith("⟦en:")
    auto = only(await double.command("settings", "me", user_id=7, language="auto"))
    assert auto.text.startswith("⟦en:Your colours"), auto.text
    assert only(await double.command("streak", user_id=7)).text.startswith("⟦en:")
    assert marked == []
