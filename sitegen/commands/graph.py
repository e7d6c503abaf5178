"""``sitegen graph parse``: the edges of a /graph.md export (content/reference/graph-md.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import click


@click.command("parse", short_help="Print the edges of a /graph.md export.")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help='Print {"edges": [...]} with all six fields.')
def graph_parse(file: Path, as_json: bool) -> None:
    """Parse a /graph.md export (wide or legacy tables) and print its edges."""
    from sitegen.graph.export import parse_graph_md
    from sitegen.graph.model import annotate

    parsed = parse_graph_md(file.read_text(encoding="utf-8", errors="replace"))
    if not parsed.has_edge_table:  # not a graph export at all: nothing to print, say so
        click.echo(
            f"{file}:1:1: error: no graph table (a table with From and To columns) "
            "was found; is this a graph.md export?",
            err=True,
        )
        sys.exit(1)
    for line, message in parsed.errors:
        click.echo(f"{file}:{line}:1: warning: {message}", err=True)
    if as_json:
        click.echo(parsed.to_json())
        return
    for e in parsed.edges:
        click.echo(f"{e.src} -> {e.dst}{annotate(e)}")
