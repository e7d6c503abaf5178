"""The document graph: nodes named by site path, edges identified by ``(from, to, rel)``.

The merge rules of SPEC §4 (identity, count aggregation, first labelled occurrence) live
here and nowhere else. This module never reads files and never renders anything.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum

from sitegen.paths import NodeId


class NodeKind(StrEnum):
    PAGE = "page"
    SOURCE = "source"
    SYMBOL = "symbol"
    ASSET = "asset"
    EXTERNAL = "external"
    MISSING = "missing"


@dataclass(frozen=True, order=True)
class Occurrence:
    """Where one link sits in its source file (0-based byte offset, 1-based line and column)."""

    offset: int
    line: int
    column: int
    fragment: str = ""


@dataclass(frozen=True)
class Node:
    id: NodeId
    kind: NodeKind
    title: str = ""


EdgeKey = tuple[str, str, str]


@dataclass
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
        """Aggregate a later occurrence (or group of them) of the same edge, in document order."""
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
            or old.kind == node.kind
            and not old.title
            and node.title
        ):
            self.nodes[node.id] = node

    def add_edge(self, edge: Edge) -> Edge:
        """Add one edge (or an occurrence of it); returns the aggregated edge."""
        existing = self._edges.get(edge.key)
        if existing is None:
            existing = self._edges[edge.key] = edge.copy()
            self._out.setdefault(edge.src, set()).add(edge.key)
            self._in.setdefault(edge.dst, set()).add(edge.key)
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

    @classmethod
    def from_edges(cls, edges: Iterable[Edge], nodes: Iterable[Node] = ()) -> Graph:
        g = cls()
        for n in nodes:
            g.add_node(n)
        for e in edges:
            g.add_edge(e)
        return g
