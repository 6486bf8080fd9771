"""The daily digest's channel: /digest channel and /digest off (a server's admins'). What a
digest holds and when it is posted is :mod:`bot.services.digest`'s."""

from __future__ import annotations

from bot.commands.admin import here, server_refusal
from bot.commands.model import Caller, ChannelId, Param, Reply, command
from bot.i18n import _
from bot.services import Services


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


@command("digest off")
async def off(services: Services, caller: Caller) -> Reply:
    refusal = server_refusal(caller, manage=True)
    if refusal is not None:
        return refusal
    assert caller.guild_id is not None
    await services.storage.digests.set_channel(caller.guild_id, None, None)
    return Reply(_("The daily digest is off."), private=True)
