"""Snapshots: atomic, data only, refused when stale or not finite; text index and history."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np
import pytest

from sitegen.graph.core import GraphCore
from sitegen.graph.history import History, parse_log
from sitegen.graph.semantic import shared_words, text_index, top_similar
from sitegen.graph.snapshot import Snapshot, SnapshotRefused, load_snapshot, save_snapshot


def _snapshot(fingerprint: str = "fp1") -> Snapshot:
    core = GraphCore()
    for name in ("/a.md", "/b.md", "/code/x.py"):
        core.add_node(name, "source" if name.startswith("/code/") else "page")
    core.add_edges([0, 1], [1, 2], [2.0, 1.0])
    core.add_edge(1, 0, 1.0, "supersedes")
    core.finalize()
    text = text_index([b"consumer offsets lag", b"consumer offsets group", b"def parse(): pass"])
    return Snapshot(core, ("A", "B", "x.py"), text, np.array([1.0, 0.5, 0.25]), fingerprint)


def test_snapshot_round_trip_keeps_the_core_and_the_text_index(tmp_path: Path) -> None:
    path = tmp_path / "core.npz"
    save_snapshot(path, _snapshot())
    back = load_snapshot(path, "fp1")
    src, dst, weight, rel = back.core.edge_arrays()
    got = sorted(
        zip(
            src.tolist(),
            dst.tolist(),
            weight.tolist(),
            [back.core.rel_names[r] for r in rel.tolist()],
            strict=True,
        )
    )
    assert got == [(0, 1, 2.0, ""), (1, 0, 1.0, "supersedes"), (1, 2, 1.0, "")]
    assert back.core.finalized and back.titles == ("A", "B", "x.py")
    assert np.array_equal(back.core.pagerank, _snapshot().core.pagerank)
    assert (back.text.vectors != _snapshot().text.vectors).nnz == 0
    assert back.recency.tolist() == [1.0, 0.5, 0.25]


def test_snapshot_is_written_atomically_and_holds_no_pickle(tmp_path: Path) -> None:
    path = tmp_path / "core.npz"
    save_snapshot(path, _snapshot())
    assert [p.name for p in tmp_path.iterdir()] == ["core.npz"]  # no temporary left behind
    with np.load(path, allow_pickle=False) as data:  # would raise on an object array
        assert all(data[k].dtype != object for k in data.files)


def test_snapshot_refused_when_stale(tmp_path: Path) -> None:
    path = tmp_path / "core.npz"
    save_snapshot(path, _snapshot("old"))
    with pytest.raises(SnapshotRefused, match="stale"):
        load_snapshot(path, "new")
    with pytest.raises(SnapshotRefused, match="finished build"):
        load_snapshot(path, "")


def _tampered(path: Path, name: str, value: np.ndarray) -> None:
    with np.load(path, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    arrays[name] = value
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    path.write_bytes(buffer.getvalue())


@pytest.mark.parametrize("name", ["weight", "x_data", "recency", "idf"])
def test_snapshot_refused_when_a_value_is_not_finite(tmp_path: Path, name: str) -> None:
    path = tmp_path / "core.npz"
    save_snapshot(path, _snapshot())
    with np.load(path, allow_pickle=False) as data:
        value = data[name].copy()
    value[0] = np.nan
    _tampered(path, name, value)
    with pytest.raises(SnapshotRefused, match=r"^holds non-finite .* \(NaN or infinity\)$"):
        load_snapshot(path, "fp1")


def test_snapshot_refused_when_malformed_or_unreadable(tmp_path: Path) -> None:
    path = tmp_path / "core.npz"
    save_snapshot(path, _snapshot())
    _tampered(path, "dst", np.array([0, 9, 1]))  # a dangling edge
    with pytest.raises(SnapshotRefused, match="malformed"):
        load_snapshot(path, "fp1")
    path.write_bytes(b"garbage")
    with pytest.raises(SnapshotRefused, match="unreadable"):
        load_snapshot(path, "fp1")
    with pytest.raises(SnapshotRefused):
        load_snapshot(tmp_path / "missing.npz", "fp1")


def test_snapshot_refused_when_it_holds_a_pickle(tmp_path: Path) -> None:
    path = tmp_path / "core.npz"
    save_snapshot(path, _snapshot())
    with np.load(path, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    arrays["names"] = np.array(["/a.md", "/b.md", {"x": 1}], dtype=object)
    with zipfile.ZipFile(path, "w") as zf:
        for k, v in arrays.items():
            buf = io.BytesIO()
            np.save(buf, v, allow_pickle=True)
            zf.writestr(k + ".npy", buf.getvalue())
    with pytest.raises(SnapshotRefused):
        load_snapshot(path, "fp1")


def test_text_similarity_ranks_shared_rare_words_first() -> None:
    index = text_index(
        [
            b"consumer offsets are committed",
            b"consumer offsets reset",
            b"tomatoes need compost",
            b"compost and seedlings",
            b"the and of",
        ]
    )
    similar = top_similar(index, 1)
    assert similar[0].indices.tolist() == [1] and similar[2].indices.tolist() == [3]
    assert shared_words(index, np.array([0]), np.array([1])) == [["consumer", "offsets"]]
    assert index.query("compost")[[2, 3]].min() > 0 and index.query("compost")[0] == 0
    assert "the" not in index.vocabulary


def test_git_log_gives_recency_and_co_changes_measured_from_the_newest_commit() -> None:
    day = 86_400
    log = (
        f"\x1e{100 * day}\n\ncontent/a.md\nsitegen/x.py\n"
        f"\x1e{80 * day}\n\ncontent/a.md\ncontent/b.md\n"
    )
    history = parse_log(log)
    assert history.head_time == 100 * day
    assert history.recency("content/a.md", "page") == 1.0
    assert history.recency("content/b.md", "page") == pytest.approx(0.5 ** (20 / 180))
    assert history.recency("never.md", "page") == 0.0
    pairs = history.co_changes(
        {"content/a.md": "page", "content/b.md": "page", "sitegen/x.py": "source"}
    )
    assert set(pairs) == {("content/a.md", "sitegen/x.py"), ("content/a.md", "content/b.md")}


def test_outside_git_the_temporal_dimension_is_flat(tmp_path: Path) -> None:
    from sitegen.graph.history import read_history

    history = read_history(tmp_path)
    assert history == History()
    assert history.recency("a.md", "page") == history.recency("b.py", "source") == 1.0
    assert history.co_changes({"a.md": "page"}) == {}
