"""Everything a build keeps in ``.sitegen/``, in one list: each file or folder, the version of
its format, and the module that writes and reads it (content/guides/builds.md#what-sitegen-keeps).

The versions are defined here and nowhere else: each owning module imports its own. A file
whose format changes shape or meaning gets a new version here, and a file of another version
is not read (a full build instead, or that part redone), never misread
(content/guides/safety.md#nothing-read-back-is-run). This module imports nothing of sitegen,
so that every layer may import it (ARCHITECTURE.md#layers).
"""

from __future__ import annotations

from dataclasses import dataclass

#: ``pages.json``: the page records by content hash; 4 a line a page, 5 the options' key in
#: the header (sitegen/state/remembered.py).
STATE_VERSION = 5
#: ``shards/``: a record per source file; 6 since shards carry def-use flow, 7 since a Python
#: import says when it runs (its ``context``), 8 since a TypeScript type-only import and a
#: deferred require() say so too (sitegen/code/shards.py).
SHARD_SCHEMA_VERSION = 8
#: ``shards/links.json``: the links between source files last resolved; raise when the file's
#: layout changes (a change of sitegen's code invalidates it anyway; sitegen/code/linkcache.py).
LINK_CACHE_VERSION = 2
#: ``core.npz``: the graph core's arrays for ``sitegen explore`` (sitegen/graph/snapshot.py).
SNAPSHOT_VERSION = 1
#: ``anchors.json``: each page's published anchors and their aliases (content/reference/store.md).
ANCHORS_VERSION = 1
#: ``graph.json``: the store, in the format of the published graph.json, version 1
#: (sitegen/graph/graphjson.py, content/reference/store.md).
GRAPH_JSON_VERSION = 1
#: ``graph.sqlite``: the store's SQLite schema (sitegen/graph/store/sqlite.py).
SQLITE_SCHEMA_VERSION = "1"
#: ``api.json``: the API model of each package; raise when what an entry holds changes (a
#: field of the model, a rule of the loader; sitegen/api/cache.py).
API_CACHE_SCHEMA = 3
#: ``peers/``: a stored copy of each peer's graph.md; 2 keeps a count of the malformed rows,
#: not their messages (reported when read, not forever; sitegen/federation/store.py).
COPY_VERSION = 2


@dataclass(frozen=True)
class Kept:
    """One file or folder of ``.sitegen/``."""

    #: Its name in ``.sitegen/``; a folder's ends with ``/`` and covers what it holds.
    name: str
    #: The version of its format, written in it and checked before anything else is read;
    #: for a file that carries none, why it needs none.
    version: int | str
    #: The module that writes and reads it.
    owner: str
    #: What it holds, in a few words.
    holds: str


#: Every file and folder a build writes in ``.sitegen/`` (tests/test_caches.py builds a
#: project and checks that nothing else is there). Besides these, a file that could not be
#: read is set aside as ``<name>.unreadable`` (sitegen/state/files.py) and an atomic write's
#: temporary file lives for the length of the write (sitegen/base/fsutil.py).
KEPT: tuple[Kept, ...] = (
    Kept("pages.json", STATE_VERSION, "sitegen.state.remembered", "the page records"),
    Kept(
        "built",
        "none: a fingerprint, compared whole, that names sitegen's code; anything else is set aside",
        "sitegen.state.remembered",
        "the fingerprint of the last build that finished everything",
    ),
    Kept(
        "origin.json",
        "none: two integers under two keys, checked exactly; any other shape is set aside",
        "sitegen.state.folder",
        "the folder the cache was made in (a copied cache is not trusted)",
    ),
    Kept("lock", "none: locked, never read", "sitegen.state.folder", "the build lock"),
    Kept(".gitignore", "none: written, never read", "sitegen.state.folder", "'*', for git"),
    Kept("graph.json", GRAPH_JSON_VERSION, "sitegen.graph.store.json", "the graph store (json)"),
    Kept("anchors.json", ANCHORS_VERSION, "sitegen.graph.store.anchors", "published anchors"),
    Kept(
        "graph.sqlite",
        SQLITE_SCHEMA_VERSION,
        "sitegen.graph.store.sqlite",
        "the graph store and anchors (sqlite), with its -wal and -shm files",
    ),
    Kept("core.npz", SNAPSHOT_VERSION, "sitegen.graph.snapshot", "the graph core's arrays"),
    Kept("api.json", API_CACHE_SCHEMA, "sitegen.api.cache", "the API model of each package"),
    Kept("shards/", SHARD_SCHEMA_VERSION, "sitegen.code.shards", "a record per source file"),
    Kept(
        "shards/links.json",
        LINK_CACHE_VERSION,
        "sitegen.code.linkcache",
        "the links between source files",
    ),
    Kept("peers/", COPY_VERSION, "sitegen.federation.store", "the peers' stored copies"),
)


def kept_as(name: str) -> Kept | None:
    """The entry of ``KEPT`` a path in ``.sitegen/`` (``shards/ab.metast``) belongs to: the
    file's own, else its folder's; SQLite's ``-wal`` and ``-shm`` files are its database's."""
    for suffix in ("-wal", "-shm"):
        name = name.removesuffix(suffix) if name.endswith(".sqlite" + suffix) else name
    files = {k.name: k for k in KEPT}
    if name in files:
        return files[name]
    folder = name.split("/", 1)[0] + "/"
    return files.get(folder) if "/" in name else None
