"""The default store backend: ``.sitegen/graph.json``, graph.json v1 with occurrences.

Touches only its one file (and a temp file beside it while writing); a write is atomic
(temp file in the same folder, fsync, ``os.replace``), so a reader or a killed build never
sees half a store. It never decides merge rules: ``merge_graphs`` does.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from sitegen.graph.graphjson import GraphJsonError, dump_graph_json, load_graph_json
from sitegen.graph.model import Graph
from sitegen.graph.store.base import GraphUpdate, StoreError, merge_graphs

FILE_NAME = "graph.json"


class JsonStore:
    """One JSON file, rewritten whole on every merge. One writer at a time (one build)."""

    def __init__(self, cache_dir: Path) -> None:
        self.cache_dir = cache_dir
        self.path = cache_dir / FILE_NAME

    def load(self) -> Graph:
        return read_json_store(self.path)

    def merge(self, crawl: GraphUpdate) -> Graph:
        merged = merge_graphs(self.load(), crawl)
        self.save(merged)
        return merged

    def save(self, merged: Graph) -> None:
        """Persist a graph already merged by ``merge_graphs`` (the build does it in the
        background while the site is emitted)."""
        write_atomically(self.path, dump_graph_json(merged))


def read_json_store(path: Path) -> Graph:
    """The graph in a JSON store file, empty if there is none; legacy from/to-only files load."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Graph()
    except (OSError, UnicodeDecodeError) as err:
        raise StoreError(f"{path}: cannot read the graph store: {err}") from None
    try:
        return load_graph_json(text)
    except GraphJsonError as err:
        raise StoreError(f"{path}: {err}; delete it to rebuild the store from scratch") from None


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` by ``text`` so that readers see the old or the new file, never a mix."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.chmod(tmp, 0o644)  # mkstemp makes it private; the store is an ordinary cache file
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        _remove_quietly(tmp)
        raise
    _fsync_dir(path.parent)


def _remove_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def _fsync_dir(folder: Path) -> None:
    """Make the rename itself durable; not every platform can open a folder (Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
