"""PageRank and communities of the document graph (content/reference/graph-core.md)."""

from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.analyse.figures import compute_figures, pagerank
from sitegen.graph.model import Edge, Graph, Node, NodeKind


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 12).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(
                st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.integers(1, 3)),
                min_size=1,
                max_size=30,
                unique_by=lambda e: (e[0], e[1]),
            ),
        )
    )
)
def test_pagerank_agrees_with_networkx(case: tuple[int, list[tuple[int, int, int]]]) -> None:
    n, raw = case
    edges = [(a, b, float(w)) for a, b, w in raw if a != b]
    nodes = [f"n{i:02d}" for i in range(n)]
    ours, converged = pagerank(nodes, edges)
    g = nx.DiGraph()
    g.add_nodes_from(nodes)
    g.add_weighted_edges_from((nodes[a], nodes[b], w) for a, b, w in edges)
    try:
        theirs = nx.pagerank(g, alpha=0.85, max_iter=50, tol=1e-6, weight="weight")
    except nx.PowerIterationFailedConvergence:
        assert not converged
        return
    top = max(theirs.values())
    for node in nodes:
        assert ours[node] == pytest.approx(theirs[node] / top, abs=1e-4)
    assert max(ours.values()) == 1.0


def test_figures_are_deterministic_and_only_cover_pages_and_sources() -> None:
    g = Graph.from_edges(
        [
            Edge("/a.md", "/b.md"),
            Edge("/b.md", "/a.md"),
            Edge("/c.md", "/a.md"),
            Edge("/a.md", "https://x.org/"),
        ],
        [
            Node("/a.md", NodeKind.PAGE),
            Node("/b.md", NodeKind.PAGE),
            Node("/c.md", NodeKind.PAGE),
            Node("https://x.org/", NodeKind.EXTERNAL),
        ],
    )
    first, second = compute_figures(g), compute_figures(g)
    assert first == second
    assert set(first.pagerank) == {"/a.md", "/b.md", "/c.md"}
    assert first.pagerank["/a.md"] == 1.0 and first.pagerank["/c.md"] < first.pagerank["/b.md"]
    assert set(first.communities) == set(first.pagerank)
