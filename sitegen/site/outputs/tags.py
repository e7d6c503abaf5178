"""The tag pages: one page per tag listing its pages (``tags/<tag>.html``) and
``tags/index.html`` listing every tag (content/guides/site.md, "Tags").

Built from the pages' front matter in the finished SiteState; never reads files.
"""

from __future__ import annotations

from collections.abc import Sequence

from sitegen.base.paths import NodeId, OutPath, href_between
from sitegen.base.plural import counted
from sitegen.site.emitter import SITEGEN, EmitRun, Emitter
from sitegen.site.pagemeta import TAGS_FOLDER, page_tags, tag_out
from sitegen.site.state import SiteState
from sitegen.site.views import Crumb, IndexEntry, IndexSection, IndexView, LinkItem

TAGS_INDEX = OutPath(f"{TAGS_FOLDER}/index.html")


class TagPages(Emitter):
    """One page per tag listing its pages, and an index of all tags (none without tags)."""

    name = "tag pages"
    options = ()

    def claim(self, run: EmitRun) -> list[OutPath]:
        tags = pages_by_tag(run.site)
        outs = [tag_out(tag) for tag in tags] + ([TAGS_INDEX] if tags else [])
        return [out for out in outs if run.writer.claim(out, SITEGEN)]

    def emit(self, run: EmitRun, outputs: Sequence[OutPath]) -> None:
        site, won = run.site, set(outputs)
        tags = pages_by_tag(site)
        for tag, nodes in tags.items():
            out = tag_out(tag)
            if out in won:
                run.writer.write(
                    out, site.renderer.render_index(site.context(out), _tag_view(site, tag, nodes))
                )
        if TAGS_INDEX in won:
            entries = tuple(
                IndexEntry(
                    tag, href_between(TAGS_INDEX, tag_out(tag)), note=counted(len(nodes), "page")
                )
                for tag, nodes in tags.items()
            )
            view = IndexView(
                title="Tags",
                sections=(IndexSection("All tags", entries),),
                intro=f"{len(tags)} tags from the pages' front matter.",
            )
            run.writer.write(TAGS_INDEX, site.renderer.render_index(site.context(TAGS_INDEX), view))


def _tag_view(site: SiteState, tag: str, nodes: list[NodeId]) -> IndexView:
    out = tag_out(tag)
    entries = tuple(IndexEntry(site.pages_by_node[n].title, site.page_href(out, n)) for n in nodes)
    return IndexView(
        title=f"Tag: {tag}",
        sections=(IndexSection("Pages", entries),),
        intro=f"{counted(len(nodes), 'page')} tagged “{tag}”.",
        crumbs=(Crumb("Tags", href_between(out, TAGS_INDEX)), Crumb(tag)),
    )


def pages_by_tag(site: SiteState) -> dict[str, list[NodeId]]:
    """Every tag used in front matter, with its pages in node order. Tags that share a page
    (``Setup`` and ``setup``) are one tag, named as the first page in node order spells it."""
    names: dict[OutPath, str] = {}
    tags: dict[OutPath, list[NodeId]] = {}
    for node, rec in sorted(site.pages_by_node.items()):
        if site.blog is not None and site.blog.blog.tag_pages and site.blog.post(node):
            continue  # a blog post's tags have the blog's own pages (sitegen/site/blog.py)
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
