"""The analyse step of the build and the commands built on it (``sitegen cycles``, ``check``).

Feeds the cycle analysis from the finished graphs; never mutates them and never writes the site.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from sitegen.analyse.cycles import CycleReport, DepEdge, analyse_cycles
from sitegen.config import Config

if TYPE_CHECKING:
    from sitegen.build import BuildResult


def cycles_of_build(result: "BuildResult") -> CycleReport:
    """Code cycles on the import + reference graph, relation cycles per predicate."""
    files: list[str] = [r.path for r in result.code_records]
    file_edges: list[DepEdge] = []
    symbol_edges: list[DepEdge] = []
    if result.code is not None:
        from sitegen.code.analyse import dependency_edges
        file_edges, symbol_edges = dependency_edges(result.code)
    relations = [(e.src, e.dst, e.rel) for e in result.graph.edges() if e.rel]
    return analyse_cycles(files, file_edges, symbol_edges, relations)


def _build(config: Config, jobs: int) -> "BuildResult":
    from sitegen.build import BuildOptions, build
    return build(config, BuildOptions(write_site=False, jobs=jobs, quiet=True))


def print_cycles(config: Config, as_json: bool, jobs: int) -> None:
    from sitegen.analyse.reports import render_cycles_json, render_cycles_text
    result = _build(config, jobs)
    assert result.cycles is not None
    click.echo(render_cycles_json(result.cycles) if as_json else render_cycles_text(result.cycles),
               nl=False)


def run_check(config: Config, fmt: str, write_baseline: bool, baseline: Path | None,
              quiet: bool, jobs: int) -> int:
    """Every check; returns the exit code (1 on any new error-level finding)."""
    from sitegen.analyse import check
    result = _build(config, jobs)
    findings = findings_of_build(result)
    path = baseline or (config.root / check.BASELINE_FILE)
    if write_baseline:
        check.write_baseline(findings, path)
        click.echo(f"sitegen: wrote {len(findings)} findings to {path}", err=True)
        return 0
    known = check.load_baseline(path) if path.is_file() else check.Baseline()
    outcome = check.evaluate(findings, config.checks, known)
    if fmt == "json":
        click.echo(check.format_json(outcome))
    else:
        for line in outcome.lines:
            click.echo(line)
    return outcome.exit_code


def findings_of_build(result: "BuildResult") -> list:  # type: ignore[type-arg]
    from sitegen.analyse import check
    problems: dict[str, list[check.LinkProblem]] = {"broken-link": [], "broken-anchor": [],
                                                    "missing-rel-target": []}
    for path, line, col, kind, target, message in result.linked.broken:
        problems[kind].append(check.LinkProblem(path=path, line=line, col=col, target=target,
                                                message=message))
    assert result.cycles is not None
    findings = (check.broken_link_findings(problems["broken-link"])
                + check.broken_anchor_findings(problems["broken-anchor"])
                + check.missing_rel_target_findings(problems["missing-rel-target"])
                + check.code_cycle_findings(result.cycles.code)
                + check.relation_cycle_findings(result.cycles.relations, _rel_sources(result)))
    return sorted(findings)


def _rel_sources(result: "BuildResult"):  # type: ignore[no-untyped-def]
    """Where a page's relations are declared: its file, at the first rel- key's line."""
    content = result.config.content.strip("/")
    where = {"/" + p.path[len(content) + 1:]: (p.path, min((r.line for r in p.relations), default=1), 1)
             for p in result.pages}
    return lambda node: where.get(node, (node, 1, 1))


__all__ = ["cycles_of_build", "print_cycles", "run_check", "json"]
