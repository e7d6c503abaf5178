"""Text similarity for the semantic dimension: TF-IDF vectors of pages and source files.

Sparse vectors in scipy, cosine similarity, the shared words behind a score
(content/guides/related-pages.md). No model and no download; never reads files itself.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from sitegen.graph.core import FloatArray, IntArray
from sitegen.parallel import run_forked

_WORD = re.compile(rb"[a-z][a-z0-9]{2,}")
#: Words that say nothing about a topic, and the syntax of markdown and code.
STOP_WORDS = frozenset(
    [
        "the",
        "and",
        "for",
        "are",
        "but",
        "not",
        "you",
        "all",
        "any",
        "can",
        "had",
        "her",
        "was",
        "one",
        "our",
        "out",
        "has",
        "his",
        "how",
        "its",
        "may",
        "new",
        "now",
        "old",
        "see",
        "two",
        "way",
        "who",
        "did",
        "get",
        "let",
        "put",
        "say",
        "she",
        "too",
        "use",
        "with",
        "this",
        "that",
        "from",
        "they",
        "will",
        "would",
        "there",
        "their",
        "what",
        "about",
        "which",
        "when",
        "make",
        "like",
        "than",
        "then",
        "them",
        "these",
        "some",
        "could",
        "other",
        "into",
        "more",
        "only",
        "also",
        "been",
        "were",
        "have",
        "here",
        "your",
        "just",
        "over",
        "such",
        "where",
        "most",
        "many",
        "each",
        "much",
        "very",
        "must",
        "should",
        "does",
        "done",
        "any",
        "it's",
        "html",
        "http",
        "https",
        "www",
        "com",
        "org",
        "md",
        "png",
        "svg",
        "jpg",
        "gif",
        "self",
        "def",
        "return",
        "import",
        "none",
        "true",
        "false",
        "null",
        "class",
        "function",
        "const",
        "var",
        "let",
        "elif",
        "else",
        "pass",
        "async",
        "await",
        "yield",
        "lambda",
    ]
)


@dataclass(frozen=True)
class TextIndex:
    """Row i is document i's L2-normalized TF-IDF vector (sublinear term frequency)."""

    vocabulary: tuple[str, ...]
    idf: FloatArray
    vectors: sp.csr_matrix

    def query(self, text: str) -> FloatArray:
        """Cosine similarity of every document with ``text``."""
        counts = word_counts(text.encode("utf-8", "replace"))
        position = {w.encode("ascii"): i for i, w in enumerate(self.vocabulary)}
        hits = [(position[w], c) for w, c in sorted(counts.items()) if w in position]
        if not hits:
            return np.zeros(self.vectors.shape[0])
        cols = np.array([h[0] for h in hits], np.int64)
        q = (1.0 + np.log(np.array([h[1] for h in hits], np.float64))) * self.idf[cols]
        q /= np.linalg.norm(q)
        return np.asarray(self.vectors[:, cols] @ q).ravel()


_STOP_BYTES = frozenset(w.encode("ascii") for w in STOP_WORDS)


def word_counts(data: bytes) -> Counter[bytes]:
    """How often each word occurs (ASCII words of three or more letters, lower-cased)."""
    counts = Counter(_WORD.findall(data.lower()))
    for w in _STOP_BYTES.intersection(counts):
        del counts[w]
    return counts


def text_index(texts: list[bytes], jobs: int = 1) -> TextIndex:
    """The TF-IDF index of ``texts`` (vocabulary sorted, so the same texts give the same
    index); words are counted in ``jobs`` forked workers."""
    counts = [
        c for chunk in run_forked(_count_chunk, texts, range(len(texts)), jobs) for c in chunk
    ]
    df: Counter[bytes] = Counter()
    for c in counts:
        df.update(c.keys())
    # Common words stay (a query may use them); their IDF makes them count little.
    kept = sorted(df)
    position = {w: i for i, w in enumerate(kept)}
    rows, cols, tf = [], [], []
    for r, c in enumerate(counts):
        for w, k in c.items():
            col = position.get(w)
            if col is not None:
                rows.append(r)
                cols.append(col)
                tf.append(k)
    n = len(texts)
    idf = np.log((1.0 + n) / (1.0 + np.array([df[w] for w in kept], np.float64))) + 1.0
    vocabulary = tuple(w.decode("ascii") for w in kept)
    tf_arr = np.array(tf, np.float64)
    weights = (1.0 + np.log(tf_arr)) * idf[np.array(cols, np.int64)] if tf else tf_arr
    vectors = sp.csr_matrix((weights, (rows, cols)), shape=(n, len(vocabulary)))
    norms = np.sqrt(np.asarray(vectors.multiply(vectors).sum(axis=1)).ravel())
    vectors = sp.csr_matrix(
        sp.diags(np.divide(1.0, norms, out=np.zeros_like(norms), where=norms > 0)) @ vectors
    )
    vectors.sort_indices()
    return TextIndex(vocabulary, idf, vectors)


def _count_chunk(texts: list[bytes], indexes: list[int]) -> list[Counter[bytes]]:
    return [word_counts(texts[i]) for i in indexes]


#: Similarity between documents leaves out the words found in more than this share of them:
#: they tell no two documents apart, and would make every pair similar (and the product dense).
MAX_DOC_SHARE = 0.5


def informative(index: TextIndex) -> IntArray:
    """The columns of the words found in at most ``MAX_DOC_SHARE`` of the documents."""
    n = index.vectors.shape[0]
    # idf = log((1 + n) / (1 + df)) + 1, so df <= share * n is idf >= this:
    floor = np.log((1.0 + n) / (1.0 + MAX_DOC_SHARE * n)) + 1.0
    return np.flatnonzero(index.idf >= floor - 1e-12)


def top_similar(index: TextIndex, k: int, chunk: int = 512) -> sp.csr_matrix:
    """Each document's ``k`` most similar other documents (cosine over the informative
    words), as a sparse matrix."""
    n = index.vectors.shape[0]
    x = sp.csr_matrix(index.vectors[:, informative(index)])
    norms = np.sqrt(np.asarray(x.multiply(x).sum(axis=1)).ravel())
    x = sp.csr_matrix(
        sp.diags(np.divide(1.0, norms, out=np.zeros_like(norms), where=norms > 0)) @ x
    )
    rows: list[IntArray] = []
    cols: list[IntArray] = []
    vals: list[FloatArray] = []
    for start in range(0, n, chunk):
        block = (x[start : start + chunk] @ x.T).toarray()
        idx = np.arange(block.shape[0])
        block[idx, start + idx] = 0.0
        take = min(k, n - 1) if n > 1 else 0
        if take <= 0:
            break
        best = np.argpartition(-block, take - 1, axis=1)[:, :take]
        score = block[idx[:, None], best]
        keep = score > 0
        rows.append((start + idx[:, None] + np.zeros_like(best))[keep])
        cols.append(best[keep])
        vals.append(score[keep])
    if not rows:
        return sp.csr_matrix((n, n))
    return sp.csr_matrix(
        (np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(n, n)
    )


def shared_words(index: TextIndex, a: IntArray, b: IntArray, limit: int = 2) -> list[list[str]]:
    """For each pair ``(a[i], b[i])``, the informative words that add most to their
    similarity."""
    columns = informative(index)
    vectors = sp.csr_matrix(index.vectors[:, columns])
    product = sp.coo_matrix(vectors[a].multiply(vectors[b]))
    order = np.lexsort((product.col, -product.data, product.row))
    row, col = product.row[order], product.col[order]
    rank = np.arange(len(row)) - np.searchsorted(row, row, side="left")
    keep = rank < limit
    out: list[list[str]] = [[] for _ in range(len(a))]
    vocabulary = index.vocabulary
    for r, c in zip(row[keep].tolist(), columns[col[keep]].tolist(), strict=True):
        out[r].append(vocabulary[c])
    return out
