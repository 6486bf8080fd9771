"""The first-game guide: said once to each player, the first time they use the bot, and
never again, whichever process of the deployment they reach and however many at once.

The database decides (``players.guided_at``, set by a compare-and-set): of two processes
asking for the same player at once, one is told to guide. Deleting a player's data
(/mydata delete) forgets the mark with the rest: the next use is a first one again. The
words are :func:`bot.render.guide.guide_text`; each front end says them its own way
(Discord: privately, after the first command's answer; the console: before its reply).
"""

from __future__ import annotations

from bot.services.games import Player
from bot.storage import Storage


class GuideService:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def first_use(self, player: Player) -> bool:
        """Whether to guide ``player`` now: True once per player, ever. A player already
        guided costs one read (every command asks); the write is made once."""
        if await self.storage.guided(player.id):
            return False
        return await self.storage.claim_guide(player.id, player.name)
