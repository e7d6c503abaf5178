"""``sitegen backlinks``: what links to a page, grouped as on its page (content/reference/cli.md#sitegen-backlinks)."""

from __future__ import annotations

import click

from sitegen.base.paths import NodeId, is_source_node
from sitegen.commands.options import ProjectOptions, _project_options
from sitegen.config import Config


@click.command(short_help="Print what links to PAGE, grouped as on its page.")
@_project_options
@click.argument("page")
@click.option(
    "--json", "as_json", is_flag=True, help='Print {"node": ..., "groups": [...]} instead of text.'
)
@click.option("--offline", is_flag=True, help="Read no peer; use their stored copies only.")
def backlinks(
    project: ProjectOptions,
    page: str,
    as_json: bool,
    offline: bool,
) -> None:
    """Print what links to PAGE (a node id like /guides/a.md or a path), grouped as its page's
    "Linked from" or "Referenced by" section shows it: typed relations, links, links from
    code, importers and symbol users."""
    from sitegen.build import BuildOptions
    from sitegen.build import build as run_build
    from sitegen.site.backlinks import format_backlinks_text
    from sitegen.site.what_links_here import what_links_here, what_links_here_json

    config = project.config()
    options = BuildOptions(write_site=False, jobs=project.workers, quiet=True, offline=offline)
    result = run_build(config, options)
    node = _page_node_arg(page, config, set(result.graph.nodes))
    if node is None:
        raise click.BadParameter(f"no page or source file '{page}' in the graph", param_hint="PAGE")
    groups = what_links_here(result, NodeId(node))
    if as_json:
        click.echo(what_links_here_json(NodeId(node), groups), nl=False)
        return
    source = is_source_node(NodeId(node))
    empty = "Nothing points at this file yet." if source else "No pages link here."
    click.echo(format_backlinks_text(groups, node, empty), nl=False)


def _page_node_arg(page: str, config: Config, nodes: set[str]) -> str | None:
    """PAGE as written: a node id, a path from the content root, a page's or a source
    file's repository path."""
    from sitegen.base.paths import SitePath, page_node_id

    candidates = [
        page,
        page_node_id(page),
        SitePath.page(page, config.content_rel).node,
        SitePath.source(page.lstrip("/")).node,
    ]
    return next((c for c in candidates if c in nodes), None)
