"""A stop is quick at any time: SIGTERM while the exact trees are searched at a first start
ends the real process within its drain (the search hears it), and what a process killed
mid-write left in the cache (a matrix's temporary file, tens of MiB) is removed at the next
start, while a live writer's is kept."""

import asyncio
import os
import resource
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from bot_process import BotProcess, started

import engine.aio
from bot.settings import Settings
from engine.aio import build_trees, tree
from engine.matrix import STALE_UNLOCKED, cache_directory, pattern_matrix
from engine.rules import Mode
from engine.solver.exact import ExactSearch, preset
from engine.solver.exact_trees import cached_optimal_tree, optimal_tree, tree_path, unfinished_path
from engine.stopping import Stopped
from engine.variants import get_variant

DRAIN_SECONDS = Settings.model_fields["drain_seconds"].default  # the bot's, not set here
BACKGROUND_JOBS = "this process runs the deployment's background jobs"  # then trees are searched


def cache_without_trees(folder: Path) -> Path:
    """A cache folder of a first start: the matrices the bot reads at start (linked from the
    session's cache, so no test pays their build), no exact tree."""
    folder.mkdir()
    for name in ("wordle", "primel"):
        get_variant(name).build_matrices()
    for matrix in cache_directory().glob("*.npy"):
        (folder / matrix.name).symlink_to(matrix)
    return folder


async def until(check, timeout: float = 60.0):
    deadline = time.monotonic() + timeout
    while not (value := check()):
        assert time.monotonic() < deadline, f"not true after {timeout} s"
        await asyncio.sleep(0.02)
    return value


def children(pid: int) -> set[int]:
    """The processes ``pid`` started that are still running (Linux's /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # ended while read
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.add(int(stat.parent.name))
    return found


def running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


async def searching(server, tmp_path: Path) -> tuple[BotProcess, list[int], Path]:
    """A bot's first start (no exact tree in its cache), once the leader's search of the
    trees runs in its child process: the bot, that process's pids and the cache folder."""
    cache = cache_without_trees(tmp_path / "cache")
    bot = BotProcess(server, str(tmp_path / "bot.sqlite3"), build_trees="true",
                     log_level="INFO", wordlebot_cache_dir=str(cache))  # fmt: skip
    await started(server, bot)
    await until(lambda: BACKGROUND_JOBS in bot.logged())
    return bot, await until(lambda: children(bot.process.pid)), cache


async def test_a_stop_while_the_first_start_searches_its_trees_ends_within_the_drain(
    server, tmp_path
) -> None:
    """Every exact tree missing (a first start): the leader searches them in a process of
    its own (tens of seconds here); SIGTERM then ends the bot and that process within the
    drain, not when the search is done, and leaves no tree half-written."""
    bot, search, cache = await searching(server, tmp_path)
    asked = time.monotonic()
    code, err = await bot.stop()
    took = time.monotonic() - asked
    print(f"stopped in {took:.2f} s while searching the trees")
    # The drain waits on interactions in flight (none here); everything else is the exit.
    assert took < 2 * DRAIN_SECONDS, f"{took:.1f} s to stop\n{err[-2000:]}"
    assert code == 0, err[-2000:]
    assert not any(running(pid) for pid in search), "the search outlived the bot"
    assert not list(cache.glob("*.tmp"))


async def test_the_first_starts_search_runs_in_another_process_which_a_killed_bot_ends(
    server, tmp_path
) -> None:
    """The search of the first start holds no interpreter of the bot's (it would hold up
    every reply): it runs in a child process, which ends, leaving nothing half-written, when
    the bot is killed outright (no chance to stop it: it hears its standard input close)."""
    bot, search, cache = await searching(server, tmp_path)
    bot.kill()
    await until(lambda: not any(running(pid) for pid in search), timeout=2 * DRAIN_SECONDS)
    assert not list(cache.glob("*.tmp"))


def cpu() -> tuple[float, float]:
    """Seconds of CPU this process used so far, and its children that ended."""
    return tuple(  # type: ignore[return-value]
        resource.getrusage(who).ru_utime for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )


async def test_build_trees_searches_in_another_process_and_this_one_reads_the_tree(
    tmp_path, monkeypatch
) -> None:
    """The CPU of the search is a child's, not this process's (whose event loop answers
    players), and the tree it wrote is read here at once."""
    cache = cache_without_trees(tmp_path / "cache")
    monkeypatch.setenv("WORDLEBOT_CACHE_DIR", str(cache))
    italian = get_variant("wordle-it-4")  # a search of a fraction of a second
    assert cached_optimal_tree(italian, Mode.NORMAL) is None
    own, theirs = cpu()
    await build_trees([("wordle-it-4", Mode.NORMAL)])
    own_after, theirs_after = cpu()
    here, there = own_after - own, theirs_after - theirs
    print(f"CPU here {here:.2f} s, in the search's process {there:.2f} s")
    assert there > 4 * here, f"the search ran here: {here:.2f} s of CPU, {there:.2f} s there"
    assert tree_path(italian, Mode.NORMAL, preset(italian, Mode.NORMAL)).exists()
    assert tree("wordle-it-4", Mode.NORMAL) is not None
    engine.aio._tree.cache_clear()  # read from this test's cache: not for the later tests


def test_a_stopped_search_or_matrix_build_leaves_nothing_behind(tmp_path) -> None:
    """A stop asked mid-build or mid-search raises Stopped: no matrix file, no temporary
    one, no tree and no note that the search takes too long (it was not timed out)."""
    wordle = get_variant("wordle")
    asked = []

    def stop_after(calls: int):
        def stop() -> bool:
            asked.append(1)
            return len(asked) >= calls

        return stop

    with pytest.raises(Stopped):
        pattern_matrix(wordle.guesses, wordle.answers, cache_dir=tmp_path, stop=stop_after(3))
    assert list(tmp_path.iterdir()) == []
    asked.clear()
    with pytest.raises(Stopped):
        optimal_tree(wordle, Mode.NORMAL, directory=tmp_path, stop=stop_after(20))
    settings = preset(wordle, Mode.NORMAL)
    assert not tree_path(wordle, Mode.NORMAL, settings, tmp_path).exists()
    assert not unfinished_path(wordle, Mode.NORMAL, settings, tmp_path).exists()
    assert not list(tmp_path.glob("*.tmp"))
    asked.clear()  # hard mode's search hears it too
    with pytest.raises(Stopped):
        ExactSearch(wordle, Mode.HARD, preset(wordle, Mode.HARD), stop=stop_after(200)).solve()


LIVE_WRITER = textwrap.dedent(
    """
    import fcntl, os, sys
    fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    print("locked", flush=True)
    sys.stdin.read()
    """
)


async def test_a_dead_writers_temporary_file_is_removed_at_start_and_a_live_ones_kept(
    server, tmp_path
) -> None:
    """Three temporary files in the cache at a start: one a killed process left (unlocked,
    untouched for long), one another live process is writing (locked by it, and as old: a
    long build), one just made (its writer about to lock it). Only the first is removed, and
    a kind of file no longer read (the model coach's openers, kept until 2026-11)."""
    cache = cache_without_trees(tmp_path / "cache")
    dead = cache / "patterns-0123456789abcdef01234567.npy.k1ll3d.tmp"
    live = cache / "patterns-76543210fedcba9876543210.npy.wr1t1ng.tmp"
    fresh = cache / "tree-wordle-normal-0123456789abcdef.json.n3wf1l.tmp"
    retired = cache / "model-opening-0123456789abcdef01234567.npy"
    for tmp in (dead, fresh, retired):
        tmp.write_bytes(b"\0" * 4096)
    writer = subprocess.Popen([sys.executable, "-c", LIVE_WRITER, str(live)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)  # fmt: skip
    try:
        assert writer.stdout is not None and writer.stdout.readline() == b"locked\n"
        long_ago = time.time() - 10 * STALE_UNLOCKED
        for tmp in (dead, live):
            os.utime(tmp, (long_ago, long_ago))
        bot = BotProcess(server, str(tmp_path / "bot.sqlite3"),
                         wordlebot_cache_dir=str(cache))  # fmt: skip
        await started(server, bot)  # the engine is warmed (and the cache cleared) before
        assert not dead.exists() and not retired.exists()
        assert live.exists() and fresh.exists()
        code, err = await bot.stop()
        assert code == 0, err[-2000:]
    finally:
        writer.communicate(b"")
