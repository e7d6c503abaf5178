"""Communities (Louvain, seeded, with a converged flag) and bridge pages, in numpy.

Read-only over a symmetric weight matrix from the graph core (content/guides/related-pages.md);
never mutates its input, and never stops silently at a cap: ``converged`` says whether it did.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp

from sitegen.graph.core import FloatArray, IntArray

COMMUNITY_SEED = 1
MAX_PASSES = 20
MAX_SWEEPS = 100
#: A move must gain more than this (in edge-weight units) to count as an improvement.
MIN_GAIN = 1e-9
#: A pass ends when a sweep raises the modularity by less than this.
MIN_SWEEP_GAIN = 1e-4


@dataclass(frozen=True)
class Communities:
    """``labels[i]`` is node i's community, 0 the largest (ties: the smallest node id)."""

    labels: IntArray
    modularity: float
    #: How many local-moving passes ran (each followed by an aggregation when it moved).
    passes: int
    #: True when the last pass moved no node; False when ``max_passes`` stopped it first.
    converged: bool


def louvain(
    adjacency: sp.csr_matrix,
    seed: int = COMMUNITY_SEED,
    max_passes: int = MAX_PASSES,
    max_sweeps: int = MAX_SWEEPS,
) -> Communities:
    """Louvain on a symmetric, non-negative weight matrix. Each sweep moves, at once, an
    independent set of the nodes that gain by moving (chosen by seeded random priorities,
    so that two neighbours never swap back and forth); then the communities become nodes."""
    a = sp.csr_matrix(adjacency, dtype=np.float64)
    n = a.shape[0]
    labels = np.arange(n, dtype=np.int64)
    if n == 0 or a.sum() == 0:
        return Communities(labels, 0.0, 0, True)
    rng = np.random.default_rng(seed)
    passes, converged = 0, False
    while passes < max_passes:
        passes += 1
        comm = _local_moving(a, rng, max_sweeps)
        if len(np.unique(comm)) == a.shape[0]:
            converged = True
            break
        _, comm = np.unique(comm, return_inverse=True)
        labels = comm[labels]
        a = _aggregate(a, comm)
    ordered = _by_size(labels)
    return Communities(ordered, modularity(adjacency, ordered), passes, converged)


def _local_moving(
    a: sp.csr_matrix[np.float64], rng: np.random.Generator, max_sweeps: int
) -> IntArray:
    """One pass of moves; ends when a sweep no longer raises the modularity (that sweep is
    undone when it lowered it: simultaneous moves into one community can overshoot)."""
    n = a.shape[0]
    k = np.asarray(a.sum(axis=1)).ravel()
    m2 = k.sum()
    rows = np.repeat(np.arange(n), np.diff(a.indptr))
    self_weight = float(a.diagonal().sum())
    off = rows != a.indices
    rows, cols, w = rows[off], a.indices[off].astype(np.int64), a.data[off]
    comm = np.arange(n, dtype=np.int64)
    tot = k.copy()
    quality = _quality(rows, cols, w, comm, tot, self_weight, m2)
    for _ in range(max_sweeps):
        movers, targets = _best_moves(a, comm, k, tot, m2)
        if len(movers) == 0:
            break
        # Half the movers sit each sweep out, and neighbours never swap: that damps the
        # back-and-forth of moving everyone at once.
        keep = _independent(movers, targets, comm, rows, cols, rng.random(n))
        keep &= rng.random(len(movers)) < 0.5
        keep[np.argmax(keep)] = True
        movers, targets = movers[keep], targets[keep]
        before = comm[movers]
        _move(comm, tot, k, movers, targets)
        new_quality = _quality(rows, cols, w, comm, tot, self_weight, m2)
        if new_quality < quality:
            _move(comm, tot, k, movers, before)
            break
        if new_quality - quality < MIN_SWEEP_GAIN:
            break
        quality = new_quality
    return comm


def _move(
    comm: IntArray, tot: FloatArray, k: FloatArray, movers: IntArray, targets: IntArray
) -> None:
    np.subtract.at(tot, comm[movers], k[movers])
    np.add.at(tot, targets, k[movers])
    comm[movers] = targets


def _quality(
    rows: IntArray,
    cols: IntArray,
    w: FloatArray,
    comm: IntArray,
    tot: FloatArray,
    self_weight: float,
    m2: float,
) -> float:
    inside = float(w[comm[rows] == comm[cols]].sum()) + self_weight
    return inside / m2 - float(((tot / m2) ** 2).sum())


def _best_moves(
    a: sp.csr_matrix, comm: IntArray, k: FloatArray, tot: FloatArray, m2: float
) -> tuple[IntArray, IntArray]:
    """Nodes whose best neighbouring community gains more than staying, and that community
    (ties: the smallest community id). One sparse product, no sort: O(edges)."""
    n = len(k)
    member = sp.csr_matrix((np.ones(n), (np.arange(n), comm)), shape=(n, n))
    k_in = sp.csr_matrix(a @ member)  # k_in[u, c]: u's weight into community c
    rows = np.repeat(np.arange(n), np.diff(k_in.indptr))
    c = k_in.indices.astype(np.int64)
    own = comm[rows] == c
    loops = a.diagonal()
    stay = -k * (tot[comm] - k) / m2
    np.add.at(stay, rows[own], k_in.data[own])
    stay -= loops
    gain = np.where(own, -np.inf, k_in.data - k[rows] * tot[c] / m2)
    filled = np.flatnonzero(np.diff(k_in.indptr))
    if len(filled) == 0:
        return filled, filled
    best = np.full(n, -np.inf)
    best[filled] = np.maximum.reduceat(gain, k_in.indptr[filled])
    at_best = np.where(gain == best[rows], c, n)
    target = np.full(n, n, np.int64)
    target[filled] = np.minimum.reduceat(at_best, k_in.indptr[filled])
    movers = np.flatnonzero((target < n) & (best - stay > MIN_GAIN))
    return movers, target[movers]


def _independent(
    movers: IntArray,
    targets: IntArray,
    comm: IntArray,
    rows: IntArray,
    cols: IntArray,
    priority: FloatArray,
) -> npt.NDArray[np.bool_]:
    """Movers that do not conflict with a moving neighbour of higher priority; two
    neighbours conflict when one moves into the other's community (they would swap)."""
    n = len(priority)
    target = np.full(n, -1, np.int64)
    target[movers] = targets
    both = (target[rows] >= 0) & (target[cols] >= 0) & (priority[cols] > priority[rows])
    r, c = rows[both], cols[both]
    clash = (target[r] == comm[c]) | (target[c] == comm[r])
    blocked = np.zeros(n, bool)
    blocked[r[clash]] = True
    return ~blocked[movers]


def _aggregate(a: sp.csr_matrix, comm: IntArray) -> sp.csr_matrix:
    n, c = a.shape[0], int(comm.max()) + 1
    member = sp.csr_matrix((np.ones(n), (np.arange(n), comm)), shape=(n, c))
    return sp.csr_matrix(member.T @ a @ member)


def _by_size(labels: IntArray) -> IntArray:
    """Renumber: the largest community 0, ties broken by the smallest member id."""
    n = len(labels)
    size = np.bincount(labels)
    first = np.full(len(size), n, np.int64)
    np.minimum.at(first, labels, np.arange(n))
    present = np.flatnonzero(size)
    order = present[np.lexsort((first[present], -size[present]))]
    rank = np.empty(len(size), np.int64)
    rank[order] = np.arange(len(order))
    return rank[labels]


def modularity(adjacency: sp.csr_matrix, labels: IntArray) -> float:
    """Newman's modularity of a partition of a symmetric weight matrix (resolution 1)."""
    a = sp.coo_matrix(adjacency)
    m2 = float(a.sum())
    if m2 == 0:
        return 0.0
    inside = float(a.data[labels[a.row] == labels[a.col]].sum())
    k = np.asarray(sp.csr_matrix(a).sum(axis=1)).ravel()
    tot = np.bincount(labels, weights=k)
    return inside / m2 - float(((tot / m2) ** 2).sum())


def participation(adjacency: sp.csr_matrix, labels: IntArray) -> FloatArray:
    """Each node's participation coefficient, ``1 - sum_c (k_ic / k_i)^2``: 0 when all its
    links stay in one community, near 1 when they spread evenly over many (a bridge)."""
    a = sp.coo_matrix(adjacency)
    off = a.row != a.col
    rows, cols, w = a.row[off], a.col[off], a.data[off]
    n = a.shape[0]
    k = np.bincount(rows, weights=w, minlength=n)
    pair, inverse = np.unique(rows.astype(np.int64) * n + labels[cols], return_inverse=True)
    k_ic = np.bincount(inverse, weights=w)
    share = np.bincount(pair // n, weights=(k_ic / k[pair // n]) ** 2, minlength=n)
    return np.where(k > 0, 1.0 - share, 0.0)
