"""What a test waits on before it acts "while an analysis runs": the analysis worker thread
is inside an analysis (seen on its stack), not merely handed one."""

import asyncio
import sys
import threading

from bot.services import analysis


def reading() -> bool:
    """Whether the analysis worker is running an analysis's reading now."""
    workers = {t.ident for t in threading.enumerate() if t.name.startswith("wordlebot-analysis")}
    for ident, frame in sys._current_frames().items():
        if ident not in workers:
            continue
        while frame is not None:
            if frame.f_code is analysis._timed.__code__:
                return True
            frame = frame.f_back
    return False


async def until_reading(timeout: float = 30) -> None:
    """Until the analysis worker is reading (polled), or fail after ``timeout`` seconds."""
    for _ in range(int(timeout / 0.005)):
        if reading():
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"the analysis worker was not reading after {timeout} s")
