"""What readers see of the graph core: "Related pages" entries and the missing-links report.

Builds view objects from the build's relatedness (content/guides/related-pages.md); never
computes a score and never renders HTML itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sitegen.base.paths import NodeId, OutPath
from sitegen.site.views import LinkItem, ReportCell, ReportView

if TYPE_CHECKING:
    from sitegen.records.analysis import RelatedPage
    from sitegen.site.state import SiteState


def _related_of(site: SiteState, node: str) -> tuple[RelatedPage, ...]:
    insight = site.result.insight
    return insight.relatedness.related.get(node, ()) if insight is not None else ()


def related_items(site: SiteState, node: str, out: OutPath) -> tuple[LinkItem, ...]:
    """The page's related pages: title, link and the one-line reason."""
    return tuple(
        LinkItem(
            title=site.titles.get(r.node, r.node),
            href=site.page_href(out, NodeId(r.node)),
            note=r.reason,
        )
        for r in _related_of(site, node)
    )


def related_key(site: SiteState, node: str) -> list[Any]:
    """Everything the related-pages block shows, for the page's output key."""
    return [(r.node, r.reason, site.titles.get(r.node, "")) for r in _related_of(site, node)]


def missing_links_view(site: SiteState, out: OutPath) -> ReportView:
    insight = site.result.insight
    missing = insight.relatedness.missing if insight is not None else ()

    def cell(node: str) -> ReportCell:
        return ReportCell(site.titles.get(node, node), site.page_href(out, NodeId(node)))

    rows = tuple((cell(m.a), cell(m.b), f"{m.score:.2f}", m.reason) for m in missing)
    return ReportView(
        title="Missing links",
        columns=("Page", "Related page", "Score", "Why"),
        rows=rows,
        intro="Pairs of pages that are each other's related pages, strongly, but link neither "
        "way. Link them where a reader of one would want the other.",
        empty_text="No missing links: every strongly related pair links at least one way.",
    )
