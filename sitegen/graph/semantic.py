"""Text similarity for the semantic dimension: TF-IDF vectors of pages and source files.

Sparse vectors in scipy, cosine similarity, the shared words behind a score
(content/guides/related-pages.md). No model and no download; never reads files itself.
"""

from __future__ import annotations

import re
from array import array
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from sitegen.base.parallel import run_forked
from sitegen.graph.core import FloatArray, IntArray
from sitegen.graph.stopwords import STOP_WORDS, words_of

#: A word: a letter, then letters and digits (Unicode: ``configuración`` is one word, whole).
_WORD = re.compile(r"[^\W\d_][^\W_]*")
#: Scripts written without spaces (Han, kana): their words are character pairs (bigrams).
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
#: The syntax of markdown, URLs and code: never a topic, whatever the page's language.
MARKUP_WORDS = words_of(
    "html http https www com org md png svg jpg gif self def return import none true false "
    "null class function const var let elif else pass async await yield lambda"
)


def language_of(tag: str) -> str:
    """The stop-word language of a BCP 47 tag: its primary subtag, lower-cased (``pt-BR``
    -> ``pt``)."""
    return tag.split("-", 1)[0].split("_", 1)[0].lower()


@dataclass(frozen=True)
class TextIndex:
    """Row i is document i's L2-normalized TF-IDF vector (sublinear term frequency)."""

    vocabulary: tuple[str, ...]
    idf: FloatArray
    vectors: sp.csr_matrix

    def query(self, text: str) -> FloatArray:
        """Cosine similarity of every document with ``text``."""
        counts = word_counts(text)
        position = {w: i for i, w in enumerate(self.vocabulary)}
        hits = [(position[w], c) for w, c in sorted(counts.items()) if w in position]
        if not hits:
            return np.zeros(self.vectors.shape[0])
        cols = np.array([h[0] for h in hits], np.int64)
        q = (1.0 + np.log(np.array([h[1] for h in hits], np.float64))) * self.idf[cols]
        q /= np.linalg.norm(q)
        return np.asarray(self.vectors[:, cols] @ q).ravel()


def word_counts(text: str | bytes, lang: str = "en") -> Counter[str]:
    """How often each word occurs: lower-cased Unicode words of three or more characters,
    never cut, without the stop words of the language ``lang`` and the syntax of markup
    and code; a run of Han or kana counts its character pairs."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    counts = Counter(_WORD.findall(text.lower()))
    # Each distinct word once (far fewer than the words): short ones go, CJK runs split.
    for w in [w for w in counts if len(w) < 3 or not w.isascii()]:
        k = counts.pop(w)
        if not w.isascii() and _CJK.search(w):
            for pair in _pairs(w):
                counts[pair] += k
        elif len(w) > 2:
            counts[w] += k
    stop = STOP_WORDS.get(language_of(lang), frozenset()) | MARKUP_WORDS
    for w in stop.intersection(counts):
        del counts[w]
    return counts


def _pairs(word: str) -> list[str]:
    """The words of a run that mixes spaceless script with others: each pair of adjacent
    Han or kana characters (a lone one by itself), and each other part of three or more."""
    out: list[str] = []
    for part in re.split(r"([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+)", word):
        if not part:
            continue
        if _CJK.match(part):
            out += [part[i : i + 2] for i in range(max(1, len(part) - 1))]
        elif len(part) > 2:
            out.append(part)
    return out


def text_index(
    texts: Sequence[str | bytes], jobs: int = 1, langs: Sequence[str] | None = None
) -> TextIndex:
    """The TF-IDF index of ``texts`` (vocabulary sorted, so the same texts give the same
    index), each text's stop words those of its language in ``langs`` (English when not
    given); words are counted in ``jobs`` forked workers."""
    given = list(langs) if langs is not None else ["en"] * len(texts)
    # Each document's counts become rows of typed arrays as they arrive, its words numbered
    # in the order first seen (renumbered in sorted order below): 5,000 pages' Counters
    # held at once cost 125 MB, and a list of 1.5 million ints 100 MB more.
    number: dict[str, int] = {}
    rows, seen, tf = array("q"), array("q"), array("d")
    chunks = run_forked(_count_chunk, (texts, given), range(len(texts)), jobs)
    for r, counts in enumerate(counts for chunk in chunks for counts in chunk):
        for w, k in counts.items():
            rows.append(r)
            seen.append(number.setdefault(w, len(number)))
            tf.append(k)
    # Common words stay (a query may use them); their IDF makes them count little.
    kept = sorted(number)
    renumber = np.zeros(len(kept), np.int64)
    renumber[[number[w] for w in kept]] = np.arange(len(kept), dtype=np.int64)
    del number
    row_arr = np.frombuffer(rows, np.int64) if rows else np.zeros(0, np.int64)
    col_arr = renumber[np.frombuffer(seen, np.int64)] if seen else np.zeros(0, np.int64)
    tf_arr = np.frombuffer(tf, np.float64) if tf else np.zeros(0, np.float64)
    df = np.bincount(col_arr, minlength=len(kept)).astype(np.float64)
    n = len(texts)
    idf = np.log((1.0 + n) / (1.0 + df)) + 1.0
    vocabulary = tuple(kept)
    weights = (1.0 + np.log(tf_arr)) * idf[col_arr]
    vectors = sp.csr_matrix((weights, (row_arr, col_arr)), shape=(n, len(vocabulary)))
    norms = np.sqrt(np.asarray(vectors.multiply(vectors).sum(axis=1)).ravel())
    vectors = sp.csr_matrix(
        sp.diags(np.divide(1.0, norms, out=np.zeros_like(norms), where=norms > 0)) @ vectors
    )
    vectors.sort_indices()
    return TextIndex(vocabulary, idf, vectors)


def _count_chunk(
    state: tuple[Sequence[str | bytes], list[str]], indexes: list[int]
) -> list[Counter[str]]:
    texts, langs = state
    return [word_counts(texts[i], langs[i]) for i in indexes]


#: Similarity between documents leaves out the words found in more than this share of them:
#: they tell no two documents apart, and would make every pair similar (and the product dense).
MAX_DOC_SHARE = 0.5


def informative(index: TextIndex) -> IntArray:
    """The columns of the words found in at most ``MAX_DOC_SHARE`` of the documents."""
    n = index.vectors.shape[0]
    # idf = log((1 + n) / (1 + df)) + 1, so df <= share * n is idf >= this:
    floor = np.log((1.0 + n) / (1.0 + MAX_DOC_SHARE * n)) + 1.0
    return np.flatnonzero(index.idf >= floor - 1e-12)


def top_similar(index: TextIndex, k: int, chunk: int = 64) -> sp.csr_matrix:
    """Each document's ``k`` most similar other documents (cosine over the informative
    words), as a sparse matrix. ``chunk`` rows at a time, each block dense: 64 rows held
    15 MB at 5,000 documents where 512 held 95 MB, and ran no slower; every row is
    computed alone, so the result does not depend on it (bench/README.md, "Memory")."""
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
