"""The graph exports, for tools rather than readers: ``graph.md`` and ``graph.json``
(content/reference/graph-md.md, graph-json.md) and ``code-graph.json`` when code is analysed.

Serializes the finished graphs with their own exporters; never changes them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from sitegen.base.paths import OutPath
from sitegen.graph.export import export_graph_md
from sitegen.graph.graphjson import graph_json_pieces
from sitegen.records.analysis import Figures
from sitegen.site.emitter import EmitRun, OneFile
from sitegen.site.state import SiteState


class GraphMd(OneFile):
    name = "graph.md"
    options = ("title",)
    file = OutPath("graph.md")
    background = True

    def render(self, run: EmitRun, out: OutPath) -> str:
        return export_graph_md(run.site.graph, title=f"{run.site.result.config.site_title} graph")


class GraphJson(OneFile):
    """The document graph, each node with its PageRank, community and bridge figures."""

    name = "graph.json"
    options = ()
    file = OutPath("graph.json")
    background = True

    def render(self, run: EmitRun, out: OutPath) -> str:
        return "".join(self._pieces(run))

    def emit(self, run: EmitRun, outputs: Sequence[OutPath]) -> None:
        for out in outputs:  # a line at a time: the largest file of a large site
            run.writer.write_pieces(out, self._pieces(run))

    @staticmethod
    def _pieces(run: EmitRun) -> Iterator[str]:
        insight = run.site.result.insight
        assert insight is not None, "the analysis runs before the site"
        return graph_json_pieces(run.site.graph, _figure_table(insight.figures))


def _figure_table(figures: Figures) -> dict[str, dict[str, float | int]]:
    table: dict[str, dict[str, float | int]] = {
        n: {"pagerank": round(r, 6), "community": figures.communities.get(n, -1)}
        for n, r in figures.pagerank.items()
    }
    for node, spread in figures.bridges:
        table[node]["bridge"] = spread
    return table


class CodeGraphJson(OneFile):
    name = "code-graph.json"
    options = ()
    background = True

    def path(self, site: SiteState) -> OutPath | None:
        return OutPath("code-graph.json") if site.result.code is not None else None

    def render(self, run: EmitRun, out: OutPath) -> str:
        from sitegen.code.serialize import dump_code_graph_json

        assert run.site.result.code is not None  # path() is None without code
        return dump_code_graph_json(run.site.result.code)
