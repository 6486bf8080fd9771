"""The first-game guide: said once to each player, the first time they use the bot, and
never again, whichever process of the deployment they reach and however many at once.

The database decides (``players.guided_at``, set by a compare-and-set): of two processes
asking for the same player at once, one is told to guide; a guide that could not be said
gives the mark back (``not_given``), so the next use guides instead. Deleting a player's data
(/mydata delete) forgets the mark with the rest: the next use is a first one again. The
words are :func:`bot.render.guide.guide_text`; each front end says them its own way
(Discord: privately, after the first command's answer; the console: before its reply).
"""

from __future__ import annotations

import asyncio

from bot.services.games import Player
from bot.storage import Storage

KNOWN_LIMIT = 100_000  # players this process remembers as guided (a read each after that)


class GuideService:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        # Guided players this process has seen: every command asks, and a mark only goes
        # with a deletion (``forget``; one in another process leaves that player unguided
        # here, which costs nothing: they were guided once).
        self._known: set[int] = set()
        self._asking: dict[int, asyncio.Task[bool]] = {}  # begun and not yet answered

    def begin(self, player: Player) -> asyncio.Task[bool] | None:
        """:meth:`first_use`, started and not awaited, so that a command's answer never
        waits on the database for it (Discord's 3 s run from the interaction's arrival);
        None for a player this process knows as guided. Whoever awaits the task hears its
        failure; a deletion of the player's data waits for it first (:meth:`settled`)."""
        if player.id in self._known:
            return None
        task = asyncio.ensure_future(self.first_use(player))
        self._asking[player.id] = task
        task.add_done_callback(lambda done: self._answered(player.id, done))
        return task

    def _answered(self, player_id: int, task: asyncio.Task[bool]) -> None:
        if self._asking.get(player_id) is task:
            del self._asking[player_id]
        if not task.cancelled():
            task.exception()  # retrieved here too: a task nobody awaited is no error

    async def settled(self, player_id: int) -> None:
        """Once the player's first use begun in this process is decided: a mark claimed
        after their data was deleted would outlive the deletion."""
        task = self._asking.get(player_id)
        if task is not None:
            await asyncio.wait({task})

    async def first_use(self, player: Player) -> bool:
        """Whether to guide ``player`` now: True once per player, ever. A player already
        guided costs one read, once per process; the write is made once."""
        if player.id in self._known:
            return False
        first = not await self.storage.guided(player.id) and await self.storage.claim_guide(
            player.id, player.name
        )
        if len(self._known) >= KNOWN_LIMIT:
            self._known.clear()
        self._known.add(player.id)
        return first

    async def not_given(self, player_id: int) -> None:
        """The guide :meth:`first_use` granted could not be said (Discord refused the message,
        the network failed): the mark goes back, so the player's next use guides them. Said
        twice (a message that went out all the same) beats never said."""
        await self.storage.release_guide(player_id)
        self._known.discard(player_id)

    def forget(self, player_id: int) -> None:
        """The player's data was deleted: their next command is a first use again."""
        self._known.discard(player_id)
