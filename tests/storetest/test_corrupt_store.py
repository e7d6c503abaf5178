"""A store that cannot be read heals (issue 27, defect 19): whatever was done to its file, the
next build's reads give one warning naming that file and set it aside, and the saves that
follow write a sound store again (content/reference/store.md#a-store-that-cannot-be-read)."""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.config import Config
from sitegen.graph.model import Graph
from sitegen.graph.store import load_anchor_book, load_store, open_store
from sitegen.graph.store.json import ANCHORS_FILE
from sitegen.graph.store.json import FILE_NAME as JSON_FILE
from sitegen.graph.store.sqlite import FILE_NAME as SQLITE_FILE
from tests.storetest.factories import READ, crawl, edge, page, view
from tests.storetest.test_anchors import BOOK


def _stored(backend: str, cache_dir: Path) -> Graph:
    """A store of each kind of row (nodes, edges with occurrences, anchors, aliases)."""
    store = open_store(backend, cache_dir)
    update = crawl({"/a.md": (READ, [edge("/a.md", "/b.md", at=(3, 9))])}, [page("/a.md", "A")])
    graph = store.merge(update)
    store.save_anchors(BOOK)
    return graph


def _sql(script: str) -> Callable[[Path], None]:
    def run(path: Path) -> None:
        with closing(sqlite3.connect(path)) as conn:
            conn.executescript(script)

    return run


def _bytes(make: Callable[[bytes], bytes]) -> Callable[[Path], None]:
    return lambda path: path.write_bytes(make(path.read_bytes()))


SQLITE_DAMAGE = {
    "anchors with other columns": _sql("DROP TABLE anchors; CREATE TABLE anchors (x INTEGER);"),
    "an anchor's text a blob": _sql("UPDATE anchors SET text = x'ff00';"),
    "an anchor's place that is text": _sql("UPDATE anchors SET seq = 'at ' || seq;"),
    "no alias table": _sql("DROP TABLE anchor_aliases;"),
    "no nodes table": _sql("DROP TABLE nodes;"),
    "no meta table": _sql("DROP TABLE meta;"),
    "edges with other columns": _sql("DROP TABLE edges; CREATE TABLE edges (a);"),
    "a line that is text": _sql("UPDATE occurrences SET line = 'x';"),
    "a count of zero": _sql("UPDATE edges SET count = 0;"),
    "a title that is a blob": _sql("UPDATE nodes SET title = x'00ff';"),
    "another schema version": _sql("UPDATE meta SET value = '9';"),
    "garbage": _bytes(lambda _: b"\x00\xffnot a database" * 100),
    "truncated": _bytes(lambda data: data[: len(data) // 2]),
}

JSON_DAMAGE = {
    "a lone surrogate in an anchor": (
        ANCHORS_FILE,
        _bytes(lambda data: data.replace(b'"install"', b'"inst\\ud800all"')),
    ),
    "a lone surrogate in a title": (
        JSON_FILE,
        _bytes(lambda data: data.replace(b'"A"', b'"\\udfffA"')),
    ),
    "an offset of 2**64": (
        JSON_FILE,
        _bytes(lambda data: data.replace(b'"offset": 3', b'"offset": 18446744073709551616')),
    ),
    "an infinite number": (
        JSON_FILE,
        _bytes(lambda data: data.replace(b'"line": 1', b'"line": 1e999')),
    ),
    "anchors that are a list": (ANCHORS_FILE, _bytes(lambda _: b"[]")),
    "graph.json that is empty": (JSON_FILE, _bytes(lambda _: b"")),
}


def _next_build(backend: str, cache_dir: Path) -> list[Diagnostic]:
    """What a build's reads of the store say: the anchors first, then the graph (needed)."""
    store = open_store(backend, cache_dir)
    _, said = load_anchor_book(store)
    _, more = load_store(store, dataclasses.replace(Config(), store=backend), needed=True)
    return said + more


def _heals(backend: str, cache_dir: Path, name: str, graph: Graph) -> None:
    said = _next_build(backend, cache_dir)
    assert [(d.path, d.level, d.code) for d in said] == [
        (f".sitegen/{name}", Level.WARNING, "store")
    ], said
    assert f"set aside as .sitegen/{name}.unreadable and rebuilt" in said[0].message
    assert ".sitegen/" not in said[0].message.split(" (", 1)[1].split(");")[0]  # no paths
    store = open_store(backend, cache_dir)
    store.save(graph)
    store.save_anchors(BOOK)
    assert _next_build(backend, cache_dir) == []  # the next build reads a sound store
    again = open_store(backend, cache_dir)
    assert view(again.load()) == view(graph) and again.load_anchors() == BOOK


@pytest.mark.parametrize("damage", sorted(SQLITE_DAMAGE))
def test_a_damaged_database_is_set_aside_once_and_made_again(cache_dir: Path, damage: str) -> None:
    graph = _stored("sqlite", cache_dir)
    SQLITE_DAMAGE[damage](cache_dir / SQLITE_FILE)
    _heals("sqlite", cache_dir, SQLITE_FILE, graph)


@pytest.mark.parametrize("damage", sorted(JSON_DAMAGE))
def test_a_damaged_json_store_is_set_aside_once_and_made_again(
    cache_dir: Path, damage: str
) -> None:
    graph = _stored("json", cache_dir)
    name, spoil = JSON_DAMAGE[damage]
    before = (cache_dir / name).read_bytes()
    spoil(cache_dir / name)
    assert (cache_dir / name).read_bytes() != before, "the damage must change the file"
    _heals("json", cache_dir, name, graph)


def test_the_json_anchors_a_new_database_falls_back_on_are_set_aside_not_the_database(
    cache_dir: Path,
) -> None:
    """A SQLite store without anchor tables reads the JSON store's anchors.json: when that
    file is the damaged one, it is the one set aside."""
    _stored("json", cache_dir)
    sqlite_store = open_store("sqlite", cache_dir)
    sqlite_store.merge(crawl({"/a.md": (READ, [])}, [page("/a.md", "A")]))  # no anchors yet
    (cache_dir / ANCHORS_FILE).write_text('{"version": 1, "pages": {"/\\ud800": 1}}')
    _, said = load_anchor_book(open_store("sqlite", cache_dir))
    assert [d.path for d in said] == [".sitegen/anchors.json"]
    assert (cache_dir / SQLITE_FILE).is_file()


def test_a_database_larger_than_sitegen_reads_is_set_aside(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    graph = _stored("sqlite", cache_dir)
    monkeypatch.setattr("sitegen.graph.store.sqlite.MAX_STATE_BYTES", 100)
    said = _next_build("sqlite", cache_dir)
    assert [d.path for d in said] == [".sitegen/graph.sqlite"] and "more than the 100" in said[
        0
    ].message
    monkeypatch.undo()
    assert not (cache_dir / SQLITE_FILE).exists()
    store = open_store("sqlite", cache_dir)
    store.save(graph)
    store.save_anchors(BOOK)
    assert _next_build("sqlite", cache_dir) == []
