"""``graph.html``: pages and source files drawn as one graph, colour by community and size by
PageRank (content/guides/site.md, "Index, graph view and reports"), and the graph it draws.

Draws the graph the analysis ranked (``sitegen.analyse.insight.whole_graph``); never ranks or changes it here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sitegen.base.paths import (
    NodeId,
    OutPath,
)
from sitegen.graph.model import Graph, NodeKind
from sitegen.records.analysis import Figures
from sitegen.site.emitter import EmitRun, OneFile

if TYPE_CHECKING:
    pass


class GraphPage(OneFile):
    name = "graph page"
    options = ()
    file = OutPath("graph.html")
    background = True

    def render(self, run: EmitRun, out: OutPath) -> str:
        from sitegen.site.graphview import GraphDrawing, render_graph_page

        site = run.site
        insight = site.result.insight
        assert insight is not None, "the analysis runs before the site"
        whole, figures = insight.whole, insight.figures
        nodes = [n for _, n in sorted(whole.nodes.items()) if n.id in figures.pagerank]
        edges = [
            e for e in whole.edges() if e.src in figures.pagerank and e.dst in figures.pagerank
        ]
        drawing = GraphDrawing(
            nodes,
            edges,
            figures.communities,
            figures.pagerank,
            # A page left out of the site (a draft) is drawn, but no link: no file holds it.
            {
                n.id: site.page_href(out, n.id)
                for n in nodes
                if n.kind is not NodeKind.PAGE or n.id in site.addresses.pages
            },
        )
        return render_graph_page(
            drawing,
            site=site.context(out),
            renderer=site.renderer,
            title="Graph",
            figures_note=figures_note(figures, whole),
        )


def figures_note(figures: Figures, whole: Graph) -> str:
    """How the communities were found (never silent about a cap) and the bridge pages."""
    count = len(set(figures.communities.values()))
    state = (
        f"converged in {figures.community_passes} passes"
        if figures.communities_converged
        else f"stopped at its cap of {figures.community_passes} passes, not converged"
    )
    note = f"{count} communities (Louvain, {state}; modularity {figures.modularity:.2f})."
    if figures.bridges:
        names = ", ".join(whole.title_of(NodeId(n)) for n, _ in figures.bridges[:5])
        note += f" Bridge pages, whose links span communities: {names}."
    return note
