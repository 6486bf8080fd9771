"""The wheel holds every file the code reads: built once from a copy of the checkout, its
file list is checked against the packages' files, and the NYT hint (which reads
``wordle-nyt-zipf.tsv``) runs from it with the checkout off the path. ``.ci/smoke`` does the
rest (a fresh virtual environment, the console, ``db migrate``)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "bot", "cogs", "wordlists")
# Files the code opens at run time (engine/variants.py, engine/answer_model.py,
# engine/nyt_history.py, bot/services/challenges.py, bot/services/study.py,
# bot/render/letters.py, engine/definitions.py with the licences that travel with its
# dictionaries): named, so the check below can never pass by the files having moved out of
# the packages.
READ_AT_RUN_TIME = [
    "wordlists/wordle-answers.txt", "wordlists/wordle-allowed.txt",
    "wordlists/wordle-nyt-answers.txt", "wordlists/wordle-nyt-allowed.txt",
    "wordlists/wordle-nyt-zipf.tsv", "wordlists/wordle-nyt-history.tsv",
    "wordlists/profanity-en.txt",
    "wordlists/en/definitions.tsv", "wordlists/en/LICENSE-wordnet",
    "wordlists/it/definitions.tsv", "wordlists/it/LICENSE-italwordnet",
    "wordlists/it/LICENSE-multiwordnet",
    "wordlists/de/definitions.tsv", "wordlists/de/LICENSE-wiktionary",
    "bot/results/hardmode-wordle.json", "bot/results/hardmode-wordle.png",
    "bot/results/hardmode-primel.json", "bot/results/hardmode-primel.png",
    "bot/render/fonts/DejaVuSans-Bold.ttf", "bot/web/static/site.css",
]  # fmt: skip


def package_files() -> set[str]:
    return {
        path.relative_to(ROOT).as_posix()
        for package in PACKAGES
        for path in (ROOT / package).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    }


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel, built by pip (as the Dockerfile's `pip install .` builds it) from a copy,
    so the build's own folders stay out of the checkout."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for package in PACKAGES:
        shutil.copytree(ROOT / package, source / package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))  # fmt: skip
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(work / "dist"),
         str(source)],
        check=True, capture_output=True, timeout=240,
    )  # fmt: skip
    [built] = (work / "dist").glob("wordlebot-*.whl")
    return built


def test_the_wheel_holds_every_file_of_the_packages(wheel: Path) -> None:
    held = set(zipfile.ZipFile(wheel).namelist())
    assert set(READ_AT_RUN_TIME) <= package_files()
    missing = sorted(package_files() - held)
    assert missing == [], f"not in the wheel (pyproject.toml, package-data): {missing}"


def test_the_nyt_hint_runs_from_the_wheel_without_the_checkout(wheel: Path, tmp_path) -> None:
    installed = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(installed)  # what pip puts in site-packages
    # The installed packages first on the path; the checkout (and an editable install's
    # finder, which comes after the path) never reached.
    script = (
        "import sys; sys.path.insert(0, sys.argv[1]); "
        "import engine, bot.cli; assert engine.__file__.startswith(sys.argv[1]), engine.__file__; "
        "sys.exit(bot.cli.main(['hint', '--variant', 'wordle-nyt', 'crane', '01002']))"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    result = subprocess.run([sys.executable, "-c", script, str(installed)], cwd=tmp_path,
                            env=env, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "possible" in result.stdout and "Traceback" not in result.stderr


def test_the_docker_image_keeps_its_database_in_a_volume_the_bot_may_write() -> None:
    """The image's user has no writable home: the default database must be set to a volume
    made (and owned by that user) before it is declared, or a new volume is root's."""
    lines = [" ".join(line.split()) for line in (ROOT / "Dockerfile").read_text().splitlines()]
    text = "\n".join(lines)
    assert "DATABASE_PATH=/data/wordlebot.sqlite3" in text
    chown = next(i for i, line in enumerate(lines) if "chown wordlebot" in line and "/data" in line)
    volume = lines.index("VOLUME /data")
    user = lines.index("USER wordlebot")
    assert chown < volume < user


def test_compose_bots_share_one_cache_and_search_the_trees_the_image_lacks() -> None:
    """The image carries English's exact trees alone: both bots of compose.yaml mount one cache
    volume at the image's WORDLEBOT_CACHE_DIR and leave BUILD_TREES on, so the elected
    process searches the other lists' trees, and those an upgrade changed (an existing
    volume hides the new image's files), once, into the folder both read."""
    dockerfile = (ROOT / "Dockerfile").read_text()
    compose = (ROOT / "compose.yaml").read_text()
    cache = re.search(r"WORDLEBOT_CACHE_DIR=(\S+)", dockerfile)
    assert cache is not None
    bot_a, bot_b = compose.split("\n  bot-b:")
    assert re.search(rf"^\s+- cache:{re.escape(cache[1])}$", bot_a, re.M)
    assert "<<: *bot" in bot_b and "volumes:" not in bot_b.split("\nvolumes:")[0]
    assert re.search(r"^  cache:", compose, re.M)
    assert not re.search(r"BUILD_TREES:\s*\"?(false|0|no|off)", compose, re.I)


def test_ci_runs_the_smoke_test_before_the_readmes_test_command() -> None:
    steps = [line for line in (ROOT / ".ci/run").read_text().splitlines()
             if line and not line.startswith("#")]  # fmt: skip
    assert steps[-1] == 'pip install -e ".[test]" && python -m pytest'
    assert ".ci/smoke" in steps and os.access(ROOT / ".ci/smoke", os.X_OK)


def test_ci_type_checks_every_package_and_the_docs_say_so() -> None:
    """CI's mypy (strict, pyproject.toml) covers every package the wheel ships, not the
    engine alone, and README.md and docs/development.md quote that command."""
    shipped = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert {name.rstrip("*") for name in shipped["packages"]["find"]["include"]} == set(PACKAGES)
    ci = (ROOT / ".ci/run").read_text().splitlines()
    mypy = next(line for line in ci if line.startswith("mypy "))
    assert set(mypy.split()[1:]) == set(PACKAGES)
    for doc in ("README.md", "docs/development.md"):
        assert f"`{mypy}`" in " ".join((ROOT / doc).read_text().split()), doc
