"""The index of all pages: the site's sections (top-level folders) with their pages, the
most-linked first; ``index.html``, or ``pages.html`` when the content has a home page.

Counts links from the finished graph; never changes it.
"""

from __future__ import annotations

from sitegen.base.paths import FRONT_PAGE, OutPath, raw_out_path
from sitegen.base.plural import counted
from sitegen.site.emitter import EmitRun, OneFile
from sitegen.site.navigation import folder_title
from sitegen.site.state import SiteState
from sitegen.site.views import IndexEntry, IndexSection, IndexView


def index_out(site: SiteState) -> OutPath:
    """Where the index goes: the site's front page, unless a page is published there (a
    content folder's index, a ``permalink: /`` note). Asked of the published files, not of
    the folders: a Docusaurus site with ``routeBasePath: 'docs'`` has a root folder index
    published at ``docs/index.html``, and the front page is still the list of pages."""
    return FRONT_PAGE if FRONT_PAGE not in site.addresses.by_out else OutPath("pages.html")


class AllPages(OneFile):
    name = "all pages"
    options = ()
    background = True

    def path(self, site: SiteState) -> OutPath:
        return index_out(site)

    def render(self, run: EmitRun, out: OutPath) -> str:
        return run.site.renderer.render_index(run.site.context(out), index_view(run.site, out))


def index_view(site: SiteState, out: OutPath) -> IndexView:
    """The site's sections (top-level folders) with their pages, most-linked first."""
    inbound = {
        n: len([e for e in site.graph.backlinks_of(n) if e.src != n]) for n in site.pages_by_node
    }
    sections: dict[str, list[IndexEntry]] = {}
    for node, rec in site.pages_by_node.items():
        rel = raw_out_path(node)
        top = rel.split("/")[0] if "/" in rel else ""
        sections.setdefault(top, []).append(
            IndexEntry(title=rec.title, href=site.page_href(out, node), inbound=inbound[node])
        )
    ordered = []
    for top in sorted(sections):
        title = folder_title(top, site.pages_by_node, site.folder_index) if top else "Top level"
        entries = sorted(sections[top], key=lambda e: (-e.inbound, e.title, e.href))
        ordered.append(IndexSection(title, tuple(entries)))
    return IndexView(
        title="All pages",
        sections=tuple(ordered),
        intro=f"{counted(len(site.pages_by_node), 'page')}, most-linked first in each section.",
    )
