"""The default store backend: ``.sitegen/graph.json``, graph.json v1 with occurrences.

Touches only its one file (and a temp file beside it while writing); a write is atomic
(``sitegen.base.fsutil.write_atomically``), so a reader or a killed build never sees half a
store. It never decides merge rules: ``merge_graphs`` does.
"""

from __future__ import annotations

from pathlib import Path

from sitegen.base.fsutil import write_atomically
from sitegen.graph.graphjson import GraphJsonError, graph_json_pieces, load_graph_json
from sitegen.graph.model import Graph
from sitegen.graph.store.anchors import AnchorBook, dump_anchors, load_anchors
from sitegen.graph.store.base import GraphUpdate, StoreError, merge_graphs
from sitegen.state.files import Unreadable, read_state

FILE_NAME = "graph.json"
#: Each page's published anchors and aliases, beside the graph (content/reference/store.md#anchors).
ANCHORS_FILE = "anchors.json"


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
        write_atomically(self.path, graph_json_pieces(merged))  # never whole in memory

    def load_anchors(self) -> AnchorBook:
        return read_json_anchors(self.cache_dir / ANCHORS_FILE)

    def save_anchors(self, book: AnchorBook) -> None:
        write_atomically(self.cache_dir / ANCHORS_FILE, dump_anchors(book))


def read_json_anchors(path: Path) -> AnchorBook:
    """The anchors in an ``anchors.json`` file, empty if there is none."""
    try:
        data = read_state(path)
        return {} if data is None else load_anchors(data)
    except (Unreadable, StoreError) as err:
        raise StoreError(str(err), path) from None


def read_json_store(path: Path) -> Graph:
    """The graph in a JSON store file, empty if there is none; legacy from/to-only files load."""
    try:
        data = read_state(path)
        return Graph() if data is None else load_graph_json(data)
    except (Unreadable, GraphJsonError) as err:
        raise StoreError(str(err), path) from None
