"""Snapshots of the finalized graph core and its text index, for ``sitegen explore``.

Saved atomically (a temporary file, then a rename) as numpy ``.npz`` arrays, data only:
loading never unpickles (``allow_pickle=False``). A snapshot is refused when its version or
build fingerprint is not the expected one, or when any value is not finite or out of range.
Before any array is read, every member's declared dtype and shape are checked against the
bytes the file holds, so a forged header cannot make the load allocate what is not there.
A refusal says why in sitegen's words, never numpy's (whose advice is to allow pickles).
"""

from __future__ import annotations

import io
import os
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import numpy as np
import scipy.sparse as sp
from numpy.lib import format as npy

from sitegen.base.diagnostics import cut
from sitegen.base.fsutil import write_atomically
from sitegen.graph.core import CoreError, FloatArray, GraphCore
from sitegen.graph.semantic import TextIndex
from sitegen.state.caches import SNAPSHOT_VERSION as SNAPSHOT_VERSION
from sitegen.state.files import MAX_STATE_BYTES, Unreadable, open_state

SNAPSHOT_FILE = "core.npz"

#: Every array a snapshot holds, one-dimensional, with the kind of its dtype: "i" a signed
#: 64-bit integer, "f" a 64-bit float, "U" text. Nothing else is read (no object arrays).
_ARRAYS = {
    "version": "i",
    "fingerprint": "U",
    "names": "U",
    "kinds": "U",
    "titles": "U",
    "rel_names": "U",
    "src": "i",
    "dst": "i",
    "weight": "f",
    "rel": "i",
    "vocabulary": "U",
    "idf": "f",
    "x_indptr": "i",
    "x_indices": "i",
    "x_data": "f",
    "recency": "f",
}
#: The arrays of values that must be finite, and what the refusal calls them.
_FINITE = {
    "weight": "weights",
    "idf": "text weights",
    "x_data": "text weights",
    "recency": "recency values",
}
#: Deflate cannot expand data more than 1032-fold: a member that claims more is forged.
_MAX_DEFLATE_RATIO = 1032


class SnapshotRefused(Exception):
    """The snapshot cannot be trusted; the message says why, as the rest of a sentence that
    starts with the snapshot's name ("is stale: …", "holds non-finite weights …"). Rebuild it."""


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
        # One open file, checked then loaded: a rename over the path in between changes
        # neither. Not read whole; a FIFO or a folder in its place is refused unopened.
        opened = open_state(path)
        if opened is None:
            raise SnapshotRefused("is unreadable (there is none)")
        with opened as fh:
            checked = _checked_members(fh, os.fstat(fh.fileno()).st_size)
            fh.seek(0)
            with np.load(fh, allow_pickle=False) as data:
                arrays = {k: data[k] for k in _ARRAYS if k in checked}
    except Unreadable as why:
        raise SnapshotRefused(f"is unreadable ({why})") from None
    except (OSError, ValueError, zipfile.BadZipFile, EOFError, zlib.error) as exc:
        raise SnapshotRefused(f"is unreadable ({_unreadable(exc)})") from None
    try:
        return _snapshot(arrays, fingerprint)
    except (KeyError, IndexError, TypeError, ValueError, CoreError) as exc:
        raise SnapshotRefused(f"is malformed ({cut(str(exc))})") from exc


def _malformed(why: str) -> SnapshotRefused:
    return SnapshotRefused(f"is malformed ({why})")


def _unreadable(exc: Exception) -> str:
    """Why the file could not be read, in a few words of ours: numpy's own messages advise
    loading with ``allow_pickle=True``, which sitegen never does (content/guides/safety.md)."""
    if isinstance(exc, OSError) and not isinstance(exc, zipfile.BadZipFile):
        return exc.strerror or "it cannot be opened"
    if isinstance(exc, zipfile.BadZipFile | zlib.error | EOFError):
        return "not a whole zip archive"
    return "an array that is not one sitegen writes"


def _checked_members(archive: IO[bytes], size: int) -> set[str]:
    """The arrays of the ``size``-byte ``archive`` that may be loaded, once each declaration
    is checked against the bytes the archive holds: numpy allocates an array from its header
    before reading a byte of it, so a header that claims more than its member holds (or a
    member that claims more than the archive holds) would otherwise cost that memory."""
    found: set[str] = set()
    with zipfile.ZipFile(archive) as zf:
        infos = zf.infolist()
        if sum(info.compress_size for info in infos) > size:
            raise _malformed("its members claim more bytes than the file holds")
        if sum(info.file_size for info in infos) > MAX_STATE_BYTES:
            raise _malformed(f"its members claim more than the {MAX_STATE_BYTES} bytes it may hold")
        for info in infos:
            if info.filename in _ARRAYS:  # numpy would read it in place of the ".npy" one
                raise _malformed(f"'{info.filename}' is stored without its .npy suffix")
            name = info.filename.removesuffix(".npy")
            if name not in _ARRAYS or not info.filename.endswith(".npy"):
                continue  # never read
            if name in found:
                raise _malformed(f"'{name}' is stored twice")
            _check_member_size(name, info)
            with zf.open(info) as member:
                _check_declaration(name, member, info.file_size)
            found.add(name)
    return found


def _check_member_size(name: str, info: zipfile.ZipInfo) -> None:
    if info.flag_bits & 0x1:
        raise _malformed(f"'{name}' is encrypted")
    if info.compress_type == zipfile.ZIP_STORED:
        sane = info.file_size == info.compress_size
    elif info.compress_type == zipfile.ZIP_DEFLATED:
        sane = info.file_size <= max(info.compress_size, 1) * _MAX_DEFLATE_RATIO
    else:  # sitegen writes neither bzip2 nor lzma, whose ratios have no useful bound
        raise _malformed(f"'{name}' is compressed with method {info.compress_type}")
    if not sane:
        raise _malformed(
            f"'{name}' claims {info.file_size} bytes from {info.compress_size} stored bytes"
        )


def _check_declaration(name: str, member: IO[bytes], size: int) -> None:
    """The ``.npy`` header of ``member`` declares the dtype expected of ``name``, one
    dimension, and exactly as many values as fill the ``size`` bytes of the member."""
    try:
        version = npy.read_magic(member)
        if version == (1, 0):
            shape, _, dtype = npy.read_array_header_1_0(member)
        elif version == (2, 0):
            shape, _, dtype = npy.read_array_header_2_0(member)
        else:
            raise _malformed(f"'{name}' has .npy format version {version}")
    except ValueError:  # numpy's words would advise allow_pickle=True: never relayed
        raise _malformed(f"'{name}' has a .npy header sitegen does not read") from None
    kind = _ARRAYS[name]
    itemsize = 8 if kind in "if" else dtype.itemsize
    # A zero itemsize would let any length pass the size check below (text of "<U0").
    if dtype.kind != kind or dtype.itemsize != itemsize or itemsize == 0:
        raise _malformed(f"'{name}' has dtype {dtype.str}")
    if len(shape) != 1:
        raise _malformed(f"'{name}' has shape {shape}, not one dimension")
    declared = member.tell() + shape[0] * itemsize  # Python integers: no overflow
    if declared != size:
        raise _malformed(
            f"'{name}' declares {shape[0]} values of {itemsize} bytes in a member of {size} bytes"
        )


def _snapshot(a: dict[str, np.ndarray], fingerprint: str) -> Snapshot:
    if "version" not in a or len(a["version"]) != 1:
        raise _malformed("no version")
    if int(a["version"][0]) != SNAPSHOT_VERSION:
        raise SnapshotRefused(f"is of version {int(a['version'][0])}, expected {SNAPSHOT_VERSION}")
    missing = [name for name in _ARRAYS if name not in a]
    if missing:
        raise _malformed(f"no '{missing[0]}' array")
    if not fingerprint:
        raise SnapshotRefused("is not of a finished build (run sitegen build)")
    if len(a["fingerprint"]) != 1 or str(a["fingerprint"][0]) != fingerprint:
        raise SnapshotRefused("is stale: it is not of the last finished build")
    for name, what in _FINITE.items():
        if not np.isfinite(a[name]).all():
            raise SnapshotRefused(f"holds non-finite {what} (NaN or infinity)")
    _check_consistent(a)
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
    return Snapshot(
        core,
        tuple(str(t) for t in a["titles"].tolist()),
        TextIndex(vocabulary, a["idf"], vectors),
        a["recency"],
        fingerprint,
    )


def _check_consistent(a: dict[str, np.ndarray]) -> None:
    """The arrays agree with each other (one row per node, one column per word, every id in
    range) before any graph or matrix is built from them."""
    n, words, edges = len(a["names"]), len(a["vocabulary"]), len(a["src"])
    groups = {
        "node": (n, ("names", "kinds", "titles", "recency")),
        "node (plus one)": (n + 1, ("x_indptr",)),
        "edge": (edges, ("src", "dst", "weight", "rel")),
        "word": (words, ("vocabulary", "idf")),
        "text entry": (len(a["x_data"]), ("x_data", "x_indices")),
    }
    for per, (length, names) in groups.items():
        wrong = [name for name in names if len(a[name]) != length]
        if wrong:
            raise _malformed(f"its arrays disagree in length: '{wrong[0]}' is not one per {per}")
    indptr = a["x_indptr"]
    if indptr[0] != 0 or indptr[-1] != len(a["x_data"]) or (np.diff(indptr) < 0).any():
        raise _malformed("'x_indptr' does not delimit the text entries")
    for name, bound in (
        ("src", n),
        ("dst", n),
        ("rel", len(a["rel_names"])),
        ("x_indices", words),
    ):
        values = a[name]
        if len(values) and (values.min() < 0 or values.max() >= bound):
            raise _malformed(f"'{name}' holds an id out of range")
