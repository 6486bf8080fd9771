"""The event loop a bot process runs on: uvloop's where it is installed (not on Windows),
else asyncio's. asyncpg and aiohttp spend less time in the loop on uvloop; the benchmarks
run on the same loop as the bot, so their figures are the bot's."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` on the bot's loop."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(main)
