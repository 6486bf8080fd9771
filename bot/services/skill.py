"""The skill board: each player's mean of the coach's skill (0 to 99: how much of the best
guess's expected progress each guess made) over their finished dailies.

Coaching a game takes about 0.16 s, too long to do while a player waits for their last
guess, so the leader job :func:`coach_dailies` coaches the dailies finished since its last
run, newest first, a batch at a time, in a worker of its own (shared with the digest's
highlights): never in front of a player's /analyze or a board image.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor

from bot.services.analysis import coach_game
from bot.storage import Storage

log = logging.getLogger("wordlebot.skill")

BATCH = 25  # games a run: about 4 s of one worker, every JOBS_INTERVAL_SECONDS
COACH_POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="wordlebot-coach")


async def coach_dailies(storage: Storage, batch: int = BATCH) -> int:
    """Coach up to ``batch`` finished dailies and add their skill to the boards; returns
    how many were done (fewer than ``batch``: none is left)."""
    pending = await storage.skills.pending(batch)
    for result_id, state in pending:
        try:
            report = await coach_game(state, COACH_POOL, rollout=False)
        except Exception:  # a game the coach cannot read is marked, never retried forever
            log.exception("result %s could not be coached", result_id)
            report = None
        luck = getattr(report, "luck", None)  # Absurdle's worst cases have no luck
        await storage.skills.record(result_id, None if report is None else report.skill, luck)
    return len(pending)
