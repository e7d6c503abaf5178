"""The graph core: interned node ids, forward and reverse CSR, finite weights, PageRank.

The in-memory engine every figure of the site rides on (content/guides/related-pages.md).
It never reads or writes files and never sees the document model: callers add nodes and
edges, call ``finalize()``, and read arrays. Queries on an unfinalized graph return nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp

DAMPING = 0.85
MAX_ITERATIONS = 50
TOLERANCE = 1e-6

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


class CoreError(ValueError):
    """A mutation the engine refuses: the graph is unchanged."""


class DuplicateNode(CoreError):
    pass


class DanglingEdge(CoreError):
    pass


class NonFiniteWeight(CoreError):
    pass


@dataclass(frozen=True)
class Csr:
    """``offsets`` of length n + 1 with ``offsets[n] == edges``; row i is
    ``[offsets[i], offsets[i + 1])`` of ``targets``, ``weights``, ``rels`` and ``edge``
    (the index of the edge in insertion order, so both directions name the same edge)."""

    offsets: IntArray
    targets: IntArray
    weights: FloatArray
    rels: IntArray
    edge: IntArray

    @property
    def nodes(self) -> int:
        return len(self.offsets) - 1

    def row(self, i: int) -> range:
        """Bounds-safe: an id outside the graph (or an unbuilt CSR) has an empty row."""
        if not 0 <= i < self.nodes:
            return range(0)
        return range(int(self.offsets[i]), int(self.offsets[i + 1]))


_EMPTY = Csr(
    np.zeros(1, np.int64),
    np.zeros(0, np.int64),
    np.zeros(0),
    np.zeros(0, np.int64),
    np.zeros(0, np.int64),
)


def build_csr(n: int, rows: IntArray, cols: IntArray, weights: FloatArray, rels: IntArray) -> Csr:
    """A CSR of ``rows -> cols`` by a stable counting sort: within a row, insertion order."""
    order = np.argsort(rows, kind="stable")
    offsets = np.zeros(n + 1, np.int64)
    np.cumsum(np.bincount(rows, minlength=n), out=offsets[1:])
    return Csr(offsets, cols[order], weights[order], rels[order], order.astype(np.int64))


class GraphCore:
    """Nodes (interned names with a kind) and weighted, typed edges; CSR after ``finalize``.

    Every mutation bumps ``generation`` and clears ``finalized``; the PageRank of an older
    generation is never returned (``pagerank`` is ``None`` until the next ``finalize``).
    """

    def __init__(self) -> None:
        self.names: list[str] = []
        self.kinds: list[str] = []
        self._ids: dict[str, int] = {}
        self.rel_names: list[str] = [""]
        self._rel_ids: dict[str, int] = {"": 0}
        self._src: list[IntArray] = []
        self._dst: list[IntArray] = []
        self._weight: list[FloatArray] = []
        self._rel: list[IntArray] = []
        self.generation = 0
        self.finalized = False
        self.forward = _EMPTY
        self.reverse = _EMPTY
        self._pagerank: FloatArray | None = None
        self.pagerank_converged = False

    # ------------------------------------------------------------------ mutation

    def _mutated(self) -> None:
        self.generation += 1
        self.finalized = False
        self._pagerank = None

    def add_node(self, name: str, kind: str = "page") -> int:
        if name in self._ids:
            raise DuplicateNode(f"node '{name}' already exists")
        self._ids[name] = len(self.names)
        self.names.append(name)
        self.kinds.append(kind)
        self._mutated()
        return self._ids[name]

    def rel_id(self, rel: str) -> int:
        """The interned id of a relation name (``""`` is the plain link, id 0)."""
        if rel not in self._rel_ids:
            self._rel_ids[rel] = len(self.rel_names)
            self.rel_names.append(rel)
        return self._rel_ids[rel]

    def add_edge(self, src: int, dst: int, weight: float = 1.0, rel: str = "") -> None:
        self.add_edges(np.array([src]), np.array([dst]), np.array([weight], np.float64), rel)

    def add_edges(
        self, src: npt.ArrayLike, dst: npt.ArrayLike, weight: npt.ArrayLike, rel: str = ""
    ) -> None:
        """Many edges of one relation at once; all or none are added."""
        s = np.asarray(src, np.int64).ravel()
        d = np.asarray(dst, np.int64).ravel()
        w = np.asarray(weight, np.float64).ravel()
        if not len(s) == len(d) == len(w):
            raise CoreError("sources, targets and weights differ in length")
        n = len(self.names)
        if len(s) and (min(s.min(), d.min()) < 0 or max(s.max(), d.max()) >= n):
            raise DanglingEdge(f"an edge endpoint is not one of the {n} nodes")
        if not np.isfinite(w).all():
            raise NonFiniteWeight("edge weights must be finite (NaN and Inf are refused)")
        if (w < 0).any():
            raise CoreError("edge weights must not be negative")
        self._src.append(s)
        self._dst.append(d)
        self._weight.append(w)
        self._rel.append(np.full(len(s), self.rel_id(rel), np.int64))
        self._mutated()

    # ------------------------------------------------------------------ finalize

    def edge_arrays(self) -> tuple[IntArray, IntArray, FloatArray, IntArray]:
        """Every edge in insertion order: sources, targets, weights, relation ids."""
        if not self._src:
            empty = np.zeros(0, np.int64)
            return empty, empty, np.zeros(0), empty
        return (
            np.concatenate(self._src),
            np.concatenate(self._dst),
            np.concatenate(self._weight),
            np.concatenate(self._rel),
        )

    def finalize(self) -> None:
        """Build both CSRs and the PageRank. Idempotent; the edge list itself is kept, so
        a later mutation and re-finalize rebuild from every edge ever added."""
        if self.finalized:
            return
        n = len(self.names)
        src, dst, weight, rel = self.edge_arrays()
        self._src, self._dst, self._weight, self._rel = [src], [dst], [weight], [rel]
        self.forward = build_csr(n, src, dst, weight, rel)
        self.reverse = build_csr(n, dst, src, weight, rel)
        self._pagerank, self.pagerank_converged = pagerank(n, src, dst, weight)
        self.finalized = True

    # ------------------------------------------------------------------ queries

    @property
    def node_count(self) -> int:
        return len(self.names)

    @property
    def edge_count(self) -> int:
        return int(sum(len(s) for s in self._src))

    def id_of(self, name: str) -> int | None:
        return self._ids.get(name)

    @property
    def pagerank(self) -> FloatArray | None:
        """PageRank in [0, 1] (divided by its maximum), or None when not finalized."""
        return self._pagerank if self.finalized else None

    def out_range(self, i: int) -> range:
        return self.forward.row(i) if self.finalized else range(0)

    def in_range(self, i: int) -> range:
        return self.reverse.row(i) if self.finalized else range(0)

    def weight_matrix(self, rels: set[int] | None = None) -> sp.csr_matrix:
        """The n x n matrix of summed edge weights (of the given relation ids only)."""
        n = self.node_count
        src, dst, weight, rel = self.edge_arrays()
        if rels is not None:
            keep = np.isin(rel, sorted(rels))
            src, dst, weight = src[keep], dst[keep], weight[keep]
        return sp.csr_matrix((weight, (src, dst)), shape=(n, n))


def pagerank(n: int, src: IntArray, dst: IntArray, weight: FloatArray) -> tuple[FloatArray, bool]:
    """Weighted PageRank by power iteration (damping 0.85, at most 50 iterations, stop when
    the L1 change is below n * 1e-6, as networkx does); dangling nodes spread evenly.
    Normalized to [0, 1] by its maximum. Returns the ranks and whether they converged."""
    if n == 0:
        return np.zeros(0), True
    out_weight = np.bincount(src, weights=weight, minlength=n)
    share = np.divide(weight, out_weight[src], out=np.zeros_like(weight), where=out_weight[src] > 0)
    # transition[j, i]: the share of i's rank that flows to j
    transition = sp.csr_matrix((share, (dst, src)), shape=(n, n))
    dangling = out_weight == 0
    rank = np.full(n, 1.0 / n)
    converged = False
    for _ in range(MAX_ITERATIONS):
        new = DAMPING * (transition @ rank + rank[dangling].sum() / n) + (1.0 - DAMPING) / n
        done = float(np.abs(new - rank).sum()) < n * TOLERANCE
        rank = new
        if done:
            converged = True
            break
    return rank / rank.max(), converged
