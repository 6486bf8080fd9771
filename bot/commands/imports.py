"""/import: an admin has a share channel's history read from a day they choose, counted as
the channel counts posts live (:mod:`bot.services.imports`). This checks and claims the
import; the Discord front end (``cogs/imports.py``) walks the history and shows its progress.
A terminal has no channel history: the console says so."""

from __future__ import annotations

from collections.abc import Sequence

from bot.commands.admin import here, server_refusal
from bot.commands.model import Caller, ChannelId, Param, Reply, command
from bot.i18n import _, format_number
from bot.services import Services
from bot.services.imports import LEASE, since_day, stamp


@command("import", Param("since", required=True), Param("channel", ChannelId, positional=False))
async def import_history(
    services: Services, caller: Caller, since: str, channel: ChannelId | None = None, *,
    owner: str = "", reads_posts: bool = True, missing: Sequence[str] = (),
) -> Reply:  # fmt: skip
    """Claim the import of ``channel`` (default: this one) for the process ``owner``; the
    reply's ``extra["import"]`` is the checkpoint to walk from. ``reads_posts``: whether the
    bot may read posts (Discord's message-content intent); ``missing``: the permissions it
    lacks in that channel to read its history (``view_channel``, ``read_message_history``).
    Without Read Message History Discord serves an empty history, not a refusal: an import
    would read nothing and say it is done, so it is refused before anything is claimed."""
    refusal = server_refusal(caller, manage=True)
    if refusal is not None:
        return refusal
    if caller.front == "console":
        return Reply.refuse(_("/import reads a Discord channel's history: it works in Discord, "
                              "where the bot can read a share channel's past messages; a "
                              "terminal has none."))  # fmt: skip
    assert caller.guild_id is not None
    target = channel if channel is not None else here(caller)
    if target is None:
        return Reply.refuse(_("Choose a share channel to import."))
    where = f"<#{target}>"
    if not await services.storage.is_share_channel(caller.guild_id, target):
        return Reply.refuse(_("{channel} is not a share channel: only a share channel's history "
                              "is imported (/sharechannel enabled:true there first).")
                            .format(channel=where))  # fmt: skip
    if not reads_posts:
        return Reply.refuse(_("The bot runs without the message-content intent, so it cannot "
                              "read posts: set MESSAGE_CONTENT_INTENT=true and enable it in the "
                              "Developer Portal."))  # fmt: skip
    if "view_channel" in missing:
        return Reply.refuse(_("The bot cannot see {channel}: it needs the View Channel and Read "
                              "Message History permissions there to read its history. Nothing "
                              "was started: run /import again once it has them.")
                            .format(channel=where))  # fmt: skip
    if "read_message_history" in missing:
        return Reply.refuse(_("The bot may not read {channel}'s history: it needs the Read "
                              "Message History permission there (without it Discord shows the "
                              "bot no past messages). Nothing was started: run /import again "
                              "once it has it.").format(channel=where))  # fmt: skip
    now = services.daily.clock()
    day = since_day(since[:40], services.daily.today())
    if isinstance(day, str):
        return Reply.refuse(day)
    claimed, checkpoint = await services.storage.imports.claim(
        caller.guild_id, target, since=day.isoformat(), by=caller.player.id, owner=owner,
        now=stamp(now), stale_before=stamp(now - LEASE),
    )  # fmt: skip
    if claimed == "held" or checkpoint is None:
        read = format_number(checkpoint.counts.messages_read if checkpoint else 0)
        return Reply.refuse(_("An import of {channel} is already running (messages read so "
                              "far: {read}): its message shows how far it is.")
                            .format(channel=where, read=read))  # fmt: skip
    if claimed == "resumed":
        text = _("The import of {channel} since {day} was left unfinished (messages read: "
                 "{read}): it carries on from there, its progress shown in one message.").format(
            channel=where, day=checkpoint.since,
            read=format_number(checkpoint.counts.messages_read))  # fmt: skip
    else:
        text = _("Importing the shares posted in {channel} since {day}, counted as if read "
                 "live (a share counts for the day it was posted, once): its progress is shown "
                 "in one message, edited as it goes.").format(channel=where, day=day)  # fmt: skip
    return Reply(text, private=True, extra={"import": checkpoint})


__all__ = ["import_history"]
