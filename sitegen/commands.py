"""The commands built on a whole build without writing the site: ``sitegen cycles``,
``sitegen check``, ``sitegen explain`` and ``sitegen impact``. They print; exit codes are
returned to the CLI.
"""

from __future__ import annotations

from pathlib import Path

import click

from sitegen.analyse.check import Finding
from sitegen.analyse.impact import Impact
from sitegen.base.plural import counted
from sitegen.build import BuildOptions, BuildResult, build
from sitegen.config import Config, ConfigError
from sitegen.records.pages import PageRecord


def _build(config: Config, jobs: int) -> BuildResult:
    return build(config, BuildOptions(write_site=False, jobs=jobs, quiet=True))


def print_cycles(config: Config, as_json: bool, jobs: int) -> None:
    from sitegen.analyse.reports import render_cycles_json, render_cycles_text

    result = _build(config, jobs)
    assert result.cycles is not None
    click.echo(
        render_cycles_json(result.cycles) if as_json else render_cycles_text(result.cycles),
        nl=False,
    )


def print_explanation(config: Config, where: str, as_json: bool, jobs: int) -> None:
    """Why the link at ``where`` (``PAGE:LINE[:COL]``) resolved as it did; a place that is
    not one, or holds no link, is a ``click.BadParameter`` (one sentence, exit 2)."""
    from sitegen.link.explain import (
        Place,
        explanation,
        explanation_json,
        explanation_text,
        link_at,
        link_lines,
        shown,
    )
    from sitegen.link.step import LinkInputs

    place = Place.parse(where)
    if isinstance(place, str):
        raise click.BadParameter(place, param_hint="PAGE:LINE[:COL]")
    result = _build(config, jobs)
    rec = _page_record(result, place.page)
    if rec is None:
        raise click.BadParameter(f"no page '{shown(place.page)}' was built", param_hint="PAGE")
    link = link_at(rec, place.line, place.column)
    if link is None:
        starts = link_lines(rec)
        lines = ", ".join(map(str, starts[:20])) + (", …" if len(starts) > 20 else "") or "none"
        raise click.BadParameter(
            f"no link at {rec.path}:{place.line}"
            + (f":{place.column}" if place.column else "")
            + f" (the page's links start on lines: {lines})",
            param_hint="PAGE:LINE[:COL]",
        )
    traced = LinkInputs.of(result).trace(rec, link)
    data = explanation(rec.path, link, traced)
    click.echo(explanation_json(data) if as_json else explanation_text(data), nl=False)


def _page_record(result: BuildResult, page: str) -> PageRecord | None:
    """PAGE as written: a page's repository path, a path from the content folder, or its
    node id (``/guides/a.md``)."""
    content = result.config.content_rel
    wanted = page.strip().removeprefix("./")
    candidates = {wanted, f"{content}/{wanted.lstrip('/')}" if content else wanted.lstrip("/")}
    return next((p for p in result.pages if p.path in candidates), None)


def run_check(
    config: Config,
    fmt: str,
    write_baseline: bool,
    baseline: Path | None,
    quiet: bool,
    jobs: int,
    changed_since: str | None = None,
) -> int:
    """Every check; returns the exit code (1 on any new error-level finding). With
    ``changed_since``, the stale-doc findings are the change's (content/guides/stale-pages.md)."""
    from sitegen.analyse import check
    from sitegen.analyse.checks import run_checks, severities_of

    result = _build(config, jobs)
    findings, failed = run_checks(result)
    for diagnostic in failed:  # a plugin's check that raised: one line, the others still run
        click.echo(diagnostic.format(), err=True)
    severities = severities_of(config.checks)
    if changed_since is not None:
        findings, severities = _change_gate(result, changed_since, findings, severities)
    path = baseline or (config.root / check.BASELINE_FILE)
    if write_baseline:
        check.write_baseline(findings, path)
        click.echo(f"sitegen: wrote {counted(len(findings), 'finding')} to {path}", err=True)
        return 0
    known = check.load_baseline(path) if path.is_file() else check.Baseline()
    outcome = check.evaluate(
        findings, severities, known, True if fmt == "github" else None, _unchecked(result)
    )
    if fmt == "json":
        click.echo(check.format_json(outcome))
    else:
        for line in outcome.lines:
            click.echo(line)
    return outcome.exit_code


def _unchecked(result: BuildResult) -> dict[str, str]:
    """The checks a build could not run: stale-doc in a shallow clone, whose history cannot
    tell when a page and its code last changed (content/guides/stale-pages.md)."""
    from sitegen.analyse.stale import STALE_DOC

    report = result.stale
    if report is None or not report.shallow:
        return {}
    return {STALE_DOC: report.reason}


def _change_gate(
    result: BuildResult, since: str, findings: list[Finding], severities: dict[str, str]
) -> tuple[list[Finding], dict[str, str]]:
    """``check --changed-since``: the history's stale-doc findings give way to the change's,
    at the stale-doc level; its default ``info`` is raised to ``error``, since the flag asks
    for a gate (``warn`` reports without failing, ``ignore`` turns it off)."""
    from sitegen.analyse.impact import STALE_DOC, gate_findings

    impact = _impact(result, since, "--changed-since")
    kept = [f for f in findings if f.check != STALE_DOC] + gate_findings(impact)
    if severities.get(STALE_DOC, "info") == "info":
        severities = {**severities, STALE_DOC: "error"}
    return sorted(kept), severities


def _impact(result: BuildResult, since: str, option: str = "--since") -> Impact:
    from sitegen.analyse.impact import ImpactError, changes_since, impact_of, importers_of
    from sitegen.analyse.stale import documents_of_build

    try:
        commit, diffs = changes_since(result.config.root, since, option)
    except ImpactError as exc:
        raise ConfigError(str(exc)) from exc
    docs = result.stale.documented if result.stale is not None else documents_of_build(result)
    return impact_of(commit, since, diffs, docs, importers_of(result.code))


def run_impact(config: Config, since: str, fmt: str, jobs: int) -> int:
    """``sitegen impact``: the pages that document what changed since ``since``; exit 0."""
    from sitegen.analyse import impact

    found = _impact(_build(config, jobs), since)
    formats = {"json": impact.format_json, "github": impact.format_github}
    click.echo(formats.get(fmt, impact.format_text)(found), nl=False)
    return 0
