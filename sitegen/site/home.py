"""The site's home page: which page is published as ``index.html`` (``front_page``), and for
a ``layout: home`` page (VitePress' home layout) its front matter's ``hero`` (name, text,
tagline, actions) and ``features`` (title, details, link) as a view the template shows
above the page's body (content/guides/navigation.md#home-pages).

Reads the page's front matter and resolves its links to pages; never reads files, and every
value stays plain text the template escapes.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from typing import Any

from sitegen.addresses import Addresses
from sitegen.base.paths import FRONT_PAGE, NodeId, OutPath
from sitegen.base.urlgate import allowed_url, url_scheme
from sitegen.records.pages import PageRecord
from sitegen.site.views import HomeFeature, HomeView, LinkItem
from sitegen.site.vitepress import Routes

#: Front-matter ``layout`` values that make a page a home page.
HOME_LAYOUTS = ("home",)


def front_page(
    pages: Mapping[NodeId, PageRecord], addresses: Addresses, by_name: NodeId | None
) -> NodeId | None:
    """The home page: the page published as the site's ``index.html``, whatever its file
    (``permalink: /`` in front matter, as Obsidian Publish and Jekyll mark theirs), else
    ``by_name``, the content folder's ``index.md`` or ``README.md``; None when there is
    none (the list of all pages is the front page then). The address step let one page
    alone claim ``index.html`` and reported the others (sitegen/link/page_addresses.py)."""
    front = addresses.by_out.get(FRONT_PAGE)
    return front if front is not None and front in pages else by_name


def home_view(
    node: NodeId, rec: PageRecord, routes: Routes, addresses: Addresses, out: OutPath
) -> HomeView | None:
    """The hero and features of a ``layout: home`` page, None for any other page."""
    if rec.front_matter.get("layout") not in HOME_LAYOUTS:
        return None
    links = _Links(node, routes, addresses, out)
    hero = rec.front_matter.get("hero")
    hero = hero if isinstance(hero, dict) else {}
    actions = tuple(
        LinkItem(_text(a.get("text")), links.href(a.get("link")), _text(a.get("theme")))
        for a in _dicts(hero.get("actions"))
        if _text(a.get("text"))
    )
    features = tuple(
        HomeFeature(_text(f.get("title")), _text(f.get("details")), links.href(f.get("link")))
        for f in _dicts(rec.front_matter.get("features"))
        if _text(f.get("title")) or _text(f.get("details"))
    )
    return HomeView(
        _text(hero.get("name")),
        _text(hero.get("text")),
        _text(hero.get("tagline")),
        actions,
        features,
    )


def _dicts(value: Any) -> list[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _text(value: Any) -> str:
    """A front-matter value as text: strings and numbers; anything else is no text."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        return ""
    return str(value).strip()


class _Links:
    """Hrefs of a home page's links: a page of the site by its route (``/guide/x``) or
    relative to the home page (``./guide/x``), else the URL as written, when the URL gate
    allows it (sitegen/base/urlgate.py)."""

    def __init__(self, node: NodeId, routes: Routes, addresses: Addresses, out: OutPath) -> None:
        self.node, self.routes, self.addresses, self.out = node, routes, addresses, out

    def href(self, link: Any) -> str:
        if not isinstance(link, str) or not link.strip():
            return ""
        link = link.strip()
        if url_scheme(link) is not None or link.startswith("//"):
            return link if allowed_url(link) else ""
        route = link
        if not link.startswith("/"):
            here = self.routes.route_of(self.node)
            folder = here if here.endswith("/") else posixpath.dirname(here)
            route = posixpath.normpath(posixpath.join(folder, link))
            route += "/" if link.endswith("/") else ""
        target = self.routes.node_of(route)
        if target is None:
            return ""
        return self.addresses.href(self.out, target)
