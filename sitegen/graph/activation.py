"""Spreading activation over the graph core: from query seeds, along weighted links, by levels.

Activation is the sum over walks of at most ``max_depth`` hops of the product of the hop
factors (content/guides/related-pages.md). Never unbounded: at most 200 seeds, depth 20, a
visit budget, and values under the threshold stop. Never mutates the graph it reads.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from sitegen.graph.core import FloatArray, GraphCore, IntArray

MAX_SEEDS = 200
MAX_DEPTH = 20
VISIT_BUDGET = 200_000
THRESHOLD = 1e-4
#: Each hop keeps this share of the signal (0.5 ** 20 < 1e-4: the depth cap rarely binds).
DECAY = 0.5
#: Typed relations spread backwards (from target to source) at this share of forwards.
BACKWARD = 0.7


@dataclass(frozen=True)
class Reach:
    """How far a spread may go: ``max_depth`` hops, signals of at least ``threshold``,
    ``budget`` edges relaxed in all. Both strategies take it, so they stay interchangeable."""

    max_depth: int = MAX_DEPTH
    threshold: float = THRESHOLD
    budget: int = VISIT_BUDGET


@dataclass(frozen=True)
class Activation:
    """The nodes reached (sorted by id), their activation and the hop that first reached
    them; ``visits`` counts the edges relaxed, never more than the budget."""

    nodes: IntArray
    values: FloatArray
    depth: IntArray
    visits: int

    def as_dict(self) -> dict[int, float]:
        return {int(n): float(v) for n, v in zip(self.nodes, self.values, strict=True)}


EMPTY = Activation(np.zeros(0, np.int64), np.zeros(0), np.zeros(0, np.int64), 0)


def structural_transition(core: GraphCore, rels: set[int] | None = None) -> sp.csr_matrix:
    """Links as an undirected graph weighted by count, each hop ``DECAY * w / sqrt(d_u d_v)``
    (a page linked from everywhere passes little on, as a common word says little)."""
    return _normalized(_both_ways(core.weight_matrix(rels), 1.0))


def causal_transition(core: GraphCore) -> sp.csr_matrix:
    """Typed relations forwards at full weight and backwards at ``BACKWARD``."""
    typed = set(range(1, len(core.rel_names))) - {core.rel_id("imports")}
    return _normalized(_both_ways(core.weight_matrix(typed), BACKWARD))


def _both_ways(w: sp.csr_matrix, backward: float) -> sp.csr_matrix:
    """``w`` plus its transpose weighted ``backward``, without self-loops."""
    both = sp.csr_matrix(w + backward * w.T)
    both.setdiag(0)
    both.eliminate_zeros()
    return both


def _normalized(w: sp.csr_matrix) -> sp.csr_matrix:
    degree = np.asarray(w.sum(axis=1)).ravel() + np.asarray(w.sum(axis=0)).ravel()
    scale = np.divide(1.0, np.sqrt(degree / 2), out=np.zeros_like(degree), where=degree > 0)
    out = sp.csr_matrix(sp.diags(scale) @ w @ sp.diags(scale) * DECAY)
    out.sort_indices()
    return out


def _strongest_seeds(seeds: dict[int, float], n: int) -> list[tuple[float, int]]:
    """``(signal, node)`` of the ``MAX_SEEDS`` strongest seeds that are nodes (``0 <= node <
    n``) with a positive signal, strongest first, ties by node."""
    valid = ((v, k) for k, v in seeds.items() if 0 <= k < n and v > 0)
    return sorted(valid, key=lambda t: (-t[0], t[1]))[:MAX_SEEDS]


def spread(
    transition: sp.csr_matrix, seeds: dict[int, float], reach: Reach = Reach()
) -> Activation:
    """The wavefront strategy: level by level, the frontier's signal moves one hop along
    ``transition`` (row = from), summed per node. The strongest ``MAX_SEEDS`` seeds start;
    a level that would exceed the budget relaxes only its strongest nodes that fit."""
    n = transition.shape[0]
    chosen = _strongest_seeds(seeds, n)
    if not chosen:
        return EMPTY
    total = np.zeros(n)
    depth = np.full(n, -1, np.int64)
    frontier = np.array([k for _, k in chosen], np.int64)
    signal = np.array([v for v, _ in chosen])
    order = np.argsort(frontier)
    frontier, signal = frontier[order], signal[order]
    total[frontier] += signal
    depth[frontier] = 0
    visits = 0
    degree = np.diff(transition.indptr)
    for hop in range(1, reach.max_depth + 1):
        frontier, signal = _within_budget(frontier, signal, degree, reach.budget - visits)
        if len(frontier) == 0:
            break
        visits += int(degree[frontier].sum())
        reached = (
            sp.csr_matrix((signal, (np.zeros(len(frontier), np.int64), frontier)), shape=(1, n))
            @ transition
        )
        reached.sum_duplicates()
        keep = reached.data >= reach.threshold
        frontier, signal = reached.indices[keep].astype(np.int64), reached.data[keep]
        order = np.argsort(frontier)
        frontier, signal = frontier[order], signal[order]
        total[frontier] += signal
        depth[frontier[depth[frontier] < 0]] = hop
    nodes = np.flatnonzero(depth >= 0)
    return Activation(nodes, total[nodes], depth[nodes], visits)


def spread_heap(
    transition: sp.csr_matrix, seeds: dict[int, float], reach: Reach = Reach()
) -> Activation:
    """The heap strategy: the strongest pending signal moves first. Activation is a sum, so
    a signal that arrives at a node after it was expanded is pushed on as its own increment
    (the re-expansion a max-heap needs): with no budget binding, the result is the
    wavefront's. Under a budget, it spends the visits on the strongest signals."""
    n = transition.shape[0]
    chosen = _strongest_seeds(seeds, n)
    total: dict[int, float] = {}
    depth: dict[int, int] = {}
    pending: dict[tuple[int, int], float] = {}
    heap: list[tuple[float, int, int]] = []
    for v, k in chosen:
        pending[(k, 0)] = pending.get((k, 0), 0.0) + v
    for (k, d), v in sorted(pending.items()):
        heapq.heappush(heap, (-v, k, d))
    indptr, indices, data = transition.indptr, transition.indices, transition.data
    visits = 0
    while heap:
        _, node, hop = heapq.heappop(heap)
        signal = pending.pop((node, hop), 0.0)
        if signal == 0.0:
            continue  # already moved on with an earlier, larger entry
        total[node] = total.get(node, 0.0) + signal
        depth[node] = min(depth.get(node, hop), hop)
        lo, hi = int(indptr[node]), int(indptr[node + 1])
        if hop == reach.max_depth or visits + hi - lo > reach.budget:
            continue
        visits += hi - lo
        for j in range(lo, hi):
            moved = signal * float(data[j])
            if moved >= reach.threshold:
                key = (int(indices[j]), hop + 1)
                pending[key] = pending.get(key, 0.0) + moved
                heapq.heappush(heap, (-pending[key], key[0], key[1]))
    nodes = np.array(sorted(total), np.int64)
    return Activation(
        nodes,
        np.array([total[i] for i in nodes.tolist()]),
        np.array([depth[i] for i in nodes.tolist()], np.int64),
        visits,
    )


def _within_budget(
    frontier: IntArray, signal: FloatArray, degree: IntArray, left: int
) -> tuple[IntArray, FloatArray]:
    cost = degree[frontier]
    if int(cost.sum()) <= left:
        return frontier, signal
    strongest = np.lexsort((frontier, -signal))
    fits = strongest[np.cumsum(cost[strongest]) <= left]
    fits.sort()
    return frontier[fits], signal[fits]


def spread_all(
    transition: sp.csr_matrix,
    seeds: sp.csr_matrix,
    max_depth: int,
    threshold: float = THRESHOLD,
    min_depth: int = 1,
) -> sp.csr_matrix:
    """The wavefront strategy for many queries at once: row r of ``seeds`` is query r's
    seeds; row r of the result its activation (the same sum as ``spread``, counting only
    the hops from ``min_depth`` on: 1 leaves out the seeds, 2 their direct neighbours too).
    Depth and threshold apply; the visit budget is ``spread``'s alone."""
    level = sp.csr_matrix(seeds, dtype=np.float64)
    total = sp.csr_matrix(level.shape)
    for hop in range(1, max_depth + 1):
        level = sp.csr_matrix(level @ transition)
        level.data[level.data < threshold] = 0
        level.eliminate_zeros()
        if level.nnz == 0:
            break
        if hop >= min_depth:
            total = total + level
    return sp.csr_matrix(total)


def fixpoint(transition: sp.csr_matrix, seeds: dict[int, float], max_depth: int) -> FloatArray:
    """The brute-force answer ``spread`` must equal with no threshold: the dense sum over
    every walk of at most ``max_depth`` hops. For tests and small graphs only."""
    dense = np.asarray(sp.csr_matrix(transition).todense())
    x = np.zeros(dense.shape[0])
    for k, v in seeds.items():
        x[k] += v
    total = x.copy()
    for _ in range(max_depth):
        x = x @ dense
        total += x
    return total
