"""Figures over the finished document graph: PageRank and communities (SPEC §10).

Pure functions of the graph, deterministic (seeded, sorted); never mutate the graph.
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx

from sitegen.graph.model import Graph, NodeKind

DAMPING = 0.85
MAX_ITERATIONS = 50
TOLERANCE = 1e-6
COMMUNITY_SEED = 1
_LOCAL = (NodeKind.PAGE, NodeKind.SOURCE)


@dataclass(frozen=True)
class Figures:
    #: PageRank normalized to [0, 1] by its maximum.
    pagerank: dict[str, float]
    #: Community number per node (0 is the largest community).
    communities: dict[str, int]
    converged: bool


def _local_digraph(graph: Graph) -> nx.DiGraph:
    g = nx.DiGraph()
    local = sorted(n for n, node in graph.nodes.items() if node.kind in _LOCAL)
    g.add_nodes_from(local)
    members = set(local)
    for e in graph.edges():
        if e.src in members and e.dst in members and e.src != e.dst:
            weight = g.get_edge_data(e.src, e.dst, {"weight": 0})["weight"] + e.count
            g.add_edge(e.src, e.dst, weight=weight)
    return g


def compute_figures(graph: Graph) -> Figures:
    """PageRank (damping 0.85, at most 50 iterations, tolerance 1e-6) and Louvain communities
    of the pages and source files."""
    g = _local_digraph(graph)
    if g.number_of_nodes() == 0:
        return Figures({}, {}, True)
    converged = True
    try:
        raw = nx.pagerank(g, alpha=DAMPING, max_iter=MAX_ITERATIONS, tol=TOLERANCE, weight="weight")
    except nx.PowerIterationFailedConvergence:
        converged = False
        raw = {n: 1.0 for n in g}
    top = max(raw.values()) or 1.0
    pagerank = {n: raw[n] / top for n in sorted(raw)}
    parts = nx.community.louvain_communities(g.to_undirected(), weight="weight", seed=COMMUNITY_SEED)
    ordered = sorted((sorted(p) for p in parts), key=lambda p: (-len(p), p[0]))
    communities = {n: i for i, part in enumerate(ordered) for n in part}
    return Figures(pagerank, dict(sorted(communities.items())), converged)
