"""Louvain communities (seeded, converged flag, pass count) and bridge pages."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

from sitegen.graph.communities import louvain, modularity, participation


def _adjacency(g: nx.Graph) -> sp.csr_matrix:
    return sp.csr_matrix(nx.to_scipy_sparse_array(g, nodelist=sorted(g.nodes), weight="weight"))


def _two_cliques() -> nx.Graph:
    g = nx.disjoint_union(nx.complete_graph(5), nx.complete_graph(5))
    g.add_edge(4, 5)
    return g


def test_two_cliques_joined_by_one_edge_are_two_communities() -> None:
    found = louvain(_adjacency(_two_cliques()))
    assert found.labels.tolist() == [0] * 5 + [1] * 5
    assert found.converged and found.passes >= 1
    assert found.modularity == pytest.approx(
        nx.community.modularity(_two_cliques(), [set(range(5)), set(range(5, 10))])
    )


def test_louvain_is_deterministic_for_a_seed() -> None:
    g = nx.planted_partition_graph(6, 20, 0.4, 0.02, seed=5)
    a = _adjacency(g)
    first, second = louvain(a, seed=3), louvain(a, seed=3)
    assert first.labels.tolist() == second.labels.tolist() and first.passes == second.passes


def test_louvain_capped_by_max_passes_says_it_did_not_converge() -> None:
    g = nx.planted_partition_graph(8, 16, 0.5, 0.02, seed=2)
    capped = louvain(_adjacency(g), max_passes=1)
    full = louvain(_adjacency(g))
    assert capped.passes == 1 and not capped.converged
    assert full.converged and full.passes > 1


def test_louvain_modularity_is_close_to_networkx() -> None:
    g = nx.planted_partition_graph(10, 30, 0.3, 0.01, seed=7)
    ours = louvain(_adjacency(g))
    theirs = nx.community.modularity(g, nx.community.louvain_communities(g, seed=1))
    assert ours.modularity >= theirs - 0.02
    assert ours.modularity == pytest.approx(modularity(_adjacency(g), ours.labels))


def test_communities_are_numbered_by_size_largest_first() -> None:
    g = nx.disjoint_union(nx.complete_graph(3), nx.complete_graph(6))
    labels = louvain(_adjacency(g)).labels
    assert labels.tolist() == [1] * 3 + [0] * 6


def test_empty_and_edgeless_graphs_are_their_own_communities() -> None:
    found = louvain(sp.csr_matrix((3, 3)))
    assert found.labels.tolist() == [0, 1, 2] and found.converged and found.passes == 0


def test_the_page_joining_two_cliques_is_the_bridge() -> None:
    g = _two_cliques()
    a = _adjacency(g)
    labels = louvain(a).labels
    spread = participation(a, labels)
    # node 4: four links inside its clique and one across: 1 - (4/5)^2 - (1/5)^2
    assert spread[4] == pytest.approx(1 - 0.64 - 0.04)
    assert spread[0] == 0.0 and set(np.flatnonzero(spread == spread.max())) == {4, 5}
