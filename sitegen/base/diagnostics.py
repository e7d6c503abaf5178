"""Diagnostics: every skipped or broken thing is one ``path:line:col: level: message`` line.

Reported into one ``Sink`` during a build, sorted once, printed at the end, counted for
``--strict``; never raises.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum


class Level(StrEnum):
    """How serious a diagnostic is; a check's severity in the configuration can change it."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True, order=True, slots=True)
class Diagnostic:
    """One ``path:line:col: level: message`` line (1-based line and column)."""

    path: str
    line: int
    col: int
    level: Level
    message: str
    #: What check raised it (``broken-link``, ``broken-anchor``, ``utf8`` …), for severities.
    code: str = ""

    def format(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: {self.level}: {self.message}"


class Sink:
    """Where every step of a build reports what it skipped or found broken: the one place a
    build's diagnostics go (content/reference/cli.md, "Diagnostics").

    Steps add to it in whatever order they run (a forked worker's records arrive in input
    order); ``sorted`` gives each diagnostic once, in the stable order the CLI prints and the
    site marker keeps. It never changes what was added, so the emit step may read it for the
    marker while the driver reads it once more for the result.
    """

    __slots__ = ("_items",)

    def __init__(self, items: Iterable[Diagnostic] = ()) -> None:
        self._items: list[Diagnostic] = list(items)

    def add(self, diagnostic: Diagnostic) -> None:
        self._items.append(diagnostic)

    def extend(self, diagnostics: Iterable[Diagnostic]) -> None:
        self._items.extend(diagnostics)

    def sorted(self) -> list[Diagnostic]:
        """Every diagnostic added, each once (equal in every field), in order."""
        return sorted(set(self._items))

    def __len__(self) -> int:
        return len(self._items)


class Suggester:
    """Close matches for mistyped paths, cheap enough for thousands of broken links.

    The same file name in another folder is the usual mistake (a wrong ``../``), so it is
    tried first; then near names in the same folder; then near file names anywhere.
    """

    def __init__(self, candidates: Iterable[str]) -> None:
        self._all = sorted(set(candidates))
        self._by_name: dict[str, list[str]] = {}
        self._by_folder: dict[str, list[str]] = {}
        for path in self._all:
            folder, _, name = path.rpartition("/")
            self._by_name.setdefault(name, []).append(path)
            self._by_folder.setdefault(folder, []).append(path)
        self._names = sorted(self._by_name)
        self._cache: dict[str, str | None] = {}
        self._near_names: dict[str, str | None] = {}

    def closest(self, wanted: str) -> str | None:
        """The candidate a mistyped ``wanted`` most likely meant, or None."""
        if wanted not in self._cache:
            self._cache[wanted] = self._closest(wanted)
        return self._cache[wanted]

    def _closest(self, wanted: str) -> str | None:
        folder, _, name = wanted.rpartition("/")
        if name in self._by_name:
            return self._by_name[name][0]
        in_folder = {p.rpartition("/")[2]: p for p in self._by_folder.get(folder, [])}
        near = _near(name, sorted(in_folder), 0.6)
        if near:
            return in_folder[near]
        if name not in self._near_names:  # the same mistyped name recurs across folders
            near = _near(name, self._names, 0.75)
            self._near_names[name] = self._by_name[near][0] if near else None
        return self._near_names[name]


def _near(name: str, pool: list[str], cutoff: float) -> str | None:
    # A typo keeps the length and the first letter: compare only with those names, so
    # thousands of broken links stay cheap.
    similar = [n for n in pool if abs(len(n) - len(name)) <= 2 and n[:1] == name[:1]]
    found = difflib.get_close_matches(name, similar, n=1, cutoff=cutoff)
    return found[0] if found else None


def closest_anchor(fragment: str, heading_ids: Iterable[str]) -> str | None:
    """The id a mistyped fragment most likely meant (``first-run``), or None."""
    found = difflib.get_close_matches(fragment, sorted(heading_ids), n=1, cutoff=0.6)
    return found[0] if found else None


#: How much of a value from the input a message quotes by default (issue 27: a 100 KB
#: revision or a 5,000-digit number was echoed whole).
SHOWN = 80


def cut(text: str, limit: int = SHOWN) -> str:
    """``text`` as a message may quote it: at most ``limit`` characters, ending in '…' when
    it was longer. Every reader quotes outside input through this."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


#: How many digits of a number a message quotes: a longer run is cut (issue 27: a
#: 5,000-digit line number was echoed whole).
SHOWN_DIGITS = 20
_LONG_NUMBER = re.compile(f"[0-9]{{{SHOWN_DIGITS + 1},}}")


def quoted(text: str, limit: int = SHOWN) -> str:
    """``text`` as a message quotes what the user wrote: each number cut to ``SHOWN_DIGITS``
    digits and the whole to ``limit`` characters, each cut marked with '…' (the text is
    first cut to a few times ``limit``, so a huge input costs no more than a short one)."""
    text = _LONG_NUMBER.sub(lambda m: m[0][:SHOWN_DIGITS] + "…", text[: limit * 4])
    return cut(text, limit)
