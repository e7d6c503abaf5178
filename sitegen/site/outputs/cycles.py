"""The cycle report, when cycle analysis runs: ``cycles.md`` for tools and diffs, and
``cycles.html`` with a link to each member's place (content/guides/cycles.md).

Shows sitegen.analyse.reports' findings; never looks for cycles itself.
"""

from __future__ import annotations

from sitegen.base.paths import NodeId, OutPath, href_between
from sitegen.site.code_pages import source_out
from sitegen.site.cycles_view import CYCLES_PAGE, cycles_view
from sitegen.site.emitter import EmitRun, OneFile
from sitegen.site.state import SiteState


class CyclesMd(OneFile):
    name = "cycles.md"
    options = ()
    background = True

    def path(self, site: SiteState) -> OutPath | None:
        return OutPath("cycles.md") if site.result.cycles is not None else None

    def render(self, run: EmitRun, out: OutPath) -> str:
        from sitegen.analyse.reports import render_cycles_md

        assert run.site.result.cycles is not None  # path() is None without the analysis
        return render_cycles_md(run.site.result.cycles)


class CyclesPage(OneFile):
    name = "cycles.html"
    options = ()
    background = True

    def path(self, site: SiteState) -> OutPath | None:
        return CYCLES_PAGE if site.result.cycles is not None else None

    def render(self, run: EmitRun, out: OutPath) -> str:
        site = run.site
        assert site.result.cycles is not None  # path() is None without the analysis
        view = cycles_view(
            site.result.cycles,
            lambda path, line: href_between(out, source_out(path), f"L{line}" if line > 0 else ""),
            lambda node: site.page_href(out, NodeId(node)),
        )
        return site.renderer.render(
            "cycles.html", site=site.context(out), cycles=view, title="Cycles"
        )
