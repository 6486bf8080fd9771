"""The CLI starts at once (issue 31.11): each light subcommand imports only what it needs.

Checked by the modules a real process has loaded when the command is done, not by timing
(`wordlebot bench startup` prints the times, docs/performance.md has them).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bot.cli.commands import build_parser

# Runs the command as the installed script does, then lists what it imported.
PROBE = """
import json, sys
from bot.cli import main
try:
    status = main(sys.argv[1:])
except SystemExit as exc:
    status = exc.code
print(json.dumps({"status": status, "modules": sorted(sys.modules)}), file=sys.stderr)
"""
SHARE = "Wordle 1,000 3/6\n\n⬛🟨⬛⬛⬛\n🟩⬛🟩⬛⬛\n🟩🟩🟩🟩🟩\n"

# Never for a light command: Babel (bot.i18n), Discord, pydantic (the settings), Pillow
# (rendering), the database drivers, the services, and the solvers beyond the rules.
HEAVY = (
    "babel", "discord", "pydantic", "pydantic_settings", "PIL", "aiosqlite", "asyncpg",
    "sqlite3", "tqdm", "asyncio",
    "bot.i18n", "bot.settings", "bot.services", "bot.storage", "bot.console", "bot.commands",
    "bot.render", "bot.cli.benchmarks", "bot.cli.solver_commands",
    "engine.solver", "engine.answer_model", "engine.agents", "engine.multiboard",
)  # fmt: skip


def imported(*argv: str, stdin: str = "") -> set[str]:
    result = subprocess.run(
        [sys.executable, "-c", PROBE, *argv], input=stdin, capture_output=True, text=True,
        check=False, timeout=60,
    )  # fmt: skip
    report = json.loads(result.stderr.strip().splitlines()[-1])
    assert report["status"] in (0, None), result.stderr
    return set(report["modules"])


def loaded(modules: set[str], package: str) -> bool:
    return package in modules or any(m.startswith(package + ".") for m in modules)


@pytest.mark.parametrize(
    ("argv", "stdin"),
    [
        (("score", "crane", "slate"), ""),
        (("score", "crane", "slate", "--json"), ""),
        (("check", "crane", "--history", "slate:00202"), ""),
        (("check", "crane", "--mode", "normal", "--json"), ""),
        (("parse",), SHARE),
        (("parse", "--json"), SHARE),
    ],
)
def test_a_light_subcommand_loads_no_heavy_module(argv: tuple[str, ...], stdin: str) -> None:
    modules = imported(*argv, stdin=stdin)
    assert "engine.pattern" in modules  # it did its work
    assert [package for package in HEAVY if loaded(modules, package)] == []


def test_help_loads_not_even_numpy_nor_the_engine() -> None:
    modules = imported("--help")
    assert [p for p in ("numpy", "engine", *HEAVY) if loaded(modules, p)] == []
    top_level = {m.split(".")[0] for m in modules}
    assert top_level & {"bot", "engine"} == {"bot"}


def test_a_mistake_in_a_light_command_is_still_one_line() -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROBE, "score", "crane", "sl4te"], capture_output=True, text=True,
        check=False, timeout=60,
    )  # fmt: skip
    lines = result.stderr.strip().splitlines()
    assert json.loads(lines[-1])["status"] == 2
    assert lines[:-1] == ["wordlebot: error: answer 'sl4te': " + lines[0].split(": ", 3)[-1]]
    assert not loaded(set(json.loads(lines[-1])["modules"]), "bot.settings")


def options(parser: object) -> dict[str, object]:
    """Every subcommand's options (with their choices and defaults), nested subcommands too."""
    import argparse

    assert isinstance(parser, argparse.ArgumentParser)
    found: dict[str, object] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found[name] = options(sub)
        else:
            choices = list(action.choices) if action.choices is not None else None
            found["/".join(action.option_strings) or action.dest] = (
                choices, action.default, action.type.__name__ if action.type else None
            )  # fmt: skip
    return found


def test_the_parser_built_for_one_subcommand_is_the_whole_parser_for_it() -> None:
    whole = options(build_parser())
    commands = [name for name in whole if not name.startswith("-") and name != "help"]
    assert {"score", "check", "parse", "hint", "bench", "study", "sim"} <= set(commands)
    for name in commands:
        assert options(build_parser(only=name))[name] == whole[name], name
    nothing = options(build_parser(only=""))
    assert set(nothing) == set(whole)  # every subcommand is still named (and in --help)
