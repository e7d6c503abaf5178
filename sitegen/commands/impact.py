"""``sitegen impact``: the pages that document what changed since a revision
(content/guides/stale-pages.md, content/reference/cli.md#sitegen-impact).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from sitegen.commands.options import ProjectOptions, _build, _project_options
from sitegen.config import Config, ConfigError

if TYPE_CHECKING:
    from sitegen.analyse.impact import Impact
    from sitegen.records.result import BuildResult


@click.command(short_help="List the pages that document what changed since REV.")
@_project_options
@click.option(
    "--since", "since", metavar="REV", required=True, help="The revision to compare with."
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "github"]),
    default="text",
    show_default=True,
    help="text: the pages and reasons; json: one document; github: warning annotations on "
    "the changed lines.",
)
def impact(project: ProjectOptions, since: str, as_json: bool, fmt: str) -> None:
    """List the pages that document what changed between REV and the work tree, each with
    the reason; pages documenting a changed file's importers come second, as indirect."""
    config = project.config()
    sys.exit(run_impact(config, since, "json" if as_json else fmt, project.workers))


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
