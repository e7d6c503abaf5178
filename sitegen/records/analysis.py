"""What the analysis finds over the finished graphs, as plain data: code and relation cycles,
the graph's figures, related pages and missing links (content/reference/cycles.md,
content/reference/graph-core.md).

Computed in ``sitegen.analyse``; kept in the graph layer so that ``BuildResult`` and every
layer above it can name the types. Never computes anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sitegen.graph.dependencies import DepEdge
from sitegen.graph.model import Graph

if TYPE_CHECKING:  # numpy and scipy: imported by the analysis, never by naming its result
    from sitegen.graph.snapshot import Snapshot


@dataclass(frozen=True)
class ReExport:
    """What removing a package's import of one of its modules breaks: ``package`` (its
    ``__init__.py``) re-exports ``names`` from ``module``, and ``importers`` take one of them
    (or ``*``) from the package, as ``from {dotted} import Name``."""

    package: str
    module: str
    dotted: str
    names: tuple[str, ...]
    importers: tuple[str, ...]


@dataclass(frozen=True)
class CyclicUnit:
    """A strongly connected component of size > 1, or one node with a self-loop."""

    #: Sorted member ids (unit ids at unit level, symbol ids at symbol level).
    members: tuple[str, ...]
    #: True when the unit is a single member depending on itself (a self-import; recursion).
    self_loop: bool
    #: Every edge with both ends inside the unit, sorted by ``(src, dst, kind)``.
    edges: tuple[DepEdge, ...]
    #: Refactor guidance: ``(src, dst)`` pairs whose removal (all kinds) leaves no cycle.
    breaks: tuple[tuple[str, str], ...]
    #: One shortest cycle through the first member, closed (first == last): a readable example.
    example: tuple[str, ...]
    #: The members' unit kind (``file``, ``package``, ``crate``), ``mixed`` when they differ,
    #: ``symbol`` at symbol level.
    kind: str = "file"
    #: For each pair of ``breaks`` that removes a package's re-export: what that breaks.
    reexports: tuple[ReExport, ...] = ()

    def reexport(self, src: str, dst: str) -> ReExport | None:
        return next((r for r in self.reexports if (r.package, r.module) == (src, dst)), None)


@dataclass(frozen=True)
class InternalCycle:
    """Files of one Go package or Rust crate that depend on each other in a loop: allowed
    (they compile together), so listed for information only, never a check finding."""

    unit: str
    kind: str
    #: Sorted file paths of one strongly connected component inside the unit.
    members: tuple[str, ...]


@dataclass(frozen=True)
class CodeCycles:
    """The code's cycle and deployability analysis."""

    #: Unit-level cyclic units, sorted by members.
    cyclic: tuple[CyclicUnit, ...]
    #: Every acyclic unit, dependencies first (ties broken by id).
    deploy_order: tuple[str, ...]
    #: Acyclic units with no dependency edge in or out (a subset of ``deploy_order``).
    independent: tuple[str, ...]
    #: Symbol-level cyclic units: recursion (self-loops) and mutual recursion.
    symbol_cyclic: tuple[CyclicUnit, ...] = ()
    #: Sizes of the analysed graph, for summaries: files, units, unit-level edges.
    file_count: int = 0
    edge_count: int = 0
    unit_count: int = 0
    #: Kind of every unit that is not a plain file (``package``, ``crate``), by unit id.
    unit_kinds: dict[str, str] = field(default_factory=dict)
    #: Files of every unit that is not a plain file, sorted, by unit id.
    unit_files: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: Loops among the files of one Go package or Rust crate (information only).
    internal: tuple[InternalCycle, ...] = ()
    #: File-level dependencies left out because their import runs later or never, by
    #: context (``deferred``, ``type-only``); those of ``included`` contexts were analysed.
    left_out: dict[str, int] = field(default_factory=dict)
    #: The contexts put back by the ``cycles_include`` option, in ``IMPORT_CONTEXTS`` order.
    included: tuple[str, ...] = ()

    def kind_of(self, unit: str) -> str:
        return self.unit_kinds.get(unit, "file")

    def files_of(self, unit: str) -> tuple[str, ...]:
        return self.unit_files.get(unit, (unit,))


@dataclass(frozen=True)
class CycleReport:
    """Everything the cycle reports show: code cycles and typed-relation cycles."""

    code: CodeCycles
    #: Per predicate (sorted), the cyclic units of its relation graph, each a sorted list of
    #: node ids; a predicate without cycles maps to an empty list.
    relations: dict[str, list[list[str]]] = field(default_factory=dict)


@dataclass(frozen=True)
class Figures:
    #: PageRank normalized to [0, 1] by its maximum.
    pagerank: dict[str, float]
    #: Community number per node (0 is the largest community).
    communities: dict[str, int]
    #: PageRank converged within its 50 iterations.
    converged: bool
    #: Louvain's passes, and whether it stopped because no move helped (not at its cap).
    community_passes: int = 0
    communities_converged: bool = True
    modularity: float = 0.0
    #: Pages whose links span communities, most spread first: (node, participation).
    bridges: tuple[tuple[str, float], ...] = ()


@dataclass(frozen=True)
class RelatedPage:
    """A page shown as related to another: its node id, merged score and the one reason
    (the strongest dimension) the page gives for it."""

    node: str
    score: float
    reason: str


@dataclass(frozen=True)
class MissingLink:
    """Two pages, ``a`` before ``b``, each among the other's related pages with at least
    ``MISSING_MIN`` (sitegen/analyse/related.py), that do not link to each other: a link the reader probably wants."""

    a: str
    b: str
    score: float
    reason: str


@dataclass(frozen=True)
class Relatedness:
    """Every page's related pages (node id -> best first) and the missing links."""

    related: dict[str, tuple[RelatedPage, ...]]
    missing: tuple[MissingLink, ...]


@dataclass(frozen=True)
class Insight:
    figures: Figures
    relatedness: Relatedness
    #: The graph the core was built from: documents plus the code's imports.
    whole: Graph
    snapshot: Snapshot
