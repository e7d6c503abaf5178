"""The three kinds of path sitegen handles, as distinct types, and the only conversions between them.

Mixing a node id with a repository path or an output path is the classic SSG bug, so every
conversion lives here: ``SitePath`` bundles one file's four names, the functions below are its
parts for loops that need one fact. This module never touches the file system.
"""

from __future__ import annotations

import functools
import posixpath
import re
from dataclasses import dataclass
from pathlib import PurePath
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
#: The extensions of a page's file, published as HTML: markdown, and Docusaurus's MDX (only
#: a Docusaurus site crawls ``.mdx`` files as pages: sitegen/generators/docusaurus.py).
PAGE_SUFFIXES = (".md", ".markdown", ".mdx")
#: The site's front page: the home page, or the list of all pages when the content has none.
FRONT_PAGE = OutPath("index.html")


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
    rel = content_relative(content, path)
    return page_node_id(rel) if rel is not None else source_node_id(RepoPath(path))


def asset_node_of(content: str, public: str, path: str, static: tuple[str, ...] = ()) -> NodeId:
    """An asset's node from its repository path: its path in the content folder, or for a
    file of a folder published at the site root (``public``, VitePress's ``public/``; ""
    for none; then each of ``static``, Docusaurus's ``static/``), its path in that folder:
    ``docs/public/search.png`` -> ``/search.png``."""
    for folder in (public, *static):
        inner = content_relative(folder, path) if folder else None
        if inner is not None:
            return page_node_id(inner)
    return page_node_of(content, path)


def content_relative(content: str, path: str) -> str | None:
    """A repository path inside the content folder, relative to it: ``content/guides/a.md``
    -> ``guides/a.md``; ``None`` outside it. With the pages at the root (``content == ""``)
    every path is inside."""
    if not content:
        return path
    if path.startswith(content) and path[len(content) : len(content) + 1] == "/":
        return path[len(content) + 1 :]
    return None


def content_repo_path(content: str, relative: str) -> RepoPath:
    """The repository path of a path written from the content root (``/guides/a.md`` or
    ``guides/a.md``): ``content/guides/a.md``. The inverse of ``content_relative``."""
    return RepoPath(posixpath.join(content, relative.lstrip("/")))


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
    if ext.lower() in PAGE_SUFFIXES:
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


def repo_path_within(path: str, folder: str) -> bool:
    """Whether the repository path ``path`` is ``folder`` or lies below it. The folder ``""``
    (or ``"."``) is the project root, which holds every path; ``a/b`` is not within ``a/bc``."""
    folder = folder.strip("/")
    return folder in ("", ".") or path == folder or path.startswith(folder + "/")


def is_within(path: PurePath, folder: PurePath) -> bool:
    """Whether ``path`` is ``folder`` or lies below it, compared as written: the caller
    resolves both first (``os.path.realpath``) when links must not lead outside."""
    return path == folder or folder in path.parents


@dataclass(frozen=True, slots=True)
class SitePath:
    """One published file's names, asked rather than sliced: where it is in the repository,
    its node in the graph, the file it is published as and the URL of that file.

    Made from a page's (or asset's) repository path and the content folder, from a source
    file's repository path, or from a node (MkDocs' ``File``, Quartz's ``util/path.ts``).
    """

    #: ``content/guides/a.md``, ``sitegen/graph.py``: relative to the project root.
    repo: RepoPath
    #: ``/guides/a.md``, ``/code/sitegen/graph.py``.
    node: NodeId

    @classmethod
    def page(cls, repo: str, content: str) -> SitePath:
        """A page or asset by its repository path; one outside the content folder (a source
        folder's README) is published beside the source pages, under ``/code/``."""
        return cls(RepoPath(repo), page_node_of(content, repo))

    @classmethod
    def asset(cls, repo: str, content: str, public: str, static: tuple[str, ...] = ()) -> SitePath:
        """An asset by its repository path; one in the ``public`` folder or a ``static``
        folder is published at the site root (``asset_node_of``)."""
        return cls(RepoPath(repo), asset_node_of(content, public, repo, static))

    @classmethod
    def source(cls, repo: str) -> SitePath:
        """A source file by its repository path: ``x/y.py`` -> ``/code/x/y.py``."""
        return cls(RepoPath(repo), source_node_id(RepoPath(repo)))

    @classmethod
    def of_node(cls, node: NodeId, content: str) -> SitePath:
        """The file a local node names. A node under ``/code/`` is read as a source file's (or
        a page's outside the content folder); a page in a top-level ``code/`` folder of the
        content has such a node too, and is read the same way (its node is ambiguous)."""
        assert is_local_node(node), node
        if is_source_node(node):
            return cls(source_repo_path(node), node)
        return cls(content_repo_path(content, node), node)

    @property
    def is_source(self) -> bool:
        """Published beside the source pages (a source file, or a page outside the content)."""
        return is_source_node(self.node)

    @property
    def out(self) -> OutPath:
        """The file a reader opens: ``guides/a.html``, ``code/x/y.py.html``, an asset itself."""
        return html_out_path(self.node)

    @property
    def raw(self) -> OutPath:
        """The file at the node's own path: a page's markdown, a source file's text, an asset."""
        return raw_out_path(self.node)

    @property
    def url(self) -> str:
        """``out`` as written in an href from the site root: percent-encoded."""
        return url_path(self.out)

    def href_from(self, here: OutPath | SitePath, fragment: str = "") -> str:
        """The relative, percent-encoded href to ``out`` from the page ``here``."""
        from_out = here.out if isinstance(here, SitePath) else here
        return href_between(from_out, self.out, fragment)


#: How many patterns one glob's braces may expand to, and how long a glob may be: past
#: either, the glob matches nothing (a configuration's globs are a few short lines).
MAX_GLOB_EXPANSIONS = 256
MAX_GLOB_CHARS = 1_000


def glob_matches(patterns: tuple[str, ...], path: str) -> bool:
    """Whether the ``/``-separated ``path`` matches one of the globs ``patterns`` as
    globby reads them (Docusaurus's ``include``/``exclude``): ``*`` and ``?`` within a
    segment, ``**`` across segments, ``{a,b}`` alternatives (nested too). Matched segment
    by segment without regular expressions: a glob of many stars never backtracks."""
    segments = path.split("/")
    return any(_segments_match(glob, segments) for glob in _expanded(patterns))


@functools.lru_cache(maxsize=256)
def _expanded(patterns: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    return tuple(
        tuple(one.split("/"))
        for pattern in patterns
        if len(pattern) <= MAX_GLOB_CHARS
        for one in _braces(pattern.removeprefix("./"))
    )


def _segments_match(glob: tuple[str, ...], path: list[str]) -> bool:
    """``glob`` against ``path``, segment by segment; ``**`` takes any number of segments.
    The set of places reached grows by one step per segment: O(glob x path) in all."""
    places = {0}  # how many glob segments are matched so far
    for segment in path:
        places = _with_stars(glob, places)
        nxt = set()
        for at in places:
            if at < len(glob) and glob[at] == "**":
                nxt.add(at)
            elif at < len(glob) and _segment_match(glob[at], segment):
                nxt.add(at + 1)
        if not nxt:
            return False
        places = nxt
    return len(glob) in _with_stars(glob, places)


def _with_stars(glob: tuple[str, ...], places: set[int]) -> set[int]:
    """``places`` and the places past each ``**`` there (it may take no segment)."""
    out = set(places)
    for place in sorted(places):
        at = place
        while at < len(glob) and glob[at] == "**":
            at += 1
            out.add(at)
    return out


def _segment_match(pattern: str, name: str) -> bool:
    """``*`` and ``?`` within one segment: the greedy match with one remembered star, linear
    for each star (a file name is short)."""
    p = n = 0
    star, mark = -1, 0
    while n < len(name):
        if p < len(pattern) and pattern[p] in ("?", name[n]) and pattern[p] != "*":
            p, n = p + 1, n + 1
        elif p < len(pattern) and pattern[p] == "*":
            star, mark, p = p, n, p + 1
        elif star >= 0:
            p, mark = star + 1, mark + 1
            n = mark
        else:
            return False
    while p < len(pattern) and pattern[p] == "*":
        p += 1
    return p == len(pattern)


def _braces(pattern: str) -> list[str]:
    """``a{b,c{d,e}}`` -> ``ab``, ``acd``, ``ace``; [] past ``MAX_GLOB_EXPANSIONS``."""
    out, todo = [], [pattern]
    while todo:
        one = todo.pop()
        start = one.find("{")
        end = _closing(one, start) if start >= 0 else -1
        if end < 0:
            out.append(one)
        else:
            todo += [one[:start] + c + one[end + 1 :] for c in _commas(one[start + 1 : end])]
        if len(out) + len(todo) > MAX_GLOB_EXPANSIONS:
            return []
    return sorted(out)


def _closing(text: str, start: int) -> int:
    """The ``}`` that closes the ``{`` at ``start``, or -1."""
    depth = 0
    for at in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[at], 0)
        if depth == 0:
            return at
    return -1


def _commas(inner: str) -> list[str]:
    """The alternatives of a brace's inside, split at its own commas (not nested ones)."""
    out, depth, last = [], 0, 0
    for at, char in enumerate(inner):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if char == "," and depth == 0:
            out.append(inner[last:at])
            last = at + 1
    return [*out, inner[last:]]
