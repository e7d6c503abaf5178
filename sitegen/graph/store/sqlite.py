"""The SQLite store backend: ``.sitegen/graph.sqlite`` with tables nodes, edges and occurrences.

Touches only its database file; a merge is one transaction in WAL mode, so a concurrent
reader sees the old or the new graph, never half. It never decides merge rules:
``merge_graphs`` does. When no database exists yet, the JSON store's ``graph.json`` (of
the default backend, or a legacy from/to-only file) is the stored graph it starts from.
Nothing read back is trusted: every transaction first checks the tables and their columns,
and every read the type of every value (``StoreError`` for anything else).
"""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

from sitegen.base.diagnostics import cut
from sitegen.base.paths import NodeId
from sitegen.graph.model import Edge, Graph, Node, NodeKind, Occurrence
from sitegen.graph.store.anchors import AnchorBook, PageAnchors, page_anchors
from sitegen.graph.store.base import GraphUpdate, StoreError, merge_graphs
from sitegen.graph.store.json import ANCHORS_FILE as JSON_ANCHORS_FILE
from sitegen.graph.store.json import FILE_NAME as JSON_FILE_NAME
from sitegen.graph.store.json import read_json_anchors, read_json_store
from sitegen.state.caches import SQLITE_SCHEMA_VERSION as SCHEMA_VERSION
from sitegen.state.files import MAX_STATE_BYTES

FILE_NAME = "graph.sqlite"

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE nodes (id TEXT PRIMARY KEY, kind TEXT NOT NULL, title TEXT NOT NULL);
CREATE TABLE edges (
  id INTEGER PRIMARY KEY, src TEXT NOT NULL, dst TEXT NOT NULL, rel TEXT NOT NULL,
  label TEXT NOT NULL, anchor TEXT NOT NULL, count INTEGER NOT NULL, UNIQUE (src, dst, rel));
CREATE TABLE occurrences (
  edge_id INTEGER NOT NULL, seq INTEGER NOT NULL, byte_offset INTEGER NOT NULL,
  line INTEGER NOT NULL, col INTEGER NOT NULL, fragment TEXT NOT NULL, PRIMARY KEY (edge_id, seq));
"""
# The anchors' tables came after version 1's first tables: a database without them is still
# version 1, read as holding no anchors, and gets them when anchors are first saved.
_ANCHOR_SCHEMA = """
CREATE TABLE IF NOT EXISTS anchors (
  node TEXT NOT NULL, seq INTEGER NOT NULL, id TEXT NOT NULL, text TEXT NOT NULL,
  PRIMARY KEY (node, seq));
CREATE TABLE IF NOT EXISTS anchor_aliases (
  node TEXT NOT NULL, old TEXT NOT NULL, target TEXT NOT NULL, text TEXT NOT NULL,
  PRIMARY KEY (node, old));
"""


#: Every table sitegen makes, its columns in order, each with the one type its values have.
_TABLES: dict[str, tuple[tuple[str, str], ...]] = {
    "meta": (("key", "text"), ("value", "text")),
    "nodes": (("id", "text"), ("kind", "text"), ("title", "text")),
    "edges": (
        ("id", "integer"),
        *((name, "text") for name in ("src", "dst", "rel", "label", "anchor")),
        ("count", "integer"),
    ),
    "occurrences": (
        *((name, "integer") for name in ("edge_id", "seq", "byte_offset", "line", "col")),
        ("fragment", "text"),
    ),
    "anchors": (("node", "text"), ("seq", "integer"), ("id", "text"), ("text", "text")),
    "anchor_aliases": tuple((name, "text") for name in ("node", "old", "target", "text")),
}
#: Tables made together: a database holds all of a group or none of it.
_GRAPH_TABLES = ("meta", "nodes", "edges", "occurrences")
_ANCHOR_TABLES = ("anchors", "anchor_aliases")


class SqliteStore:
    """A connection per call, so the store can be used from any thread or process."""

    def __init__(self, cache_dir: Path) -> None:
        self.cache_dir = cache_dir
        self.path = cache_dir / FILE_NAME

    def load(self) -> Graph:
        if not self.path.exists():
            return read_json_store(self.cache_dir / JSON_FILE_NAME)
        # One read transaction: one snapshot of all three tables, whatever a writer does.
        with self._transaction("BEGIN") as conn:
            if _has_schema(conn) and _has_rows(conn):
                return _read_graph(conn)
        return read_json_store(self.cache_dir / JSON_FILE_NAME)  # no merge committed yet

    def merge(self, crawl: GraphUpdate) -> Graph:
        with self._writing() as (conn, on_disk):
            stored = (
                on_disk if _has_rows(conn) else read_json_store(self.cache_dir / JSON_FILE_NAME)
            )
            merged = merge_graphs(stored, crawl)
            _write_difference(conn, on_disk, merged)
        return merged

    def save(self, merged: Graph) -> None:
        """Persist a graph already merged by ``merge_graphs``: only the rows that differ."""
        with self._writing() as (conn, on_disk):
            _write_difference(conn, on_disk, merged)

    def load_anchors(self) -> AnchorBook:
        """The stored anchors; ``anchors.json`` of the JSON store when this database has none yet."""
        if self.path.exists():
            with self._transaction("BEGIN") as conn:
                if _has_anchor_tables(conn):
                    return _read_anchors(conn)
        return read_json_anchors(self.cache_dir / JSON_ANCHORS_FILE)

    def save_anchors(self, book: AnchorBook) -> None:
        """One transaction; only the pages whose anchors changed are rewritten."""
        self.cache_dir.mkdir(parents=True, exist_ok=True)
        with self._transaction("BEGIN IMMEDIATE", wal=True) as conn:
            for statement in _ANCHOR_SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            _write_anchor_difference(conn, _read_anchors(conn), book)

    @contextmanager
    def _writing(self) -> Iterator[tuple[sqlite3.Connection, Graph]]:
        """A write transaction on a database with the schema, and the graph its rows hold
        (empty before the first merge)."""
        self.cache_dir.mkdir(parents=True, exist_ok=True)
        # IMMEDIATE takes the write lock before reading, so no other writer's merge is lost.
        with self._transaction("BEGIN IMMEDIATE", wal=True) as conn:
            if not _has_schema(conn):
                _create_schema(conn)
            yield conn, (_read_graph(conn) if _has_rows(conn) else Graph())

    @contextmanager
    def _transaction(self, begin: str, wal: bool = False) -> Iterator[sqlite3.Connection]:
        """A connection in one transaction: committed if the block succeeds, else rolled back."""
        try:
            _check_file(self.path)
            # isolation_level=None: we issue BEGIN/COMMIT ourselves, reads included.
            with closing(sqlite3.connect(self.path, timeout=30, isolation_level=None)) as conn:
                if wal:
                    conn.execute(
                        "PRAGMA journal_mode=WAL"
                    )  # persistent; not allowed inside a transaction
                conn.execute(begin)
                try:
                    _check_schema(conn)
                    yield conn
                except BaseException:
                    if conn.in_transaction:  # SQLite may already have rolled back (disk full)
                        conn.execute("ROLLBACK")
                    raise
                conn.execute("COMMIT")
        except (sqlite3.ProgrammingError, sqlite3.InterfaceError):
            raise  # our bug (a value SQLite cannot store), not a broken database
        except sqlite3.DatabaseError as err:
            raise StoreError(f"the database is unusable: {err}", self.path) from None


def _check_file(path: Path) -> None:
    """A database that is there is a regular file of at most ``MAX_STATE_BYTES``."""
    try:
        info = os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        return  # made by this transaction
    if not stat.S_ISREG(info.st_mode):
        raise StoreError("not a file", path)
    if info.st_size > MAX_STATE_BYTES:
        raise StoreError(
            f"{info.st_size} bytes, more than the {MAX_STATE_BYTES} sitegen reads", path
        )


def _has_schema(conn: sqlite3.Connection) -> bool:
    row = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'"
    ).fetchone()
    return row is not None


def _has_rows(conn: sqlite3.Connection) -> bool:
    """Whether a merge has ever committed here (it records the schema version)."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    if row is not None and row[0] != SCHEMA_VERSION:
        raise StoreError(
            f"schema version {cut(str(row[0]))}; this sitegen reads version {SCHEMA_VERSION}"
        )
    return row is not None


def _check_schema(conn: sqlite3.Connection) -> None:
    """The tables present are sitegen's, each with exactly its columns, and each group of
    tables is whole: a database changed by hand, or by another program, is refused."""
    present = {
        name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    }
    for group in (_GRAPH_TABLES, _ANCHOR_TABLES):
        missing = [t for t in group if t not in present]
        if missing and len(missing) < len(group):
            raise StoreError(f"the table {missing[0]} is missing")
    for table in sorted(present & _TABLES.keys()):
        columns = tuple(row[1] for row in conn.execute(f"PRAGMA table_info({table})"))
        expected = tuple(name for name, _ in _TABLES[table])
        if columns != expected:
            raise StoreError(
                f"the table {table} has the columns {cut(', '.join(map(str, columns)))}"
            )


def _check_types(conn: sqlite3.Connection, tables: tuple[str, ...]) -> None:
    """Every value of ``tables`` has its column's type (SQLite stores any type anywhere),
    and every count is positive: one scan of each table, in SQLite."""
    for table in tables:
        wrong = " OR ".join(f"typeof({name}) != '{kind}'" for name, kind in _TABLES[table])
        if table == "edges":
            wrong += " OR count < 1"
        if conn.execute(f"SELECT 1 FROM {table} WHERE {wrong} LIMIT 1").fetchone():
            raise StoreError(f"the table {table} holds a value of the wrong type")


def _create_schema(conn: sqlite3.Connection) -> None:
    for statement in _SCHEMA.split(";"):
        if statement.strip():
            conn.execute(statement)


def _read_graph(conn: sqlite3.Connection) -> Graph:
    _check_types(conn, _GRAPH_TABLES)
    graph = Graph()
    try:
        for node_id, kind, title in conn.execute("SELECT id, kind, title FROM nodes ORDER BY id"):
            graph.add_node(Node(NodeId(node_id), NodeKind(kind), title))
        occurrences = _occurrences_by_edge(conn)
        rows = conn.execute(
            "SELECT id, src, dst, rel, label, anchor, count FROM edges ORDER BY src, dst, rel"
        )
        for edge_id, src, dst, rel, label, anchor, count in rows:
            graph.add_edge(
                Edge(
                    NodeId(src),
                    NodeId(dst),
                    rel,
                    label,
                    anchor,
                    count,
                    occurrences.get(edge_id, []),
                )
            )
    except ValueError as err:  # a kind this sitegen does not know
        raise StoreError(cut(str(err))) from None
    return graph


def _occurrences_by_edge(conn: sqlite3.Connection) -> dict[int, list[Occurrence]]:
    out: dict[int, list[Occurrence]] = {}
    rows = conn.execute(
        "SELECT edge_id, byte_offset, line, col, fragment FROM occurrences ORDER BY edge_id, seq"
    )
    for edge_id, offset, line, col, fragment in rows:
        out.setdefault(edge_id, []).append(Occurrence(offset, line, col, fragment))
    return out


def _write_difference(conn: sqlite3.Connection, old: Graph, new: Graph) -> None:
    """Make the database hold ``new``, touching only rows that differ from ``old``."""
    conn.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)", (SCHEMA_VERSION,)
    )
    conn.executemany(
        "DELETE FROM nodes WHERE id = ?",
        [(n,) for n in sorted(old.nodes.keys() - new.nodes.keys())],
    )
    conn.executemany(
        "INSERT OR REPLACE INTO nodes (id, kind, title) VALUES (?, ?, ?)",
        [(n.id, str(n.kind), n.title) for n in _changed_nodes(old, new)],
    )
    old_edges = {e.key: e for e in old.edges()}
    new_edges = {e.key: e for e in new.edges()}
    stale = sorted(k for k, e in old_edges.items() if new_edges.get(k) != e)
    conn.executemany(
        "DELETE FROM occurrences WHERE edge_id IN "
        "(SELECT id FROM edges WHERE src = ? AND dst = ? AND rel = ?)",
        stale,
    )
    conn.executemany("DELETE FROM edges WHERE src = ? AND dst = ? AND rel = ?", stale)
    for key in sorted(k for k, e in new_edges.items() if old_edges.get(k) != e):
        _insert_edge(conn, new_edges[key])


def _changed_nodes(old: Graph, new: Graph) -> Iterator[Node]:
    for node_id in sorted(new.nodes):
        if old.nodes.get(node_id) != new.nodes[node_id]:
            yield new.nodes[node_id]


def _insert_edge(conn: sqlite3.Connection, edge: Edge) -> None:
    cur = conn.execute(
        "INSERT INTO edges (src, dst, rel, label, anchor, count) VALUES (?, ?, ?, ?, ?, ?)",
        (edge.src, edge.dst, edge.rel, edge.label, edge.anchor, edge.count),
    )
    conn.executemany(
        "INSERT INTO occurrences (edge_id, seq, byte_offset, line, col, fragment) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        [
            (cur.lastrowid, i, o.offset, o.line, o.column, o.fragment)
            for i, o in enumerate(edge.occurrences)
        ],
    )


def _has_anchor_tables(conn: sqlite3.Connection) -> bool:
    row = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'anchor_aliases'"
    ).fetchone()
    return row is not None


def _read_anchors(conn: sqlite3.Connection) -> AnchorBook:
    _check_types(conn, _ANCHOR_TABLES)
    rows: dict[str, tuple[list[list[str]], list[list[str]]]] = {}
    for node, anchor_id, text in conn.execute(
        "SELECT node, id, text FROM anchors ORDER BY node, seq"
    ):
        rows.setdefault(node, ([], []))[0].append([anchor_id, text])
    aliases = conn.execute("SELECT node, old, target, text FROM anchor_aliases ORDER BY node, old")
    for node, old, target, text in aliases:
        rows.setdefault(node, ([], []))[1].append([old, target, text])
    try:
        return {NodeId(node): page_anchors(a, b) for node, (a, b) in sorted(rows.items())}
    except TypeError as err:  # a value of another type than SQLite was given
        raise StoreError(f"the stored anchors are unreadable: {err}") from None


def _write_anchor_difference(conn: sqlite3.Connection, old: AnchorBook, new: AnchorBook) -> None:
    changed = sorted(n for n in old.keys() | new.keys() if old.get(n) != new.get(n))
    conn.executemany("DELETE FROM anchors WHERE node = ?", [(n,) for n in changed])
    conn.executemany("DELETE FROM anchor_aliases WHERE node = ?", [(n,) for n in changed])
    for node in changed:
        page = new.get(node, PageAnchors())
        conn.executemany(
            "INSERT INTO anchors (node, seq, id, text) VALUES (?, ?, ?, ?)",
            [(node, i, a.id, a.text) for i, a in enumerate(page.anchors)],
        )
        conn.executemany(
            "INSERT INTO anchor_aliases (node, old, target, text) VALUES (?, ?, ?, ?)",
            [(node, a.old, a.target, a.text) for a in page.aliases],
        )
