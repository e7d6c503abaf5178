"""Docusaurus's addresses and links (content/guides/urls.md#docusaurus-addresses-and-links):
the route a doc is published at, and how a link written as a file path or as Docusaurus's own
``@site/`` and ``pathname://`` is read.

A doc's route is ``routeBasePath`` + its slug. The slug is the front matter's ``slug`` (from
the route base when it starts with ``/``, else from the doc's folder), else the doc's folder
and its id's last segment (front matter ``id``, else the file name without its number prefix);
a folder's ``index``, ``README`` or file named like the folder is the folder itself. Number
prefixes are taken off the folders (``01-guides/`` -> ``guides/``), as Docusaurus'
``slug.ts`` does. Pure functions of a doc's path and front matter; nothing is read or run.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sitegen.base.paths import OutPath, normalize_repo_path
from sitegen.generators import Generator
from sitegen.generators.docusaurus import strip_number_prefix, strip_path_number_prefixes

#: The files a link names as a file path, which Docusaurus reads as a doc: the others are URLs.
DOC_FILE_SUFFIXES = (".md", ".mdx")
#: Docusaurus's alias of the site folder (the one holding docusaurus.config.*).
SITE_ALIAS = "@site/"
#: A link Docusaurus leaves as the URL path after it, outside its router and its checks.
PATHNAME = "pathname://"
#: The front-matter keys of a doc's route, in the words a diagnostic uses.
SLUG_KEY = "slug"
ID_KEY = "id"
#: The front-matter key of a doc Docusaurus leaves out of a production build.
DRAFT_KEY = "draft"


@dataclass(frozen=True)
class DocRoutes:
    """Where a Docusaurus site publishes its docs: the pages of ``docs_dir`` (a repository
    path) under the URL folder ``route_base`` ("" for the site root)."""

    docs_dir: str
    route_base: str


def doc_routes(generator: Generator | None) -> DocRoutes | None:
    """The routes of the generator found, when it publishes docs Docusaurus's way."""
    if generator is None or not generator.doc_routes:
        return None
    return DocRoutes(generator.docs_dir, generator.route_base.strip("/"))


def docs_links(generator: Generator | None) -> DocsLinks | None:
    """How the link step reads links besides, when the generator found reads them
    Docusaurus's way: ``@site/`` is the folder of its configuration."""
    if generator is None or not generator.doc_routes:
        return None
    return DocsLinks(generator.docs_dir, posixpath.dirname(generator.config_file))


@dataclass(frozen=True)
class Route:
    """Where Docusaurus publishes one doc, and why."""

    #: The URL from the site root, ``/faq/organizing-state`` (a folder's ends with ``/``).
    url: str
    #: The front-matter key that decided it (``slug``, ``id``), "" for the file's path.
    key: str
    #: What the front matter asks that Docusaurus would refuse: (key, message), ignored.
    problems: tuple[tuple[str, str], ...] = ()


def doc_route(rel: str, front_matter: Mapping[str, Any], route_base: str) -> Route:
    """The route of the doc at ``rel`` (relative to the docs folder) whose front matter is
    ``front_matter``, under ``route_base`` (``routeBasePath``, "" for the site root)."""
    folder, name = posixpath.split(rel.strip("/"))
    stem = posixpath.splitext(name)[0]
    folder_slug = "/" + strip_path_number_prefixes(folder) + "/" if folder else "/"
    problems: list[tuple[str, str]] = []
    slug = _text(front_matter, SLUG_KEY, problems)
    given_id = _text(front_matter, ID_KEY, problems)
    if given_id is not None and "/" in given_id:
        problems.append((ID_KEY, f"id '{given_id}' holds a '/', which Docusaurus refuses; ignored"))
        given_id = None
    if slug is not None:
        found, key = _resolve_pathname(slug, folder_slug), SLUG_KEY
    elif _is_category_index(stem, folder):
        found, key = folder_slug, ""
    else:
        base = given_id if given_id is not None else strip_number_prefix(stem)
        found, key = _resolve_pathname(base, folder_slug), ID_KEY if given_id else ""
    return Route(_under(route_base, found), key, tuple(problems))


def _text(front_matter: Mapping[str, Any], key: str, problems: list[tuple[str, str]]) -> str | None:
    """The front matter's ``key`` as Docusaurus takes it: a text that is not blank; any other
    value is a problem, and ignored."""
    value = front_matter.get(key)
    if value is None:
        return None
    if isinstance(value, str) and value.strip():
        return value.strip()
    problems.append((key, f"'{key}' must be a text such as 'getting-started'; ignored"))
    return None


def _is_category_index(stem: str, folder: str) -> bool:
    """Whether a doc is its folder's index: ``index``, ``README`` or the folder's own name
    (``guides/guides.md``), compared without case, number prefixes kept (Docusaurus'
    ``isCategoryIndex``)."""
    names = {"index", "readme"}
    if folder:
        names.add(posixpath.basename(folder).lower())
    return stem.lower() in names


def _resolve_pathname(slug: str, folder: str) -> str:
    """``slug`` read as a URL path from ``folder`` (which ends with ``/``): an absolute one as
    it is, ``..`` climbing no higher than the root, a final ``/`` (or ``.``) kept."""
    joined = slug if slug.startswith("/") else folder + slug
    last = joined.rsplit("/", 1)[-1]
    trailing = joined.endswith("/") or last in (".", "..")
    path = "/" + posixpath.normpath(joined).lstrip("/")
    path = "/" if path == "/." else path
    return path + "/" if trailing and path != "/" else path


def _under(route_base: str, slug: str) -> str:
    """The URL of ``slug`` (from the route base) from the site root."""
    base = route_base.strip("/")
    return "/" + base + slug if base else slug


@dataclass(frozen=True)
class DocsLinks:
    """What the link step reads of a Docusaurus site (sitegen/link/rules.py)."""

    #: The docs folder, a repository path: file paths of links are read from it too.
    docs_dir: str
    #: The site folder (the one holding docusaurus.config.*), which ``@site/`` names.
    site_dir: str

    def url_folders(self, out: OutPath) -> tuple[str, ...]:
        """The folder a relative URL is read from on the page published as ``out``: its
        URL's, which ends without ``/`` (``faq/a/index.html`` is ``/faq/a``: ``/faq/``)."""
        folder = posixpath.dirname(out)
        if posixpath.basename(out) == "index.html":
            folder = posixpath.dirname(folder)
        return ("/" + folder + "/" if folder else "/",)


def is_draft(front_matter: Mapping[str, Any]) -> bool:
    """Whether a doc is a draft (``draft: true``), left out of a production build."""
    return front_matter.get(DRAFT_KEY) is True


def is_doc_file(path: str) -> bool:
    """Whether a link's path names a doc by its file (``x.md``, ``x.mdx``): Docusaurus reads
    such a link from the page's folder, then from the docs folder; any other is a URL."""
    return path.lower().endswith(DOC_FILE_SUFFIXES)


def from_docs_root(path: str, docs_root: str) -> str | None:
    """The repository path a file path of a link names when read from the docs folder
    ``docs_root`` (``api/Store.md`` -> ``docs/api/Store.md``); None when it climbs out."""
    return normalize_repo_path(posixpath.join(docs_root, path.lstrip("/")))


def from_site_alias(path: str, site_dir: str) -> str | None:
    """The repository path an ``@site/static/img/x.png`` names, from the site folder
    ``site_dir``; None when the path is no ``@site/`` path or climbs out of the root."""
    if not path.startswith(SITE_ALIAS):
        return None
    return normalize_repo_path(posixpath.join(site_dir, path[len(SITE_ALIAS) :]))


def pathname_url(href: str) -> str | None:
    """The URL path a ``pathname:///img/x.pdf`` link is published with (``/img/x.pdf``), or
    None for any other link."""
    if href[: len(PATHNAME)].lower() != PATHNAME:
        return None
    return href[len(PATHNAME) :]
