"""Who plays beside you in the game window: the players of the Activity instance (as Discord
says: never as a window says) and how far each is in the puzzle the viewer is on, today's
daily. Each one's progress is their rows played and, once finished, their score; the colours
of another player's rows only once the viewer has finished the same puzzle; their letters
never. The snapshot is sent anew whenever it changes, within :data:`EVERY` seconds, to each
window watching, whichever process its requests reach: it is read from the database, which
every process shares.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

from aiohttp import web

from bot.i18n import N_
from bot.services import Services
from bot.web.activity_auth import DiscordAuth, Refused, Session

EVERY = 0.5  # seconds between two reads of a watched instance's progress
USERS_SECONDS = 2.0  # how long Discord's list of an instance's users is trusted
WATCH_SECONDS = 15 * 60  # a watch ends then (the window watches again)


class Together:
    """The instances' users as Discord last said them (asked at most every USERS_SECONDS)."""

    def __init__(self, auth: DiscordAuth) -> None:
        self.auth = auth
        self._users: dict[str, tuple[float, set[int]]] = {}
        # Set when the server stops: every watch ends at once, not after the server's wait
        # for its open requests (a minute) holds up the stop.
        self.stopping = asyncio.Event()

    async def users(self, instance_id: str) -> set[int]:
        now = time.monotonic()
        known = self._users.get(instance_id)
        if known is None or known[0] < now - USERS_SECONDS:
            users, _channel, _guild = await self.auth.instance(instance_id)
            if len(self._users) > 10_000:  # instances long gone
                self._users.clear()
            known = self._users[instance_id] = (now, users)
        return known[1]


async def snapshot(services: Services, together: Together, session: Session,
                   kind: str = "wordle:daily") -> dict[str, Any]:  # fmt: skip
    """The instance's players and their progress in today's daily of ``kind``."""
    day = services.daily.today().isoformat()
    users = await together.users(session.instance_id)
    if session.user_id not in users:
        raise Refused(403, N_("You are no longer in this Activity."))
    games = await services.games.dailies(users, kind, day)  # one read for everyone
    mine = games.get(session.user_id)
    finished = mine is not None and mine.over
    names = await services.storage.player_names(users)
    players = []
    for user_id in sorted(users):
        game = games.get(user_id)
        entry: dict[str, Any] = {"id": str(user_id), "name": names.get(user_id, ""),
                                 "you": user_id == session.user_id, "rows": 0,
                                 "status": "waiting"}  # fmt: skip
        if game is not None:
            entry |= {"rows": len(game.rows), "status": game.status}
            if game.over:
                entry["score"] = len(game.rows) if game.status == "won" else None
            if finished or user_id == session.user_id:
                entry["marks"] = [marks for _word, marks in game.rows]  # colours, never letters
        players.append(entry)
    return {"kind": kind, "day": day, "players": players}


async def watch(request: web.Request, services: Services, together: Together,
                session: Session, kind: str) -> web.StreamResponse:  # fmt: skip
    """The snapshot, then each change of it, one JSON object a line, until the window goes
    (or WATCH_SECONDS pass: it watches again)."""
    first = await snapshot(services, together, session, kind)
    response = web.StreamResponse(headers={"Content-Type": "application/x-ndjson",
                                           "Cache-Control": "no-store"})  # fmt: skip
    await response.prepare(request)
    sent = ""
    ends = time.monotonic() + WATCH_SECONDS
    state: dict[str, Any] | None = first
    while time.monotonic() < ends and not _gone(request):
        if state is not None:
            line = json.dumps(state, separators=(",", ":"))
            if line != sent:
                await response.write(line.encode() + b"\n")  # a window gone: raises, ends
                sent = line
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(together.stopping.wait(), EVERY)
        if together.stopping.is_set():
            break
        try:
            state = await snapshot(services, together, session, kind)
        except Refused:
            break  # left the instance: the stream's end tells the window
        except Exception:  # the database or Discord away for a moment: the next round
            state = None
    return response


def _gone(request: web.Request) -> bool:
    """The window closed its end (aiohttp does not cancel a handler for it)."""
    return request.transport is None or request.transport.is_closing()
