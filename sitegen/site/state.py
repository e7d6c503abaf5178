"""What every page of one build shares while the site is emitted, and the hrefs between
published files. Read-only views of the finished build; never writes or resolves anything.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sitegen.addresses import Addresses
from sitegen.analyse.locale_folders import Locales
from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.base.paths import (
    NodeId,
    OutPath,
    content_relative,
    href_between,
    is_source_node,
    raw_out_path,
    url_path,
)
from sitegen.graph.model import Edge, Graph, NodeKind
from sitegen.link.rules import first_line_anchor
from sitegen.records.pages import PageRecord
from sitegen.site.render import Renderer
from sitegen.site.views import LinkItem, NavItem, SiteContext, site_context_for
from sitegen.site.vitepress import Routes

if TYPE_CHECKING:
    from sitegen.records.result import BuildResult
    from sitegen.site.blog import BlogSite


@dataclass
class SiteState:
    """What every page of one build shares."""

    result: BuildResult
    renderer: Renderer
    nav: tuple[NavItem, ...]
    titles: dict[str, str]
    pages_by_node: dict[NodeId, PageRecord]
    folder_index: dict[str, NodeId] = field(default_factory=dict)  # content folder -> index node
    #: A hash of what every page shares (templates, nav, titles): part of every output's key.
    site_key: str = ""
    #: The same without the page tree: a page's key adds the tree as that page shows it
    #: (sitegen/site/outputs/pages.py), so a new title re-renders only the pages that show it.
    frame_key: str = ""
    #: The header's report links, (title, href relative to the site root).
    reports: tuple[tuple[str, str], ...] = ()
    #: Repository path -> date of the last commit that changed it (empty outside git).
    dates: dict[str, str] = field(default_factory=dict)
    #: The page tree of each page that shows another one than ``nav`` (a VitePress
    #: sidebar per path prefix), by its HTML file; the same tuple for the pages of one tree.
    page_navs: dict[OutPath, tuple[NavItem, ...]] = field(default_factory=dict)
    #: How links outside the markdown (a home page's hero) name pages: VitePress' routes.
    routes: Routes | None = None
    #: Each page's language where it is not the ``lang`` option's, and its language
    #: switcher, by its HTML file (sitegen/site/locale_view.py).
    page_langs: dict[OutPath, str] = field(default_factory=dict)
    page_languages: dict[OutPath, tuple[LinkItem, ...]] = field(default_factory=dict)
    #: The site's locales (none on a site in one language).
    locales: Locales = field(default_factory=Locales)
    #: The blog (sitegen/site/blog.py), None for none; the pages published but listed
    #: nowhere (front matter ``unlisted: true``: no page tree, search, sitemap, blog index).
    blog: BlogSite | None = None
    unlisted: frozenset[NodeId] = frozenset()

    @property
    def listed_pages(self) -> dict[NodeId, PageRecord]:
        """The published pages but the unlisted ones, by node."""
        return {n: r for n, r in self.pages_by_node.items() if n not in self.unlisted}

    @property
    def unlisted_outs(self) -> frozenset[OutPath]:
        """The HTML files of the unlisted pages."""
        return frozenset(self.addresses.out(n) for n in self.unlisted)

    @property
    def locale_number(self) -> Callable[[NodeId], int] | None:
        """A page's locale as the search index numbers it, None without locales."""
        if not self.locales:
            return None
        locales = self.locales
        numbers = {loc.folder: i for i, loc in enumerate(locales.locales)}

        def number(node: NodeId) -> int:
            found = locales.of(node)
            return numbers[found.folder] if found is not None else -1

        return number

    @functools.cached_property
    def page_bytes(self) -> dict[str, bytes]:
        """The crawled bytes of each page, by repository path (the raw markdown published)."""
        return {f.path: f.data for f in self.result.crawl.pages}

    @property
    def graph(self) -> Graph:
        return self.result.graph

    @property
    def addresses(self) -> Addresses:
        """Where each page is published (its HTML file), and the redirects."""
        return self.result.addresses

    def page_href(self, from_out: OutPath, node: NodeId, fragment: str = "") -> str:
        """The href from the file ``from_out`` to a page's (or source page's) HTML file."""
        return self.result.addresses.href(from_out, node, fragment)

    def context(self, out: OutPath) -> SiteContext:
        return site_context_for(
            self.result.config.site_title,
            self.page_navs.get(out, self.nav),
            out,
            reports=self.reports,
            lang=self.page_langs.get(out, self.result.config.lang),
            languages=self.page_languages.get(out, ()),
            locale=self.page_locales.get(out, ""),
            stylesheets=self.stylesheets,
        )

    @functools.cached_property
    def stylesheets(self) -> tuple[str, ...]:
        """The content's own stylesheets every page links after the theme's (Obsidian
        Publish's ``publish.css``, content/guides/obsidian.md), as URL paths from the site
        root; published as the content's other files are."""
        config = self.result.config
        found = config.generator.stylesheets if config.generator is not None else ()
        rels = (content_relative(config.content_rel, sheet) for sheet in found)
        return tuple(url_path(rel) for rel in rels if rel)

    @functools.cached_property
    def page_locales(self) -> dict[OutPath, str]:
        """Each page's locale number (the search form's ``data-locale``), by its HTML file."""
        number = self.locale_number
        if number is None:
            return {}
        return {self.addresses.out(n): str(number(n)) for n in self.pages_by_node}


def href_for_node(
    node: NodeId, fragment: str, from_out: OutPath, kind: NodeKind | None, addresses: Addresses
) -> str:
    """The href from the file ``from_out`` to a node: a page's or source page's HTML file
    (where ``addresses`` publishes it), else the file at the node's own path (an asset)."""
    if kind == NodeKind.SOURCE:
        return addresses.href(from_out, node, first_line_anchor(fragment))
    if kind == NodeKind.PAGE:
        return addresses.href(from_out, node, fragment)
    return href_between(from_out, raw_out_path(node), fragment)


def edge_source_href(edge: Edge, from_out: OutPath, graph: Graph, addresses: Addresses) -> str:
    """A link to the exact place an edge comes from: the source page's section or line."""
    node = graph.nodes.get(edge.src)
    kind = node.kind if node else NodeKind.PAGE
    if is_source_node(edge.src) and kind is not NodeKind.PAGE:  # a post's is a page's
        line = edge.occurrences[0].line if edge.occurrences else 0
        return href_for_node(
            edge.src, f"L{line}" if line else "", from_out, NodeKind.SOURCE, addresses
        )
    return href_for_node(edge.src, edge.anchor, from_out, kind, addresses)


def duplicate_output(path: str, out: str, winner: str) -> Diagnostic:
    return Diagnostic(
        path,
        1,
        1,
        Level.WARNING,
        f"output '{out}' is already written from '{winner}'; this file is not "
        "published (rename one of them)",
        "duplicate-output",
    )
