"""The code graph (content/reference/code-graph.md): four kinds of node, typed edges, confidence.

Node ids are stable endpoint names (``python:pkg/mod.py::Engine.run``); numeric ids exist only
in serialized output. Duplicate edges merge by the one edge-merge rule of ``sitegen.graph.model``
(content/adr/0003-edge-identity.md). This module never reads files and never resolves names.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import Enum, StrEnum

from sitegen.base.languages import LangId
from sitegen.graph.dependencies import DEFERRED, RUNTIME, TYPE_ONLY, strongest_context
from sitegen.graph.model import merge_by_key, merged_confidence, strongest
from sitegen.records.code import Range, Symbol, SymbolKind, Visibility

# ---------------------------------------------------------------- confidence ladder

SAME_FILE = 1.0
DIRECT_IMPORT = 0.9
TRANSITIVE_IMPORT = 0.7
CROSS_LANGUAGE = 0.5
#: A dependency through an import that runs only when its function is called (Python).
DEFERRED_IMPORT = 0.4
#: A dependency through an import that never runs (``if TYPE_CHECKING:``): types only.
TYPE_ONLY_IMPORT = 0.2

#: The most an edge's confidence can be, by the context of the import behind it
#: (content/reference/code-graph.md#confidence): a dependency is no surer than its import runs.
CONTEXT_CEILING = {RUNTIME: SAME_FILE, DEFERRED: DEFERRED_IMPORT, TYPE_ONLY: TYPE_ONLY_IMPORT}


def confidence_in_context(confidence: float, context: str) -> float:
    """``confidence`` capped by the context's ceiling (an unknown context caps nothing)."""
    return min(confidence, CONTEXT_CEILING.get(context, SAME_FILE))


class ConfidenceTier(Enum):
    SAME_FILE = "same_file"
    DIRECT_IMPORT = "direct_import"
    TRANSITIVE_IMPORT = "transitive_import"
    CROSS_LANGUAGE = "cross_language"
    DEFERRED_IMPORT = "deferred_import"
    TYPE_ONLY_IMPORT = "type_only_import"
    UNKNOWN = "unknown"


_TIERS = (
    (SAME_FILE, ConfidenceTier.SAME_FILE),
    (DIRECT_IMPORT, ConfidenceTier.DIRECT_IMPORT),
    (TRANSITIVE_IMPORT, ConfidenceTier.TRANSITIVE_IMPORT),
    (CROSS_LANGUAGE, ConfidenceTier.CROSS_LANGUAGE),
    (DEFERRED_IMPORT, ConfidenceTier.DEFERRED_IMPORT),
    (TYPE_ONLY_IMPORT, ConfidenceTier.TYPE_ONLY_IMPORT),
)


def confidence_tier(value: float) -> ConfidenceTier:
    """The tier whose constant equals ``value`` exactly; ``UNKNOWN`` otherwise (no rounding)."""
    for constant, tier in _TIERS:
        if value == constant:
            return tier
    return ConfidenceTier.UNKNOWN


# ---------------------------------------------------------------- endpoint names


def file_endpoint(language: LangId | str, path: str) -> str:
    """``python:pkg/mod.py``."""
    return f"{language}:{path}"


def symbol_endpoint(file_id: str, qualified_name: str, ordinal: int = 1) -> str:
    """``python:pkg/mod.py::Engine.run``; a second definition of the same name gets ``#2``."""
    suffix = f"#{ordinal}" if ordinal > 1 else ""
    return f"{file_id}::{qualified_name}{suffix}"


def symbol_ids(file_id: str, symbols: list[Symbol]) -> list[str]:
    """Endpoint names of ``symbols`` (in list order); a repeated qualified name gets ``#2``…
    by source position, so the ids do not depend on the extractor's list order."""
    order = sorted(
        range(len(symbols)),
        key=lambda i: (symbols[i].source_range.start_byte, symbols[i].source_range.end_byte, i),
    )
    seen: dict[str, int] = {}
    ids = [""] * len(symbols)
    for i in order:
        qn = symbols[i].qualified_name
        seen[qn] = seen.get(qn, 0) + 1
        ids[i] = symbol_endpoint(file_id, qn, seen[qn])
    return ids


def external_endpoint(language: LangId | str, name: str) -> str:
    """``external:python:requests``."""
    return f"external:{language}:{name}"


def data_endpoint(owner_id: str, name: str, line: int, column: int) -> str:
    """``python:pkg/mod.py::run$x@3:5``: one value (a binding of ``x``) at one position."""
    return f"{owner_id}${name}@{line}:{column}"


# ---------------------------------------------------------------- nodes


class DataScope(StrEnum):
    LOCAL = "local"
    PARAMETER = "parameter"
    CLOSURE = "closure"
    MEMBER = "member"
    TEMPORARY = "temporary"


@dataclass(frozen=True)
class FileNode:
    """One analysed source file: ``id`` is its endpoint name (``python:pkg/mod.py``)."""

    id: str
    path: str
    language: LangId
    snapshot_id: str


@dataclass(frozen=True)
class SymbolNode:
    """One definition in a file, owned by ``file_id``; ``name_range`` is where its name is
    written (None when the grammar gives no name node)."""

    id: str
    name: str
    qualified_name: str
    kind: SymbolKind
    file_id: str
    visibility: Visibility | None
    source_range: Range
    name_range: Range | None = None


@dataclass(frozen=True)
class ExternalNode:
    """A module outside the project that a file imports (``external:python:requests``):
    the end of an import edge, never its start."""

    id: str
    name: str
    language: LangId


@dataclass(frozen=True)
class DataNode:
    """A value-bearing node for def-use flow (not a declaration boundary)."""

    id: str
    symbol_id: str | None
    scope: DataScope
    type_hint: str | None = None
    #: Where the value lives, for sorting and display (not part of the format's contract).
    file_id: str = ""
    name: str = ""
    line: int = 0


Node = FileNode | SymbolNode | ExternalNode | DataNode


# ---------------------------------------------------------------- edges


class EdgeKind(StrEnum):
    IMPORT = "import"
    REFERENCE = "reference"
    OWNERSHIP = "ownership"
    FLOW = "flow"


EdgeKey = tuple[str, str, EdgeKind]


@dataclass(frozen=True)
class CodeEdge:
    src: str
    dst: str
    kind: EdgeKind
    confidence: float
    line: int  # 1-based line of the evidence in the source endpoint's file
    flow_kind: str | None = None
    #: Import and reference edges: when the import behind it runs ("" at load time,
    #: "deferred", "type-only"; content/guides/cycles.md#when-an-import-runs).
    context: str = RUNTIME

    @property
    def key(self) -> EdgeKey:
        return (self.src, self.dst, self.kind)


#: Flow kinds in precedence order: when duplicates disagree, the first of these wins.
FLOW_KINDS = ("assign", "use")


def _flow_rank(kind: str) -> tuple[int, str]:
    return (FLOW_KINDS.index(kind) if kind in FLOW_KINDS else len(FLOW_KINDS), kind)


def merge_edges(a: CodeEdge, b: CodeEdge) -> CodeEdge:
    """Two edges of one key as one (content/reference/code-graph.md#merging-duplicate-edges).

    Commutative and associative, so the result never depends on arrival order: the graph
    model's rule gives the confidence (the strongest finite one; NaN when none is finite)
    and the line of the strongest evidence (ties: the earlier line). The first flow kind
    wins, "first" meaning first in ``FLOW_KINDS`` — arrival order cannot be what decides —
    and so does the strongest context (an import written at module level and again inside
    a function runs at load time).
    """
    assert a.key == b.key, (a.key, b.key)
    best = strongest((a, b), lambda e: e.confidence, lambda e: e.line)
    confidence = merged_confidence((a.confidence, b.confidence))
    kinds = [e.flow_kind for e in (a, b) if e.flow_kind is not None]
    flow_kind = min(kinds, key=_flow_rank) if kinds else None
    context = strongest_context((a.context, b.context))
    return CodeEdge(a.src, a.dst, a.kind, confidence, best.line, flow_kind, context)


def merge_into(merged: dict[EdgeKey, CodeEdge], edge: CodeEdge) -> None:
    """Add ``edge`` to a by-key table; a lone edge is spelled as a merged one would be."""
    key = (edge.src, edge.dst, edge.kind)
    old = merged.get(key)
    if old is None and edge.confidence > 0.0 and math.isfinite(edge.confidence):
        merged[key] = edge  # what merge_edges(edge, edge) gives, without building it again
    else:
        merged[key] = merge_edges(edge, edge) if old is None else merge_edges(old, edge)


def normalize_edges(edges: Iterable[CodeEdge]) -> list[CodeEdge]:
    """Merge duplicates by key; the result is sorted by key. A lone edge is spelled as a
    merged one would be (``merge_edges(edge, edge)``)."""
    return merge_by_key(
        edges, lambda e: e.key, lambda group: functools.reduce(merge_edges, group, group[0])
    )


# ---------------------------------------------------------------- the graph


class GraphInvariantError(ValueError):
    """A code graph that breaks an invariant (content/reference/code-graph.md#invariants)."""


@dataclass
class CodeGraph:
    """Nodes by endpoint name, edges by ``(src, dst, kind)`` merged on insertion."""

    snapshot_id: str = ""
    files: dict[str, FileNode] = field(default_factory=dict)
    symbols: dict[str, SymbolNode] = field(default_factory=dict)
    externals: dict[str, ExternalNode] = field(default_factory=dict)
    data: dict[str, DataNode] = field(default_factory=dict)
    edge_map: dict[EdgeKey, CodeEdge] = field(default_factory=dict)

    # -- nodes

    def add_file(self, node: FileNode) -> None:
        self._check_new(node.id)
        self.files[node.id] = node

    def add_symbol(self, node: SymbolNode) -> None:
        self._check_new(node.id)
        self.symbols[node.id] = node

    def add_external(self, node: ExternalNode) -> None:
        """Idempotent: many files import the same external module."""
        if node.id in self.externals:
            return
        self._check_new(node.id)
        self.externals[node.id] = node

    def add_data(self, node: DataNode) -> None:
        self._check_new(node.id)
        self.data[node.id] = node

    def _check_new(self, node_id: str) -> None:
        # node_kind(), unrolled: the link step adds tens of thousands of nodes.
        if (
            node_id in self.data
            or node_id in self.symbols
            or node_id in self.files
            or node_id in self.externals
        ):
            raise ValueError(f"duplicate node id {node_id!r}")

    def node_kind(self, node_id: str) -> str | None:
        """``file``, ``symbol``, ``external``, ``data`` or None for an unknown id."""
        for kind, table in (
            ("file", self.files),
            ("symbol", self.symbols),
            ("external", self.externals),
            ("data", self.data),
        ):
            if node_id in table:
                return kind
        return None

    def node(self, node_id: str) -> Node:
        for table in (self.files, self.symbols, self.externals, self.data):
            if node_id in table:
                return table[node_id]
        raise KeyError(node_id)

    def file_of(self, node_id: str) -> FileNode | None:
        """The file a file, symbol or data node belongs to; None for an external."""
        if node_id in self.files:
            return self.files[node_id]
        if node_id in self.symbols:
            return self.files.get(self.symbols[node_id].file_id)
        if node_id in self.data:
            return self.files.get(self.data[node_id].file_id)
        return None

    # -- edges

    def add_edge(self, edge: CodeEdge) -> None:
        """Insert or merge by key; both endpoints must already exist."""
        for end in (edge.src, edge.dst):
            if not (
                end in self.data
                or end in self.symbols
                or end in self.files
                or end in self.externals
            ):
                raise ValueError(f"edge {edge.kind} {edge.src} -> {edge.dst}: unknown node {end!r}")
        merge_into(self.edge_map, edge)

    def add_flows(self, nodes: Iterable[DataNode], edges: Iterable[CodeEdge]) -> None:
        """``add_data`` and ``add_edge`` for one file's def-use flow, with the same checks,
        written for its volume (most of a Python graph's nodes and edges)."""
        data, edge_map = self.data, self.edge_map
        for node in nodes:
            self._check_new(node.id)
            data[node.id] = node
        for edge in edges:
            if edge.src not in data or edge.dst not in data:
                self.add_edge(edge)  # a flow edge off its file's values: the general checks
                continue
            key = (edge.src, edge.dst, edge.kind)
            if key in edge_map or not (edge.confidence > 0.0 and math.isfinite(edge.confidence)):
                merge_into(edge_map, edge)
            else:
                edge_map[key] = edge

    def edges(self, kind: EdgeKind | None = None) -> list[CodeEdge]:
        """Edges sorted by key, optionally of one kind."""
        return [self.edge_map[k] for k in sorted(self.edge_map) if kind is None or k[2] == kind]

    def iter_nodes(self) -> Iterator[Node]:
        for table in (self.files, self.symbols, self.externals, self.data):
            yield from table.values()


# ---------------------------------------------------------------- invariants

#: Allowed (source node kind, destination node kind) per edge kind.
_ENDPOINT_KINDS: dict[EdgeKind, set[tuple[str, str]]] = {
    EdgeKind.IMPORT: {("file", "file"), ("file", "external")},
    # A metacall makes file -> symbol; every other reference is symbol -> symbol.
    EdgeKind.REFERENCE: {("symbol", "symbol"), ("file", "symbol")},
    # file -> file: a Rust ``mod x;`` (the module tree of a crate).
    EdgeKind.OWNERSHIP: {("file", "symbol"), ("symbol", "symbol"), ("file", "file")},
    EdgeKind.FLOW: {("data", "data")},
}


def invariant_violations(graph: CodeGraph) -> list[str]:
    """Every broken invariant of the code graph, as sentences (empty when the graph is sound)."""
    problems = _id_collisions(graph) + _endpoint_problems(graph)
    return problems + _ownership_problems(graph)


def check_invariants(graph: CodeGraph) -> None:
    problems = invariant_violations(graph)
    if problems:
        raise GraphInvariantError("; ".join(problems))


def _id_collisions(graph: CodeGraph) -> list[str]:
    """One id in two node tables would let the two metacall projections share a key."""
    seen: dict[str, int] = {}
    for table in (graph.files, graph.symbols, graph.externals, graph.data):
        for node_id in table:
            seen[node_id] = seen.get(node_id, 0) + 1
    return [f"node id {i!r} names nodes of two kinds" for i in sorted(seen) if seen[i] > 1]


def _endpoint_problems(graph: CodeGraph) -> list[str]:
    out = []
    for edge in graph.edges():
        pair = (graph.node_kind(edge.src), graph.node_kind(edge.dst))
        if pair not in _ENDPOINT_KINDS[edge.kind]:
            out.append(f"{edge.kind} edge {edge.src} -> {edge.dst} joins {pair[0]} to {pair[1]}")
    for sym in graph.symbols.values():
        if sym.file_id not in graph.files:
            out.append(f"symbol {sym.id} names no file ({sym.file_id!r})")
    return out


def _ownership_problems(graph: CodeGraph) -> list[str]:
    """Each symbol has exactly one owner, and its owner chain ends at the symbol's own file."""
    owners: dict[str, list[str]] = {}
    for edge in graph.edges(EdgeKind.OWNERSHIP):
        owners.setdefault(edge.dst, []).append(edge.src)
    out = []
    for sym_id in sorted(graph.symbols):
        if len(owners.get(sym_id, [])) != 1:
            out.append(f"symbol {sym_id} has {len(owners.get(sym_id, []))} owners, not 1")
            continue
        chain = {sym_id}
        node = owners[sym_id][0]
        while node in graph.symbols and node not in chain and len(owners.get(node, [])) == 1:
            chain.add(node)
            node = owners[node][0]
        if node in chain:
            out.append(f"ownership cycle through {sym_id}")
        elif node in graph.files and node != graph.symbols[sym_id].file_id:
            out.append(f"symbol {sym_id} is owned from file {node}, not its own file")
    return out
