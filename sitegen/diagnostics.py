"""Diagnostics: every skipped or broken thing is one ``path:line:col: level: message`` line.

Collected during a build, printed at the end, counted for ``--strict``; never raises.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Iterable


class Level(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True, order=True)
class Diagnostic:
    path: str
    line: int
    col: int
    level: Level
    message: str
    #: What check raised it (``broken-link``, ``broken-anchor``, ``utf8`` …), for severities.
    code: str = ""

    def format(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: {self.level}: {self.message}"


@dataclass
class Diagnostics:
    """A build's diagnostics, deduplicated, reported in a stable order."""

    items: list[Diagnostic] = field(default_factory=list)

    def add(self, path: str, line: int, col: int, level: Level, message: str,
            code: str = "") -> None:
        self.items.append(Diagnostic(path, max(line, 1), max(col, 1), level, message, code))

    def warn(self, path: str, message: str, line: int = 1, col: int = 1, code: str = "") -> None:
        self.add(path, line, col, Level.WARNING, message, code)

    def error(self, path: str, message: str, line: int = 1, col: int = 1, code: str = "") -> None:
        self.add(path, line, col, Level.ERROR, message, code)

    def extend(self, other: Iterable[Diagnostic]) -> None:
        self.items.extend(other)

    def sorted(self) -> list[Diagnostic]:
        return sorted(set(self.items))

    def count(self, level: Level) -> int:
        return sum(1 for d in set(self.items) if d.level == level)


def did_you_mean(wanted: str, candidates: Iterable[str]) -> str:
    """`` Did you mean 'guides/install.md'?`` or the empty string when nothing is close."""
    close = difflib.get_close_matches(wanted, sorted(candidates), n=1, cutoff=0.6)
    return f" Did you mean '{close[0]}'?" if close else ""
