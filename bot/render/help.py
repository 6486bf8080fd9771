"""What ``/help`` says, in Discord and in the console: the commands grouped by what a player
wants to do, one line each. One list for both front ends, so they cannot drift apart; each
entry says where it works (Discord, the console, or both)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.i18n import N_, _

Front = Literal["discord", "console"]
BOTH: tuple[Front, ...] = ("discord", "console")


@dataclass(frozen=True)
class Entry:
    usage: str  # the command as typed, its options in Discord's names (never translated)
    line: str  # marked for the catalogs, translated in help_text
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
    Section(N_("Play a game"), (
        Entry("/wordle daily", N_("today's Wordle, the same for everyone")),
        Entry("/wordle practice mode:hard", N_("a Wordle of your own, any time")),
        Entry("/primel daily", N_("guess the 5-digit prime (/primel practice, /primel archive)")),
        Entry("/wordle archive", N_("a past daily you have not played")),
        Entry("/absurdle", N_("Wordle against an adversary that dodges")),
        Entry("/dordle, /quordle, /octordle", N_("two, four or eight boards at once")),
        Entry("/guess word:crane", N_("play a word in your game")),
        Entry("/giveup", N_("end your game and see the answer")),
    )),
    Section(N_("Get help with a game"), (
        Entry("/hint", N_("what is left and the best next guesses, privately")),
        Entry("/hint history:crane 01002", N_("the same for a game played elsewhere")),
        Entry("/analyze paste:...", N_("read a pasted share, turn by turn")),
        _console("/analyze + paste", N_("a share of several lines, up to a command or a word")),
        _discord("Apps > Analyze Wordle result", N_("the same, on a message")),
        Entry("/coach", N_("your last game's skill and luck, turn by turn")),
        Entry("/hardmode", N_("is hard mode harder? our study")),
        Entry("/define", N_("what a word means")),
    )),
    Section(N_("Play with others"), (
        Entry("/race", N_("race everyone here on one word")),
        Entry("/raceboard", N_("this server's best racers")),
        _console("/join, /start", N_("join the race here; the host starts it")),
        Entry("/coop start", N_("one shared board for the channel (/coop board, /coop end)")),
        _console("/cg word", N_("guess on the channel's shared board")),
        Entry("/challenge", N_("a word of your own for others")),
        _console("/play id", N_("play a challenge (yours: its results)")),
    )),
    Section(N_("See how you are doing"), (
        Entry("/stats game:quordle", N_("played, win %, streaks, distribution")),
        Entry("/stats year:2026", N_("your year in review, as a picture")),
        Entry("/streak", N_("your current and best daily streak")),
        Entry("/leaderboard metric:wins", N_("who leads, here or everywhere")),
        _console("/digest day:2026-11-24", N_("a day's results at this terminal")),
    )),
    Section(N_("Your settings and data"), (
        Entry("/settings me colours:high-contrast", N_("orange and blue tiles")),
        _console("/colours high-contrast", N_("the same as /settings me colours")),
        Entry("/remind on", N_("a nudge if you have not played the daily (/remind off)")),
        Entry("/missing", N_("who asked to be reminded and has not played")),
        Entry("/mydata export", N_("all the bot keeps about you")),
        Entry("/mydata delete confirm:DELETE", N_("delete it all")),
        Entry("/mydata unshare", N_("take back a recorded share")),
        _console("/export", N_("the same as /mydata export")),
        _console("/as name", N_("hand the keyboard to another local player")),
    )),
    Section(N_("Run a server (admins)"), (
        Entry("/settings server", N_("time zone, hints, fail score, seasons, roles")),
        Entry("/sharechannel enabled:true", N_("count the shares posted here")),
        Entry("/import since:2026-01-01", N_("count the shares posted here before")),
        Entry("/digest channel", N_("post yesterday's results here daily (/digest off)")),
        Entry("/digest role", N_("a role for each day's winners")),
        Entry("/liveboard channel", N_("today's results, live (/liveboard off)")),
        Entry("/resetboard", N_("clear this server's leaderboard")),
        _discord("Apps > Record results", N_("count the Wordle app's recap")),
    )),
    Section(N_("At the terminal"), (
        _console("/help", N_("this list")),
        _console("/quit", N_("leave (your games are saved)")),
    )),
)  # fmt: skip


def help_text(front: Front) -> str:
    """The list for one front end: each section's title, then its commands, one a line."""
    lines = []
    for section in SECTIONS:
        entries = [e for e in section.entries if front in e.fronts]
        if not entries:
            continue
        heading = _(section.title)
        lines.append(f"**{heading}**" if front == "discord" else heading)
        for entry in entries:
            usage = f"`{entry.usage}`" if front == "discord" else f"  {entry.usage}"
            lines.append(f"{usage}: {_(entry.line)}")
    if front == "console":
        # Translators: two lines of a terminal's help; keep the line break where it reads well.
        lines.append(_("A bare word is a guess in the game shown last. Options go by Discord's\n"
                       "names (metric:wins) or by position (/leaderboard wins week)."))  # fmt: skip
    return "\n".join(lines)
