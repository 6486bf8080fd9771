"""Bot processes forked from one that has already imported the bot: each end-to-end test's
`wordlebot run` is a process of its own with the environment the test gives it, running
`bot.cli.commands.main(["run"])` as `python -m bot.cli run` does, without paying again the
second of imports (discord.py, aiohttp, numpy, pydantic, the services) that every start
of a fresh interpreter pays; the suite starts about a hundred bots.

The forking process (one for each pytest process, started at its first bot) receives each
request on a Unix socket (the environment, and the log file's descriptor for stderr), forks,
and reports the child's pid, then its exit status once it has reaped it. The parent holds
a :class:`Forked`, which answers as much of :class:`subprocess.Popen` as the tests use."""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

TESTS = str(Path(__file__).resolve().parent)
# Everything a bot process imports on its way to connecting (on either database engine);
# the cogs are executed again by load_extension, their imports are not.
PRELOAD = (
    "bot.cli.commands", "bot.settings", "bot.event_loop", "bot.discord_bot",
    "bot.render.live_board", "bot.storage.sqlite", "bot.storage.postgres", "cogs.common",
    "cogs.cooldowns", "cogs.replies", "uvloop", "aiosqlite", "asyncpg", "numpy.ma", "mmap",
    "stringprep",
)  # fmt: skip


def serve(channel: socket.socket) -> None:
    """The forking process: fork a bot for each request until the tests' process goes."""
    import importlib
    import select

    for name in PRELOAD:
        with contextlib.suppress(ImportError):  # uvloop, where it is not installed
            importlib.import_module(name)
    from bot.discord_bot import WARMED
    from engine.aio import derive_from_shipped_files

    # What the bot's warm-up works out from the shipped files, done once and inherited; not
    # what it reads from the cache folder, which a test may give a bot of its own.
    derive_from_shipped_files(WARMED)
    # A new SQLite database is made from one migrated in memory, once in each process.
    from bot.storage.sqlite import migrated_whole

    migrated_whole()
    # The catalogs every start compiles (CommandTree.set_translator), as parsed from the
    # shipped .po files: what a bot reads of them is the same whatever its cache folder.
    # One that fails is left for each bot to fail on, as a fresh start would.
    from bot.i18n import LOCALES, translations

    for locale in LOCALES:
        with contextlib.suppress(Exception):
            translations(locale)
    import gc

    gc.freeze()  # what every bot inherits: never traversed by their collections (nor written)
    channel.sendall(b'{"ready": true}\n')
    # The bots running, each with a pidfd that turns readable when it exits: the forker
    # sleeps until a request or an exit (no polling: it lives as long as its pytest process).
    children: dict[int, int] = {}
    while True:
        readable, _, _ = select.select([channel, *children.values()], [], [])
        if channel in readable:
            message, fds, _, _ = socket.recv_fds(channel, 1 << 20, 1)
            if not message:
                return  # the tests' process has gone; bots it left behind stay, as Popen's do
            pid = os.fork()
            if pid == 0:
                channel.close()
                for pidfd in children.values():
                    os.close(pidfd)
                _become_the_bot(json.loads(message), fds[0])  # never returns
            os.close(fds[0])
            children[pid] = os.pidfd_open(pid)  # (readable at once if it has already exited)
            channel.sendall(json.dumps({"pid": pid}).encode() + b"\n")
        for child, pidfd in list(children.items()):
            if pidfd in readable:
                _, status = os.waitpid(child, 0)
                os.close(children.pop(child))
                code = os.waitstatus_to_exitcode(status)
                channel.sendall(json.dumps({"exit": child, "code": code}).encode() + b"\n")


def _become_the_bot(env: dict[str, str], log: int) -> None:
    """In the forked child: the request's environment, stderr to its log, stdout to nowhere,
    then `bot.cli` run as `python -m` runs it (its ``__main__``, ``sys.argv``, ``sys.path``);
    its status is the process's, at an ordinary exit."""
    import runpy
    import tempfile

    os.dup2(log, 2)
    os.close(log)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.close(devnull)
    os.environ.clear()
    os.environ.update(env)
    tempfile.tempdir = None  # read from TMPDIR again
    sys.argv = ["-m", "run"]
    sys.path[0] = os.getcwd()  # as `python -m` has it
    try:
        runpy._run_module_as_main("bot.cli")  # type: ignore[attr-defined]  # what -m calls
    except SystemExit as done:
        code = done.code
    else:
        code = None
    _exit_without_teardown(code)


def _exit_without_teardown(code: object) -> None:
    """Exit as the interpreter would, but for its teardown: a forked child freeing every
    object it inherited writes to each page of the forker's heap (copy-on-write), half a
    second of a core per bot with nothing to show for it. What that teardown could show is
    still done: garbage collected (a ``__del__``'s warning, an unclosed session's), the exit
    handlers run (logging's flush), the streams flushed, SystemExit's code and message, and
    first, as the interpreter does, threads still running are waited for (a hang shows)."""
    import atexit
    import gc

    threading._shutdown()  # type: ignore[attr-defined]
    gc.collect()
    atexit._run_exitfuncs()
    if code is not None and not isinstance(code, int):
        print(code, file=sys.stderr)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(0 if code is None else code if isinstance(code, int) else 1)


class Forked:
    """A bot forked by :class:`Forker`: what the tests use of :class:`subprocess.Popen`."""

    def __init__(self, forker: Forker, pid: int) -> None:
        self.forker, self.pid = forker, pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = self.forker.exit_code(self.pid, 0)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            self.returncode = self.forker.exit_code(self.pid, timeout)
            if self.returncode is None:
                raise subprocess.TimeoutExpired(f"bot {self.pid}", timeout or 0)
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:  # (its pid is not reused before it is reported reaped)
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class Forker:
    """The tests' end of the forking process."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env
        ours, theirs = socket.socketpair()
        self.process = subprocess.Popen(
            [sys.executable, "-c", f"import socket, sys; sys.path.insert(0, {TESTS!r}); "
             f"import bot_fork; sys.path.remove({TESTS!r}); "  # not on the bots' path
             f"bot_fork.serve(socket.socket(fileno={theirs.fileno()}))"],
            env=env, pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL,
        )  # fmt: skip
        theirs.close()
        self.channel = ours
        self.lines = ours.makefile("rb")
        self.exits: dict[int, int] = {}
        self.pids: list[int] = []
        self.gone = False  # the forker has exited: nothing more will be reported
        self.changed = threading.Condition()
        self.requesting = threading.Lock()
        assert json.loads(self.lines.readline()) == {"ready": True}, "the forker never started"
        threading.Thread(target=self._read, daemon=True, name="bot-forker").start()
        atexit.register(self.close)

    def close(self) -> None:
        """Let the forker go, and reap it (so its children's CPU time counts in ours)."""
        atexit.unregister(self.close)
        with contextlib.suppress(OSError):  # (closed already, if the forker went first)
            self.channel.shutdown(socket.SHUT_WR)
        self.process.wait(10)

    def _read(self) -> None:
        for line in self.lines:
            message = json.loads(line)
            with self.changed:
                if "pid" in message:
                    self.pids.append(message["pid"])
                else:
                    self.exits[message["exit"]] = message["code"]
                self.changed.notify_all()
        self.lines.close()  # the forker has gone: its end of the channel too
        self.channel.close()
        with self.changed:
            self.gone = True
            self.changed.notify_all()

    def spawn(self, env: dict[str, str], log: int) -> Forked:
        with self.requesting, self.changed:
            socket.send_fds(self.channel, [json.dumps(env).encode()], [log])
            self.changed.wait_for(lambda: self.pids or self.gone, 30)
            assert self.pids, "the forker has gone"
            return Forked(self, self.pids.pop(0))

    def exit_code(self, pid: int, timeout: float | None) -> int | None:
        with self.changed:
            self.changed.wait_for(lambda: pid in self.exits or self.gone, timeout)
            assert pid in self.exits or not self.gone, f"the forker went before bot {pid}"
            return self.exits.get(pid)


_FORKER: Forker | None = None


def forker(env: dict[str, str]) -> Forker | None:
    """This process's forker, for a bot whose environment starts the interpreter as the
    forker's did (the same PYTHONPATH; no coverage measurement, which starts with the
    interpreter); else None: that bot is started afresh."""
    global _FORKER
    if any(name.startswith("COVERAGE_") for name in env):
        return None
    if _FORKER is None or _FORKER.process.poll() is not None:
        from bot_process import clean_env

        _FORKER = Forker(clean_env())
    if env.get("PYTHONPATH") != _FORKER.env.get("PYTHONPATH"):
        return None
    return _FORKER
