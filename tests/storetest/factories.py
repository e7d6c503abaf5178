"""Small builders for crawls and a field-by-field view of a graph, shared by the suite."""

from __future__ import annotations

from sitegen.graph.model import Edge, Graph, Node, NodeKind, Occurrence
from sitegen.graph.store.base import GraphUpdate, SourceStatus

READ, DELETED, EXTERNAL, ERROR = (
    SourceStatus.READ,
    SourceStatus.DELETED,
    SourceStatus.EXTERNAL,
    SourceStatus.ERROR,
)


def edge(
    src: str,
    dst: str,
    rel: str = "",
    label: str = "",
    anchor: str = "",
    count: int = 1,
    at: tuple[int, ...] = (),
) -> Edge:
    """An edge whose occurrences sit at the given byte offsets (line 1, column offset + 1)."""
    return Edge(src, dst, rel, label, anchor, count, [Occurrence(o, 1, o + 1) for o in at])


def page(node_id: str, title: str = "") -> Node:
    return Node(node_id, NodeKind.PAGE, title)


def crawl(
    sources: dict[str, tuple[SourceStatus, list[Edge]]], nodes: list[Node] = ()
) -> GraphUpdate:
    return GraphUpdate(sources=dict(sources), nodes=list(nodes))


def view(graph: Graph) -> tuple[dict, list[tuple]]:
    """Everything a graph holds, as plain values: nodes by id, edges with every field."""
    edges = [
        (e.src, e.dst, e.rel, e.label, e.anchor, e.count, tuple(e.occurrences))
        for e in graph.edges()
    ]
    return dict(sorted(graph.nodes.items())), edges


def fields(e: Edge) -> tuple:
    return (e.src, e.dst, e.rel, e.label, e.anchor, e.count, tuple(e.occurrences))
