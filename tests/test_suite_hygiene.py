"""The suite leaves nothing behind: a pytest run (on two workers, or in one process) that
builds a pattern matrix, starts PostgreSQL and has the console draw a picture leaves nothing
in the system's temporary folder (issue 39.8) but pytest's own numbered folders, and no
process of it (a server, a bot) runs on."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# A matrix built into the cache, a PostgreSQL server of the worker's, a console picture.
TESTS = [
    "tests/test_matrix.py::test_primel_matrix_equals_the_scalar_scorer",
    "tests/test_storage.py::test_a_stale_version_writes_nothing",  # both engines
    "tests/test_year.py::test_the_console_writes_the_card_and_says_where",
]


@pytest.mark.parametrize("workers", ["2", "0"])  # xdist's, or one process (-n 0)
def test_a_run_leaves_nothing_in_the_temporary_folder(workers: str) -> None:
    # A short path of its own (PostgreSQL's socket path must stay under 108 bytes).
    system_tmp = Path(tempfile.mkdtemp(prefix="wh-", dir="/tmp" if os.path.isdir("/tmp") else None))
    try:
        left = _left_after_a_run(system_tmp, workers)
        running = _processes_naming(system_tmp)  # a PostgreSQL server, a bot, a forker
    finally:
        shutil.rmtree(system_tmp, ignore_errors=True)
    assert [name for name in left if not name.startswith("pytest-of-")] == [], left
    assert running == [], running


def _processes_naming(folder: Path) -> list[str]:
    """The command lines of running processes that name ``folder`` (a server's data
    directory, a bot's database): none may outlive the run that made them."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            line = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:  # gone meanwhile, or not ours to read
            continue
        if str(folder) in line:
            found.append(line)
    return found


def _left_after_a_run(system_tmp: Path, workers: str) -> list[str]:
    env = {name: value for name, value in os.environ.items()
           if name not in ("WORDLEBOT_CACHE_DIR", "PYTEST_XDIST_WORKER", "PYTEST_ADDOPTS")
           and not name.startswith("PYTEST_XDIST")}  # fmt: skip
    env["TMPDIR"] = str(system_tmp)
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", workers, "-p", "no:cacheprovider",
         *TESTS],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert " passed" in run.stdout
    return sorted(entry.name for entry in system_tmp.iterdir())
