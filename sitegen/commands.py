"""The commands built on a whole build without writing the site: ``sitegen cycles`` and
``sitegen check``. They print; exit codes are returned to the CLI.
"""

from __future__ import annotations

from pathlib import Path

import click

from sitegen.analyse.step import findings_of_build
from sitegen.build import BuildOptions, BuildResult, build
from sitegen.config import Config
from sitegen.plural import counted


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


def run_check(
    config: Config, fmt: str, write_baseline: bool, baseline: Path | None, quiet: bool, jobs: int
) -> int:
    """Every check; returns the exit code (1 on any new error-level finding)."""
    from sitegen.analyse import check

    result = _build(config, jobs)
    findings = findings_of_build(result)
    path = baseline or (config.root / check.BASELINE_FILE)
    if write_baseline:
        check.write_baseline(findings, path)
        click.echo(f"sitegen: wrote {counted(len(findings), 'finding')} to {path}", err=True)
        return 0
    known = check.load_baseline(path) if path.is_file() else check.Baseline()
    outcome = check.evaluate(findings, config.checks, known)
    if fmt == "json":
        click.echo(check.format_json(outcome))
    else:
        for line in outcome.lines:
            click.echo(line)
    return outcome.exit_code
