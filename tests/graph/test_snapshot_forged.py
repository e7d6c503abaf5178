"""Forged snapshots: declared shapes and sizes are checked against the file's own bytes before
any array is allocated, so a header that claims terabytes (or an allocatable 800 MB) is refused
as malformed at once, and the arrays must agree in length before any matrix is built."""

from __future__ import annotations

import io
import os
import struct
import tracemalloc
import zipfile
from pathlib import Path

import numpy as np
import pytest
from numpy.lib import format as npy

from sitegen.graph.core import GraphCore
from sitegen.graph.semantic import text_index
from sitegen.graph.snapshot import Snapshot, SnapshotRefused, load_snapshot, save_snapshot

#: Far below any forged claim below (the smallest is 800 MB): loading allocates only what the
#: file holds.
ALLOCATION_CEILING = 20 * 2**20


def _saved(path: Path) -> Path:
    core = GraphCore()
    for name in ("/a.md", "/b.md", "/c.md"):
        core.add_node(name, "page")
    core.add_edges([0, 1], [1, 2], [2.0, 1.0])
    core.finalize()
    text = text_index([b"consumer offsets lag", b"consumer offsets group", b"compost"])
    save_snapshot(path, Snapshot(core, ("A", "B", "C"), text, np.array([1.0, 0.5, 0.25]), "fp"))
    return path


def _members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as zf:
        return {info.filename: zf.read(info) for info in zf.infolist()}


def _write(path: Path, members: dict[str, bytes], method: int = zipfile.ZIP_STORED) -> None:
    with zipfile.ZipFile(path, "w", compression=method) as zf:
        for name, data in members.items():
            zf.writestr(name, data)


def _forged_npy(descr: str, shape: tuple[int, ...], data: bytes = b"\0" * 64) -> bytes:
    """An .npy member whose header claims ``shape`` of ``descr``, followed by ``data`` only."""
    out = io.BytesIO()
    npy.write_array_header_1_0(out, {"descr": descr, "fortran_order": False, "shape": shape})
    return out.getvalue() + data


def _refused_without_allocating(path: Path) -> str:
    tracemalloc.start()
    try:
        with pytest.raises(SnapshotRefused) as refused:
            load_snapshot(path, "fp")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < ALLOCATION_CEILING, f"{peak} bytes allocated"
    return str(refused.value)


@pytest.mark.parametrize(
    ("member", "descr", "shape"),
    [
        ("weight", "<f8", (10**6, 10**6)),  # 7.28 TiB: a MemoryError before
        ("weight", "<f8", (10**4, 10**4)),  # 800 MB: allocatable, and allocated before
        ("weight", "<f8", (10**8,)),  # 800 MB, one-dimensional as the real array
        ("x_indices", "<i8", (10**8,)),
        ("names", "<U1000000", (1000,)),  # 4 GB of text in the itemsize
        ("names", "<U0", (10**12,)),  # zero bytes claimed, yet 10^12 strings
    ],
)
def test_a_forged_header_is_refused_before_anything_is_allocated(
    tmp_path: Path, member: str, descr: str, shape: tuple[int, ...]
) -> None:
    path = _saved(tmp_path / "core.npz")
    members = _members(path)
    members[member + ".npy"] = _forged_npy(descr, shape)
    _write(path, members)
    why = _refused_without_allocating(path)
    assert why.startswith("is malformed ("), why
    assert f"'{member}'" in why


def _patch_sizes(raw: bytes, member: str, compressed: int | None, uncompressed: int) -> bytes:
    """The archive with ``member``'s sizes rewritten in its local and central headers."""
    out = bytearray(raw)
    name = member.encode()
    local = raw.index(b"PK\x03\x04")
    while raw[local + 30 : local + 30 + len(name)] != name:
        local = raw.index(b"PK\x03\x04", local + 4)
    central = raw.index(b"PK\x01\x02")
    while raw[central + 46 : central + 46 + len(name)] != name:
        central = raw.index(b"PK\x01\x02", central + 4)
    for at, field in ((local + 18, compressed), (central + 20, compressed)):
        if field is not None:
            out[at : at + 4] = struct.pack("<I", field)
    out[local + 22 : local + 26] = struct.pack("<I", uncompressed)
    out[central + 24 : central + 28] = struct.pack("<I", uncompressed)
    return bytes(out)


@pytest.mark.parametrize("method", [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED])
@pytest.mark.parametrize("also_compressed", [False, True])
def test_a_zip_that_claims_more_bytes_than_it_holds_is_refused(
    tmp_path: Path, method: int, also_compressed: bool
) -> None:
    # The header and the zip's sizes agree on 800 MB; the archive holds a few hundred bytes.
    path = _saved(tmp_path / "core.npz")
    members = _members(path)
    forged = _forged_npy("<f8", (10**8,))
    header = len(forged) - 64
    members["weight.npy"] = forged
    _write(path, members, method)
    claimed = header + 8 * 10**8
    raw = _patch_sizes(
        path.read_bytes(), "weight.npy", claimed if also_compressed else None, claimed
    )
    path.write_bytes(raw)
    why = _refused_without_allocating(path)
    assert why.startswith(("is malformed (", "is unreadable (")), why


def test_a_genuine_compressed_snapshot_still_loads(tmp_path: Path) -> None:
    path = _saved(tmp_path / "core.npz")
    members = _members(path)
    _write(path, members, zipfile.ZIP_DEFLATED)
    assert load_snapshot(path, "fp").titles == ("A", "B", "C")


@pytest.mark.parametrize(
    ("member", "value"),
    [
        ("x_indptr", np.array([0, 1, 2, 3, 3, 3], np.int64)),  # one row per node, plus one
        ("recency", np.array([1.0, 0.5])),
        ("idf", np.array([1.0])),
        ("dst", np.array([1], np.int64)),
    ],
)
def test_arrays_that_disagree_in_length_are_refused_before_any_matrix(
    tmp_path: Path, member: str, value: np.ndarray
) -> None:
    path = _saved(tmp_path / "core.npz")
    members = _members(path)
    out = io.BytesIO()
    np.save(out, value, allow_pickle=False)
    members[member + ".npy"] = out.getvalue()
    _write(path, members)
    with pytest.raises(SnapshotRefused, match=r"^is malformed \(its arrays disagree in length"):
        load_snapshot(path, "fp")


def test_text_vectors_that_point_outside_the_vocabulary_are_refused(tmp_path: Path) -> None:
    path = _saved(tmp_path / "core.npz")
    members = _members(path)
    with np.load(path, allow_pickle=False) as data:
        indices = data["x_indices"].copy()
        vocabulary = len(data["vocabulary"])
    indices[0] = vocabulary + 10**9
    out = io.BytesIO()
    np.save(out, indices, allow_pickle=False)
    members["x_indices.npy"] = out.getvalue()
    _write(path, members)
    with pytest.raises(SnapshotRefused, match=r"^is malformed \("):
        load_snapshot(path, "fp")


def test_non_finite_weights_are_named_in_one_sentence(tmp_path: Path) -> None:
    path = _saved(tmp_path / "core.npz")
    members = _members(path)
    out = io.BytesIO()
    np.save(out, np.array([np.nan, 1.0]), allow_pickle=False)
    members["weight.npy"] = out.getvalue()
    _write(path, members)
    with pytest.raises(SnapshotRefused) as refused:
        load_snapshot(path, "fp")
    assert str(refused.value) == "holds non-finite weights (NaN or infinity)"


def _long_header_npy(length: int) -> bytes:
    """A .npy (format 2.0) member whose header, padded with spaces, is ``length`` bytes."""
    header = "{'descr': '<U1', 'fortran_order': False, 'shape': (1,), }"
    header = header.ljust(length - 1) + "\n"
    return b"\x93NUMPY\x02\x00" + struct.pack("<I", len(header)) + header.encode() + b"a\0\0\0"


@pytest.mark.parametrize(
    "member",
    [
        _long_header_npy(20_000),  # numpy's own message: "... using `allow_pickle=True`"
        np.lib.format.magic(1, 0) + b"\xff\xff" + b"{",
        b"not an npy at all",
    ],
)
def test_a_refusal_never_advises_allow_pickle(tmp_path: Path, member: bytes) -> None:
    """sitegen never loads pickles, so its message must never relay numpy's advice to."""
    path = _saved(tmp_path / "core.npz")
    members = _members(path)
    members["names.npy"] = member
    _write(path, members)
    with pytest.raises(SnapshotRefused) as refused:
        load_snapshot(path, "fp")
    why = str(refused.value)
    assert why.startswith(("is malformed (", "is unreadable (")), why
    assert "pickle" not in why.lower() and len(why) < 200, why


def test_a_fifo_in_the_snapshots_place_is_refused_without_waiting(tmp_path: Path) -> None:
    """A plain open() of a FIFO waits for a writer for ever (``sitegen explore`` would hang)."""
    os.mkfifo(tmp_path / "core.npz")
    with pytest.raises(SnapshotRefused, match=r"is unreadable \(not a file\)"):
        load_snapshot(tmp_path / "core.npz", "fp")


def test_a_snapshot_that_unpacks_to_more_than_sitegen_reads_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _saved(tmp_path / "core.npz")
    monkeypatch.setattr("sitegen.graph.snapshot.MAX_STATE_BYTES", 1000)
    with pytest.raises(SnapshotRefused, match="more than the 1000 bytes"):
        load_snapshot(path, "fp")
