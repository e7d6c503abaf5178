"""The pages sitegen adds beside the content: ``404.html`` (the search box and the site's
sections) and one page per tag plus ``tags/index.html`` (content/guides/site.md, "Tags").

Runs inside emit with the finished SiteState; never reads files and never changes the graph.
"""

from __future__ import annotations

from sitegen.paths import NodeId, OutPath, href_between, html_out_path
from sitegen.site.pagemeta import TAGS_FOLDER, page_tags, tag_out
from sitegen.site.state import SiteState
from sitegen.site.views import Crumb, IndexEntry, IndexSection, IndexView, LinkItem
from sitegen.site.writer import SiteWriter

NOT_FOUND = OutPath("404.html")
TAGS_INDEX = OutPath(f"{TAGS_FOLDER}/index.html")


def pages_by_tag(site: SiteState) -> dict[str, list[NodeId]]:
    """Every tag used in front matter, with its pages in node order. Tags that share a page
    (``Setup`` and ``setup``) are one tag, named as the first page in node order spells it."""
    names: dict[OutPath, str] = {}
    tags: dict[OutPath, list[NodeId]] = {}
    for node, rec in sorted(site.pages_by_node.items()):
        for tag in page_tags(rec.front_matter):
            out = tag_out(tag)
            names.setdefault(out, tag)
            if node not in tags.setdefault(out, []):
                tags[out].append(node)
    return dict(
        sorted(((names[o], n) for o, n in tags.items()), key=lambda kv: (kv[0].casefold(), kv[0]))
    )


def tag_links(node: NodeId, site: SiteState, out: OutPath) -> tuple[LinkItem, ...]:
    """The page's tags, each linking to its tag page."""
    rec = site.pages_by_node[node]
    return tuple(LinkItem(t, href_between(out, tag_out(t))) for t in page_tags(rec.front_matter))


def emit_tag_pages(site: SiteState, writer: SiteWriter) -> None:
    """One page per tag listing its pages, and an index of all tags (none without tags)."""
    tags = pages_by_tag(site)
    if not tags:
        return
    index_entries = []
    for tag, nodes in tags.items():
        out = tag_out(tag)
        index_entries.append(IndexEntry(tag, href_between(TAGS_INDEX, out), note=_count(nodes)))
        if not writer.claim(out, "sitegen"):
            continue  # a content file already took this path (it was reported)
        entries = tuple(
            IndexEntry(site.pages_by_node[n].title, href_between(out, html_out_path(n)))
            for n in nodes
        )
        view = IndexView(
            title=f"Tag: {tag}",
            sections=(IndexSection("Pages", entries),),
            intro=f"{_count(nodes)} tagged “{tag}”.",
            crumbs=(Crumb("Tags", href_between(out, TAGS_INDEX)), Crumb(tag)),
        )
        writer.write(out, site.renderer.render_index(site.context(out), view))
    if writer.claim(TAGS_INDEX, "sitegen"):
        view = IndexView(
            title="Tags",
            sections=(IndexSection("All tags", tuple(index_entries)),),
            intro=f"{len(tags)} tags from the pages' front matter.",
        )
        writer.write(TAGS_INDEX, site.renderer.render_index(site.context(TAGS_INDEX), view))


def _count(nodes: list[NodeId]) -> str:
    return f"{len(nodes)} page{'s' if len(nodes) != 1 else ''}"


def emit_not_found(site: SiteState, writer: SiteWriter) -> None:
    """``404.html``: what hosts (and ``sitegen serve``) show for a missing address. Its links
    are relative to the site root; with ``base_url`` set, a ``<base>`` makes them work at
    any depth."""
    if not writer.claim(NOT_FOUND, "sitegen"):
        return
    sections = tuple(LinkItem(item.title, item.href) for item in site.nav if item.href)
    base = site.result.config.base_url.rstrip("/") + "/" if site.result.config.base_url else ""
    html = site.renderer.render(
        "404.html",
        site=site.context(NOT_FOUND),
        title="Page not found",
        sections=sections,
        base_href=base,
    )
    writer.write(NOT_FOUND, html)
