"""The live daily board's channel: /liveboard channel and /liveboard off (a server's admins').
What the board shows and when it is edited is :mod:`bot.services.live_board`'s."""

from __future__ import annotations

from bot.commands.admin import here, server_refusal
from bot.commands.model import Caller, ChannelId, Param, Reply, command
from bot.i18n import _
from bot.services import Services


@command("liveboard channel", Param("channel", ChannelId))
async def channel(services: Services, caller: Caller, channel: ChannelId | None = None) -> Reply:
    """Keep today's live board in ``channel`` (by default where the command is used). The
    console keeps the choice for its own server; a terminal gets no posts."""
    refusal = server_refusal(caller, manage=True)
    if refusal is not None:
        return refusal
    assert caller.guild_id is not None
    target = channel if channel is not None else here(caller)
    if target is None:
        return Reply.refuse(_("Choose a text channel for the live board."))
    await services.storage.live_boards.set_channel(caller.guild_id, target)
    if caller.front == "console":
        said = _("The console's server has its live board on; a terminal gets no posts.")
    else:
        said = _("Each day's live board will be in {channel}: one message a day, edited as "
                 "players start and finish the dailies (squares only, never a letter).").format(
            channel=f"<#{target}>")  # fmt: skip
    return Reply(said + " " + _("/liveboard off stops it."), private=True, extra={"live": target})


@command("liveboard off")
async def off(services: Services, caller: Caller) -> Reply:
    refusal = server_refusal(caller, manage=True)
    if refusal is not None:
        return refusal
    assert caller.guild_id is not None
    await services.storage.live_boards.set_channel(caller.guild_id, None)
    return Reply(_("The live board is off; today's message stays as it is."), private=True)
