"""What a build takes and gives: its options and its result (every stage's output).

Plain data shared by the build, the emitters and the commands; it never runs a stage.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from sitegen.addresses import Addresses
from sitegen.base.diagnostics import Diagnostic, Level, Sink
from sitegen.base.plural import counted
from sitegen.base.progress import Progress
from sitegen.config import Config
from sitegen.graph.model import Graph
from sitegen.records.analysis import CycleReport, Insight
from sitegen.records.code import CodeRecord
from sitegen.records.code_graph import CodeGraph
from sitegen.records.crawl import Crawl
from sitegen.records.federation import Federation
from sitegen.records.linked import AliasesOfBuild, Linked
from sitegen.records.pages import PageRecord
from sitegen.records.stale import StaleReport


@dataclass(frozen=True)
class BuildOptions:
    #: Write the site to ``config.out_dir`` (``sitegen check`` builds nothing).
    write_site: bool = True
    #: Worker processes for extraction: 0 = one per core, 1 = in this process.
    jobs: int = 0
    #: Ignore the caches (extraction shards, incremental state).
    clean: bool = False
    quiet: bool = False
    #: Read no peer: their stored copies only (content/guides/federation.md).
    offline: bool = False


@dataclass(frozen=True)
class BuildContext:
    """What the driver hands every step of a build (content/guides/builds.md): the
    configuration, the options, the progress display, the number of worker processes and
    the one sink every step reports its diagnostics into. The driver sorts the sink once,
    at the end, into ``BuildResult.diagnostics``; no step returns a list of diagnostics or
    appends to the result."""

    config: Config
    options: BuildOptions
    progress: Progress
    sink: Sink
    #: Worker processes for extraction (the options', the config's, or one per core).
    jobs: int = 1


@dataclass(frozen=True)
class BuildResult:
    """Every stage's output. Frozen: the driver (sitegen/build.py) makes it stage by stage
    with ``dataclasses.replace`` and hands it complete to the analysis and the emitters,
    which read it and cannot change it; what the emit step did (``written``), the sorted
    diagnostics and the time are set by the driver after, in a new result."""

    config: Config
    crawl: Crawl
    pages: list[PageRecord]
    code_records: list[CodeRecord]
    linked: Linked
    #: The merged document graph (store + this crawl): what backlinks show.
    graph: Graph
    #: The code graph, when source files were analysed.
    code: CodeGraph | None = None
    #: Code and relation cycles (sitegen/analyse/cycles.py), once the analysis ran.
    cycles: CycleReport | None = None
    #: Figures, related pages and the explore snapshot (sitegen/analyse/insight.py).
    insight: Insight | None = None
    #: What each page documents and which pages are stale (sitegen/analyse/stale.py).
    stale: StaleReport | None = None
    #: Every step's diagnostics, each once, in order: set once, by the driver, from the
    #: build's sink (sitegen/build.py); empty, and immutable, while the steps and the
    #: emitters run, which report into the sink instead.
    diagnostics: Sequence[Diagnostic] = ()
    seconds: float = 0.0
    written: int = 0
    #: When the input is the previous build's exactly: that build's counts, and nothing is redone.
    unchanged: str = ""
    #: Where each page is published, and the redirects (sitegen/link/page_addresses.py).
    addresses: Addresses = field(default_factory=Addresses)
    #: Backlinks from other sites' pages, and what was read of each peer (sitegen/federation/).
    federation: Federation = field(default_factory=Federation)
    #: Every page's anchors and the aliases that keep its old ones working
    #: (sitegen/link/anchor_aliases.py); none without a store.
    old_anchors: AliasesOfBuild = field(default_factory=AliasesOfBuild)

    @property
    def warnings(self) -> int:
        return sum(1 for d in self.diagnostics if d.level in (Level.WARNING, Level.ERROR))

    def counts(self) -> str:
        """What the build found, without the time: remembered for a no-change rebuild."""
        if self.unchanged:
            return self.unchanged
        links = sum(len(p.links) for p in self.pages)
        broken = sum(1 for b in self.linked.broken if b.is_broken_link)
        return (
            f"{counted(len(self.pages), 'page')}, "
            f"{counted(len(self.code_records), 'source file')}, {counted(links, 'link')}, "
            f"{counted(broken, 'broken link')}, {counted(self.warnings, 'warning')}"
            + self.federation.counts()
        )

    def summary(self) -> str:
        note = " (nothing changed)" if self.unchanged else ""
        return f"{self.counts()} in {self.seconds:.2f} s{note}"
