"""``sitegen export``: the graph as dgraph, code-graph, graph-json or graph-md (content/reference/cli.md#sitegen-export)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from sitegen.commands.options import _FILE, ProjectOptions, _build, _project_options
from sitegen.config import ConfigError


@click.command(short_help="Export the graph (dgraph, code-graph, graph-json, graph-md).")
@_project_options
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["dgraph", "code-graph", "graph-json", "graph-md"]),
    required=True,
    help="What to write.",
)
@click.option(
    "--output",
    "-o",
    type=_FILE,
    default=None,
    help="File to write (default: standard output).",
)
def export(
    project: ProjectOptions,
    fmt: str,
    output: Path | None,
) -> None:
    """Export the graph: dgraph (RDF N-Quads), code-graph (JSON v2), graph-json, graph-md."""
    config = project.config()
    result = _build(config, project.workers)
    text = _export_text(result, fmt)
    if output is None:
        click.echo(text, nl=False)
    else:
        from sitegen.base.fsutil import write_atomically

        write_atomically(output, text)


def _export_text(result: Any, fmt: str) -> str:
    if fmt == "graph-md":
        from sitegen.graph.export import export_graph_md

        return export_graph_md(result.graph)
    if fmt == "graph-json":
        from sitegen.graph.graphjson import dump_graph_json

        return dump_graph_json(result.graph)
    if result.code is None:
        raise ConfigError("no source files were analysed; nothing to export")
    if fmt == "dgraph":
        from sitegen.code.dgraph import to_nquads

        return to_nquads(result.code)
    from sitegen.code.serialize import dump_code_graph_json

    return dump_code_graph_json(result.code)
