"""The graph store: one interface (``base``), JSON and SQLite backends (content/reference/store.md).

``open_store`` picks the backend; it lives here so the backends can import ``base`` freely.
"""

from __future__ import annotations

from pathlib import Path

from sitegen.graph.store.base import GraphStore
from sitegen.graph.store.json import JsonStore
from sitegen.graph.store.sqlite import SqliteStore

BACKENDS: dict[str, type[JsonStore | SqliteStore]] = {"json": JsonStore, "sqlite": SqliteStore}


def open_store(kind: str, cache_dir: Path) -> GraphStore:
    """The backend ``kind`` (``json`` or ``sqlite``), its file in ``cache_dir`` (``.sitegen/``)."""
    if kind not in BACKENDS:
        raise ValueError(f"unknown store backend {kind!r}; expected 'json' or 'sqlite'")
    return BACKENDS[kind](Path(cache_dir))
