"""Where each page is published: its HTML file under the site's URL style or the address its
front matter gives, the redirect pages at old addresses, and the page a written URL names.

The one home of a page's output path once a build knows its pages (content/reference/urls.md):
every href to a page is made from ``Addresses.out``. Pure data; never reads files, and the
node ids stay the repository's paths whatever the style.
"""

from __future__ import annotations

import functools
import posixpath
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from urllib.parse import unquote

from sitegen.base.paths import (
    PAGE_SUFFIXES,
    NodeId,
    OutPath,
    href_between,
    html_out_path,
    is_source_node,
    normalize_repo_path,
    url_path,
)
from sitegen.base.urlgate import url_scheme


class UrlStyle(StrEnum):
    """How a page's file is named: ``guides/a.html``, or ``guides/a/index.html`` (served as
    ``guides/a/``, as MkDocs, Hugo and Docusaurus publish it)."""

    HTML = "html"
    DIRECTORY = "directory"


_PAGE_SUFFIXES = PAGE_SUFFIXES  # markdown, and MDX (a Docusaurus site's .mdx pages)
#: Characters no address of the site holds, even percent-encoded: a query or fragment, a
#: backslash, and what neither a URL path nor a file name on every system may hold.
_NOT_IN_PATHS = frozenset('?#\\<>"|*')
_HTML_SUFFIXES = (".html", ".htm")


@functools.lru_cache(maxsize=65536)
def style_out_path(node: NodeId, style: UrlStyle) -> OutPath:
    """A page's HTML file in ``style`` when its front matter names no address. Source pages,
    assets and folder index pages are the same in both styles."""
    out = html_out_path(node)
    if style is UrlStyle.HTML or is_source_node(node):
        return out
    if not node.lower().endswith(_PAGE_SUFFIXES) or posixpath.basename(out) == "index.html":
        return out
    return OutPath(out[: -len(".html")] + "/index.html")


def address_out(address: str, style: UrlStyle) -> OutPath | None:
    """The file an address from the site root is published as: ``/a/`` -> ``a/index.html``,
    ``/a.html`` -> ``a.html``, ``/a`` -> ``a.html`` or ``a/index.html`` as the style names
    pages. None for an address that is no path of the site (a scheme, ``..`` above the root,
    a query or fragment, control characters)."""
    if url_scheme(address) is not None or address.startswith("//"):
        return None
    path = unquote(address.strip())
    if any(c in _NOT_IN_PATHS or ord(c) < 0x20 or ord(c) == 0x7F for c in path):
        return None
    folder = path.endswith("/") or path in ("", "/")
    norm = normalize_repo_path(path.lstrip("/"))
    if norm is None or any(p.startswith(".") for p in norm.split("/") if p):
        return None
    if folder or not norm:
        return OutPath(posixpath.join(norm, "index.html"))
    if norm.lower().endswith(_HTML_SUFFIXES):
        return OutPath(norm)
    return OutPath(norm + ("/index.html" if style is UrlStyle.DIRECTORY else ".html"))


def public_url(out: OutPath, style: UrlStyle = UrlStyle.DIRECTORY) -> str:
    """An output as its address is written from the site root, percent-encoded. In the
    directory style a folder's ``index.html`` is the folder (``a/index.html`` -> ``a/``,
    ``index.html`` -> ``""``); in the html style every file is named."""
    if style is UrlStyle.HTML:
        return url_path(out)
    if out == "index.html":
        return ""
    if out.endswith("/index.html"):
        return url_path(out[: -len("index.html")])
    return url_path(out)


def _candidates(path: str) -> list[str]:
    """The files a URL path (from the site root, decoded, without the leading ``/``) may
    name, in order: as written for either style, so switching style breaks no link."""
    if not path:
        return ["index.html"]
    if path.endswith("/"):
        return [path + "index.html", path[:-1] + ".html"]
    stem, ext = posixpath.splitext(path)
    if ext.lower() in _HTML_SUFFIXES:
        return [path] if posixpath.basename(stem) == "index" else [path, stem + "/index.html"]
    return [path + ".html", path + "/index.html"]


@dataclass(frozen=True)
class Redirect:
    """A small page at an old address that sends the reader to a page (or an external URL)."""

    #: The file written at the old address: ``old/index.html``.
    out: OutPath
    #: The page it sends to, or an absolute URL (``redirect_maps`` may name one).
    target: NodeId
    fragment: str
    #: Where it is declared (the page's or mkdocs.yml's repository path), and the line.
    source: str
    line: int
    #: The old address as written.
    written: str


@dataclass(frozen=True)
class Found:
    """The page a URL names, and the redirect it went through, if any."""

    node: NodeId
    fragment: str = ""
    #: The old address of the redirect it went through, from the site root ("" for none).
    via: str = ""


@dataclass(frozen=True)
class Addresses:
    """Every published page's HTML file and every redirect of one build."""

    style: UrlStyle = UrlStyle.HTML
    #: Each published page's HTML file (one page per file: clashes are decided before).
    pages: Mapping[NodeId, OutPath] = field(default_factory=dict)
    #: Each redirect page by its file; a file a page holds is never a redirect.
    redirects: Mapping[OutPath, Redirect] = field(default_factory=dict)

    def out(self, node: NodeId) -> OutPath:
        """The HTML file of a page or source node (a page not published: its style's file)."""
        found = self.pages.get(node)
        return found if found is not None else style_out_path(node, self.style)

    def href(self, from_out: OutPath, node: NodeId, fragment: str = "") -> str:
        """The relative, percent-encoded href from the file ``from_out`` to a page's file."""
        return href_between(from_out, self.out(node), fragment)

    @functools.cached_property
    def by_out(self) -> dict[OutPath, NodeId]:
        return {out: node for node, out in self.pages.items()}

    @functools.cached_property
    def declared(self) -> tuple[tuple[NodeId, OutPath], ...]:
        """The pages whose file is not their style's (their front matter gave an address)."""
        return tuple(
            (n, o) for n, o in sorted(self.pages.items()) if o != style_out_path(n, self.style)
        )

    def find(self, url: str) -> Found | None:
        """The page a site-absolute URL path (decoded, fragment apart) names: a page's file,
        or a redirect's, with or without the trailing ``/``, ``index.html`` or ``.html``."""
        norm = normalize_repo_path(url.lstrip("/")) if url.strip("/") else ""
        if norm is None:
            return None
        path = norm + "/" if url.endswith("/") and norm else norm
        for cand in _candidates(path):
            node = self.by_out.get(OutPath(cand))
            if node is not None:
                return Found(node)
            found = self._redirected(OutPath(cand))
            if found is not None:
                return found
        return None

    def _redirected(self, out: OutPath) -> Found | None:
        redirect = self.redirects.get(out)
        if redirect is None or not redirect.target.startswith("/"):
            return None
        via = "/" + public_url(out)
        return Found(redirect.target, redirect.fragment, via)

    def moved(self, node: NodeId) -> Found | None:
        """The redirect published where a page that does not exist would be (``old.md``)."""
        return self._redirected(style_out_path(node, self.style)) if self.redirects else None

    def folder_urls(self, node: NodeId) -> tuple[str, ...]:
        """The folders a page's relative URLs are read from: the folder of its file (``/a/b/``
        for ``a/b/index.html``), then, for a page without an address of its own, of its file
        in the other style (links written for that style keep working after a switch)."""
        outs = [self.out(node)]
        if node not in self.pages or outs[0] == style_out_path(node, self.style):
            other = UrlStyle.HTML if self.style is UrlStyle.DIRECTORY else UrlStyle.DIRECTORY
            outs.append(style_out_path(node, other))
        folders = ["/" + posixpath.dirname(out) + "/" if "/" in out else "/" for out in outs]
        return tuple(dict.fromkeys(folders))


#: Pages as ``page.html``, none with an address of its own: for a caller that has no build's
#: addresses (a test of the page tree alone, a benchmark of the search index).
HTML_ADDRESSES = Addresses()
