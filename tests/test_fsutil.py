"""The one atomic write: the permissions a user expects, and the old file kept on failure."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from sitegen.base.fsutil import write_atomically
from tests.cli.conftest import sitegen, write


@contextmanager
def umask(mask: int) -> Iterator[None]:
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize(("mask", "expected"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_a_new_file_gets_what_open_would_give_it(tmp_path: Path, mask: int, expected: int) -> None:
    with umask(mask):
        write_atomically(tmp_path / "new.txt", "text")
        (tmp_path / "plain.txt").write_text("text")  # what open() gives, for comparison
    assert mode(tmp_path / "new.txt") == mode(tmp_path / "plain.txt") == expected


@pytest.mark.parametrize("kept", [0o640, 0o600, 0o755])
def test_a_replaced_file_keeps_its_mode(tmp_path: Path, kept: int) -> None:
    target = tmp_path / "kept.txt"
    target.write_text("old")
    target.chmod(kept)
    with umask(0o022):
        write_atomically(target, b"new")
    assert (mode(target), target.read_bytes()) == (kept, b"new")


def test_text_is_written_as_utf8_without_newline_translation(tmp_path: Path) -> None:
    write_atomically(tmp_path / "a" / "b.txt", "café\nline\n")
    assert (tmp_path / "a" / "b.txt").read_bytes() == "café\nline\n".encode()


@pytest.mark.parametrize("durable", [True, False])
def test_a_failed_rename_keeps_the_old_content_and_no_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, durable: bool
) -> None:
    target = tmp_path / "file.json"
    target.write_text("old")

    def refuse(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError, match="No space left on device"):
        write_atomically(target, "new", durable=durable)
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.json"]


def test_a_failed_write_keeps_the_old_content_and_no_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "file.json"
    target.write_text("old")

    def full_disk(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(OSError, match="No space left on device"):
        write_atomically(target, "new" * 1000)
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.json"]


def test_export_to_a_file_is_not_private(tmp_path: Path) -> None:
    root = write(tmp_path / "p", {"content/index.md": "# Home\n\n[a](a.md)\n"})
    new, kept = tmp_path / "graph.md", tmp_path / "kept.md"
    kept.write_text("old")
    kept.chmod(0o640)
    with umask(0o022):
        assert sitegen("export", "--format", "graph-md", "-o", str(new), root=root).code == 0
        assert sitegen("export", "--format", "graph-md", "-o", str(kept), root=root).code == 0
    assert (mode(new), mode(kept)) == (0o644, 0o640)
    assert "| From | To |" in new.read_text() and kept.read_text() == new.read_text()


def test_pieces_are_written_one_after_another_text_or_bytes(tmp_path: Path) -> None:
    target = tmp_path / "pieces.json"
    write_atomically(target, iter(["{", b'"caf\xc3\xa9"', "}\n"]))
    assert target.read_bytes() == '{"café"}\n'.encode()


def test_pieces_that_fail_midway_keep_the_old_content_and_no_temp_file(tmp_path: Path) -> None:
    target = tmp_path / "file.json"
    target.write_text("old")

    def pieces() -> Iterator[str]:
        yield "half of "
        raise ValueError("the graph cannot be written")

    with pytest.raises(ValueError, match="cannot be written"):
        write_atomically(target, pieces())
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.json"]
