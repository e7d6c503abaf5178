"""The graph store: one interface (``base``), JSON and SQLite backends (content/reference/store.md).

``open_store`` picks the backend and ``load_store`` reads it for a build, setting aside a store
it cannot read; they live here so the backends can import ``base`` freely.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sitegen.base.diagnostics import Diagnostic
from sitegen.config import Config
from sitegen.graph.model import Graph
from sitegen.graph.store.anchors import AnchorBook
from sitegen.graph.store.base import GraphStore, StoreError
from sitegen.graph.store.json import ANCHORS_FILE, JsonStore
from sitegen.graph.store.sqlite import FILE_NAME as SQLITE_FILE
from sitegen.graph.store.sqlite import SqliteStore
from sitegen.state.files import set_aside

BACKENDS: dict[str, type[JsonStore | SqliteStore]] = {"json": JsonStore, "sqlite": SqliteStore}


def open_store(kind: str, cache_dir: Path) -> GraphStore:
    """The backend ``kind`` (``json`` or ``sqlite``), its file in ``cache_dir`` (``.sitegen/``)."""
    if kind not in BACKENDS:
        raise ValueError(f"unknown store backend {kind!r}; expected 'json' or 'sqlite'")
    return BACKENDS[kind](Path(cache_dir))


def load_store(store: GraphStore, config: Config, needed: bool) -> tuple[Graph, list[Diagnostic]]:
    """The stored graph when the merge needs it; a store that cannot be read is set aside
    (renamed, never deleted) with a warning saying what is lost, and the build goes on."""
    path: Path = store.path  # type: ignore[attr-defined]
    if not path.exists() or not (needed or config.store == "sqlite"):
        return Graph(), []
    try:
        # Read even when the merge does not need it for SQLite, which diffs against its rows
        # when it saves: a store it cannot read is set aside now, not failed on later.
        return store.load(), []
    except (StoreError, sqlite3.Error, OSError) as err:
        return Graph(), [_set_aside(store, err)]


def load_anchor_book(store: GraphStore) -> tuple[AnchorBook, list[Diagnostic]]:
    """Each page's stored anchors and aliases. Stored anchors that cannot be read are set
    aside (renamed, never deleted) with a warning: the build then makes no alias, and the
    aliases made before are lost. In SQLite they share the graph's database, which is set
    aside whole, with one warning that says both are lost."""
    try:
        return store.load_anchors(), []
    except (StoreError, sqlite3.Error, OSError) as err:
        return {}, [_set_aside(store, err)]


_LOST = {
    "graph": "the stored links of pages this build could not read (they return when those "
    "pages are read again)",
    "anchors": "the aliases that kept old heading anchors working (content/syntax/anchors.md)",
}


def _set_aside(store: GraphStore, err: Exception) -> Diagnostic:
    """The warning for the file that failed (the store's own, unless the error names
    another: the JSON anchors a SQLite store falls back on), once it is set aside."""
    path: Path = getattr(err, "path", None) or store.path  # type: ignore[attr-defined]
    if path.name == ANCHORS_FILE:
        what, lost = "the stored anchors", _LOST["anchors"]
    elif path.name == SQLITE_FILE:  # one database holds both
        what, lost = "the graph store", f"{_LOST['anchors']}; {_LOST['graph']}"
    else:
        what, lost = "the graph store", _LOST["graph"]
    return set_aside(path, what, str(err), code="store", lost=lost, companions=("-wal", "-shm"))
