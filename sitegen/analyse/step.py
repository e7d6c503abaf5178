"""The analyse step of the build: cycle analysis fed from the finished graphs (the findings
``sitegen check`` evaluates come from each check's ``Check.findings``: sitegen/analyse/checks.py).
Never mutates the graphs and never writes anything.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from sitegen.analyse.cycles import analyse_cycles
from sitegen.graph.dependencies import DepEdge, Unit
from sitegen.records.analysis import CycleReport

if TYPE_CHECKING:
    from sitegen.records.result import BuildResult


def cycles_of_build(result: BuildResult) -> CycleReport:
    """Code cycles on the import + reference graph of deployment units, relation cycles per
    predicate."""
    files: list[str] = [r.path for r in result.code_records]
    file_edges: list[DepEdge] = []
    symbol_edges: list[DepEdge] = []
    units: dict[str, Unit] = {}
    if result.code is not None:
        from sitegen.code.link import dependency_edges
        from sitegen.code.units import deployment_units

        file_edges, symbol_edges = dependency_edges(result.code)
        units = deployment_units(result.code)
    relations = [(e.src, e.dst, e.rel) for e in result.graph.edges() if e.rel]
    report = analyse_cycles(
        files, file_edges, symbol_edges, relations, units, result.config.cycles_include
    )
    return _with_reexports(report, result)


def _with_reexports(report: CycleReport, result: BuildResult) -> CycleReport:
    """The guidance's cyclic units, each told what removing a package's re-export breaks."""
    pairs = [pair for unit in report.code.cyclic for pair in unit.breaks]
    if result.code is None or not pairs:
        return report
    from sitegen.code.reexports import reexports

    found = reexports(
        pairs, result.code_records, result.code, result.config, set(result.crawl.all_paths)
    )
    if not found:
        return report
    cyclic = tuple(
        replace(unit, reexports=tuple(found[p] for p in unit.breaks if p in found))
        for unit in report.code.cyclic
    )
    return replace(report, code=replace(report.code, cyclic=cyclic))
