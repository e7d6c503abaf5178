"""Related pages and missing links: every page's activation in four dimensions, at once.

Structural (links), semantic (TF-IDF), temporal (committed together) and causal (typed
relations) are merged 0.35/0.25/0.15/0.25 plus 0.1 x PageRank, as ``sitegen explore`` merges
them (content/guides/related-pages.md). Sparse matrices throughout, one row per page; reads
the finished graph and its texts, never mutates them and never writes anything.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from sitegen.docs.prose import visible_prose
from sitegen.graph.activation import causal_transition, spread_all, structural_transition
from sitegen.graph.core import FloatArray, GraphCore, IntArray
from sitegen.graph.history import History
from sitegen.graph.relations import relation_heading
from sitegen.graph.semantic import TextIndex, shared_words, text_index, top_similar
from sitegen.records.analysis import MissingLink, Relatedness, RelatedPage

WEIGHTS = {"structural": 0.35, "semantic": 0.25, "temporal": 0.15, "causal": 0.25}
PAGERANK_BOOST = 0.1
#: Related pages per page, and how far their activation walks (two hops find shared links).
RELATED = 5
RELATED_DEPTH = 3
#: Links walk two hops only: that finds every shared link, and a third hop multiplies the
#: work by the average degree for little.
STRUCTURAL_DEPTH = 2
RELATED_THRESHOLD = 1e-3
#: Below this merged score a page is not shown as related at all.
MIN_SCORE = 0.05
#: A pair is a missing link when each is among the other's related pages with at least this
#: score, and neither links to the other.
MISSING_MIN = 0.45
MISSING_MAX = 200
#: "Changed together recently" when a pair's co-change is at least this share of the most
#: a page has with any other.
TOGETHER = 0.5


def _row_max_normalized(m: sp.csr_matrix) -> sp.csr_matrix:
    m = sp.csr_matrix(m)
    m.eliminate_zeros()
    if m.nnz == 0:
        return m
    counts = np.diff(m.indptr)
    top = np.zeros(m.shape[0])
    rows = np.flatnonzero(counts)
    top[rows] = np.maximum.reduceat(m.data, m.indptr[rows])
    out = m.copy()
    out.data = out.data / np.repeat(top, counts)
    return out


def co_change_matrix(core: GraphCore, history: History, path_of: dict[str, str]) -> sp.csr_matrix:
    """Symmetric: how recently and often two nodes' files were committed together."""
    n = core.node_count
    kind_of = {path_of[name]: core.kinds[i] for i, name in enumerate(core.names) if name in path_of}
    node_of = {path_of[name]: i for i, name in enumerate(core.names) if name in path_of}
    pairs = history.co_changes(kind_of)
    if not pairs:
        return sp.csr_matrix((n, n))
    a = np.array([node_of[p[0]] for p in pairs], np.int64)
    b = np.array([node_of[p[1]] for p in pairs], np.int64)
    w = np.array(list(pairs.values()), np.float64)
    return sp.csr_matrix((np.r_[w, w], (np.r_[a, b], np.r_[b, a])), shape=(n, n))


def link_dimensions(core: GraphCore) -> dict[str, sp.csr_matrix]:
    """Each node's activation from itself along links and along typed relations (rows:
    from, columns: reached)."""
    seeds = sp.identity(core.node_count, format="csr")
    plain = {i for i, r in enumerate(core.rel_names) if r in ("", "imports")}
    return {
        # From two hops on: pages reached through shared links, not the page's own links.
        "structural": spread_all(
            structural_transition(core, plain),
            seeds,
            STRUCTURAL_DEPTH,
            RELATED_THRESHOLD,
            min_depth=2,
        ),
        "causal": spread_all(causal_transition(core), seeds, RELATED_DEPTH, RELATED_THRESHOLD),
    }


@dataclass(frozen=True)
class Texts:
    """The documents of the text dimension: each one's text, whether that text is a page's
    rendered HTML (of which only the visible prose counts) or a file's bytes, and the
    language whose stop words it drops (content/guides/related-pages.md#words)."""

    texts: list[str | bytes]
    is_html: list[bool]
    langs: list[str]


def text_dimension(given: Texts | list[bytes]) -> tuple[TextIndex, sp.csr_matrix]:
    """The text index and each document's most similar documents."""
    if not isinstance(given, Texts):
        given = Texts(list(given), [False] * len(given), ["en"] * len(given))
    texts: list[str | bytes] = [
        visible_prose(t) if html and isinstance(t, str) else t
        for t, html in zip(given.texts, given.is_html, strict=True)
    ]
    text = text_index(texts, langs=given.langs)
    return text, top_similar(text, 4 * RELATED)


def merged_scores(
    core: GraphCore, dims: dict[str, sp.csr_matrix], excluded: sp.csr_matrix
) -> sp.csr_matrix:
    """0.35/0.25/0.15/0.25 of the row-normalized dimensions plus 0.1 x PageRank, without
    the ``excluded`` pairs (a page itself, pages it links both ways)."""
    n = core.node_count
    total = sp.csr_matrix((n, n))
    for name, weight in WEIGHTS.items():
        m = sp.csr_matrix(dims[name])
        m = m - m.multiply(excluded)
        total = total + weight * _row_max_normalized(m)
    total = sp.csr_matrix(total)
    total.eliminate_zeros()
    ranks = core.pagerank
    if ranks is not None:  # never a stale PageRank: None until the core is finalized
        total.data = total.data + PAGERANK_BOOST * ranks[total.indices]
    return total


def top_per_row(m: sp.csr_matrix, k: int, minimum: float) -> tuple[IntArray, IntArray, FloatArray]:
    """The ``k`` best entries of each row at or above ``minimum``: rows, columns, scores,
    sorted by row, then score (highest first), then column."""
    coo = sp.coo_matrix(m)
    keep = coo.data >= minimum
    r, c, v = coo.row[keep].astype(np.int64), coo.col[keep].astype(np.int64), coo.data[keep]
    order = np.lexsort((c, -v, r))
    r, c, v = r[order], c[order], v[order]
    start = np.searchsorted(r, r, side="left")
    first = np.arange(len(r)) - start < k
    return r[first], c[first], v[first]


class _Reasons:
    """The one-line reason of a pair, from what the dimensions saw."""

    def __init__(
        self, core: GraphCore, text: TextIndex, links: sp.csr_matrix, co_change: sp.csr_matrix
    ) -> None:
        self.core, self.text = core, text
        self.links = sp.csr_matrix(links)
        undirected = sp.csr_matrix(((links + links.T) > 0).astype(np.float64))
        undirected.setdiag(0)
        undirected.eliminate_zeros()
        self.undirected = undirected
        self.co_change = _row_max_normalized(co_change)
        self.typed: dict[tuple[str, str], list[str]] = {}
        src, dst, _, rel = core.edge_arrays()
        for s, d, r in sorted(
            zip(src[rel > 0].tolist(), dst[rel > 0].tolist(), rel[rel > 0].tolist(), strict=True)
        ):
            pair = (core.names[s], core.names[d])
            self.typed.setdefault(pair, []).append(core.rel_names[r])

    def of_pairs(self, a: IntArray, b: IntArray) -> list[str]:
        if len(a) == 0:
            return []
        shared = np.asarray(self.undirected[a].multiply(self.undirected[b]).sum(axis=1)).ravel()
        words = shared_words(self.text, a, b)
        together = np.asarray(self.co_change[a, b]).ravel() >= TOGETHER
        forward = np.asarray(self.links[a, b]).ravel() > 0
        backward = np.asarray(self.links[b, a]).ravel() > 0
        return [
            self._reason(
                int(a[i]),
                int(b[i]),
                int(shared[i]),
                words[i],
                bool(together[i]),
                bool(forward[i]),
                bool(backward[i]),
            )
            for i in range(len(a))
        ]

    def _reason(
        self,
        a: int,
        b: int,
        shared: int,
        words: list[str],
        together: bool,
        forward: bool,
        backward: bool,
    ) -> str:
        names = self.core.names
        parts = self._relations(names[a], names[b])
        if not parts and forward != backward:
            parts.append("linked from this page" if forward else "links to this page")
        quoted = " ".join(words)
        if shared and words:
            parts.append(f"shares {_links(shared)} and the words '{quoted}'")
        elif shared:
            parts.append(f"shares {_links(shared)}")
        elif words:
            parts.append(f"shares the words '{quoted}'")
        if together:
            parts.append("changed together recently")
        return "; ".join(parts) or "reached through links"

    def _relations(self, a: str, b: str) -> list[str]:
        out = [rel.replace("-", " ") for rel in self.typed.get((a, b), ())]
        out += [relation_heading(rel).lower() for rel in self.typed.get((b, a), ())]
        return out


def _links(k: int) -> str:
    return f"{k} link" + ("" if k == 1 else "s")


def relatedness(
    core: GraphCore,
    text: TextIndex,
    dims: dict[str, sp.csr_matrix],
    candidates: set[str],
    groups: list[int] | None = None,
) -> Relatedness:
    """Every node's related pages (at most 5, a reason each) and the missing links, from
    the four dimensions (``link_dimensions``, the semantic one of ``text_dimension`` and
    the temporal ``co_change_matrix``)."""
    n = core.node_count
    if n == 0:
        return Relatedness({}, ())
    links = core.weight_matrix()
    links = sp.csr_matrix((links > 0).astype(np.float64))
    mutual = links.multiply(links.T)
    excluded = sp.csr_matrix(mutual + sp.identity(n, format="csr"))
    excluded = sp.csr_matrix((excluded > 0).astype(np.float64))
    allowed = np.array([name in candidates for name in core.names])
    scores = merged_scores(core, dims, excluded)
    scores = sp.csr_matrix(scores @ sp.diags(allowed.astype(np.float64)))
    scores = _within_groups(scores, groups)
    scores.eliminate_zeros()
    rows, cols, vals = top_per_row(scores, RELATED, MIN_SCORE)
    reasons = _Reasons(core, text, links, dims["temporal"]).of_pairs(rows, cols)
    related: dict[str, list[RelatedPage]] = {}
    for r, c, v, why in zip(rows, cols, vals, reasons, strict=True):
        related.setdefault(core.names[r], []).append(
            RelatedPage(core.names[c], round(float(v), 4), why)
        )
    pages = np.array([kind == "page" for kind in core.kinds])
    missing = _missing(core, rows, cols, vals, reasons, links, pages)
    return Relatedness({k: tuple(v) for k, v in sorted(related.items())}, missing)


def _within_groups(scores: sp.csr_matrix, groups: list[int] | None) -> sp.csr_matrix:
    """Only the pairs of one locale (``groups``: each node's locale, -1 for none, which
    pairs with every node): a page's related pages and missing links stay in its language
    (content/guides/locales.md)."""
    if groups is None or max(groups, default=-1) < 0:
        return scores
    group = np.asarray(groups, np.int64)
    coo = sp.coo_matrix(scores)
    a, b = group[coo.row], group[coo.col]
    keep = (a < 0) | (b < 0) | (a == b)
    return sp.csr_matrix((coo.data[keep], (coo.row[keep], coo.col[keep])), shape=scores.shape)


def _missing(
    core: GraphCore,
    rows: IntArray,
    cols: IntArray,
    vals: FloatArray,
    reasons: list[str],
    links: sp.csr_matrix,
    pages: np.ndarray,
) -> tuple[MissingLink, ...]:
    """Pairs of pages in each other's related pages, both ways at ``MISSING_MIN`` or more,
    that link neither way (source files link by importing: they are left out)."""
    n = core.node_count
    if len(rows) == 0:
        return ()
    key = rows * n + cols
    back = cols * n + rows
    order = np.argsort(key)
    where = np.searchsorted(key[order], back)
    where = np.minimum(where, len(key) - 1)
    mutual = key[order][where] == back
    linked = (np.asarray(links[rows, cols]).ravel() > 0) | (
        np.asarray(links[cols, rows]).ravel() > 0
    )
    both = np.minimum(vals, vals[order][where])
    pick = np.flatnonzero(
        mutual & ~linked & (rows < cols) & pages[rows] & pages[cols] & (both >= MISSING_MIN)
    )
    found = [
        MissingLink(core.names[rows[i]], core.names[cols[i]], round(float(both[i]), 4), reasons[i])
        for i in pick
    ]
    found.sort(key=lambda m: (-m.score, m.a, m.b))
    return tuple(found[:MISSING_MAX])
