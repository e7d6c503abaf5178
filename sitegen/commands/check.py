"""``sitegen check``: every check on a whole build without writing the site; exit 1 on a new
error-level finding (content/guides/ci.md, content/reference/cli.md#sitegen-check).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from sitegen.base.plural import counted
from sitegen.commands.impact import _impact
from sitegen.commands.options import (
    _FILE,
    ProjectOptions,
    _build,
    _project_options,
    plugin_checks,
)
from sitegen.config import Config

if TYPE_CHECKING:
    from sitegen.analyse.check import Finding
    from sitegen.records.result import BuildResult


@click.command(short_help="Run every check; exit 1 on a new error-level finding.")
@_project_options
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "github"]),
    default="text",
    show_default=True,
    help="text: one path:line:col: level: message line per finding; json: one document; "
    "github: text plus GitHub Actions annotations.",
)
@click.option("--write-baseline", is_flag=True, help="Record the current findings as known debt.")
@click.option(
    "--baseline",
    type=_FILE,
    default=None,
    help="Baseline file (default: .sitegen-baseline.json at the root).",
)
@click.option(
    "--changed-since",
    metavar="REV",
    default=None,
    help="Fail (stale-doc) when a public symbol changed since REV is documented by a page "
    "the change does not touch.",
)
def check(
    project: ProjectOptions,
    fmt: str,
    write_baseline: bool,
    baseline: Path | None,
    changed_since: str | None,
) -> None:
    """Run every check without writing the site; exit 1 on any new error-level finding."""
    config = project.config()
    code = run_check(
        config,
        fmt=fmt,
        write_baseline=write_baseline,
        baseline=baseline,
        quiet=project.quiet,
        jobs=project.workers,
        changed_since=changed_since,
    )
    sys.exit(code)


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

    extra = plugin_checks(config)
    result = _build(config, jobs)
    findings, failed = run_checks(result, extra)
    for diagnostic in failed:  # a plugin's check that raised: one line, the others still run
        click.echo(diagnostic.format(), err=True)
    severities = severities_of(config.checks, extra)
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
    from sitegen.analyse.check import STALE_DOC

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
    from sitegen.analyse.check import STALE_DOC
    from sitegen.analyse.impact import gate_findings

    impact = _impact(result, since, "--changed-since")
    kept = [f for f in findings if f.check != STALE_DOC] + gate_findings(impact)
    if severities.get(STALE_DOC, "info") == "info":
        severities = {**severities, STALE_DOC: "error"}
    return sorted(kept), severities
