"""Long work a caller may ask to give up: a matrix build, an exact search. The work asks
``stop()`` often (between blocks, at each node) and raises :class:`Stopped` once it says
True, leaving nothing half-written behind. The engine knows nothing of who asks: a process
that is shutting down passes, say, ``threading.Event().is_set``."""

from __future__ import annotations

from collections.abc import Callable

Stop = Callable[[], bool]


class Stopped(Exception):
    """The work was asked to stop before it finished: no result, and nothing learnt."""


def check(stop: Stop | None) -> None:
    if stop is not None and stop():
        raise Stopped("asked to stop")
