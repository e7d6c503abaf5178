"""The site writer creates files in threads while the build renders (sitegen/site/writer.py):
every file is there when the site is swapped in, a failed write fails the build and leaves
no half site, and a forked worker's files exist before it reports them written."""

from __future__ import annotations

import multiprocessing
import os
import threading
from pathlib import Path

import pytest

from sitegen.base.parallel import run_forked
from sitegen.base.paths import OutPath
from sitegen.site import writer as writer_module
from sitegen.site.writer import SiteWriter
from sitegen.state.ownership import OUTPUT_MARKER, files_below


def _names(n: int) -> list[OutPath]:
    return [OutPath(f"d{i % 7}/sub{i % 3}/page{i}.html") for i in range(n)]


def test_every_queued_file_is_in_the_site_with_its_bytes(tmp_path: Path) -> None:
    names = _names(500)  # many more than the queue holds
    with SiteWriter(tmp_path / "site") as writer:
        for i, name in enumerate(names):
            writer.write(name, f"page {i}\n" * (i % 50))
    site = tmp_path / "site"
    assert set(files_below(site)) - {OUTPUT_MARKER} == set(names)
    for i, name in enumerate(names):
        assert (site / name).read_text() == f"page {i}\n" * (i % 50)
    assert writer.count == len(names)


def test_a_write_that_fails_fails_the_build_and_leaves_no_site(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_create = writer_module._create

    def disk_full(target: Path, raw: bytes) -> None:
        if target.name == "page3.html":
            raise OSError(28, "No space left on device")
        real_create(target, raw)

    monkeypatch.setattr(writer_module, "_create", disk_full)
    with (  # noqa: PT012 - the writer's exit is what raises
        pytest.raises(OSError, match="No space left"),
        SiteWriter(tmp_path / "site") as writer,
    ):
        for name in _names(10):
            writer.write(name, "x")
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no site, no scratch folder


def _write_chunk(writer: SiteWriter, indexes: list[int]) -> list[tuple[int, bool]]:
    """A forked worker's task: write its pages, settle, then say whether each exists."""
    for i in indexes:
        writer.write(OutPath(f"w/{i}.html"), str(i) * 1000)
    writer.settle(in_worker=True)
    return [(i, (writer.tmp / f"w/{i}.html").is_file()) for i in indexes]


@pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(),
    reason="the workers are forked",
)
def test_a_forked_worker_has_written_its_files_when_it_reports(tmp_path: Path) -> None:
    with SiteWriter(tmp_path / "site") as writer:
        writer.write(OutPath("before.html"), "queued in the parent before the fork")
        writer.settle()
        done = [
            pair
            for chunk in run_forked(_write_chunk, writer, list(range(400)), jobs=2)
            for pair in chunk
        ]
    assert done == [(i, True) for i in range(400)]
    assert len(set(files_below(tmp_path / "site")) - {OUTPUT_MARKER}) == 401


def test_the_writer_threads_end_with_the_site(tmp_path: Path) -> None:
    with SiteWriter(tmp_path / "site") as writer:
        for name in _names(20):
            writer.write(name, "x")
    assert not [t for t in threading.enumerate() if t.name.startswith("sitegen-write")]
    assert os.path.isdir(tmp_path / "site")
