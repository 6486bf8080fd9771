"""Recording shared results: pasted shares and the official Wordle app's recaps.

Every front end (the share channels, the "Analyze Wordle result" and "Record results" menus,
the console) records through these two functions, and the database decides which share
counts (:mod:`bot.storage.shares`: the current puzzle only, one result per game per player
per puzzle day, a number in the plausible range). What a message is counted for is a
function of the message, its day (``posted``: the day it was posted, in the deployment's
zone, see :func:`posting_day`) and who it names, never of when it is read: reading a
channel's history later counts what reading it live did.

Who is credited: a share, its poster; a recap of the Wordle app, the players it mentions by
id, and a plain ``@Name`` only when exactly one member of that server has that display name
when the recap is read, within :data:`NAMES_FRESH` of its posting (no name is remembered:
whoever takes a name later is never credited under it).

Read from a channel (live, by /import, or the "Record results" menu), a message also carries
its :class:`Moment`: a player who deleted their data since it was posted is not credited
with it (:mod:`bot.services.deletion`); nobody is told, and the import counts it as refused.
A recap's line reports a game played on its puzzle's day, before the recap: it counts
nothing for a player who deleted their data after that day began, however late it came.
Its moment also orders a player's messages of one puzzle: one older than the message recorded
changes nothing (:mod:`bot.storage.shares`); with no message (the console), it is now.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta, tzinfo

from bot.i18n import N_, _, format_number, ngettext
from bot.services.deletion import player_mark
from bot.storage import Storage
from bot.storage.cooldowns import stamp
from bot.storage.shares import FORGOTTEN, REFUSED, current_numbers, newest_number
from engine.app_results import NYT_EPOCH, parse_app_results
from engine.shares import Share
from engine.shares.clones import CLONE_GAMES
from engine.variants import is_language_list, variant_names

MAX_SHARES_PER_MESSAGE = 3  # a message's first shares are read, the rest are not
MAX_MESSAGE = 4000  # a Discord message's length
NAMES_FRESH = timedelta(days=1)  # a recap's plain @names are matched only this long
MAX_USER_ID = 2**63 - 1  # a Discord id is a 64-bit snowflake, stored signed
# What recording a share did, by the storage's outcome.
RECORDED = {
    "new": N_("{game} #{number}: recorded (see /stats)"),
    "same": N_("{game} #{number}: already recorded (see /stats)"),
    "replaced": N_("{game} #{number}: updated (see /stats)"),
}
# The outcomes that change what counts, and where: a live board that showed the player may
# show them no more (a correction posted in another server moves the share there).
CHANGED = {"new", "replaced"}


def posting_day(posted_at: datetime, zone: tzinfo) -> date:
    """The puzzle day of a message posted at ``posted_at``: its date in the deployment's zone
    (the day the bot's own dailies change)."""
    return posted_at.astimezone(zone).date()


EARLIEST_ZONE = timedelta(hours=14)  # UTC+14: where a calendar day begins first


def earliest_start(day: date) -> datetime:
    """When puzzle day ``day`` first begins anywhere (UTC+14): a NYT puzzle is each player's
    own local day, so a game of it may have been played from then."""
    return datetime.combine(day, time(), UTC) - EARLIEST_ZONE


@dataclass(frozen=True)
class Moment:
    """When a message was posted (its last edit, if any), with the key of the deployment's
    deletion marks (None: the player records their own message themself, unchecked)."""

    at: datetime
    key: bytes | None = None

    def forgotten(self, player_id: int, played_on: date | None = None) -> tuple[str, str]:
        """What the storage asks of a result of ``player_id`` in this message: the player's
        mark, and the moment a deletion at or after which leaves it uncounted. A share: the
        message's (posted before the deletion). A recap's line, of a game ``played_on`` a
        day: that day's first start anywhere, or the message's if earlier (the game may have
        come before the deletion in the player's own zone, whatever the deployment's)."""
        assert self.key is not None
        moment = self.at if played_on is None else min(self.at, earliest_start(played_on))
        return player_mark(self.key, player_id), stamp(moment)


def posted_at(moment: Moment | None) -> datetime | None:
    """When a share's message was posted (None: now, there is none)."""
    return None if moment is None else moment.at


def forgotten(
    moment: Moment | None, player_id: int, played_on: date | None = None
) -> tuple[str, str] | None:
    """The one check every result read from a channel goes through (None: recorded by its
    player); ``played_on``: the day a recap's line reports a game of (see
    :meth:`Moment.forgotten`)."""
    if moment is None or moment.key is None:
        return None
    return moment.forgotten(player_id, played_on)


@dataclass
class Recording:
    """What recording a message's shares did: a line for each share, in order, and the
    lines about what was refused (to be told to the poster privately)."""

    notes: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    # Each share's outcome (the storage's, or "unreadable", "over the cap"), for /import.
    outcomes: list[str] = field(default_factory=list)

    def refuse(self, line: str, outcome: str = "unreadable") -> None:
        self.notes.append(line)
        self.refused.append(line)
        self.outcomes.append(outcome)


def refusal(game: str, puzzle: int, outcome: str, posted: date, title: str = "") -> str:
    """The plain line that says why a share of ``game`` #``puzzle`` (named ``title``) was not
    recorded (in the current locale)."""
    title = title or game.title()
    shown = format_number(puzzle) if abs(puzzle) < 10**12 else f"{str(puzzle)[:11]}…"
    name = f"{title} #{shown}"
    if outcome == "implausible":
        return _("{share}: not a puzzle number (0 to {newest} on {day}), not recorded").format(
            share=name, newest=format_number(newest_number(posted)), day=posted
        )
    if outcome == "not current":
        numbers = current_numbers(game, posted) or range(0)
        first, last = format_number(numbers[0]), format_number(numbers[-1])
        return _("{share}: only the current puzzle counts (#{first} to #{last} for a message of "
                 "{day}), not recorded").format(share=name, first=first, last=last,
                                                day=posted)  # fmt: skip
    if outcome == "one a day":
        return _("{share}: you already have a {game} result for {day}; one a day counts, not "
                 "recorded").format(share=name, game=title, day=posted)  # fmt: skip
    return _("{share}: already recorded on an earlier day, which only a share posted that day "
             "could correct; not changed").format(share=name)  # fmt: skip


async def record_shares(
    storage: Storage, player_id: int, name: str, shares: list[Share], *, scope: int,
    posted: date, moment: Moment | None = None,
) -> Recording:  # fmt: skip
    """Record each of a message's shares (its first :data:`MAX_SHARES_PER_MESSAGE`) to its
    poster's results, in server ``scope`` (0: direct messages), for a message posted on
    ``posted`` (at ``moment``; None: now); says what happened to each."""
    done = Recording()
    for share in shares[:MAX_SHARES_PER_MESSAGE]:
        title = share.title
        # A clone of another language counts as its language's Wordle of that length.
        game = share.word_list if share.word_list and is_language_list(share.word_list) else (
            share.game)  # fmt: skip
        if share.puzzle is None:
            done.refuse(_("{game}: no puzzle number, not recorded").format(game=title))
            continue
        if not share.recordable:
            done.refuse(_("{game} #{number}: not recorded (only the daily puzzle, with a grid "
                          "that backs up the header, is recorded)").format(
                game=title, number=share.puzzle))  # fmt: skip
            continue
        solved = all(b.solved for b in share.boards)
        guesses = max((b.guesses or 0) for b in share.boards) if solved else 0
        grid = "|".join(",".join(str(p) for p in b.rows) for b in share.boards)
        outcome = await storage.record_share(player_id, game, share.puzzle, solved,
                                             guesses, share.hard, grid, scope=scope,
                                             today=posted, name=name,
                                             forgotten=forgotten(moment, player_id),
                                             posted_at=posted_at(moment))  # fmt: skip
        if outcome == FORGOTTEN:  # nothing to say: the poster's old message counts nothing
            done.outcomes.append(outcome)
            continue
        if outcome in REFUSED:
            done.refuse(refusal(game, share.puzzle, outcome, posted, title), outcome)
            continue
        done.notes.append(_(RECORDED[outcome]).format(game=title, number=share.puzzle))
        done.outcomes.append(outcome)
    if len(shares) > MAX_SHARES_PER_MESSAGE:
        skipped = len(shares) - MAX_SHARES_PER_MESSAGE
        line = _("Only a message's first {most} shares are read: {count} more not recorded")
        done.refuse(line.format(most=MAX_SHARES_PER_MESSAGE, count=skipped), "over the cap")
        done.outcomes += ["over the cap"] * (skipped - 1)  # one share, one outcome
    return done


def _recorded_as(game: str) -> list[str]:
    """Where a share named ``game`` is recorded: its own name, or for another language's
    clone (``sutom``) each of its language's Wordle lists."""
    clone = CLONE_GAMES.get(game)
    if clone is None:
        return [game]
    return [name for name in variant_names() if name.startswith(f"wordle-{clone.language}-")]


async def unshare(storage: Storage, player_id: int, game: str, puzzle: str | int) -> str:
    """Take back a result the player recorded from a share (``/mydata unshare``): what to
    tell them."""
    number = str(puzzle).strip().lstrip("#").replace(",", "")
    if not number.isdigit() or len(number) > 9:
        return _("Not a puzzle number: {text}").format(text=repr(str(puzzle)[:20]))
    removed = False
    for key in _recorded_as(game.lower()[:20]):
        removed = await storage.remove_share(player_id, key, int(number)) or removed
    return _("Removed.") if removed else _("No such recorded result.")


APP_NOT_RECAP = N_("This is not a results message from the Wordle app: nothing recorded.")


async def record_app_results(
    storage: Storage, guild_id: int, text: str, posted: date,
    members: Sequence[tuple[int, str]] = (), *, age: timedelta = timedelta(0),
    outcomes: list[str] | None = None, moment: Moment | None = None,
) -> list[str]:  # fmt: skip
    """Record each player's result from the official Wordle app's daily recap, posted on
    ``posted`` (the app's "yesterday" is the day before) and read ``age`` after it was
    posted. Players are mentions, or plain names matched to the one member of the server
    with that display name (``members``: the server's members now, by id and display name);
    a name that fits nobody or several, or read after :data:`NAMES_FRESH`, credits nobody.
    Recording the same recap twice changes nothing: a player's result for a puzzle is one
    row however it arrived. ``outcomes`` (/import) receives each player's outcome. A player
    who deleted their data after the puzzle's day began is left out, unsaid (their game was
    before it, whenever the recap is posted or read; ``moment``: the message's)."""
    said = [] if outcomes is None else outcomes
    parsed = parse_app_results(text[:MAX_MESSAGE])
    if parsed.kind != "recap":
        return [_(APP_NOT_RECAP)]
    puzzle = parsed.puzzle_for(posted)
    if puzzle is None:
        return [_("This recap does not say which day it is about: nothing recorded.")]
    played_on = NYT_EPOCH + timedelta(days=puzzle)  # the day its lines' games were played
    named = {member_id: name for member_id, name in members}
    notes, counts = list(parsed.problems), {"new": 0, "same": 0, "replaced": 0}
    for result in parsed.results:
        if result.user_id is not None:
            player, name = result.user_id, named.get(result.user_id, "")
            if not 0 < player <= MAX_USER_ID:
                notes.append(_("{user}: not a Discord user, not recorded").format(
                    user=f"<@{player}>"[:30]))  # fmt: skip
                said.append("unreadable")
                continue
        else:
            wanted = (result.name or "").casefold()
            fits = {i for i, n in members if n.casefold() == wanted}
            if age > NAMES_FRESH or len(fits) != 1:
                why = (UNMATCHED["late"] if age > NAMES_FRESH
                       else UNMATCHED["several"] if fits else UNMATCHED["none"])  # fmt: skip
                notes.append(_(why).format(name=f"@{result.name}"))
                said.append("unmatched")
                continue
            player, name = fits.pop(), result.name or ""
        outcome = await storage.record_share(player, "wordle", puzzle, result.won,
                                             result.guesses, False, "app", scope=guild_id,
                                             today=posted, name=name,
                                             forgotten=forgotten(moment, player, played_on),
                                             posted_at=posted_at(moment))  # fmt: skip
        if outcome == FORGOTTEN:  # named by nobody: not even "not recorded"
            said.append(outcome)
            continue
        if outcome in REFUSED:
            notes.append(
                _("{user}: {refusal}").format(
                    user=f"<@{player}>", refusal=refusal("wordle", puzzle, outcome, posted)
                )
            )
            said.append(outcome)
            continue
        counts[outcome] += 1
        said.append(outcome)
    recorded = counts["new"] + counts["replaced"]
    # Translators: English keeps "results" for every count (tests read it so); give each
    # plural form of your language.
    notes.insert(0, ngettext(
        "Wordle #{number}: {count} results recorded, {same} already recorded (see /stats)",
        "Wordle #{number}: {count} results recorded, {same} already recorded (see /stats)",
        recorded,
    ).format(number=puzzle, count=recorded, same=counts["same"]))  # fmt: skip
    return notes


# Why a plain @name in a recap credits nobody.
UNMATCHED = {
    "late": N_("{name} is matched only within a day of the recap: not recorded (they can "
               "record their own share with the Analyze menu)"),
    "several": N_("{name} fits several members: not recorded (they can record their own "
                  "share with the Analyze menu)"),
    "none": N_("{name} fits no member: not recorded (they can record their own share with "
               "the Analyze menu)"),
}  # fmt: skip
