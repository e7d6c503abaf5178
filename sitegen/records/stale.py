"""What each page documents and which pages are stale: the records of the stale-pages report
(content/guides/stale-pages.md).

``DocRef`` is made by ``documented`` in sitegen/link/documented.py, the report by
``stale_pages`` in sitegen/analyse/stale.py; the site and ``sitegen check`` read it.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, order=True)
class DocRef:
    """One thing a page documents. ``start``/``end`` are the documented lines of ``path``
    (1-based, inclusive) in the files as the build read them; both 0 for the whole file.
    ``symbol`` is the qualified name when the page points at a symbol of the code graph."""

    page: str  # repository path of the page
    line: int  # where the page points: 1-based line and column (bytes)
    column: int
    how: str  # one of KINDS
    path: str  # repository path of the documented file
    symbol: str = ""
    start: int = 0
    end: int = 0
    public: bool = True

    @property
    def whole_file(self) -> bool:
        return self.start == 0

    def target(self) -> str:
        """``a.py:Parser.feed``, ``a.py:3-9``, or ``a.py``: what is documented, in words."""
        if self.symbol:
            return f"{self.path}:{self.symbol}"
        if self.whole_file:
            return self.path
        return f"{self.path}:{self.start}" + (f"-{self.end}" if self.end != self.start else "")


@dataclass(frozen=True)
class Commit:
    hash: str
    date: str  # committer date, YYYY-MM-DD
    subject: str

    @property
    def short(self) -> str:
        return self.hash[:10]


@dataclass(frozen=True)
class StaleRef:
    """One thing a page documents that changed after the page, and the commits that changed
    it (newest first)."""

    ref: DocRef
    commits: tuple[Commit, ...]


@dataclass(frozen=True)
class StalePage:
    page: str  # repository path
    last_change: Commit  # the page's own last change
    refs: tuple[StaleRef, ...]
    #: Every commit since the page's last change that changed what it documents, newest
    #: first (history order), each once.
    commits: tuple[Commit, ...]

    def by_target(self) -> tuple[StaleRef, ...]:
        """One entry per thing documented, at the first place the page points at it (a page
        may link one symbol several times)."""
        first: dict[str, StaleRef] = {}
        for ref in self.refs:
            first.setdefault(ref.ref.target(), ref)
        return tuple(first.values())

    def changed(self) -> str:
        """What changed, in words: ``a.py:Parser.feed, b.py``."""
        return ", ".join(dict.fromkeys(r.ref.target() for r in self.refs))


@dataclass
class Cost:
    """What the pass read, for the benchmark and the curious (never shown on the site)."""

    commits: int = 0  # commits of the file pass
    line_commits: int = 0  # commits the line-level pass read
    line_files: int = 0  # documented files whose lines were followed
    seconds: float = 0.0


@dataclass
class StaleReport:
    """The stale pages (sorted by path), or why there is no report (``reason``)."""

    pages: list[StalePage] = field(default_factory=list)
    reason: str = ""
    #: The checkout's history is shallow: no report, and the site says why (``reason``).
    shallow: bool = False
    #: Every page that documents something, with what it documents.
    documented: dict[str, list[DocRef]] = field(default_factory=dict)
    cost: Cost = field(default_factory=Cost)

    def of(self, page: str) -> StalePage | None:
        for p in self.pages:
            if p.page == page:
                return p
        return None
