"""``sitegen explore "query"``: the command's options; the answers (numpy and the graph snapshot)
are in sitegen/commands/explore_answers.py, imported only when the command runs
(content/guides/related-pages.md#explore).
"""

from __future__ import annotations

import click

from sitegen.commands.options import ProjectOptions, _project_options


@click.command(short_help="Find the pages most related to QUERY.")
@_project_options
@click.argument("query")
@click.option(
    "--json", "as_json", is_flag=True, help="Print scores, dimensions and reasons as JSON."
)
@click.option(
    "--limit", type=click.IntRange(min=1), default=10, show_default=True, help="How many results."
)
def explore(
    project: ProjectOptions,
    query: str,
    as_json: bool,
    limit: int,
) -> None:
    """Find the pages most related to QUERY (words or a page id), from the last build."""
    from sitegen.commands.explore_answers import explore as run_explore

    config = project.config()
    click.echo(run_explore(config, query, limit=limit, as_json=as_json), nl=False)
