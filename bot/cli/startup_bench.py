"""``wordlebot bench startup``: how long the light subcommands take as whole processes,
beside ``python -c pass`` (the interpreter's own start-up), measured in turn in the same run.

Each process is this checkout's CLI started the way the installed ``wordlebot`` script
starts it (``from bot.cli import main``), so the figures hold for the code at hand whatever
is on PATH. Wall time is read around the process, CPU time from the kernel's accounting of
the finished child (``os.wait4``): on a busy machine CPU time is the steadier figure.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any

SCRIPT = "import sys; from bot.cli import main; sys.exit(main())"  # the installed script
SHARE = "Wordle 1,000 3/6\n\n⬛🟨⬛⬛⬛\n🟩⬛🟩⬛⬛\n🟩🟩🟩🟩🟩\n"
# (label, arguments after the interpreter, standard input)
COMMANDS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("python -c pass", ("-c", "pass"), ""),
    ("wordlebot --help", ("-c", SCRIPT, "--help"), ""),
    ("wordlebot score", ("-c", SCRIPT, "score", "crane", "slate"), ""),
    ("wordlebot check", ("-c", SCRIPT, "check", "crane", "--history", "slate:00202"), ""),
    ("wordlebot parse", ("-c", SCRIPT, "parse"), SHARE),
)


def run_once(arguments: tuple[str, ...], stdin: str) -> tuple[float, float, int]:
    """One process: wall seconds, CPU seconds (user + system) and its exit status."""
    began = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, *arguments],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    assert process.stdin is not None
    process.stdin.write(stdin.encode())
    process.stdin.close()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - began
    process.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
    return wall, usage.ru_utime + usage.ru_stime, process.returncode


def bench_startup(runs: int = 20, warmup: int = 2) -> dict[str, Any]:
    """Every command ``runs`` times, in turn (A B C A B C ...) after ``warmup`` rounds, so a
    change in the machine's speed falls on all of them alike."""
    walls: dict[str, list[float]] = {label: [] for label, _, _ in COMMANDS}
    cpus: dict[str, list[float]] = {label: [] for label, _, _ in COMMANDS}
    for round_ in range(warmup + runs):
        for label, arguments, stdin in COMMANDS:
            wall, cpu, status = run_once(arguments, stdin)
            if status != 0:
                raise RuntimeError(f"{label} exited with status {status}")
            if round_ >= warmup:
                walls[label].append(wall)
                cpus[label].append(cpu)
    base_wall = statistics.median(walls[COMMANDS[0][0]])
    base_cpu = statistics.median(cpus[COMMANDS[0][0]])
    rows = []
    for label, _, _ in COMMANDS:
        wall, cpu = statistics.median(walls[label]), statistics.median(cpus[label])
        rows.append({"command": label, "wall_s": round(wall, 4), "cpu_s": round(cpu, 4),
                     "max_wall_s": round(max(walls[label]), 4),
                     "wall_vs_python": round(wall / base_wall, 2),
                     "cpu_vs_python": round(cpu / base_cpu, 2)})  # fmt: skip
    return {"runs": runs, "python": sys.version.split()[0], "commands": rows}


def cmd_bench_startup(args: argparse.Namespace) -> int:
    figures = bench_startup(args.runs)
    if args.json:
        print(json.dumps(figures))
        return 0
    print(f"start-up, median of {figures['runs']} runs each, in turn (Python {figures['python']}):")
    print(f"  {'command':<18} {'wall s':>7} {'cpu s':>7} {'max wall':>9}  {'wall, cpu vs python'}")
    for row in figures["commands"]:
        print(f"  {row['command']:<18} {row['wall_s']:>7.3f} {row['cpu_s']:>7.3f} "
              f"{row['max_wall_s']:>9.3f}  {row['wall_vs_python']:>5.2f}x "
              f"{row['cpu_vs_python']:>5.2f}x")  # fmt: skip
    return 0
