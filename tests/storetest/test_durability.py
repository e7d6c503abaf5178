"""Store durability (content/reference/store.md): legacy files, atomic writes, readers."""

from __future__ import annotations

import multiprocessing
import os
import sqlite3

import pytest

from sitegen.graph.store import open_store
from sitegen.graph.store.base import StoreError

from .factories import READ, crawl, edge, fields, page, view

#: The files a store may leave in .sitegen/ (SQLite's WAL companions included).
STORE_FILES = {"graph.json", "graph.sqlite", "graph.sqlite-wal", "graph.sqlite-shm"}

LEGACY = '{"version": 1, "edges": [{"from": "/a.md", "to": "/b.md"}, {"from": "/c.md", "to": "/a.md"}]}\n'


def _write_legacy(cache_dir):
    cache_dir.mkdir(parents=True)
    (cache_dir / "graph.json").write_text(LEGACY, encoding="utf-8")


def test_a_legacy_json_store_loads_with_count_one(backend, cache_dir):
    _write_legacy(cache_dir)
    loaded = open_store(backend, cache_dir).load()
    assert [fields(e) for e in loaded.edges()] == [
        ("/a.md", "/b.md", "", "", "", 1, ()),
        ("/c.md", "/a.md", "", "", "", 1, ()),
    ]


def test_a_merge_onto_a_legacy_store_keeps_its_unread_sources(backend, cache_dir, reopen):
    _write_legacy(cache_dir)
    open_store(backend, cache_dir).merge(
        crawl({"/a.md": (READ, [edge("/a.md", "/d.md", "", "Dee")])})
    )
    assert [fields(e)[:4] for e in reopen().load().edges()] == [
        ("/a.md", "/d.md", "", "Dee"),
        ("/c.md", "/a.md", "", ""),
    ]


def test_merges_leave_no_temp_files(store, cache_dir):
    for i in range(5):
        store.merge(crawl({"/a.md": (READ, [edge("/a.md", f"/{i}.md")])}))
    assert set(os.listdir(cache_dir)) <= STORE_FILES


def test_a_merge_that_fails_part_way_leaves_the_old_store_and_no_temp_files(
    store, cache_dir, reopen
):
    store.merge(
        crawl(
            {"/a.md": (READ, [edge("/a.md", "/b.md")]), "/z.md": (READ, [edge("/z.md", "/y.md")])}
        )
    )
    before = view(reopen().load())
    # /a.md's edges are replaced first; /z.md's new edge then cannot be stored (not text).
    bad = crawl(
        {
            "/a.md": (READ, [edge("/a.md", "/c.md")]),
            "/z.md": (READ, [edge("/z.md", "/y.md", "", object())]),
        }
    )
    with pytest.raises((TypeError, sqlite3.ProgrammingError)):
        store.merge(bad)
    assert view(reopen().load()) == before
    assert set(os.listdir(cache_dir)) <= STORE_FILES


def test_a_corrupt_store_is_a_store_error_not_a_crash(backend, cache_dir):
    cache_dir.mkdir(parents=True)
    (cache_dir / ("graph.json" if backend == "json" else "graph.sqlite")).write_bytes(
        b"{\x00 not a store" * 50
    )
    with pytest.raises(StoreError):
        open_store(backend, cache_dir).load()


def _state(name: str, n: int = 80):
    """A crawl replacing /a.md's edges and node wholesale, and the view a reader must then see."""
    edges = [
        edge("/a.md", f"/{name}{i:03}.md", "", f"{name} {i}", name, 1, at=(i, i + 100))
        for i in range(n)
    ]
    expected_edges = [fields(e) for e in edges] + [fields(edge("/k.md", "/a.md", "", "keep"))]
    return crawl({"/a.md": (READ, edges)}, [page("/a.md", name)]), (
        {"/a.md": page("/a.md", name)},
        expected_edges,
    )


def _read_in_a_loop(backend, cache_dir, complete, started, stop, report) -> None:
    """In another process: load until told to stop; report how many loads and the bad ones."""
    store, reads, bad = open_store(backend, cache_dir), 0, []
    try:
        while not stop.is_set():
            try:
                state = view(store.load())
            except StoreError as err:  # a half-written store would show up here
                state = repr(err)
            reads += 1
            if state not in complete and len(bad) < 3:
                bad.append(repr(state)[:300])
            started.set()
    finally:
        started.set()  # never leave the writer waiting, whatever happened here
        report.put((reads, bad))


def test_a_concurrent_reader_sees_only_complete_states(backend, cache_dir, store):
    (crawl_a, view_a), (crawl_b, view_b) = _state("A"), _state("B")
    store.merge(crawl({"/k.md": (READ, [edge("/k.md", "/a.md", "", "keep")])}))
    store.merge(crawl_a)
    context = multiprocessing.get_context("fork")
    started, stop, report = context.Event(), context.Event(), context.Queue()
    reader = context.Process(
        target=_read_in_a_loop, args=(backend, cache_dir, [view_a, view_b], started, stop, report)
    )
    reader.start()
    try:
        started.wait()  # the reader is loading before the first write below
        for i in range(60):
            store.merge(crawl_b if i % 2 == 0 else crawl_a)
    finally:
        stop.set()
        reads, bad = report.get()
        reader.join()
    assert reads >= 1
    assert bad == []


def test_sqlite_store_runs_in_wal_mode(cache_dir):
    open_store("sqlite", cache_dir).merge(crawl({"/a.md": (READ, [edge("/a.md", "/b.md")])}))
    with sqlite3.connect(cache_dir / "graph.sqlite") as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert {
            r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        } >= {"nodes", "edges", "occurrences"}


def test_json_store_keeps_the_old_file_when_the_rename_fails(cache_dir, monkeypatch):
    store = open_store("json", cache_dir)
    store.merge(crawl({"/a.md": (READ, [edge("/a.md", "/b.md")])}))
    before = (cache_dir / "graph.json").read_bytes()

    def refuse(src, dst):
        raise OSError("disk on fire")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError, match="disk on fire"):
        store.merge(crawl({"/a.md": (READ, [edge("/a.md", "/c.md")])}))
    assert (cache_dir / "graph.json").read_bytes() == before
    assert os.listdir(cache_dir) == ["graph.json"]


def test_json_store_file_is_graph_json_v1(cache_dir):
    from sitegen.graph.graphjson import load_graph_json

    open_store("json", cache_dir).merge(
        crawl({"/a.md": (READ, [edge("/a.md", "/b.md", "", "L", "s", at=(3,))])})
    )
    g = load_graph_json((cache_dir / "graph.json").read_text(encoding="utf-8"))
    assert [fields(e) for e in g.edges()] == [fields(edge("/a.md", "/b.md", "", "L", "s", at=(3,)))]
