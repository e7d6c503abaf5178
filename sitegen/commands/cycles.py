"""``sitegen cycles``: the code's dependency cycles and deployment order (content/reference/cycles.md)."""

from __future__ import annotations

import click

from sitegen.commands.options import ProjectOptions, _build, _project_options
from sitegen.config import Config


@click.command(short_help="Print the code's dependency cycles and deployment order.")
@_project_options
@click.option("--json", "as_json", is_flag=True, help="Print the JSON contract.")
def cycles(
    project: ProjectOptions,
    as_json: bool,
) -> None:
    """Print the code's dependency cycles, deployment order and relation cycles."""
    config = project.config()
    print_cycles(config, as_json=as_json, jobs=project.workers)


def print_cycles(config: Config, as_json: bool, jobs: int) -> None:
    from sitegen.analyse.reports import render_cycles_json, render_cycles_text

    result = _build(config, jobs)
    assert result.cycles is not None
    click.echo(
        render_cycles_json(result.cycles) if as_json else render_cycles_text(result.cycles),
        nl=False,
    )
