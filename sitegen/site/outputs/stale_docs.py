"""``stale-docs.html``: every page whose documented code changed after it, with what changed,
the commits since the page's last change and a link to each symbol's source line; and the
notice a stale page shows above its body (content/guides/stale-pages.md).

Shows the stale-pages pass's findings (sitegen/analyse/stale.py); never asks git itself.
"""

from __future__ import annotations

from sitegen.analyse.stale import NOTICE, commits_summary, short_subject
from sitegen.base.paths import OutPath, RepoPath, href_between, source_node_id
from sitegen.graph.model import NodeKind
from sitegen.records.stale import DocRef, StalePage, StaleReport
from sitegen.site.emitter import EmitRun, OneFile
from sitegen.site.state import SiteState, href_for_node
from sitegen.site.views import ReportCell, ReportTable, ReportView, StaleItem, StaleNotice

STALE_DOCS = OutPath("stale-docs.html")


def stale_report(site: SiteState) -> StaleReport | None:
    """The build's stale-pages report, or None when it has none (outside git, nothing
    documented). A shallow clone's is shown, to say why it lists no page."""
    report = site.result.stale
    if not isinstance(report, StaleReport) or not report.documented:
        return None
    if report.reason and not report.shallow:
        return None
    return report


class StaleDocs(OneFile):
    """Written every build (never reused): what it shows depends on the history as well as
    the graph, and it is one small file."""

    name = "stale docs"
    options = ()

    def path(self, site: SiteState) -> OutPath | None:
        return STALE_DOCS if stale_report(site) is not None else None

    def render(self, run: EmitRun, out: OutPath) -> str:
        return run.site.renderer.render_report(
            run.site.context(out), stale_docs_view(run.site, out)
        )


def stale_docs_view(site: SiteState, out: OutPath) -> ReportView:
    """One row per stale page (its last change, the commits since that changed what it
    documents, and what changed), then one row per place a page points at changed code."""
    report = stale_report(site)
    pages, places = [], []
    node_of = {rec.path: node for node, rec in site.pages_by_node.items()}
    for page in report.pages if report else ():
        node = node_of.get(page.page)
        title = site.titles.get(node, page.page) if node else page.page
        page_cell = ReportCell(title, site.page_href(out, node) if node else "")
        last = page.last_change
        pages.append(
            (
                page_cell,
                ReportCell(f"{last.date} {last.short} {short_subject(last.subject)}"),
                commits_summary(page.commits),
                ReportCell(page.changed(), code=True),
            )
        )
        for stale in page.refs:
            ref = stale.ref
            places.append(
                (
                    ReportCell(f"{ref.page}:{ref.line}:{ref.column}", code=True),
                    ref.how,
                    ReportCell(ref.target(), _source_href(site, ref, out), code=True),
                    commits_summary(stale.commits),
                )
            )
    documented = len(report.documented) if report else 0
    return ReportView(
        title="Stale docs",
        columns=("Page", "Page's last change", "Commits since", "What changed"),
        rows=tuple(pages),
        tables=(
            ReportTable(
                "Where each page points at changed code",
                ("Where", "How", "What changed", "Commits that changed it"),
                tuple(places),
                "Each link, autoref, directive or snippet, with a link to the code's source line.",
            ),
        )
        if places
        else (),
        intro=(
            f"Pages whose documented code changed in a commit after the page's own last change "
            f"({len(report.pages) if report else 0} of the {documented} pages that document code). "
            "A symbol or a range counts only when a commit touched its lines."
        )
        if not (report and report.reason)
        else f"Which of the {documented} pages that document code are stale cannot be told.",
        empty_text=(
            f"No stale-docs report: {report.reason}."
            if report and report.reason  # never "up to date" when nothing could be told
            else "No stale pages: every page is newer than the code it documents."
        ),
    )


def _source_href(site: SiteState, ref: DocRef, out: OutPath) -> str:
    """The documented file's source page, at the symbol's (or range's) first line."""
    node = source_node_id(RepoPath(ref.path))
    found = site.graph.nodes.get(node)
    if found is None or found.kind != NodeKind.SOURCE:
        return ""
    line = ref.start if ref.start and ref.start < 10**8 else 0
    return href_for_node(node, f"L{line}" if line else "", out, NodeKind.SOURCE, site.addresses)


def stale_notice(site: SiteState, path: str, out: OutPath) -> StaleNotice | None:
    """What a stale page says above its body: what changed, and since when."""
    report = stale_report(site)
    page: StalePage | None = report.of(path) if report else None
    if page is None:
        return None
    items = tuple(
        StaleItem(
            target=s.ref.target(),
            href=_source_href(site, s.ref, out),
            how=s.ref.how,
            commits=commits_summary(s.commits),
        )
        for s in page.by_target()
    )
    return StaleNotice(
        title=NOTICE,
        since=f"{page.last_change.date} {page.last_change.short}",
        items=items,
        commits=commits_summary(page.commits),
        report_href=href_between(out, STALE_DOCS),
    )
