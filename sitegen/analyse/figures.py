"""Figures over the finished document graph, all from the graph core: PageRank, communities
(seeded Louvain, its converged flag and passes) and bridge pages (content/reference/graph-core.md).

Pure functions of the graph, deterministic (seeded, sorted); never mutate the graph.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from sitegen.graph.communities import COMMUNITY_SEED, louvain, participation
from sitegen.graph.core import GraphCore
from sitegen.graph.core import pagerank as core_pagerank
from sitegen.graph.model import Graph, NodeKind
from sitegen.records.analysis import Figures

_LOCAL = (NodeKind.PAGE, NodeKind.SOURCE)
#: How many bridge pages the figures name.
BRIDGES = 10

__all__ = ["COMMUNITY_SEED", "Figures", "compute_figures", "core_of_graph", "figures_of_core"]


def core_of_graph(graph: Graph) -> GraphCore:
    """The pages and source files of ``graph`` in a finalized core, interned in id order;
    edges weighted by their count, one relation id per predicate, self-links left out."""
    core = GraphCore()
    local = sorted(n for n, node in graph.nodes.items() if node.kind in _LOCAL)
    for n in local:
        core.add_node(n, str(graph.nodes[n].kind))
    by_rel: dict[str, tuple[list[int], list[int], list[float]]] = {}
    ids = {name: i for i, name in enumerate(local)}
    for e in graph.edges():
        a, b = ids.get(e.src), ids.get(e.dst)
        if a is not None and b is not None and a != b:
            src, dst, weight = by_rel.setdefault(e.rel, ([], [], []))
            src.append(a)
            dst.append(b)
            weight.append(float(e.count))
    for rel in sorted(by_rel):
        core.add_edges(*by_rel[rel], rel=rel)
    core.finalize()
    return core


def pagerank(
    nodes: list[str], edges: list[tuple[int, int, float]]
) -> tuple[dict[str, float], bool]:
    """The core's PageRank of ``nodes`` numbered 0..n-1 and weighted ``edges``."""
    src = np.array([e[0] for e in edges], np.int64)
    dst = np.array([e[1] for e in edges], np.int64)
    weight = np.array([e[2] for e in edges], np.float64)
    ranks, converged = core_pagerank(len(nodes), src, dst, weight)
    return {node: float(ranks[i]) for i, node in enumerate(nodes)}, converged


def figures_of_core(core: GraphCore) -> Figures:
    ranks = core.pagerank
    if ranks is None or core.node_count == 0:
        return Figures({}, {}, True)
    w = core.weight_matrix()
    undirected = sp.csr_matrix(w + w.T)
    found = louvain(undirected, seed=COMMUNITY_SEED)
    spread = participation(undirected, found.labels)
    names = core.names
    order = np.lexsort((np.arange(len(names)), -spread))
    bridges = tuple(
        (names[i], round(float(spread[i]), 6)) for i in order[:BRIDGES] if spread[i] > 0
    )
    return Figures(
        {n: float(ranks[i]) for i, n in enumerate(names)},
        {n: int(found.labels[i]) for i, n in enumerate(names)},
        core.pagerank_converged,
        found.passes,
        found.converged,
        float(found.modularity),
        bridges,
    )


def compute_figures(graph: Graph) -> Figures:
    """PageRank, Louvain communities (seeded) and bridge pages of the pages and source files."""
    return figures_of_core(core_of_graph(graph))
