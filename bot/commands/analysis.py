"""Pasted results and coaching: /analyze (Discord's message menu "Analyze Wordle result"
runs it too), /coach, /sharechannel and /hardmode, the study of hard mode.

Reading a paste and coaching a game take a moment: a front end that shows it is working
("thinking..." in Discord) passes ``thinking``, a keyword that is no option, awaited with
whether the answer will be private once the work is let in and before it starts.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime

from bot.commands.model import Caller, Param, Picture, Reply, command
from bot.i18n import N_, _
from bot.render.study import hard_mode_answer
from bot.render.text import analysis_text, coaching_text
from bot.results import DIRECTORY as RESULTS
from bot.services import Services
from bot.services.analysis import NOTHING_TO_COACH, coach_game, coaching_kept_private
from bot.services.shares import CHANGED, Moment, posting_day, record_shares
from bot.services.study import hard_mode_study

Thinking = Callable[[bool], Awaitable[object]]  # (private) -> None
MESSAGE = 1900  # an answer's characters at most: a message holds 2,000
NEEDS_SERVER = N_("That works in a server, not in direct messages.")
NEEDS_MANAGE_SERVER = N_("You need the Manage Server permission for that.")
STUDY_GAMES = ("wordle", "primel")
SHARE = Param("share", bool, flag=("share", None))


@command(
    "analyze",
    Param("paste", required=True, text=True),
    Param("words"),
    SHARE,
)
async def analyze(services: Services, caller: Caller, paste: str, words: str | None = None,
                  share: bool = False, *, thinking: Thinking | None = None,
                  posted_at: datetime | None = None) -> Reply:  # fmt: skip
    """What a paste shows; privately unless shared. ``posted_at``: when the paste was posted
    by the caller (the message menu on one's own message), whose shares then count for them,
    as of that moment. In the console a paste is a post, now, in its one channel: where
    /sharechannel has made that a share channel, its shares count too."""

    async def admitted() -> None:
        if thinking is not None:
            await thinking(not share)

    result = await services.analysis.analyze(caller.player.id, caller.scope, paste,
                                             words or "", admitted=admitted,
                                             guild=caller.guild_id)  # fmt: skip
    if result.refused is not None:
        return Reply.refuse(result.refused)
    text = analysis_text(result)
    if posted_at is None and caller.front == "console" and await _records(services, caller):
        posted_at = services.daily.clock()
    if result.shares and posted_at is not None:
        boards = services.live_boards  # today's that show the player, and this server's
        showing = await boards.showing(caller.player.id)
        done = await record_shares(services.storage, caller.player.id, caller.player.name,
                                   result.shares, scope=caller.scope,
                                   posted=posting_day(posted_at, services.daily.zone),
                                   moment=Moment(posted_at))  # fmt: skip
        if set(done.outcomes) & CHANGED:
            boards.shown_again({*showing, caller.scope})
        text += "\n" + "\n".join(done.notes)
    return Reply(text[:MESSAGE], private=not share)


async def _records(services: Services, caller: Caller) -> bool:
    """Whether the caller's channel records the shares posted there."""
    if caller.guild_id is None or caller.place is None:
        return False
    return await services.storage.is_share_channel(caller.guild_id, caller.place)


@command("coach", SHARE)
async def coach(services: Services, caller: Caller, share: bool = False, *,
                thinking: Thinking | None = None) -> Reply:  # fmt: skip
    """The caller's last finished game, turn by turn. A puzzle others can still play
    (today's daily, an archive day) stays private: its guesses and answer would spoil it. A
    report too long for a message is a document (``extra["document"]``: its file name and
    text) with its last line, the skill, said."""
    stored = await services.storage.last_finished_game(caller.player.id)
    if stored is None:
        return Reply.refuse(_("Finish a game first, then ask for coaching"))
    note = ""
    private = coaching_kept_private(stored, services.daily.today())
    if share and private is not None:
        share, note = False, "\n" + _(private)
    if thinking is not None:
        await thinking(not share)
    report = await coach_game(stored.state)
    if report is None:
        return Reply.refuse(_(NOTHING_TO_COACH))
    text = coaching_text(report)
    if len(text) + len(note) <= MESSAGE:
        return Reply(f"```\n{text}\n```{note}", private=not share)
    # An Octordle's eight tables pass a message's 2,000 characters.
    summary = _("{skill} (the whole report is attached)").format(skill=text.splitlines()[-1])
    return Reply(f"{summary}{note}",
                 private=not share, extra={"document": ("coaching.txt", text)})  # fmt: skip


@command("sharechannel", Param("enabled", bool, required=True, flag=("on", "off")))
async def share_channel(services: Services, caller: Caller, enabled: bool, *,
                        reads_posts: bool = True) -> Reply:  # fmt: skip
    """Record the shares posted in the caller's channel (Manage Server). ``reads_posts``:
    whether the bot may read posts (Discord's message-content intent). The console's one
    channel has no posts but its pastes: there it is /analyze that records, or not."""
    if caller.guild_id is None or caller.place is None:
        return Reply.refuse(_(NEEDS_SERVER))
    if not caller.manages_server:
        return Reply.refuse(_(NEEDS_MANAGE_SERVER))
    await services.storage.set_share_channel(caller.guild_id, caller.place, enabled)
    if caller.front == "console":
        said = (_("The console's channel now counts the shares pasted to /analyze for whoever "
                  "pastes them, as a share channel counts the shares posted there.") if enabled
                else _("The console's channel no longer counts the shares pasted to /analyze: "
                       "it reads them only."))  # fmt: skip
        return Reply(said, private=True)
    said = (_("This channel now records the shares people post.") if enabled
            else _("This channel no longer records the shares people post."))  # fmt: skip
    if not reads_posts:
        said += " " + _("The bot runs without the message-content intent, so it cannot read "
                        "posts yet: set MESSAGE_CONTENT_INTENT=true and enable it in the "
                        "Developer Portal.")  # fmt: skip
    return Reply(said, private=True)


@command("hardmode", Param("game", choices=STUDY_GAMES), SHARE)
async def hard_mode(services: Services, caller: Caller, game: str = "wordle",
                    share: bool = False) -> Reply:  # fmt: skip
    """The stored study's answer, its key numbers and its picture; privately unless shared."""
    answer = hard_mode_answer(await hard_mode_study(game))
    pictures = () if answer.picture is None else (
        Picture(answer.filename, answer.alt, data=answer.picture, path=RESULTS / answer.filename),
    )  # fmt: skip
    return Reply(answer.text[:2000], private=not share, pictures=pictures)


__all__ = ["analyze", "coach", "hard_mode", "share_channel"]
