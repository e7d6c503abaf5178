"""The store keeps each page's published anchors and aliases (content/reference/store.md#anchors),
on both backends alike."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from sitegen.base.diagnostics import Level
from sitegen.base.paths import NodeId
from sitegen.graph.store import load_anchor_book, open_store
from sitegen.graph.store.anchors import (
    Anchor,
    AnchorAlias,
    AnchorBook,
    PageAnchors,
    dump_anchors,
    load_anchors,
)
from sitegen.graph.store.base import GraphStore, StoreError
from sitegen.graph.store.json import ANCHORS_FILE

BOOK: AnchorBook = {
    NodeId("/guide.md"): PageAnchors(
        (Anchor("install", "Install"), Anchor("usage", "Usage <b> & \"'")),
        (AnchorAlias("old-stuff", "", "Old stuff"), AnchorAlias("setup", "install", "Setup")),
    ),
    NodeId("/ünï.md"): PageAnchors((Anchor("héllo", "Héllo"),)),
}


def test_nothing_stored_is_an_empty_book(store: GraphStore) -> None:
    assert store.load_anchors() == {}


def test_anchors_round_trip(store: GraphStore, reopen) -> None:  # type: ignore[no-untyped-def]
    store.save_anchors(BOOK)
    assert reopen().load_anchors() == BOOK


def test_a_save_replaces_the_whole_book(store: GraphStore, reopen) -> None:  # type: ignore[no-untyped-def]
    store.save_anchors(BOOK)
    smaller = {NodeId("/guide.md"): PageAnchors((Anchor("install", "Install"),))}
    store.save_anchors(smaller)
    assert reopen().load_anchors() == smaller


def test_anchors_and_graph_live_side_by_side(store: GraphStore, reopen) -> None:  # type: ignore[no-untyped-def]
    from sitegen.graph.model import Graph

    store.save(Graph())
    store.save_anchors(BOOK)
    store.save(Graph())
    assert reopen().load_anchors() == BOOK


def test_sqlite_starts_from_the_json_stores_anchors(cache_dir: Path) -> None:
    open_store("json", cache_dir).save_anchors(BOOK)
    assert open_store("sqlite", cache_dir).load_anchors() == BOOK


def test_a_version_1_database_without_anchor_tables_reads_as_none(cache_dir: Path) -> None:
    from sitegen.graph.model import Graph

    sqlite_store = open_store("sqlite", cache_dir)
    sqlite_store.save(Graph())  # the tables of version 1 as it was first written
    with sqlite3.connect(cache_dir / "graph.sqlite") as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    assert "anchors" not in tables
    assert sqlite_store.load_anchors() == {}
    sqlite_store.save_anchors(BOOK)
    assert open_store("sqlite", cache_dir).load_anchors() == BOOK


def test_the_json_form_is_sorted_and_the_same_bytes_for_the_same_book() -> None:
    text = dump_anchors(dict(reversed(list(BOOK.items()))))
    assert text == dump_anchors(BOOK)
    assert list(json.loads(text)["pages"]) == ["/guide.md", "/ünï.md"]
    assert load_anchors(text) == BOOK


@pytest.mark.parametrize(
    "text",
    [
        "",
        "[]",
        '{"version": 2, "pages": {}}',
        '{"version": 1}',
        '{"version": 1, "pages": {"x.md": {"anchors": [], "aliases": []}}}',
        '{"version": 1, "pages": {"/x.md": {"anchors": [["a"]], "aliases": []}}}',
        '{"version": 1, "pages": {"/x.md": {"anchors": [], "aliases": [["a", 1, "t"]]}}}',
        '{"version": 1, "pages": {"/x.md": {"anchors": {}, "aliases": []}}}',
        "[" * 100_000,
    ],
)
def test_anything_else_is_a_store_error(text: str) -> None:
    with pytest.raises(StoreError):
        load_anchors(text)


def test_unreadable_anchors_are_set_aside_with_a_warning(cache_dir: Path) -> None:
    cache_dir.mkdir()
    (cache_dir / ANCHORS_FILE).write_text('{"version": 1, "pages": [', encoding="utf-8")
    book, diagnostics = load_anchor_book(open_store("json", cache_dir))
    assert book == {}
    assert [(d.path, d.level, d.code) for d in diagnostics] == [
        (".sitegen/anchors.json", Level.WARNING, "store")
    ]
    assert "set aside as .sitegen/anchors.json.unreadable" in diagnostics[0].message
    assert (cache_dir / "anchors.json.unreadable").exists()
    assert not (cache_dir / ANCHORS_FILE).exists()
