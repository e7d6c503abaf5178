"""Progress bars on long work (rich), silent with --quiet or when stderr is not a terminal.

Never prints anything but the bars; diagnostics and the summary are the CLI's job.
"""

from __future__ import annotations

import sys
from types import TracebackType

from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
from rich.progress import Progress as RichProgress


class _Task:
    def __init__(self, bar: RichProgress | None, total: int, label: str) -> None:
        self._bar = bar
        self._id = bar.add_task(label, total=total) if bar is not None else None

    def advance(self, n: int = 1) -> None:
        if self._bar is not None and self._id is not None:
            self._bar.advance(self._id, n)


class Progress:
    def __init__(self, enabled: bool = True) -> None:
        self._bar: RichProgress | None = None
        if enabled and sys.stderr.isatty():
            from rich.console import Console

            self._bar = RichProgress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=Console(stderr=True),
                transient=True,
            )

    def task(self, label: str, total: int) -> _Task:
        return _Task(self._bar if total >= 200 else None, total, label)

    def __enter__(self) -> Progress:
        if self._bar is not None:
            self._bar.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._bar is not None:
            self._bar.stop()
