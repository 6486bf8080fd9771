"""The ramp: one real `wordlebot run` process against the Discord stand-in, offered more
interactions per second step by step until replies miss the target (p99 over a second, or any
reply past Discord's 3-second window, or any lost). `wordlebot bench discord` runs it.

Load is open-loop, as Discord's is: interactions are sent on a fixed schedule whatever the
bot's replies do, so a slow bot meets a growing queue instead of a slower sender. Players
take turns (many players, each acting every few seconds), starting a practice Wordle and
typing guesses, which is what a busy evening is made of.
"""

from __future__ import annotations

import asyncio
import os
import random
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot_process import GUILDS, BotProcess, command, started
from discord_server import DiscordServer

from engine.variants import get_variant

TARGET_P99 = 1.0  # seconds, from the interaction's dispatch to the reply a player sees
WINDOW = 3.0  # Discord's window for the first answer


@dataclass
class Step:
    rate: int  # interactions offered per second
    seconds: float
    latencies: list[float] = field(default_factory=list)  # to the answer the player sees
    first: list[float] = field(default_factory=list)  # to the first answer (3 s rule)
    lost: int = 0
    accepted: int = 0  # guesses the bot took
    cpu: float = 0.0  # seconds of CPU the bot process used (all its threads)
    stand_in_cpu: float = 0.0  # and this process: the stand-in and the load it sends

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(len(ordered) * p))] if ordered else float("inf")

    @property
    def late(self) -> int:
        return sum(1 for t in self.first if t > WINDOW)

    @property
    def held(self) -> bool:
        return self.lost == 0 and self.late == 0 and self.percentile(0.99) <= TARGET_P99

    def line(self) -> str:
        if not self.latencies:
            return f"{self.rate:>5}/s  nothing answered, {self.lost} lost"
        return (
            f"{self.rate:>5}/s  sent {len(self.latencies) + self.lost:>5}"
            f"  p50 {self.percentile(0.5) * 1000:>5.0f} ms"
            f"  p99 {self.percentile(0.99) * 1000:>5.0f} ms"
            f"  max {max(self.latencies) * 1000:>5.0f} ms  past 3 s {self.late}  lost {self.lost}"
            f"  guesses taken {self.accepted / self.seconds:>4.0f}/s"
            f"  bot CPU {self.cpu * 1000 / max(1, len(self.latencies)):.1f} ms each"
            f" (stand-in {self.stand_in_cpu * 1000 / max(1, len(self.latencies)):.1f})"
            f"  {'held' if self.held else 'MISSED'}"
        )


class Players:
    """Players in turn: each starts a practice game, guesses until it ends, starts again."""

    def __init__(self, count: int, seed: int = 7) -> None:
        self.words = get_variant("wordle").guesses.words
        self.rng = random.Random(seed)
        self.count = count
        self.turn = 0
        self.guesses = [-1] * count  # -1: no game yet

    def next(self) -> tuple[dict[str, Any], bool]:
        """The next interaction to send, and whether it is a guess."""
        n = self.turn % self.count
        self.turn += 1
        user, guild = 50_000 + n, GUILDS[n % len(GUILDS)]
        if self.guesses[n] < 0 or self.guesses[n] >= 6:
            self.guesses[n] = 0
            return command("wordle", "practice", user_id=user, guild=guild), False
        self.guesses[n] += 1
        word = self.rng.choice(self.words)
        return command("guess", user_id=user, guild=guild, word=word), True


def cpu_seconds(pid: int) -> float:
    """User and system time of a process so far (Linux's /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def run_step(
    server: DiscordServer, players: Players, rate: int, seconds: float, pid: int
) -> Step:
    step = Step(rate, seconds)
    cpu, own = cpu_seconds(pid), cpu_seconds(os.getpid())
    begin = time.perf_counter()
    tasks = []

    async def one(payload: dict[str, Any], guess: bool) -> None:
        try:
            reply = await server.interact(payload, timeout=15.0, settle=True)
        except TimeoutError:
            step.lost += 1
            return
        step.first.append(reply.latency or 0.0)
        step.latencies.append(reply.settled_latency or reply.latency or 0.0)
        if guess and reply.accepted:
            step.accepted += 1

    for i in range(int(rate * seconds)):
        delay = begin + i / rate - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(one(*players.next())))
    await asyncio.gather(*tasks)
    step.cpu = cpu_seconds(pid) - cpu
    step.stand_in_cpu = cpu_seconds(os.getpid()) - own
    return step


async def ramp(
    rates: Sequence[int], seconds: float, players: int, database: str | None,
    say: Callable[[str], None] = print,
) -> list[Step]:  # fmt: skip
    """Each rate in turn until one misses the target; the steps measured."""
    server = DiscordServer(GUILDS, validate=False)  # the bot is measured, not the stand-in
    await server.start()
    with tempfile.TemporaryDirectory() as folder:
        url = database or f"sqlite:///{Path(folder) / 'ramp.sqlite3'}"
        bot = BotProcess(server, url)
        try:
            await started(server, bot)
            crowd = Players(players)
            say(f"warming up: {players} players start a game")
            warm = await run_step(server, crowd, 100, players / 100, bot.process.pid)
            if warm.lost:
                say(f"warm-up lost {warm.lost} interactions")
            await asyncio.sleep(2.0)
            steps = []
            for rate in rates:
                server.violations.clear()
                step = await run_step(server, crowd, rate, seconds, bot.process.pid)
                steps.append(step)
                say(step.line())
                if not step.held:
                    break
                await asyncio.sleep(1.0)  # let the queue drain between steps
        finally:
            code, err = await bot.stop(prompt=False)  # overloaded: work may be left
            await server.stop()
        if code != 0:
            say(f"the bot exited with status {code}: {err[-1500:]}")
    return steps


def first_start_done(cache: Path) -> bool:
    """Whether every exact tree a first start searches is in ``cache`` (or noted as too long
    to search): its background work is over, whichever process did it."""
    from bot.discord_bot import first_start_trees
    from engine.solver.exact import preset
    from engine.solver.exact_trees import tree_path, unfinished_path

    for name, mode in first_start_trees():
        variant, settings = get_variant(name), preset(get_variant(name), mode)
        if not any(where(variant, mode, settings, cache).exists()
                   for where in (tree_path, unfinished_path)):  # fmt: skip
            return False
    return True


def trees_made(cache: Path) -> str:
    """The trees a first start wrote: each one's size, and the time since the file before it
    in the cache (a tree's search, with the matrix it built first)."""
    files = sorted(cache.iterdir(), key=lambda f: f.stat().st_mtime)
    lines, last = [], files[0].stat().st_mtime if files else 0.0
    for f in files:
        if f.name.startswith("tree-"):
            when = f.stat().st_mtime
            lines.append(f"  {f.name.rsplit('-', 1)[0]}: {f.stat().st_size / 1024:.0f} KiB, "
                         f"{when - last:.1f} s")  # fmt: skip
            last = when
    total = sum(f.stat().st_size for f in files if f.name.startswith("tree-"))
    whole = sum(f.stat().st_size for f in files)
    return (f"{len(lines)} trees, {total / 2**20:.1f} MiB (the cache: {whole / 2**20:.0f} MiB)"
            ", each with the seconds since the file before it:\n" + "\n".join(lines))  # fmt: skip


def pooled(steps: Sequence[Step]) -> Step:
    whole = Step(steps[0].rate if steps else 0, sum(s.seconds for s in steps))
    for step in steps:
        whole.latencies += step.latencies
        whole.first += step.first
        whole.lost += step.lost
        whole.accepted += step.accepted
        whole.cpu += step.cpu
        whole.stand_in_cpu += step.stand_in_cpu
    return whole


async def first_start(
    rate: int, seconds: float, players: int, database: str | None, after_steps: int = 8,
    say: Callable[[str], None] = print,
) -> tuple[Step, Step]:  # fmt: skip
    """One bot process with an empty cache, which searches every exact tree of a first start
    in the background: the same load (``rate`` interactions a second, in steps of
    ``seconds``) while that work runs and after it (as many steps, at most ``after_steps``).
    Both measured, pooled."""
    server = DiscordServer(GUILDS, validate=False)
    await server.start()
    with tempfile.TemporaryDirectory() as folder:
        cache = Path(folder) / "cache"
        url = database or f"sqlite:///{Path(folder) / 'ramp.sqlite3'}"
        bot = BotProcess(server, url, build_trees="true", wordlebot_cache_dir=str(cache))
        pid = bot.process.pid
        try:
            await started(server, bot)
            crowd = Players(players)
            await run_step(server, crowd, rate, players / rate, pid)  # every player starts
            during: list[Step] = []
            began = time.perf_counter()
            while not first_start_done(cache):
                during.append(await run_step(server, crowd, rate, seconds, pid))
                say(f"during  {during[-1].line()}")
            say(f"the first start's background work ended after {time.perf_counter() - began:.0f} s"
                " of load")  # fmt: skip
            say(trees_made(cache))
            after = []
            for _ in range(min(max(1, len(during)), after_steps)):
                after.append(await run_step(server, crowd, rate, seconds, pid))
                say(f"after   {after[-1].line()}")
        finally:
            code, err = await bot.stop(prompt=False)
            await server.stop()
        if code != 0:
            say(f"the bot exited with status {code}: {err[-1500:]}")
    return pooled(during), pooled(after)


def summary(steps: list[Step]) -> str:
    held = [s.rate for s in steps if s.held]
    broke = next((s for s in steps if not s.held), None)
    best = f"held up to {max(held)}/s" if held else "held at no rate tried"
    if broke is None:
        return f"{best}; never missed the target in the rates tried"
    return f"{best}; broke at {broke.rate}/s (p99 {broke.percentile(0.99) * 1000:.0f} ms)"
