"""The cache folder made safe before a build (sitegen/state/folder.py): whatever stands where a file
or folder of sitegen's belongs, and cannot serve as one, is set aside with one warning each,
links are removed, and a damaged origin.json is set aside, not taken for a copied cache."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from sitegen.base.diagnostics import Level
from sitegen.state.folder import ORIGIN_FILE, build_lock, prepare_cache


def _made(tmp_path: Path) -> Path:
    cache = tmp_path / ".sitegen"
    prepare_cache(cache)
    (cache / "shards").mkdir()
    return cache


@pytest.mark.parametrize(
    "rel, make",
    [
        ("graph.json", lambda p: p.mkdir()),
        ("lock", lambda p: p.mkdir()),
        (".gitignore", lambda p: p.mkdir()),
        ("built", os.mkfifo),
        ("pages.json", os.mkfifo),
        ("shards/links.json", lambda p: (p.mkdir(), (p / "x").write_text("x"))),
        ("shards/0123.metast", lambda p: p.mkdir()),
        ("graph.sqlite-wal", lambda p: p.mkdir()),
    ],
)
def test_a_folder_or_fifo_where_a_file_belongs_is_set_aside(
    tmp_path: Path, rel: str, make: object
) -> None:
    cache = _made(tmp_path)
    path = cache / rel
    if path.exists():
        path.unlink()
    make(path)  # type: ignore[operator]
    state = prepare_cache(cache)
    assert [(d.path, d.level, d.code) for d in state.diagnostics] == [
        (f".sitegen/{rel}", Level.WARNING, "cache")
    ]
    assert f"set aside as .sitegen/{rel}.unreadable" in state.diagnostics[0].message
    assert os.path.lexists(f"{path}.unreadable")
    assert not os.path.lexists(path) or path.is_file()  # .gitignore is written anew
    with build_lock(cache, print):  # the lock can be taken again
        pass
    assert prepare_cache(cache).diagnostics == []  # and nothing more to set aside


def test_a_file_where_the_shard_folder_belongs_is_set_aside(tmp_path: Path) -> None:
    cache = _made(tmp_path)
    (cache / "shards").rmdir()
    (cache / "shards").write_text("not a folder")
    said = prepare_cache(cache).diagnostics
    assert [d.path for d in said] == [".sitegen/shards"] and "not a folder" in said[0].message


def test_the_peers_folder_and_other_files_are_left_alone(tmp_path: Path) -> None:
    cache = _made(tmp_path)
    (cache / "peers").mkdir()
    (cache / "peers" / "x.json").mkdir()  # the peers' own rules (sitegen/federation/store.py)
    (cache / "notes").mkdir()  # not a name of sitegen's files
    assert prepare_cache(cache).diagnostics == []
    assert (cache / "peers" / "x.json").is_dir() and (cache / "notes").is_dir()


def test_a_file_its_owner_cannot_read_is_set_aside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As with ``chmod 000 .sitegen/lock`` (root reads any file, so the check is simulated)."""
    cache = _made(tmp_path)
    (cache / "lock").write_text("1\n")
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, m: Path(p).name != "lock" and real(p, m))
    said = prepare_cache(cache).diagnostics
    assert [d.path for d in said] == [".sitegen/lock"]
    assert "no permission to read and write it" in said[0].message


@pytest.mark.parametrize(
    "text",
    ["", "{", "[]", '{"device": 1}', '{"device": "1", "inode": 2}', '{"device": 1, "inode": 2.5}'],
)
def test_a_damaged_origin_is_set_aside_and_the_cache_not_trusted(tmp_path: Path, text: str) -> None:
    cache = _made(tmp_path)
    (cache / ORIGIN_FILE).write_text(text)
    state = prepare_cache(cache)
    assert not state.trusted and state.origin_unreadable
    assert [d.path for d in state.diagnostics] == [".sitegen/origin.json"]
    assert (cache / "origin.json.unreadable").read_text() == text
    again = prepare_cache(cache)  # the origin was written anew: this folder's own
    assert again.trusted and again.diagnostics == []


def test_an_origin_of_another_folder_is_a_copy_not_damage(tmp_path: Path) -> None:
    cache = _made(tmp_path)
    (cache / ORIGIN_FILE).write_text(json.dumps({"device": 1, "inode": 2}))
    state = prepare_cache(cache)
    assert not state.trusted and not state.origin_unreadable and state.diagnostics == []
