"""``sitegen explore`` on a snapshot that cannot be trusted: one sentence that names the file and
what is wrong with it, then an answer built in memory; never an internal error."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from numpy.lib import format as npy

from tests.cli.conftest import sitegen, write

PAGES = {
    "content/index.md": "# Home\n\nSee [the guide](guide.md) about compost.\n",
    "content/guide.md": "# Guide\n\nCompost and tomatoes. Back [home](index.md).\n",
}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = write(tmp_path_factory.mktemp("explore") / "project", PAGES)
    assert sitegen("build", root=root).code == 0
    return root


@pytest.fixture
def snapshot(built: Path) -> Iterator[Path]:
    """The built project's snapshot, put back as it was after the test."""
    path = built / ".sitegen/core.npz"
    saved = path.read_bytes()
    try:
        yield path
    finally:
        path.write_bytes(saved)


def _replace_member(path: Path, name: str, data: bytes) -> None:
    with zipfile.ZipFile(path) as zf:
        members = {info.filename: zf.read(info) for info in zf.infolist()}
    members[name + ".npy"] = data
    with zipfile.ZipFile(path, "w") as zf:
        for member, body in members.items():
            zf.writestr(member, body)


def test_a_snapshot_claiming_terabytes_is_refused_as_malformed(built: Path, snapshot: Path) -> None:
    header = io.BytesIO()
    npy.write_array_header_1_0(
        header, {"descr": "<f8", "fortran_order": False, "shape": (10**6, 10**6)}
    )
    _replace_member(snapshot, "weight", header.getvalue() + b"\0" * 64)
    run = sitegen("explore", "compost", root=built)
    assert run.code == 0, run.err
    assert "internal error" not in run.err
    refused = [line for line in run.err_lines if "graph snapshot" in line]
    assert len(refused) == 1, run.err
    assert refused[0].startswith("sitegen: the graph snapshot .sitegen/core.npz is malformed (")
    assert refused[0].endswith("; building in memory")
    assert "/guide.md" in run.out  # answered all the same


def test_non_finite_weights_are_said_in_one_sentence(built: Path, snapshot: Path) -> None:
    with np.load(snapshot, allow_pickle=False) as data:
        weight = data["weight"].copy()
    weight[0] = np.nan
    out = io.BytesIO()
    np.save(out, weight, allow_pickle=False)
    _replace_member(snapshot, "weight", out.getvalue())
    run = sitegen("explore", "compost", root=built)
    assert run.code == 0, run.err
    assert (
        "sitegen: the graph snapshot .sitegen/core.npz holds non-finite weights "
        "(NaN or infinity); building in memory"
    ) in run.err_lines, run.err
