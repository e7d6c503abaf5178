"""The graph core's invariants (content/guides/related-pages.md), one test each, named after it."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.graph.core import (
    CoreError,
    DanglingEdge,
    DuplicateNode,
    GraphCore,
    NonFiniteWeight,
    pagerank,
)


def _core(n: int, edges: list[tuple[int, int]], weight: float = 1.0) -> GraphCore:
    core = GraphCore()
    for i in range(n):
        core.add_node(f"n{i}")
    for a, b in edges:
        core.add_edge(a, b, weight)
    return core


def test_interned_ids_are_dense_and_resolve_both_ways() -> None:
    core = _core(3, [])
    assert [core.id_of(f"n{i}") for i in range(3)] == [0, 1, 2]
    assert core.names[core.id_of("n2") or 0] == "n2" and core.id_of("nope") is None
    assert core.rel_id("supersedes") == core.rel_id("supersedes") == 1 and core.rel_id("") == 0


def test_duplicate_node_is_rejected() -> None:
    core = _core(1, [])
    before = core.generation
    with pytest.raises(DuplicateNode):
        core.add_node("n0")
    assert core.node_count == 1 and core.generation == before


def test_dangling_edge_is_rejected() -> None:
    core = _core(2, [])
    for a, b in ((0, 2), (-1, 0), (5, 5)):
        with pytest.raises(DanglingEdge):
            core.add_edge(a, b)
    assert core.edge_count == 0


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), float("-inf")])
def test_non_finite_weight_is_rejected_at_input_nan_firewall(bad: float) -> None:
    core = _core(2, [])
    with pytest.raises(NonFiniteWeight):
        core.add_edge(0, 1, bad)
    with pytest.raises(NonFiniteWeight):
        core.add_edges([0, 1], [1, 0], [1.0, bad])  # all or nothing
    core.finalize()
    assert core.edge_count == 0 and np.isfinite(core.forward.weights).all()


def test_negative_weight_is_rejected() -> None:
    with pytest.raises(CoreError):
        _core(2, []).add_edge(0, 1, -1.0)


def test_every_mutation_bumps_generation_and_clears_finalized() -> None:
    core = _core(2, [(0, 1)])
    core.finalize()
    g = core.generation
    core.add_node("n2")
    assert core.generation == g + 1 and not core.finalized
    core.finalize()
    core.add_edge(2, 0)
    assert core.generation == g + 2 and not core.finalized


def test_csr_offsets_have_length_n_plus_one_and_end_at_the_edge_count() -> None:
    core = _core(4, [(0, 1), (0, 2), (2, 3), (3, 0), (0, 1)])
    core.finalize()
    for csr in (core.forward, core.reverse):
        assert len(csr.offsets) == core.node_count + 1
        assert csr.offsets[-1] == core.edge_count == len(csr.targets)
        assert (np.diff(csr.offsets) >= 0).all()
    assert [int(core.forward.targets[j]) for j in core.out_range(0)] == [1, 2, 1]
    assert sorted(int(core.reverse.targets[j]) for j in core.in_range(1)) == [0, 0]


def test_out_range_and_in_range_are_bounds_safe() -> None:
    core = _core(2, [(0, 1)])
    assert core.out_range(0) == range(0)  # not finalized: an empty row, never an IndexError
    core.finalize()
    assert core.out_range(-1) == core.out_range(2) == core.in_range(99) == range(0)


def test_finalize_is_idempotent() -> None:
    core = _core(3, [(0, 1), (1, 2)])
    core.finalize()
    forward, ranks, generation = core.forward, core.pagerank, core.generation
    core.finalize()
    assert core.forward is forward and core.pagerank is ranks and core.generation == generation


def test_refinalize_preserves_edges() -> None:
    core = _core(3, [(0, 1), (1, 2)])
    core.finalize()
    core.add_edge(2, 0, 2.0)
    core.finalize()
    src, dst, weight, _ = core.edge_arrays()
    assert sorted(zip(src.tolist(), dst.tolist(), weight.tolist(), strict=True)) == [
        (0, 1, 1.0),
        (1, 2, 1.0),
        (2, 0, 2.0),
    ]
    assert core.forward.offsets[-1] == 3


def test_query_on_non_finalized_graph_is_honest_empty_not_panic() -> None:
    from sitegen.commands.explore_answers import answer
    from sitegen.graph.semantic import text_index
    from sitegen.graph.snapshot import Snapshot

    core = _core(2, [(0, 1)])
    assert core.pagerank is None and core.out_range(0) == range(0)
    snap = Snapshot(core, ("a", "b"), text_index([b"alpha words", b"beta words"]), np.ones(2), "fp")
    assert answer(snap, "alpha") == []


def test_incremental_add_node_and_edge_mark_pagerank_dirty() -> None:
    core = _core(2, [(0, 1)])
    core.finalize()
    assert core.pagerank is not None
    core.add_node("n2")
    assert core.pagerank is None
    core.finalize()
    core.add_edge(2, 1)
    assert core.pagerank is None


def test_refinalize_clears_pagerank_dirty() -> None:
    core = _core(3, [(0, 1)])
    core.finalize()
    core.add_edge(2, 1)
    core.finalize()
    ranks = core.pagerank
    assert ranks is not None and ranks[1] == 1.0 and ranks[1] > ranks[0]


def test_pagerank_of_a_star_puts_the_centre_first() -> None:
    ranks, converged = pagerank(5, np.array([1, 2, 3, 4]), np.array([0, 0, 0, 0]), np.ones(4))
    assert converged and ranks[0] == 1.0
    leaves = ranks[1:]
    assert np.allclose(leaves, leaves[0]) and leaves[0] < 1.0
    # the known answer: a leaf keeps (1-d)/n + d*(centre's rank)/n from the dangling centre
    raw = nx.pagerank(nx.DiGraph([(i, 0) for i in range(1, 5)]), alpha=0.85)
    assert leaves[0] == pytest.approx(raw[1] / raw[0], rel=1e-4)


def test_pagerank_of_a_cycle_is_uniform() -> None:
    ranks, converged = pagerank(6, np.arange(6), (np.arange(6) + 1) % 6, np.ones(6))
    assert converged and np.allclose(ranks, 1.0)


def test_pagerank_is_normalized_to_its_maximum() -> None:
    core = _core(4, [(0, 1), (1, 2), (2, 1), (3, 1)])
    core.finalize()
    ranks = core.pagerank
    assert ranks is not None and ranks.max() == 1.0 and (ranks >= 0).all()


@settings(max_examples=30, deadline=None)
@given(
    st.integers(2, 10).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(
                st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.integers(1, 3)),
                min_size=1,
                max_size=25,
                unique_by=lambda e: (e[0], e[1]),
            ),
        )
    )
)
def test_pagerank_agrees_with_networkx(case: tuple[int, list[tuple[int, int, int]]]) -> None:
    n, raw = case
    edges = [(a, b, float(w)) for a, b, w in raw if a != b]
    ranks, converged = pagerank(
        n,
        np.array([e[0] for e in edges], np.int64),
        np.array([e[1] for e in edges], np.int64),
        np.array([e[2] for e in edges]),
    )
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    g.add_weighted_edges_from(edges)
    try:
        theirs = nx.pagerank(g, alpha=0.85, max_iter=50, tol=1e-6)
    except nx.PowerIterationFailedConvergence:
        assert not converged
        return
    top = max(theirs.values())
    assert np.allclose(ranks, [theirs[i] / top for i in range(n)], atol=1e-4)
