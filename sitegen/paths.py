"""The three kinds of path sitegen handles, as distinct types, and the only conversions between them.

Mixing a node id with a repository path or an output path is the classic SSG bug, so every
conversion lives here. This module never touches the file system.
"""

from __future__ import annotations

import functools
import posixpath
import re
from typing import NewType
from urllib.parse import quote

#: A node of the document graph, named by its site-absolute path: ``/guides/a.md``,
#: ``/code/sitegen/graph.py``, or an absolute URL for an external node.
NodeId = NewType("NodeId", str)
#: A file's path relative to the project root, ``/``-separated: ``content/guides/a.md``.
RepoPath = NewType("RepoPath", str)
#: A file's path relative to the output folder: ``guides/a.html``.
OutPath = NewType("OutPath", str)

CODE_PREFIX = "/code/"


def page_node_id(content_relative: str) -> NodeId:
    """``guides/a.md`` (relative to the content root) -> ``/guides/a.md``."""
    return NodeId("/" + content_relative.lstrip("/"))


def page_node_of(content: str, path: str) -> NodeId:
    """A page's node from its repository path: ``content/guides/a.md`` -> ``/guides/a.md``.

    ``content`` is the normalized content folder (``Config.content_rel``; ``""`` when the
    pages are at the root). A page outside it (a source folder's ``README.md``) is published
    beside the source pages: ``pkg/README.md`` -> ``/code/pkg/README.md``
    (content/guides/site.md#folder-index-pages).
    """
    if not content:
        return page_node_id(path)
    if path.startswith(content + "/"):
        return page_node_id(path[len(content) + 1 :])
    return source_node_id(RepoPath(path))


def source_node_id(path: RepoPath) -> NodeId:
    """``sitegen/graph.py`` (relative to the project root) -> ``/code/sitegen/graph.py``."""
    return NodeId(CODE_PREFIX + path.lstrip("/"))


def is_source_node(node: NodeId) -> bool:
    return node.startswith(CODE_PREFIX)


def source_repo_path(node: NodeId) -> RepoPath:
    """``/code/sitegen/graph.py`` -> ``sitegen/graph.py``."""
    assert is_source_node(node), node
    return RepoPath(node[len(CODE_PREFIX) :])


def is_local_node(node: NodeId) -> bool:
    return node.startswith("/")


@functools.lru_cache(maxsize=65536)
def html_out_path(node: NodeId) -> OutPath:
    """The HTML file a page or source node is published as.

    ``/guides/a.md`` -> ``guides/a.html``; ``/code/x/y.py`` -> ``code/x/y.py.html``. A
    folder's ``README.md`` is its ``index.html``, as GitHub shows it for the folder
    (content/guides/site.md); an ``index.md`` beside it wins the clash.
    """
    rel = node.lstrip("/")
    if is_source_node(node):
        return OutPath(rel + ".html")
    stem, ext = posixpath.splitext(rel)
    if ext.lower() in (".md", ".markdown"):
        folder, name = posixpath.split(stem)
        if name.lower() == "readme":
            return OutPath(posixpath.join(folder, "index.html"))
        return OutPath(stem + ".html")
    return OutPath(rel)


def raw_out_path(node: NodeId) -> OutPath:
    """The file at the node's own path (raw markdown, an asset)."""
    return OutPath(node.lstrip("/"))


def relative_url(from_out: OutPath, to_out: OutPath, fragment: str = "") -> str:
    """A relative href from one output file to another, so the site works from a file share."""
    # Both paths are relative to the site root and normalized, so plain string work does
    # (posixpath.relpath would make both absolute first, a hot spot on large sites).
    src = from_out.split("/")[:-1]
    dst = to_out.split("/")
    common = 0
    while common < len(src) and common < len(dst) - 1 and src[common] == dst[common]:
        common += 1
    rel = "/".join([".."] * (len(src) - common) + dst[common:])
    return rel + ("#" + fragment if fragment else "")


def href_between(from_out: OutPath, to_out: OutPath, fragment: str = "") -> str:
    """``relative_url`` percent-encoded for an href: a space or ``#`` in a file name must not
    end the path. The fragment is kept as is (heading ids are matched after decoding)."""
    return url_path(relative_url(from_out, to_out)) + ("#" + fragment if fragment else "")


def url_path(out: str) -> str:
    """An output path as it is written in an href: percent-encoded, so ``#``, ``?``, ``%``
    and spaces in file names never end or change the path."""
    return out if _PLAIN_URL_PATH.fullmatch(out) else quote(out)


# Paths of these characters come out of quote() unchanged; skipping it is a hot-path saving.
_PLAIN_URL_PATH = re.compile(r"[A-Za-z0-9_.~/-]*")


def normalize_repo_path(path: str) -> RepoPath | None:
    """Normalize a ``/``-separated relative path; ``None`` when it climbs out of the root."""
    norm = posixpath.normpath(path)
    if norm == ".":
        return RepoPath("")
    if norm.startswith(("../", "/")) or norm == "..":
        return None
    return RepoPath(norm)
