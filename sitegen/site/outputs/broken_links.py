"""``broken-links.html``: every link, anchor and relation target that does not resolve, with
its exact place and a one-line fix (content/guides/linking.md).

Lists what the link step found; never resolves a link itself.
"""

from __future__ import annotations

from sitegen.base.paths import NodeId, OutPath
from sitegen.site.emitter import EmitRun, OneFile
from sitegen.site.state import SiteState
from sitegen.site.views import ReportCell, ReportView

BROKEN_LINKS = OutPath("broken-links.html")


class BrokenLinks(OneFile):
    name = "broken links"
    options = ()
    file = BROKEN_LINKS
    background = True

    def render(self, run: EmitRun, out: OutPath) -> str:
        return run.site.renderer.render_report(
            run.site.context(out), broken_links_view(run.site, out)
        )


def broken_links_view(site: SiteState, out: OutPath) -> ReportView:
    rows = []
    node_of = {rec.path: node for node, rec in site.pages_by_node.items()}
    for path, line, col, check, target, message in sorted(site.result.linked.broken):
        href = _source_href(site, node_of.get(path), line, out)
        rows.append(
            (
                ReportCell(f"{path}:{line}:{col}", href, code=True),
                check,
                ReportCell(target, code=True),
                message,
            )
        )
    return ReportView(
        title="Broken links",
        columns=("Where", "Check", "Target", "Fix"),
        rows=tuple(rows),
        intro="Links, anchors and relation targets that do not resolve, with their exact place.",
        empty_text="No broken links.",
    )


def _source_href(site: SiteState, node: NodeId | None, line: int, out: OutPath) -> str:
    """A link to the section of a page that holds ``line``."""
    if node is None:
        return ""
    heading = ""
    for h in site.pages_by_node[node].headings:
        if h.line <= line:
            heading = h.id
    return site.page_href(out, node, heading)
