"""The daily digest's channel and the winner's role: /digest channel, /digest off and
/digest role (a server's admins'). What a digest holds and when it is posted is
:mod:`bot.services.digest`'s; how the role moves, :mod:`bot.services.winner_role`'s."""

from __future__ import annotations

from bot.commands.admin import here, server_refusal
from bot.commands.model import Caller, ChannelId, Param, Reply, RoleId, command
from bot.i18n import _, ngettext
from bot.services import Services
from bot.services.winner_role import RoleDoor, problem_text, take_back


@command("digest channel", Param("channel", ChannelId))
async def channel(services: Services, caller: Caller, channel: ChannelId | None = None) -> Reply:
    """Post the digest in ``channel`` (by default where the command is used). The console
    keeps the choice for its own server; a terminal gets no posts."""
    refusal = server_refusal(caller, manage=True)
    if refusal is not None:
        return refusal
    assert caller.guild_id is not None
    target = channel if channel is not None else here(caller)
    if target is None:
        return Reply.refuse(_("Choose a text channel for the digest."))
    await services.storage.digests.set_channel(caller.guild_id, target, caller.player.id)
    zone = (await services.storage.guild_settings(caller.guild_id)).timezone
    zone = zone or services.daily.zone.key
    if caller.front == "console":
        sentences = [
            _("The console's server has its digest on: due each day a few minutes after "
              "midnight ({zone}; change it with /settings server timezone), once that day's "
              "puzzle is over everywhere.").format(zone=zone),
            _("A terminal gets no posts: /digest DAY shows a day's digest here."),
        ]  # fmt: skip
    else:
        sentences = [
            _("Each day's digest will be posted in {channel} a few minutes after midnight "
              "({zone}; change it with /settings server timezone), once that day's puzzle is "
              "over everywhere.").format(channel=f"<#{target}>", zone=zone),
        ]  # fmt: skip
    sentences.append(_("/digest off stops it."))
    return Reply(" ".join(sentences), private=True)


async def _taken_back(services: Services, guild_id: int, door: RoleDoor | None) -> list[str]:
    """Take the winner's role back now from those the bot gave it to (no digest will), and
    say so; ``door``: Discord's roles (the console has none)."""
    if door is None:
        return []
    count, problem = await take_back(services.storage, door, guild_id)
    said = []
    if count:
        said.append(ngettext("The bot took the winner's role back from {count} member it had "
                             "given it to.", "The bot took the winner's role back from {count} "
                             "members it had given it to.", count).format(count=count))  # fmt: skip
    if problem is not None:
        said.append(_(
            "The bot could not take the winner's role back from everyone it gave it to: it "
            "needs Manage Roles, and its highest role above the winner's role. Fix that and run "
            "this command again, or remove the role by hand."
        ))  # fmt: skip
    return said


@command("digest off")
async def off(services: Services, caller: Caller, door: RoleDoor | None = None) -> Reply:
    """No more digests; the winner's role, which moves with them, is taken back at once."""
    refusal = server_refusal(caller, manage=True)
    if refusal is not None:
        return refusal
    assert caller.guild_id is not None
    await services.storage.digests.set_channel(caller.guild_id, None, None)
    sentences = [_("The daily digest is off."), *await _taken_back(services, caller.guild_id, door)]
    return Reply(" ".join(sentences), private=True)


@command("digest role", Param("role", RoleId))
async def role(services: Services, caller: Caller, role: RoleId | None = None,
               role_problem: str | None = None, door: RoleDoor | None = None) -> Reply:  # fmt: skip
    """The winner's role: given to each day's winners (👑 in the digest), taken back at the
    next digest; no role: none given, and the holders lose it at once (``door``: Discord's
    roles). ``role_problem``: why the bot cannot give ``role`` (a key of
    :data:`~bot.services.winner_role.PROBLEMS`; Discord's cog knows)."""
    refusal = server_refusal(caller, manage=True)
    if refusal is not None:
        return refusal
    assert caller.guild_id is not None
    if role is not None and role == caller.guild_id:  # Discord's @everyone has the server's id
        role_problem = "everyone"
    if role_problem is not None:
        return Reply.refuse(problem_text(role_problem))
    store = services.storage.winner_roles
    await store.set_role(caller.guild_id, role)
    if role is None:
        sentences = [_("No winner's role."), *await _taken_back(services, caller.guild_id, door)]
        return Reply(" ".join(sentences), private=True)
    sentences = [_("{role} goes to each day's winners (👑 in the digest) and is taken back at "
                   "the next digest.").format(role=f"<@&{role}>")]  # fmt: skip
    if not any(c.guild_id == caller.guild_id for c in await services.storage.digests.channels()):
        sentences.append(_("It moves with the digest: choose its channel with /digest channel."))
    sentences.append(_("/digest role without a role stops it."))
    return Reply(" ".join(sentences), private=True)
