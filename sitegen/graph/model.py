"""The document graph: nodes named by site path, edges identified by ``(from, to, rel)``.

The edge-merge rule of every graph sitegen keeps (identity, counts, positions, confidence;
content/adr/0003-edge-identity.md) lives here and nowhere else: the code graph and the
cycle analysis call it. This module never reads files and never renders anything.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TypeVar

from sitegen.base.paths import NodeId


class NodeKind(StrEnum):
    """What a node stands for: a page, a source file or a symbol in one, an asset, a URL
    outside the site, a link target that does not exist, or a page of another site that
    links here (read from its graph.md: content/guides/federation.md)."""

    PAGE = "page"
    SOURCE = "source"
    SYMBOL = "symbol"
    ASSET = "asset"
    EXTERNAL = "external"
    MISSING = "missing"
    PEER = "peer"


@dataclass(frozen=True, order=True, slots=True)
class Occurrence:
    """Where one link sits in its source file (0-based byte offset, 1-based line and column)."""

    offset: int
    line: int
    column: int
    fragment: str = ""


@dataclass(frozen=True, slots=True)
class Node:
    """A node of the document graph: its id (``/guides/a.md``), kind and title."""

    id: NodeId
    kind: NodeKind
    title: str = ""


# ---------------------------------------------------------------- the edge-merge rule

#: What identifies an edge in every graph: its two ends and its relation (a document edge's
#: ``rel``, "" for a body link; a code or dependency edge's kind). Two edges with one key are
#: one edge, whose parts combine as the functions below say (content/adr/0003-edge-identity.md).
EdgeKey = tuple[str, str, str]

_E = TypeVar("_E")


def merge_by_key(
    edges: Iterable[_E], key: Callable[[_E], EdgeKey], combine: Callable[[list[_E]], _E]
) -> list[_E]:
    """One edge per key, ``combine`` of the edges that share it (in arrival order); sorted
    by key. ``combine`` must not depend on that order, so neither does the result."""
    groups: dict[EdgeKey, list[_E]] = {}
    for edge in edges:
        groups.setdefault(key(edge), []).append(edge)
    return [combine(groups[k]) for k in sorted(groups)]


def merged_confidence(confidences: Iterable[float]) -> float:
    """The strongest finite confidence; NaN ("no signal") when none is finite, so a
    non-finite one never displaces a finite one. ``-0.0`` comes out as ``0.0``."""
    finite = [c for c in confidences if math.isfinite(c)]
    return max(finite) + 0.0 if finite else math.nan


def strongest(
    evidence: Iterable[_E], confidence: Callable[[_E], float], line: Callable[[_E], int]
) -> _E:
    """The piece of evidence with the strongest finite confidence, ties (and non-finite
    confidences, which rank below every finite one) going to the earliest line."""

    def rank(item: _E) -> tuple[bool, float, int]:
        c = confidence(item)
        return (math.isfinite(c), c + 0.0 if math.isfinite(c) else 0.0, -line(item))

    return max(evidence, key=rank)


def earliest(evidence: Iterable[_E], position: Callable[[_E], tuple[str, int, str]]) -> _E:
    """The piece of evidence that comes first in document order; ``position`` is its file,
    line and target. The first file wins, at its earliest known line (an unknown line, 0,
    after every known one), then the first target: never the order of arrival."""

    def order(item: _E) -> tuple[str, bool, int, str]:
        path, line, target = position(item)
        return (path, line <= 0, line, target)

    return min(evidence, key=order)


@dataclass(slots=True)
class Edge:
    """``{from, to, rel, label, anchor, count}`` plus the occurrences that make it up."""

    src: NodeId
    dst: NodeId
    rel: str = ""
    label: str = ""
    anchor: str = ""
    count: int = 1
    occurrences: list[Occurrence] = field(default_factory=list)

    @property
    def key(self) -> EdgeKey:
        return (self.src, self.dst, self.rel)

    def absorb(self, other: Edge) -> None:
        """Aggregate a later occurrence (or group of them) of the same edge, in document order:
        counts add up, every occurrence is kept, the first labelled one names the edge."""
        assert other.key == self.key
        self.count += other.count
        self.occurrences.extend(other.occurrences)
        if not self.label and other.label:
            self.label, self.anchor = other.label, other.anchor

    def copy(self) -> Edge:
        return Edge(
            self.src,
            self.dst,
            self.rel,
            self.label,
            self.anchor,
            self.count,
            list(self.occurrences),
        )


def edge_annotation(rel: str, label: str, anchor: str, count: int) -> str:
    """The one suffix for an edge on every surface (content/reference/edges.md#the-edgeannotation).

    ``edge_annotation("supersedes", "", "", 1) == " [supersedes]"``;
    ``edge_annotation("", "Getting started", "intro", 3) == ' ("Getting started", #intro, x3)'``.
    """
    out = f" [{rel}]" if rel else ""
    parts = []
    if label:
        parts.append(f'"{label}"')
    if anchor:
        parts.append(f"#{anchor}")
    if count > 1:
        parts.append(f"x{count}")
    if parts:
        out += " (" + ", ".join(parts) + ")"
    return out


def annotate(edge: Edge) -> str:
    return edge_annotation(edge.rel, edge.label, edge.anchor, edge.count)


# When two sources disagree about a node's kind, the more concrete one wins.
_KIND_RANK = {
    NodeKind.PAGE: 5,
    NodeKind.SOURCE: 5,
    NodeKind.SYMBOL: 4,
    NodeKind.ASSET: 3,
    NodeKind.EXTERNAL: 2,
    NodeKind.PEER: 2,
    NodeKind.MISSING: 1,
}


class Graph:
    """Nodes and aggregated edges. Adding the same ``(from, to, rel)`` again adds to its count."""

    def __init__(self) -> None:
        self.nodes: dict[NodeId, Node] = {}
        self._edges: dict[EdgeKey, Edge] = {}
        self._out: dict[str, set[EdgeKey]] = {}
        self._in: dict[str, set[EdgeKey]] = {}

    def add_node(self, node: Node) -> None:
        old = self.nodes.get(node.id)
        if (
            old is None
            or _KIND_RANK[node.kind] > _KIND_RANK[old.kind]
            or (old.kind == node.kind and not old.title and node.title)
        ):
            self.nodes[node.id] = node

    def add_edge(self, edge: Edge) -> Edge:
        """Add one edge (or an occurrence of it); returns the aggregated edge."""
        key = edge.key  # one tuple for the three indexes
        existing = self._edges.get(key)
        if existing is None:
            existing = self._edges[key] = edge.copy()
            self._out.setdefault(edge.src, set()).add(key)
            self._in.setdefault(edge.dst, set()).add(key)
        else:
            existing.absorb(edge)
        return existing

    def remove_edges_from(self, src: NodeId) -> None:
        for key in self._out.pop(src, set()):
            del self._edges[key]
            self._in[key[1]].discard(key)

    def edge(self, src: str, dst: str, rel: str = "") -> Edge | None:
        return self._edges.get((src, dst, rel))

    def edges(self) -> list[Edge]:
        """Every edge, sorted by ``(from, to, rel)``."""
        return [self._edges[k] for k in sorted(self._edges)]

    def __iter__(self) -> Iterator[Edge]:
        return iter(self.edges())

    def edges_from(self, src: NodeId) -> list[Edge]:
        return [self._edges[k] for k in sorted(self._out.get(src, ()))]

    def backlinks_of(self, dst: NodeId) -> list[Edge]:
        return [self._edges[k] for k in sorted(self._in.get(dst, ()))]

    def title_of(self, node: NodeId) -> str:
        n = self.nodes.get(node)
        return (n.title if n and n.title else "") or str(node)

    def with_edges(self, edges: Iterable[Edge]) -> Graph:
        """This graph plus ``edges``, as a new graph that shares this one's edge objects:
        an edge is copied only where an added one aggregates into it, so neither graph
        changes the other (the whole graph of docs and code costs the added edges only,
        not a second copy of the document graph: bench/README.md, "Memory")."""
        g = Graph()
        g.nodes = dict(self.nodes)
        g._edges = dict(self._edges)
        g._out, g._in = dict(self._out), dict(self._in)
        copied: set[EdgeKey] = set()
        for edge in edges:
            key = edge.key
            existing = g._edges.get(key)
            if existing is None:
                g._edges[key] = edge.copy()
                g._out[edge.src] = g._out.get(edge.src, set()) | {key}
                g._in[edge.dst] = g._in.get(edge.dst, set()) | {key}
                copied.add(key)
                continue
            if key not in copied:
                existing = g._edges[key] = existing.copy()
                copied.add(key)
            existing.absorb(edge)
        return g

    @classmethod
    def from_edges(cls, edges: Iterable[Edge], nodes: Iterable[Node] = ()) -> Graph:
        g = cls()
        for n in nodes:
            g.add_node(n)
        for e in edges:
            g.add_edge(e)
        return g
