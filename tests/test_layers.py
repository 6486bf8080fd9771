"""The arrows between the layers point one way (docs: the architecture guide): cogs and the
console above the services, the renderers above the services they draw, the engine below
everything. Read from the source with ``ast``, so an import inside a function counts too."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def package_of(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).parts[:-1])


def imported_modules(source: str, package: str) -> set[str]:
    """Every module ``source`` (a module of ``package``) imports, anywhere in the file, with
    relative imports resolved; ``from a import b`` counts as ``a`` and ``a.b``."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def reaching(paths: list[Path], prefixes: tuple[str, ...]) -> dict[str, list[str]]:
    """For each file that imports a module under one of ``prefixes``: those modules."""
    wrong: dict[str, list[str]] = {}
    for path in paths:
        modules = imported_modules(path.read_text(encoding="utf-8"), package_of(path))
        bad = sorted(m for m in modules
                     if any(m == p or m.startswith(p + ".") for p in prefixes))  # fmt: skip
        if bad:
            wrong[path.relative_to(ROOT).as_posix()] = bad
    return wrong


def test_the_walk_sees_every_form_of_import() -> None:
    """The checker itself: plain, from, relative and in-function imports are all seen."""
    source = ("import bot.render.text\n"
              "from bot.render import images\n"
              "from ..render.study import hard_mode_answer\n"
              "from . import games\n"
              "def later():\n"
              "    from bot import render\n")  # fmt: skip
    found = imported_modules(source, "bot.services")
    assert {"bot.render.text", "bot.render.images", "bot.render.study",
            "bot.render.study.hard_mode_answer", "bot.services.games",
            "bot.render"} <= found  # fmt: skip
    assert package_of(ROOT / "bot" / "services" / "study.py") == "bot.services"
    assert reaching([ROOT / "bot" / "render" / "study.py"], ("bot.render",))  # a true positive


def test_services_import_nothing_from_the_renderers() -> None:
    """Services hand data to the renderers above them, never the reverse."""
    services = sorted((ROOT / "bot" / "services").glob("*.py"))
    assert len(services) > 10
    assert reaching(services, ("bot.render",)) == {}


def test_the_engine_imports_nothing_from_the_bot() -> None:
    engine = sorted((ROOT / "engine").rglob("*.py"))
    assert reaching(engine, ("bot", "cogs")) == {}


def test_storage_and_services_import_no_front_end() -> None:
    below = sorted([*(ROOT / "bot" / "services").glob("*.py"),
                    *(ROOT / "bot" / "storage").glob("*.py")])  # fmt: skip
    assert reaching(below, ("cogs", "discord", "bot.console", "bot.discord_bot")) == {}
