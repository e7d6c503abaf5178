"""The graph store: one interface (``base``), JSON and SQLite backends (content/reference/store.md).

``open_store`` picks the backend and ``load_store`` reads it for a build, setting aside a store
it cannot read; they live here so the backends can import ``base`` freely.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from sitegen.config import Config
from sitegen.diagnostics import Diagnostic, Level
from sitegen.graph.model import Graph
from sitegen.graph.store.anchors import AnchorBook
from sitegen.graph.store.base import GraphStore, StoreError
from sitegen.graph.store.json import ANCHORS_FILE, JsonStore
from sitegen.graph.store.sqlite import SqliteStore

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
        aside = _set_aside(path, ".unreadable")
        return Graph(), [
            Diagnostic(
                f".sitegen/{path.name}",
                1,
                1,
                Level.WARNING,
                f"the graph store cannot be read ({err}); it was set aside as .sitegen/{aside.name}. "
                "Lost: the stored links of pages this build could not read (they return when those "
                "pages are read again)",
                "store",
            )
        ]


def load_anchor_book(store: GraphStore) -> tuple[AnchorBook, list[Diagnostic]]:
    """Each page's stored anchors and aliases. An ``anchors.json`` that cannot be read is set
    aside (renamed, never deleted) with a warning: the build then makes no alias, and the
    aliases made before are lost."""
    try:
        return store.load_anchors(), []
    except (StoreError, sqlite3.Error, OSError) as err:
        file: Path = store.path.with_name(ANCHORS_FILE)  # type: ignore[attr-defined]
        note = ""  # without the file, the SQLite database failed: load_store reports that
        if file.exists():
            note = f"; it was set aside as .sitegen/{_set_aside(file, '.unreadable').name}"
        return {}, [
            Diagnostic(
                f".sitegen/{file.name}",
                1,
                1,
                Level.WARNING,
                f"the stored anchors cannot be read ({err}){note}. Lost: "
                "the aliases that kept old heading anchors working (content/syntax/anchors.md)",
                "store",
            )
        ]


def _set_aside(path: Path, suffix: str) -> Path:
    aside = path.with_name(path.name + suffix)
    for extra in ("", "-wal", "-shm"):
        part = path.with_name(path.name + extra)
        if part.exists():
            os.replace(part, aside.with_name(aside.name + extra))
    return aside
