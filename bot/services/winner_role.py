"""The winner's role: a role a server's admins name (``/digest role``) that the bot gives to
the day's winners (👑 in the digest: the best games of the server's own Wordle played with
the bot, one crown a server a day, never a pasted share, which anyone can type; chosen by
:meth:`bot.services.digest.DigestService.crown_kind`) and takes back at the next digest.

It moves with the digest, never before: the digest of a day is made once that day is over
everywhere and claimed once in the database (:mod:`bot.services.digest`), and the role is
given in that same run, so finishing first reveals nothing early and a day is crowned once
whatever the processes and restarts. Who holds the role by the bot's hand is recorded before
it is given (:mod:`bot.storage.winner_roles`), so the next digest takes it back from them
alone, in whichever process runs it; a member who holds it for another reason keeps it.

Taken back at once, not at the next digest, when no digest would ever come for it: from
every holder when the digest is turned off or the role unset (:func:`take_back`), and from a
player who deletes their data, whose records go with it (:func:`take_from_player`).

What Discord allows is the cog's to say (:class:`RoleDoor`): the bot needs Manage Roles, and
the role must sit below the bot's highest role, belong to no integration and not be
@everyone. A problem is said plainly, once, in the digest's channel; the digest is posted
whatever happens to the role.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from bot.i18n import N_, _
from bot.storage import Storage
from bot.storage.digests import DigestChannel

log = logging.getLogger("wordlebot.digest")

# What stops the bot from giving a role, by the code the cog reports (marked for the
# catalogs; translated where said).
PROBLEMS = {
    "manage_roles": N_(
        "The bot cannot give the winner's role: it needs the Manage Roles permission. Give it "
        "to the bot's role in Server Settings > Roles."
    ),
    "above": N_(
        "The bot cannot give the winner's role: that role is not below the bot's highest "
        "role. Drag the bot's role above it in Server Settings > Roles."
    ),
    "managed": N_(
        "The bot cannot give that role: it belongs to an integration (a bot, a booster or a "
        "subscription role). Pick or make an ordinary role."
    ),
    "everyone": N_("@everyone cannot be the winner's role: pick or make a role for it."),
    "unknown": N_(
        "The bot cannot give the winner's role: the role no longer exists. Choose another "
        "with /digest role."
    ),
    "refused": N_(
        "Discord refused to give the winner's role: check that the bot has Manage Roles and "
        "that its highest role is above the winner's role."
    ),
    # Said to who chose the role, never in the channel: the bot gives no more than they could.
    "yours": N_(
        "You cannot give that role yourself, so the bot will not give it for you: choose a "
        "role below your highest role (Manage Roles needed), or ask someone who can."
    ),
}


def problem_text(code: str) -> str:
    """A problem's sentence, in the current locale."""
    return _(PROBLEMS.get(code, PROBLEMS["refused"]))


class RoleRefused(Exception):
    """Discord would not (or did not) change the role: ``code`` is a key of PROBLEMS."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


class MemberGone(Exception):
    """The member left the server: nothing to give or take."""


class RoleDoor(Protocol):
    """What the bot may do with a server's roles (the cog, through Discord)."""

    async def problem(self, guild_id: int, role_id: int) -> str | None:
        """Why the role cannot be given now (a key of PROBLEMS), or None (also when the bot
        cannot tell: giving it then says)."""
        ...

    async def give(self, guild_id: int, player_id: int, role_id: int) -> None:
        """Raises :class:`MemberGone` or :class:`RoleRefused`."""
        ...

    async def take(self, guild_id: int, player_id: int, role_id: int) -> None:
        """Raises :class:`MemberGone` (also when the role is gone) or :class:`RoleRefused`."""
        ...


Say = Callable[[DigestChannel, str], Awaitable[None]]  # a line in the digest's channel


async def crown(storage: Storage, door: RoleDoor, say: Say, channel: DigestChannel, day: str,
                winners: set[int]) -> None:  # fmt: skip
    """Move the winner's role to ``winners`` for ``day``: take it back from the holders the
    bot gave it to (but those winning again), then give it to the rest of the winners.
    Safe to repeat (Discord's role changes are idempotent; the records follow them)."""
    store = storage.winner_roles
    guild = channel.guild_id
    role = await store.role(guild)
    holders = await store.holders(guild)
    if role is None and not holders:
        return
    latest = await store.latest_day(guild)
    if latest is not None and latest > day:  # a later day's digest moved it already
        return

    async def refused(code: str) -> None:
        if await store.said(guild, code):
            await say(channel, problem_text(code))

    problem = None if role is None else await door.problem(guild, role)
    if problem is not None:
        return await refused(problem)
    # Kept by those who won it before and win again. A record of this day may be of a give
    # that never happened (a stop between the record and Discord): given again (idempotent).
    keeping = {h.player_id for h in holders if h.role_id == role and h.day != day}
    try:
        for holder in holders:
            if holder.role_id == role and holder.player_id in winners:
                continue
            with contextlib.suppress(MemberGone):  # left: nothing to take
                await door.take(guild, holder.player_id, holder.role_id)
            await store.taken(guild, holder.player_id, holder.role_id)
        if role is None:
            return await store.solved(guild)
        for player_id in sorted(winners):
            if not await store.giving(guild, player_id, role, day):
                continue  # their data was deleted: no role, no record
            if player_id in keeping:
                continue  # still theirs
            try:
                await door.give(guild, player_id, role)
            except MemberGone:  # left the server: nothing to take back later
                await store.taken(guild, player_id, role)
                continue
            except RoleRefused:
                await store.taken(guild, player_id, role)
                raise
            if not await store.holds(guild, player_id, role):
                # They deleted their data meanwhile: their deletion took back what it saw,
                # this is taken back too (no record would ever let a digest do it).
                with contextlib.suppress(MemberGone):
                    await door.take(guild, player_id, role)
    except RoleRefused as exc:
        log.warning("winner's role of guild %s: %s", guild, exc.code)
        return await refused(exc.code)
    await store.solved(guild)


async def take_back(storage: Storage, door: RoleDoor, guild_id: int) -> tuple[int, str | None]:
    """Take the role back now from every member the bot gave it to in a server (its digest
    is off, or it has no role any more: no digest would). Returns how many lost it, and the
    problem (a key of PROBLEMS) that stopped it, if any: the holders left are kept on record,
    for the next digest or the next try."""
    store = storage.winner_roles
    count = 0
    for holder in await store.holders(guild_id):
        try:
            await _take(door, guild_id, holder.player_id, holder.role_id)
            count += 1
        except MemberGone:  # left, or the role is gone: nothing to take
            pass
        except RoleRefused as exc:
            log.warning("winner's role of guild %s not taken back: %s", guild_id, exc.code)
            return count, exc.code
        await store.taken(guild_id, holder.player_id, holder.role_id)
    return count, None


async def _take(door: RoleDoor, guild_id: int, player_id: int, role_id: int) -> None:
    """Take a role back, unless what the bot knows says Discord would refuse (never asked in
    vain: Discord counts refusals)."""
    problem = await door.problem(guild_id, role_id)
    if problem == "unknown":
        raise MemberGone
    if problem is not None:
        raise RoleRefused(problem)
    await door.take(guild_id, player_id, role_id)


async def take_from_player(door: RoleDoor, player_id: int, held: list[tuple[int, int]]) -> None:
    """Take back the roles ``held`` ((server, role), read in their deletion's transaction)
    from a player whose data is gone, with the records that would have let a digest do it.
    A refusal is logged: nothing is left to try again from."""
    for guild_id, role_id in held:
        try:
            await _take(door, guild_id, player_id, role_id)
        except MemberGone:
            pass
        except RoleRefused as exc:
            log.warning("winner's role of guild %s not taken back from a deleted player: %s",
                        guild_id, exc.code)  # fmt: skip
