"""The graph store's interface and its merge rule, last crawl wins (content/reference/store.md).

``merge_graphs`` is the one pure rule both backends apply; it never touches the disk and
never mutates its inputs. Backends only load and persist.

Node rule (content/reference/store.md#nodes-in-the-merge): a crawl's node replaces the stored one
(the crawl is newer, so a page that became ``missing`` says so). ``external`` and
``missing`` nodes that no edge references any more are dropped, stored or reported: they
exist only as link targets. A source found DELETED loses its stored node, unless the crawl
reports one for it or an edge still points at it (it then becomes a ``missing`` node).
Every other stored node (pages, sources, assets, symbols the crawl did not read) is kept:
the crawl did not look at those files.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from sitegen.base.paths import NodeId
from sitegen.graph.model import Edge, Graph, Node, NodeKind

if TYPE_CHECKING:
    from sitegen.graph.store.anchors import AnchorBook


class SourceStatus(StrEnum):
    """What the crawl did with one source file."""

    READ = "read"  # fetched and extracted: its outgoing edges are exactly the crawl's
    DELETED = "deleted"  # gone: counts as read, with no edges
    EXTERNAL = "external"  # outside what the crawl reads: stored edges kept
    ERROR = "error"  # could not be read this time: stored edges kept


#: The statuses whose stored outgoing edges the crawl replaces.
REPLACING = frozenset({SourceStatus.READ, SourceStatus.DELETED})
#: Node kinds that exist only because an edge points at them.
_TARGET_ONLY = frozenset({NodeKind.EXTERNAL, NodeKind.MISSING})


@dataclass
class GraphUpdate:
    """One crawl: per source, its status and outgoing edges; and the nodes the crawl knows."""

    sources: dict[str, tuple[SourceStatus, list[Edge]]] = field(default_factory=dict)
    nodes: list[Node] = field(default_factory=list)


class StoreError(Exception):
    """The store on disk cannot be read (corrupt, or written by an incompatible version).
    The message says why in a few words; ``path`` is the file, when the reader knows it."""

    def __init__(self, message: str, path: Path | None = None) -> None:
        super().__init__(message)
        self.path = path


class GraphStore(Protocol):
    def load(self) -> Graph:
        """The stored graph (empty when nothing was stored yet)."""
        ...

    def merge(self, crawl: GraphUpdate) -> Graph:
        """Apply ``merge_graphs`` to the stored graph, persist the result atomically, return it."""
        ...

    def save(self, merged: Graph) -> None:
        """Persist a graph that ``merge_graphs`` made from this store's ``load()``, atomically."""
        ...

    def load_anchors(self) -> AnchorBook:
        """Each page's published anchors and aliases (empty when none were stored yet)."""
        ...

    def save_anchors(self, book: AnchorBook) -> None:
        """Persist every page's anchors and aliases, atomically, replacing what was stored."""
        ...


def merge_graphs(stored: Graph, crawl: GraphUpdate) -> Graph:
    """The stored graph with every read or deleted source's outgoing edges replaced by the crawl's.

    Idempotent (merging the same crawl again changes nothing, counts never inflate) and,
    for crawls of disjoint sources, independent of the order they are merged in.
    """
    replaced = {src for src, (status, _) in crawl.sources.items() if status in REPLACING}
    merged = Graph()
    for edge in stored.edges():
        if edge.src not in replaced:
            merged.add_edge(edge)
    for src in sorted(replaced):
        status, edges = crawl.sources[src]
        for edge in edges if status == SourceStatus.READ else ():
            if edge.src != src:
                raise ValueError(f"crawl lists edge {edge.src} -> {edge.dst} under source {src}")
            merged.add_edge(edge)
    for edge in merged.edges():
        edge.occurrences.sort()  # canonical (document) order, so both backends load the same graph
    deleted = {src for src, (status, _) in crawl.sources.items() if status == SourceStatus.DELETED}
    merged.nodes = _merge_nodes(stored, crawl.nodes, deleted, _endpoints(merged))
    return merged


def _merge_nodes(
    stored: Graph, crawl_nodes: list[Node], deleted: set[str], referenced: set[str]
) -> dict[NodeId, Node]:
    nodes = {nid: n for nid, n in stored.nodes.items() if nid not in deleted}
    for nid in sorted(deleted & referenced & stored.nodes.keys()):
        nodes[NodeId(nid)] = replace(stored.nodes[NodeId(nid)], kind=NodeKind.MISSING, title="")
    reported = Graph()  # the crawl's own duplicates combine by the model's kind rule
    for node in crawl_nodes:
        reported.add_node(node)
    nodes.update(reported.nodes)
    return {
        nid: n
        for nid, n in sorted(nodes.items())
        if n.kind not in _TARGET_ONLY or nid in referenced
    }


def _endpoints(graph: Graph) -> set[str]:
    return {end for edge in graph.edges() for end in (edge.src, edge.dst)}
