"""Cooldowns where a command pings someone or creates something public: ``/challenge``
(each names a player, pinging them, and posts a message) and ``/race`` (each posts a lobby).
The services enforce them on what the database stores (:mod:`bot.storage.cooldowns`), so the
console, every Discord process and a restart all count the same; a refusal says when the
command can be used again."""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from bot.i18n import _, ngettext
from bot.storage.cooldowns import Rate

# A setter makes at most 3 challenges in any 10 minutes; a player is named (pinged) by at
# most 2 challenges in any 10 minutes, whoever sets them.
CHALLENGES_PER_SETTER = Rate(3, timedelta(minutes=10))
CHALLENGES_PER_TARGET = Rate(2, timedelta(minutes=10))
# A host opens at most 5 races in any 10 minutes, and a channel has one lobby waiting for
# players at a time (a race's lobby starts or is called off after a minute).
RACES_PER_HOST = Rate(5, timedelta(minutes=10))


def within(rate: Rate) -> str:
    """ "3 in 10 minutes"."""
    minutes = rate.per.total_seconds() / 60
    whole = int(minutes) if minutes == int(minutes) else 2  # the plural form of a fraction
    return ngettext("{count} in {minutes} minute", "{count} in {minutes} minutes", whole).format(
        count=rate.count, minutes=f"{minutes:g}"
    )


def wait_text(until: datetime, now: datetime) -> str:
    """How long until ``until``, for a person: "in 45 s", "in 4 min 10 s"."""
    seconds = max(1, math.ceil((until - now).total_seconds()))
    minutes, seconds = divmod(seconds, 60)
    if not minutes:
        return _("in {seconds} s").format(seconds=seconds)
    if not seconds:
        return _("in {minutes} min").format(minutes=minutes)
    return _("in {minutes} min {seconds} s").format(minutes=minutes, seconds=seconds)
