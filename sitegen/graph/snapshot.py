"""Snapshots of the finalized graph core and its text index, for ``sitegen explore``.

Saved atomically (a temporary file, then a rename) as numpy ``.npz`` arrays, data only:
loading never unpickles (``allow_pickle=False``). A snapshot is refused when its version or
build fingerprint is not the expected one, or when any value is not finite or out of range.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from sitegen.fsutil import write_atomically
from sitegen.graph.core import CoreError, FloatArray, GraphCore
from sitegen.graph.semantic import TextIndex

SNAPSHOT_VERSION = 1
SNAPSHOT_FILE = "core.npz"


class SnapshotRefused(Exception):
    """The snapshot cannot be trusted; the message says why. Rebuild it."""


@dataclass(frozen=True)
class Snapshot:
    core: GraphCore
    titles: tuple[str, ...]
    text: TextIndex
    #: Per node: the recency of its last change (1.0 everywhere outside git).
    recency: FloatArray
    fingerprint: str


def save_snapshot(path: Path, snap: Snapshot) -> None:
    src, dst, weight, rel = snap.core.edge_arrays()
    x = snap.text.vectors
    arrays = {
        "version": np.array([SNAPSHOT_VERSION], np.int64),
        "fingerprint": np.array([snap.fingerprint]),
        "names": np.array(snap.core.names, dtype=str),
        "kinds": np.array(snap.core.kinds, dtype=str),
        "titles": np.array(snap.titles, dtype=str),
        "rel_names": np.array(snap.core.rel_names, dtype=str),
        "src": src,
        "dst": dst,
        "weight": weight,
        "rel": rel,
        "vocabulary": np.array(snap.text.vocabulary, dtype=str),
        "idf": snap.text.idf,
        "x_indptr": x.indptr.astype(np.int64),
        "x_indices": x.indices.astype(np.int64),
        "x_data": x.data,
        "recency": snap.recency,
    }
    buffer = io.BytesIO()
    np.savez(buffer, allow_pickle=False, **arrays)
    write_atomically(path, buffer.getvalue(), durable=False)


def load_snapshot(path: Path, fingerprint: str) -> Snapshot:
    """The snapshot at ``path``, if it is of the build ``fingerprint`` and sound."""
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as exc:
        raise SnapshotRefused(f"unreadable ({exc})") from exc
    try:
        return _snapshot(arrays, fingerprint)
    except (KeyError, IndexError, TypeError, ValueError, CoreError) as exc:
        raise SnapshotRefused(f"malformed ({exc})") from exc


def _snapshot(a: dict[str, np.ndarray], fingerprint: str) -> Snapshot:
    if int(a["version"][0]) != SNAPSHOT_VERSION:
        raise SnapshotRefused(f"version {int(a['version'][0])}, expected {SNAPSHOT_VERSION}")
    if not fingerprint:
        raise SnapshotRefused("not of a finished build (run sitegen build)")
    if str(a["fingerprint"][0]) != fingerprint:
        raise SnapshotRefused("stale: it is not of the last finished build")
    for name in ("weight", "idf", "x_data", "recency"):
        if not np.isfinite(a[name]).all():
            raise SnapshotRefused(f"'{name}' holds a value that is not finite")
    core = GraphCore()
    for name, kind in zip(a["names"].tolist(), a["kinds"].tolist(), strict=True):
        core.add_node(str(name), str(kind))
    rel_names = [str(r) for r in a["rel_names"].tolist()]
    for r, rel in enumerate(rel_names):
        keep = a["rel"] == r
        if keep.any():
            core.add_edges(a["src"][keep], a["dst"][keep], a["weight"][keep], rel)
    core.finalize()
    vocabulary = tuple(str(w) for w in a["vocabulary"].tolist())
    vectors = sp.csr_matrix(
        (a["x_data"], a["x_indices"], a["x_indptr"]), shape=(core.node_count, len(vocabulary))
    )
    vectors.check_format(full_check=True)
    if len(a["recency"]) != core.node_count or len(a["titles"]) != core.node_count:
        raise SnapshotRefused("its columns disagree in length")
    return Snapshot(
        core,
        tuple(str(t) for t in a["titles"].tolist()),
        TextIndex(vocabulary, a["idf"], vectors),
        a["recency"],
        fingerprint,
    )
