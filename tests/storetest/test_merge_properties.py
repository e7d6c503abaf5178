"""Merge-order independence: crawls of disjoint sources give the same graph in any order.

A crawl reports nodes as a linker does: its read sources, and every target of its edges,
with one value per id (a source deleted anywhere is reported ``missing``).
"""

from __future__ import annotations

import itertools
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.graph.model import Graph, Node, NodeKind
from sitegen.graph.store import open_store
from sitegen.graph.store.base import GraphUpdate, SourceStatus, merge_graphs

from .conftest import BACKENDS
from .factories import crawl, edge, view

pytestmark = pytest.mark.slow  # property tests over both store backends (the fast loop skips them)

SOURCES = ["/a.md", "/b.md", "/c.md", "/d.md"]
TARGETS = SOURCES + ["https://x.org/", "/gone.md"]


def _node(node_id: str, deleted: set[str]) -> Node:
    if node_id.startswith("https:"):
        return Node(node_id, NodeKind.EXTERNAL)
    if node_id == "/gone.md" or node_id in deleted:
        return Node(node_id, NodeKind.MISSING)
    return Node(node_id, NodeKind.PAGE, node_id.upper())


_EDGE_SPEC = st.tuples(
    st.sampled_from(TARGETS),
    st.sampled_from(["", "supersedes"]),
    st.sampled_from(["", "Intro", "Other"]),
    st.sampled_from(["", "s1"]),
    st.integers(1, 3),
    st.lists(st.integers(0, 99), max_size=2),
)


def _edges(src: str, specs: list) -> list:
    return [
        edge(src, dst, rel, label, anchor, count, tuple(at))
        for dst, rel, label, anchor, count, at in specs
    ]


@st.composite
def scenarios(draw) -> tuple[Graph, list[GraphUpdate]]:
    """A stored graph and up to three crawls, each of its own sources."""
    stored_specs = {s: draw(st.lists(_EDGE_SPEC, max_size=3)) for s in SOURCES}
    owner = {s: draw(st.sampled_from([None, 0, 1, 2])) for s in SOURCES}
    status = {s: draw(st.sampled_from(list(SourceStatus))) for s in SOURCES}
    specs = {s: draw(st.lists(_EDGE_SPEC, max_size=3)) for s in SOURCES}
    deleted = {s for s in SOURCES if owner[s] is not None and status[s] == SourceStatus.DELETED}
    stored_edges = [e for s in SOURCES for e in _edges(s, stored_specs[s])]
    stored_nodes = [Node(n, NodeKind.PAGE, n) for n in SOURCES] + [
        _node(e.dst, set()) for e in stored_edges
    ]
    stored = Graph.from_edges(stored_edges, stored_nodes)
    crawls = []
    for index in range(3):
        mine = [s for s in SOURCES if owner[s] == index]
        sources = {s: (status[s], _edges(s, specs[s])) for s in mine}
        read = [e for s in mine if status[s] == SourceStatus.READ for e in sources[s][1]]
        nodes = [_node(s, deleted) for s in mine if status[s] == SourceStatus.READ]
        crawls.append(crawl(sources, nodes + [_node(e.dst, deleted) for e in read]))
    return stored, crawls


def _merge_all(stored: Graph, crawls) -> tuple:
    graph = stored
    for c in crawls:
        graph = merge_graphs(graph, c)
    return view(graph)


@settings(max_examples=300, deadline=None)
@given(scenarios())
def test_merge_rule_is_independent_of_the_order_of_disjoint_crawls(scenario):
    stored, crawls = scenario
    results = {repr(_merge_all(stored, order)) for order in itertools.permutations(crawls)}
    assert len(results) == 1


@settings(max_examples=300, deadline=None)
@given(scenarios())
def test_merge_rule_is_idempotent_and_never_mutates_its_input(scenario):
    stored, crawls = scenario
    before = view(stored)
    once = merge_graphs(stored, crawls[0])
    assert view(merge_graphs(once, crawls[0])) == view(once)
    assert view(stored) == before


@settings(max_examples=25, deadline=None)
@given(scenarios())
def test_every_backend_gives_the_same_graph_in_any_order(scenario):
    stored, crawls = scenario
    seed = crawl(
        {s: (SourceStatus.READ, stored.edges_from(s)) for s in SOURCES}, list(stored.nodes.values())
    )
    results = set()
    for backend in BACKENDS:
        for order in (crawls, crawls[::-1]):
            with tempfile.TemporaryDirectory() as tmp:
                store = open_store(backend, Path(tmp) / ".sitegen")
                store.merge(seed)
                for c in order:
                    store.merge(c)
                results.add(repr(view(open_store(backend, Path(tmp) / ".sitegen").load())))
    assert len(results) == 1
