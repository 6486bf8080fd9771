"""Achievements in words (bot/services/achievements.py decides who earns what): the private
note to the player who earned them, the line a server that allows it sees, and /stats's list.
Names and numbers only: nothing about a game's answer."""

from __future__ import annotations

from collections.abc import Iterable

from bot.i18n import _
from bot.services.achievements import BY_ID, Line


def earned_text(ids: Iterable[str]) -> str:
    """To the player alone: each achievement just earned, with what it is for."""
    return "\n".join(
        _("🏆 Achievement earned: **{title}** ({description})").format(
            title=_(BY_ID[i].title), description=_(BY_ID[i].description))
        for i in ids
    )  # fmt: skip


def announcement_text(player: str, ids: Iterable[str]) -> str:
    """In the channel, where the server allows it: who earned which, nothing more."""
    return "\n".join(
        _("🏆 {player} earned **{title}**").format(player=player, title=_(BY_ID[i].title))
        for i in ids
    )


def achievements_text(lines: list[Line]) -> str:
    """/stats's list: those earned with their dates, then the others, with the progress a
    count gives."""
    shown = [_("**Achievements**")]
    for line in sorted(lines, key=lambda x: x.earned_at is None):
        title = _(line.achievement.title)
        if line.earned_at is not None:
            shown.append(
                _("🏆 {title}, earned {date}").format(title=title, date=line.earned_at[:10])
            )
        elif line.progress is not None:
            count, goal = line.progress
            shown.append(
                _("▫️ {title}: {count} of {goal}").format(
                    title=title, count=min(count, goal), goal=goal
                )
            )
        else:
            shown.append(
                _("▫️ {title}: {description}").format(
                    title=title, description=_(line.achievement.description)
                )
            )
    return "\n".join(shown)
