"""Time for the tests: the services read now from ``DailyPuzzles.clock``; these set it."""

from datetime import UTC, datetime, timedelta


def at(text: str) -> datetime:
    """An ISO time, in UTC when it names no zone."""
    when = datetime.fromisoformat(text)
    return when if when.tzinfo else when.replace(tzinfo=UTC)


class Clock:
    """A clock the test moves on: pass it as the services' clock."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)
