"""The daily digest's channel: /digest channel and /digest off (a server's admins'). What a
digest holds and when it is posted is :mod:`bot.services.digest`'s."""

from __future__ import annotations

from bot.commands.admin import here, server_refusal
from bot.commands.model import Caller, ChannelId, Param, Reply, command
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
        return Reply.refuse("Choose a text channel for the digest.")
    await services.storage.digests.set_channel(caller.guild_id, target, caller.player.id)
    zone = (await services.storage.guild_settings(caller.guild_id)).timezone
    when = (f"a few minutes after midnight ({zone or services.daily.zone.key}; change it with "
            "/settings server timezone), once that day's puzzle is over everywhere")  # fmt: skip
    if caller.front == "console":
        text = (f"The console's server has its digest on: due each day {when}. A terminal "
                "gets no posts: /digest DAY shows a day's digest here. /digest off stops "
                "it.")  # fmt: skip
    else:
        text = f"Each day's digest will be posted in <#{target}> {when}. /digest off stops it."
    return Reply(text, private=True)


@command("digest off")
async def off(services: Services, caller: Caller) -> Reply:
    refusal = server_refusal(caller, manage=True)
    if refusal is not None:
        return refusal
    assert caller.guild_id is not None
    await services.storage.digests.set_channel(caller.guild_id, None, None)
    return Reply("The daily digest is off.", private=True)
