"""Figures over the finished document graph: PageRank and communities (SPEC §10).

Pure functions of the graph, deterministic (seeded, sorted); never mutate the graph.
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx
import numpy as np

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


def pagerank(nodes: list[str], edges: list[tuple[int, int, float]]) -> tuple[dict[str, float], bool]:
    """Weighted PageRank by power iteration in numpy (damping 0.85, at most 50 iterations,
    stop when the L1 change is below n * 1e-6, as networkx does); dangling nodes spread
    evenly. Normalized to [0, 1] by its maximum."""
    n = len(nodes)
    src = np.array([e[0] for e in edges], dtype=np.int64)
    dst = np.array([e[1] for e in edges], dtype=np.int64)
    weight = np.array([e[2] for e in edges], dtype=np.float64)
    out_weight = np.bincount(src, weights=weight, minlength=n)
    dangling = out_weight == 0
    share = np.divide(weight, out_weight[src], out=np.zeros_like(weight), where=out_weight[src] > 0)
    rank = np.full(n, 1.0 / n)
    converged = False
    for _ in range(MAX_ITERATIONS):
        new = np.bincount(dst, weights=rank[src] * share, minlength=n)
        new = DAMPING * (new + rank[dangling].sum() / n) + (1.0 - DAMPING) / n
        done = np.abs(new - rank).sum() < n * TOLERANCE
        rank = new
        if done:
            converged = True
            break
    top = rank.max()
    return {node: float(rank[i] / top) for i, node in enumerate(nodes)}, converged


def compute_figures(graph: Graph) -> Figures:
    """PageRank and Louvain communities (seeded) of the pages and source files."""
    g = _local_digraph(graph)
    if g.number_of_nodes() == 0:
        return Figures({}, {}, True)
    nodes = sorted(g.nodes)
    number = {n: i for i, n in enumerate(nodes)}
    edges = [(number[a], number[b], float(d["weight"])) for a, b, d in sorted(g.edges(data=True))]
    ranks, converged = pagerank(nodes, edges)
    parts = nx.community.louvain_communities(g.to_undirected(), weight="weight", seed=COMMUNITY_SEED)
    ordered = sorted((sorted(p) for p in parts), key=lambda p: (-len(p), p[0]))
    communities = {n: i for i, part in enumerate(ordered) for n in part}
    return Figures(ranks, dict(sorted(communities.items())), converged)
