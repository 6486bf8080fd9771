"""What ``/help`` says, in Discord and in the console: the commands grouped by what a player
wants to do, one line each. One list for both front ends, so they cannot drift apart; each
entry says where it works (Discord, the console, or both)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Front = Literal["discord", "console"]
BOTH: tuple[Front, ...] = ("discord", "console")


@dataclass(frozen=True)
class Entry:
    usage: str  # the command as typed, its options in Discord's names
    line: str
    fronts: tuple[Front, ...] = BOTH


@dataclass(frozen=True)
class Section:
    title: str
    entries: tuple[Entry, ...]


def _discord(usage: str, line: str) -> Entry:
    return Entry(usage, line, ("discord",))


def _console(usage: str, line: str) -> Entry:
    return Entry(usage, line, ("console",))


SECTIONS = (
    Section("Play a game", (
        Entry("/wordle daily", "today's Wordle, the same for everyone"),
        Entry("/wordle practice mode:hard", "a Wordle of your own, any time"),
        Entry("/primel daily", "guess the 5-digit prime (/primel practice, /primel archive)"),
        Entry("/wordle archive number:1000", "a past daily you have not played"),
        Entry("/absurdle", "Wordle against an adversary that dodges"),
        Entry("/dordle, /quordle, /octordle", "two, four or eight boards at once"),
        Entry("/guess word:crane", "play a word in your game"),
        Entry("/giveup", "end your game and see the answer"),
    )),
    Section("Get help with a game", (
        Entry("/hint", "what is left and the best next guesses, privately"),
        Entry("/hint history:crane 01002", "the same for a game played elsewhere"),
        Entry("/analyze paste:...", "read a pasted share, turn by turn"),
        _discord("Apps > Analyze Wordle result", "the same, on a message"),
        Entry("/coach", "your last game's skill and luck, turn by turn"),
        Entry("/hardmode", "is hard mode harder? our study"),
    )),
    Section("Play with others", (
        Entry("/race", "race everyone here on one word"),
        Entry("/raceboard", "this server's best racers"),
        _console("/join, /start", "join the race here; the host starts it"),
        Entry("/coop start", "one shared board for the channel (/coop board, /coop end)"),
        _console("/cg word", "guess on the channel's shared board"),
        Entry("/challenge word:crane", "a word of your own for others"),
        _console("/play id", "play a challenge (yours: its results)"),
    )),
    Section("See how you are doing", (
        Entry("/stats game:quordle", "played, win %, streaks, distribution"),
        Entry("/streak", "your current and best daily streak"),
        Entry("/leaderboard metric:wins period:week", "who leads, here or everywhere"),
        _console("/digest day:2026-11-24", "a day's results at this terminal"),
    )),
    Section("Your settings and data", (
        Entry("/settings me colours:high-contrast", "orange and blue tiles"),
        _console("/colours high-contrast", "the same as /settings me colours"),
        Entry("/remind on", "a nudge if you have not played the daily (/remind off)"),
        Entry("/missing", "who asked to be reminded and has not played"),
        Entry("/mydata export", "all the bot keeps about you"),
        Entry("/mydata delete confirm:DELETE", "delete it all"),
        Entry("/mydata unshare game:wordle puzzle:1985", "take back a recorded share"),
        _console("/export", "the same as /mydata export"),
        _console("/as name", "hand the keyboard to another local player"),
    )),
    Section("Run a server (admins)", (
        Entry("/settings server", "time zone, hints, fail score, seasons, roles"),
        Entry("/sharechannel enabled:true", "count the shares posted here"),
        Entry("/digest channel", "post yesterday's results here daily (/digest off)"),
        Entry("/resetboard", "clear this server's leaderboard"),
        _discord("Apps > Record results", "count the Wordle app's recap"),
    )),
    Section("At the terminal", (
        _console("/help", "this list"),
        _console("/quit", "leave (your games are saved)"),
    )),
)  # fmt: skip


def help_text(front: Front) -> str:
    """The list for one front end: each section's title, then its commands, one a line."""
    lines = []
    for section in SECTIONS:
        entries = [e for e in section.entries if front in e.fronts]
        if not entries:
            continue
        lines.append(f"**{section.title}**" if front == "discord" else section.title)
        for entry in entries:
            usage = f"`{entry.usage}`" if front == "discord" else f"  {entry.usage}"
            lines.append(f"{usage}: {entry.line}")
    if front == "console":
        lines.append("A bare word is a guess in the game shown last. Options go by Discord's")
        lines.append("names (metric:wins) or by position (/leaderboard wins week).")
    return "\n".join(lines)
