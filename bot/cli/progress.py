"""Progress of long CLI jobs, on stderr (standard output keeps the results): a bar on a
terminal (tqdm), a plain line at every tenth when piped into a log or CI."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Any


class Progress:
    """Call with (done, total) as work advances; ``total`` may change (a search that learns
    how much is left)."""

    def __init__(self, what: str, stream: IO[str] | None = None) -> None:
        self.what = what
        self.stream = stream or sys.stderr
        self._bar: Any = None
        self._tenth = -1
        if self.stream.isatty():
            from tqdm import tqdm  # only when a person is watching

            self._bar = tqdm(desc=what, file=self.stream, leave=False, dynamic_ncols=True)

    def __call__(self, done: int, total: int) -> None:
        if self._bar is not None:
            self._bar.total = total
            self._bar.n = done
            self._bar.refresh()
            return
        tenth = done * 10 // max(total, 1)
        if tenth > self._tenth:
            self._tenth = tenth
            print(f"{self.what}: {done:,}/{total:,} ({tenth * 10}%)", file=self.stream,
                  flush=True)  # fmt: skip

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


@contextmanager
def progress(what: str, stream: IO[str] | None = None) -> Iterator[Progress]:
    shown = Progress(what, stream)
    try:
        yield shown
    finally:
        shown.close()
