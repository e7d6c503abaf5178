"""Spreading activation: reach within depth, never past the caps, equal to the brute-force
fixpoint, and the batch form equal to one activation per seed."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.graph.activation import (
    BACKWARD,
    DECAY,
    MAX_DEPTH,
    MAX_SEEDS,
    Reach,
    causal_transition,
    fixpoint,
    spread,
    spread_all,
    spread_heap,
    structural_transition,
)
from sitegen.graph.core import GraphCore


def _chain(n: int, rel: str = "") -> GraphCore:
    core = GraphCore()
    for i in range(n):
        core.add_node(f"n{i:03d}")
    if n > 1:
        core.add_edges(np.arange(n - 1), np.arange(1, n), np.ones(n - 1), rel)
    core.finalize()
    return core


def test_activation_reaches_a_two_hop_neighbour_within_depth() -> None:
    core = _chain(4)
    reached = spread(structural_transition(core), {0: 1.0}, Reach(max_depth=2))
    assert reached.as_dict().keys() == {0, 1, 2}
    assert reached.depth.tolist() == [0, 1, 2]
    assert reached.values[2] < reached.values[1] < reached.values[0]
    assert spread(structural_transition(core), {0: 1.0}, Reach(max_depth=1)).as_dict().keys() == {
        0,
        1,
    }


def test_activation_never_goes_past_the_depth_cap() -> None:
    core = _chain(60)
    reached = spread(structural_transition(core), {0: 1.0}, Reach(threshold=0.0))
    assert reached.depth.max() == MAX_DEPTH and len(reached.nodes) == MAX_DEPTH + 1


def test_activation_never_goes_past_the_visit_budget() -> None:
    core = _chain(200)
    reached = spread(
        structural_transition(core),
        dict.fromkeys(range(0, 200, 10), 1.0),
        Reach(threshold=0.0, budget=50),
    )
    assert 0 < reached.visits <= 50


def test_activation_starts_from_at_most_200_seeds() -> None:
    core = _chain(500)
    seeds = {i: 1.0 + i / 1000 for i in range(500)}
    reached = spread(structural_transition(core), seeds, Reach(max_depth=0))
    assert len(reached.nodes) == MAX_SEEDS
    assert set(reached.nodes.tolist()) == set(range(300, 500))  # the strongest ones


def test_typed_relations_spread_forward_and_backward_at_seven_tenths() -> None:
    core = _chain(3, rel="supersedes")
    t = causal_transition(core)
    # n1 carries 1 + 0.7 out and 1 + 0.7 in, n2 0.7 out and 1 in: degrees 1.7 and 0.85
    assert t[1, 2] == pytest.approx(DECAY * 1.0 / np.sqrt(1.7 * 0.85))
    assert t[2, 1] == pytest.approx(BACKWARD * t[1, 2])
    assert causal_transition(_chain(3)).nnz == 0  # plain links are not causal


#: A small graph (n nodes, weighted edges, self loops allowed and dropped) and 1 to 3 seeds.
GRAPHS = st.integers(2, 12).flatmap(
    lambda n: st.tuples(
        st.just(n),
        st.lists(
            st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.integers(1, 4)),
            max_size=30,
        ),
        st.dictionaries(st.integers(0, n - 1), st.floats(0.1, 1.0), min_size=1, max_size=3),
    )
)


def _transition(case):  # type: ignore[no-untyped-def]
    """The structural transition of a drawn graph: (node count, matrix, seeds)."""
    n, edges, seeds = case
    core = GraphCore()
    for i in range(n):
        core.add_node(f"n{i}")
    edges = [(a, b, w) for a, b, w in edges if a != b]
    if edges:
        core.add_edges([e[0] for e in edges], [e[1] for e in edges], [float(e[2]) for e in edges])
    core.finalize()
    return n, structural_transition(core), seeds


@settings(max_examples=40, deadline=None)
@given(GRAPHS)
def test_wavefront_equals_the_brute_force_fixpoint(case) -> None:  # type: ignore[no-untyped-def]
    n, t, seeds = _transition(case)
    reached = spread(t, seeds, Reach(max_depth=6, threshold=0.0, budget=10**9))
    expected = fixpoint(t, seeds, max_depth=6)
    got = np.zeros(n)
    got[reached.nodes] = reached.values
    assert np.allclose(got, expected, rtol=1e-9, atol=1e-12)
    # the batch form, one row per seed, is the same sum less the seed itself
    batch = spread_all(t, sp.identity(n, format="csr"), max_depth=6, threshold=0.0)
    for s in seeds:
        alone = fixpoint(t, {s: 1.0}, max_depth=6)
        alone[s] -= 1.0
        assert np.allclose(batch[s].toarray().ravel(), alone, atol=1e-12)


def test_a_hub_passes_little_on() -> None:
    core = GraphCore()
    for name in ["a", "b", "hub", *[f"x{i}" for i in range(20)]]:
        core.add_node(name)
    core.add_edges([0, 1], [2, 2], [1.0, 1.0])
    core.add_edges(np.arange(3, 23), np.full(20, 2), np.ones(20))
    core.add_node("c")
    core.add_node("d")
    core.add_node("shared")
    core.add_edges([23, 24], [25, 25], [1.0, 1.0])
    core.finalize()
    t = structural_transition(core)
    via_hub = spread(t, {0: 1.0}).as_dict().get(1, 0.0)
    via_shared = spread(t, {23: 1.0}).as_dict().get(24, 0.0)
    assert 0 < via_hub < via_shared


@settings(max_examples=40, deadline=None)
@given(GRAPHS)
def test_heap_and_wavefront_converge_to_the_same_fixpoint(case) -> None:  # type: ignore[no-untyped-def]
    n, t, seeds = _transition(case)
    expected = fixpoint(t, seeds, max_depth=5)
    for strategy in (spread, spread_heap):
        reached = strategy(t, seeds, Reach(max_depth=5, threshold=0.0, budget=10**9))
        got = np.zeros(n)
        got[reached.nodes] = reached.values
        assert np.allclose(got, expected, rtol=1e-9, atol=1e-12), strategy.__name__


def test_heap_equals_wavefront_on_weak_then_strong_arrivals() -> None:
    """A node first reached weakly over a short path and then strongly over a long one: the
    later, stronger signal must still move on (the seed's re-expansion gap)."""
    core = GraphCore()
    names = ["seed", "weak", "target", "after"] + [f"relay{i}" for i in range(6)]
    for name in names:
        core.add_node(name)
    core.add_edges([0, 1], [1, 2], [0.05, 0.05])  # seed -> weak -> target, weak links
    relays = list(range(4, 10))
    chain = [0, *relays, 2]
    core.add_edges(chain[:-1], chain[1:], np.full(len(chain) - 1, 50.0))  # strong, long
    core.add_edge(2, 3, 1.0)
    core.finalize()
    t = structural_transition(core)
    heap = spread_heap(t, {0: 1.0}, Reach(threshold=0.0, budget=10**9))
    wave = spread(t, {0: 1.0}, Reach(threshold=0.0, budget=10**9))
    assert np.array_equal(heap.nodes, wave.nodes)
    assert np.allclose(heap.values, wave.values, rtol=1e-9)
    assert heap.as_dict()[3] > 0


def test_heap_never_goes_past_the_budget_or_the_depth() -> None:
    core = _chain(100)
    t = structural_transition(core)
    reached = spread_heap(t, {0: 1.0}, Reach(threshold=0.0, budget=30))
    assert reached.visits <= 30
    deep = spread_heap(t, {0: 1.0}, Reach(threshold=0.0))
    assert deep.depth.max() == MAX_DEPTH
