"""The text index of related pages and `sitegen explore` (sitegen/graph/semantic.py): the same
index however its arrays are built, and the same neighbours however many rows a block holds."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.graph.semantic import text_index, top_similar, word_counts

WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "the", "über", "東京都庁"]
documents = st.lists(
    st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join), min_size=1, max_size=12
)


def reference_index(texts: list[str]) -> tuple[tuple[str, ...], np.ndarray, np.ndarray]:
    """TF-IDF written out plainly: sorted vocabulary, smooth IDF, sublinear TF, L2 rows."""
    counts = [word_counts(t) for t in texts]
    vocabulary = tuple(sorted({w for c in counts for w in c}))
    n = len(texts)
    df = np.array([sum(w in c for c in counts) for w in vocabulary], np.float64)
    idf = np.log((1.0 + n) / (1.0 + df)) + 1.0
    dense = np.zeros((n, len(vocabulary)))
    for r, c in enumerate(counts):
        for col, w in enumerate(vocabulary):
            if w in c:
                dense[r, col] = (1.0 + np.log(float(c[w]))) * idf[col]
    norms = np.linalg.norm(dense, axis=1)
    dense[norms > 0] /= norms[norms > 0][:, None]
    return vocabulary, idf, dense


@given(documents)
@settings(max_examples=150, deadline=None)
def test_the_index_is_tf_idf_of_the_words_counted(texts: list[str]) -> None:
    index = text_index(texts)
    vocabulary, idf, dense = reference_index(texts)
    assert index.vocabulary == vocabulary
    np.testing.assert_allclose(index.idf, idf)
    np.testing.assert_allclose(index.vectors.toarray(), dense, atol=1e-12)


@given(documents, st.integers(1, 5))
@settings(max_examples=100, deadline=None)
def test_the_neighbours_do_not_depend_on_the_block_size(texts: list[str], k: int) -> None:
    index = text_index(texts)
    whole = top_similar(index, k, chunk=len(texts) + 1)
    for chunk in (1, 2, 3):
        part = top_similar(index, k, chunk=chunk)
        assert (part != whole).nnz == 0
        assert sp.csr_matrix(part).indices.tolist() == sp.csr_matrix(whole).indices.tolist()
