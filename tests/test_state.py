"""The readers of ``.sitegen/`` (sitegen/state/files.py and every reader built on it): hostile bytes
give the reader's documented refusal, never another exception, in time linear in their size;
a file that cannot be read is set aside (renamed, never deleted) with one warning."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitegen.base.diagnostics import Level
from sitegen.code.shards import ShardFormatError, ShardVersionError, load_shard
from sitegen.graph.graphjson import GraphJsonError, load_graph_json
from sitegen.graph.store.anchors import load_anchors
from sitegen.graph.store.base import StoreError
from sitegen.state.files import (
    Unreadable,
    cut,
    parse_json,
    read_state,
    replayable,
    set_aside,
    shown,
)
from sitegen.state.remembered import SiteRecord, _read_line, finished_fingerprint
from tests.safety.linear import bytes_grows_linearly

#: Every reader of a JSON file of .sitegen/, and what it may raise: its documented refusal.
READERS: dict[str, tuple[Callable[[bytes], object], tuple[type[Exception], ...]]] = {
    "parse_json": (parse_json, (Unreadable,)),
    "anchors.json": (load_anchors, (StoreError,)),
    "graph.json": (load_graph_json, (GraphJsonError,)),
    "a shard": (
        lambda data: load_shard(data.decode("utf-8", "replace")),
        (ShardFormatError, ShardVersionError),
    ),
    "a page cache line": (_read_line, ()),  # a bad line is None: dropped, never raised
}

#: Hostile shapes: deep nesting, long runs of JSON's own markers, huge numbers, escapes of
#: lone surrogates, cut short.
HOSTILE: dict[str, Callable[[int], bytes]] = {
    "deep lists": lambda n: b"[" * n + b"]" * n,
    "deep objects": lambda n: b'{"a":' * n + b"1" + b"}" * n,
    "open lists": lambda n: b"[" * n,
    "huge integer": lambda n: b"1" * n,
    "huge float": lambda n: b"1" + b"0" * n + b".5e999",
    "surrogate escapes": lambda n: b'["' + b"\\ud800" * n + b'"]',
    "surrogate key": lambda n: b'{"' + b"\\udfff" * n + b'": 1}',
    "long string cut": lambda n: b'{"version": 1, "pages": {"/a": "' + b"x" * n,
    "commas": lambda n: b"[" + b"1," * n + b"1]",
    "quotes": lambda n: b'"' * n,
}


def _refusal(read: Callable[[bytes], object], allowed: tuple[type[Exception], ...], data: bytes):
    try:
        read(data)
    except allowed:
        pass


@pytest.mark.parametrize("reader", sorted(READERS))
@pytest.mark.parametrize("shape", sorted(HOSTILE))
def test_a_hostile_shape_is_the_readers_refusal(reader: str, shape: str) -> None:
    read, allowed = READERS[reader]
    for n in (1, 100, 100_000):
        _refusal(read, allowed, HOSTILE[shape](n))  # anything else fails the test


@settings(deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(sorted(READERS)),
    st.sampled_from(sorted(HOSTILE)),
    st.integers(0, 3_000),
    st.integers(0, 64),
    st.binary(max_size=16),
)
def test_hostile_bytes_cut_anywhere_are_refused_or_read(
    reader: str, shape: str, n: int, cut_at: int, tail: bytes
) -> None:
    read, allowed = READERS[reader]
    data = HOSTILE[shape](n)
    _refusal(read, allowed, data[: max(0, len(data) - cut_at)] + tail)


_ANY_TEXT = st.text(st.characters(blacklist_categories=()), max_size=6)  # surrogates too
_DOCS = st.recursive(
    st.none() | st.booleans() | st.integers() | _ANY_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_ANY_TEXT, inner, max_size=4),
    max_leaves=20,
)


@settings(deadline=None, max_examples=50)
@given(_DOCS)
def test_json_reads_back_the_same_or_is_refused_for_a_lone_surrogate(doc: Any) -> None:
    text = json.dumps(doc)  # ASCII: a lone surrogate is written as a \ud800 escape
    try:
        json.dumps(doc, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        with pytest.raises(Unreadable, match="lone surrogate"):
            parse_json(text.encode())
        return
    assert parse_json(text.encode()) == doc


@pytest.mark.parametrize(
    "text, why",
    [
        (b'{"a": "\\ud800"}', "lone surrogate"),
        (b'{"\\udc00": 1}', "lone surrogate"),
        (b'["\\ud83d\\ude00"]', None),  # a pair is one character
        (b'["\\\\ud800"]', None),  # an escaped backslash, then text
        (b"[1e999]", "not finite"),
        (b"[NaN]", "non-finite"),
        (b"[" + b"9" * 5000 + b"]", "not valid JSON"),
        (b"[" * 100_000, "nested too deep"),
        (b"\xff[]", "not UTF-8"),
    ],
)
def test_parse_json_refuses_what_no_state_file_holds(text: bytes, why: str | None) -> None:
    if why is None:
        parse_json(text)
    else:
        with pytest.raises(Unreadable, match=why):
            parse_json(text)


def test_the_page_cache_keeps_the_surrogates_it_wrote() -> None:
    assert parse_json(b'["\\ud800"]', surrogates=True) == ["\ud800"]
    assert parse_json('["\ud800"]'.encode("utf-8", "surrogatepass"), surrogates=True)


@pytest.mark.parametrize("shape", sorted(HOSTILE))
@pytest.mark.parametrize("reader", ["parse_json", "anchors.json", "graph.json"])
def test_the_json_readers_take_linear_time(reader: str, shape: str) -> None:
    read, allowed = READERS[reader]
    ok, said = bytes_grows_linearly(
        lambda data: _refusal(read, allowed, data), HOSTILE[shape], size=2_000, max_size=400_000
    )
    assert ok, f"{reader}, {shape}: {said}"


def test_read_state_takes_regular_files_only(tmp_path: Path) -> None:
    assert read_state(tmp_path / "none") is None
    (tmp_path / "file").write_bytes(b"abc")
    assert read_state(tmp_path / "file") == b"abc"
    with pytest.raises(Unreadable, match="more than the 2"):
        read_state(tmp_path / "file", limit=2)
    (tmp_path / "folder").mkdir()
    with pytest.raises(Unreadable, match="a folder"):
        read_state(tmp_path / "folder")
    os.mkfifo(tmp_path / "fifo")  # would block a plain open() for ever
    with pytest.raises(Unreadable, match="not a file"):
        read_state(tmp_path / "fifo")
    (tmp_path / "link").symlink_to(tmp_path / "file")
    with pytest.raises(Unreadable):
        read_state(tmp_path / "link")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a file whatever its permissions")
def test_a_file_without_read_permission_is_unreadable(tmp_path: Path) -> None:
    path = tmp_path / "built"
    path.write_text("x")
    path.chmod(0)
    with pytest.raises(Unreadable, match="Permission denied"):
        read_state(path)


def test_set_aside_renames_replaces_an_older_copy_and_says_so_once(tmp_path: Path) -> None:
    cache = tmp_path / ".sitegen"
    path = cache / "graph.sqlite"
    cache.mkdir()
    old = cache / "graph.sqlite.unreadable"
    old.mkdir()  # an older set-aside copy, a folder its owner cannot read
    (old / "inner").mkdir()
    (old / "inner" / "x").write_text("x")
    (old / "inner").chmod(0)
    path.write_bytes(b"garbage")
    (cache / "graph.sqlite-wal").write_bytes(b"wal")
    found = set_aside(
        path, "the graph store", "x" * 500, code="store", lost="links", companions=("-wal",)
    )
    assert (found.path, found.line, found.col, found.level, found.code) == (
        ".sitegen/graph.sqlite",
        1,
        1,
        Level.WARNING,
        "store",
    )
    assert found.message == (
        f"the graph store cannot be read ({'x' * 79}…); it was set aside as "
        ".sitegen/graph.sqlite.unreadable and rebuilt. Lost: links"
    )
    assert old.read_bytes() == b"garbage" and not path.exists()
    assert (cache / "graph.sqlite.unreadable-wal").read_bytes() == b"wal"  # as SQLite names it


def test_what_cannot_be_set_aside_is_said(tmp_path: Path) -> None:
    found = set_aside(tmp_path / "gone.json", "a file", "why")
    assert "could not be set aside (No such file or directory)" in found.message


def test_state_warnings_are_not_replayed() -> None:
    from sitegen.base.diagnostics import Diagnostic

    kept = Diagnostic("content/a.md", 1, 1, Level.WARNING, "broken", "broken-link")
    healed = [
        Diagnostic(".sitegen/anchors.json", 1, 1, Level.WARNING, "set aside", "store"),
        Diagnostic(".sitegen/pages.json", 1, 1, Level.INFO, "dropped", "cache"),
    ]
    assert replayable([kept, *healed]) == [kept]


def test_paths_are_shown_from_the_cache_folder_and_values_cut() -> None:
    assert shown(Path("/x/proj/.sitegen/shards/a.metast")) == ".sitegen/shards/a.metast"
    assert shown(Path("/x/elsewhere/core.npz")) == "core.npz"
    assert cut("a" * 100) == "a" * 79 + "…" and cut("short") == "short"


@pytest.mark.parametrize(
    "data",
    [b"", b"zz\n", b"g" * 64, b"\xff" * 65 + b"\n", b"0" * 64 + b"\n\n", b"[]"],
)
def test_a_damaged_mark_of_the_last_build_is_no_fingerprint(tmp_path: Path, data: bytes) -> None:
    (tmp_path / "built").write_bytes(data)
    assert finished_fingerprint(tmp_path) == ""
    (tmp_path / "built").write_bytes(b"0" * 64 + b"\n")
    assert finished_fingerprint(tmp_path) == "0" * 64


@pytest.mark.parametrize(
    "doc",
    [
        "[]",
        '{"version": "0.1.0", "fingerprint": 5}',
        '{"version": "0.1.0", "fingerprint": "a\\ud800", "keys": {}, "diagnostics": [], '
        '"summary": ""}',
        '{"version": "0.1.0", "fingerprint": "a", "keys": {}, "diagnostics": [[1,2]], '
        '"summary": ""}',
        '{"version": "0.1.0", "fingerprint": "a", "keys": {"a": 1}, "diagnostics": [], '
        '"summary": ""}',
    ],
)
def test_an_unsound_site_marker_means_a_full_build(tmp_path: Path, doc: str) -> None:
    from sitegen import __version__

    marker = tmp_path / "marker"
    marker.write_text(doc.replace("0.1.0", __version__))
    assert SiteRecord.read(marker) == SiteRecord()
    os.mkfifo(tmp_path / "fifo")
    assert SiteRecord.read(tmp_path / "fifo") == SiteRecord()


def test_mode_bits_restored_for_a_later_discard(tmp_path: Path) -> None:
    """The older copy set_aside replaces was left readable only by nobody: it still goes."""
    aside = tmp_path / "x.unreadable"
    aside.mkdir()
    aside.chmod(0)
    (tmp_path / "x").write_text("new")
    set_aside(tmp_path / "x", "x", "why")
    assert aside.read_text() == "new"
    assert stat.S_ISREG(aside.stat().st_mode)


def test_a_fifo_in_the_markers_place_is_no_marker(tmp_path: Path) -> None:
    """The site folder's marker is read by the ownership check, explore and the no-change
    test; a FIFO there made a plain open() wait for ever."""
    from sitegen.commands.explore_answers import _site_fingerprint
    from sitegen.config import load_config
    from sitegen.state.ownership import OUTPUT_MARKER, read_marker

    (tmp_path / "site").mkdir()
    os.mkfifo(tmp_path / "site" / OUTPUT_MARKER)
    assert read_marker(tmp_path / "site") is None
    assert SiteRecord.read(tmp_path / "site" / OUTPUT_MARKER) == SiteRecord()
    (tmp_path / "content").mkdir()
    assert _site_fingerprint(load_config(tmp_path)) == ""
