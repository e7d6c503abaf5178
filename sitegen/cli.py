"""The command line (content/reference/cli.md): every command, its options and its exit codes.

Parses options, runs the pipeline, prints diagnostics and one summary line. Exit codes:
0 success, 1 check failures (or --strict warnings), 2 usage or configuration errors.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from sitegen import __version__
from sitegen.base.paths import NodeId, is_source_node
from sitegen.config import Config, ConfigError, load_config, parse_languages

if TYPE_CHECKING:
    from sitegen.analyse.checks import Check


class _Group(click.Group):
    """Usage errors and configuration errors both exit 2 with one clear line."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Each command with its whole first sentence: click would cut it off with "..."."""
        rows = []
        for name in self.list_commands(ctx):
            cmd = self.get_command(ctx, name)
            if cmd is not None and not cmd.hidden:
                rows.append((name, cmd.get_short_help_str(limit=1000)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().main(*args, standalone_mode=False, **kwargs)  # type: ignore[call-overload]
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except click.exceptions.Abort:
            sys.exit(1)
        except click.ClickException as exc:
            exc.show()
            sys.exit(2)
        except ConfigError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(2)
        except KeyboardInterrupt:
            sys.exit(130)
        except OSError as exc:  # the disk said no (permissions, a full disk): one sentence
            where = f"{exc.filename}: " if exc.filename else ""
            click.echo(f"error: {where}{exc.strerror or exc}", err=True)
            sys.exit(2)
        except Exception as exc:  # a bug: one line, never a traceback (content/guides/safety.md)
            if os.environ.get("SITEGEN_DEBUG") == "1":
                raise
            click.echo(
                f"error: internal error ({type(exc).__name__}: {exc}); this is a bug in "
                "sitegen, please report it (SITEGEN_DEBUG=1 shows the traceback)",
                err=True,
            )
            sys.exit(2)


@dataclass(frozen=True)
class ProjectOptions:
    """The options every project command shares, as the user gave them."""

    root: Path
    out: str | None
    config_file: Path | None
    languages: tuple[str, ...]
    jobs: int | None
    quiet: bool

    @property
    def workers(self) -> int:
        """``--jobs`` as the build takes it (0: one per core)."""
        return self.jobs or 0

    def config(self) -> Config:
        """The project's configuration with these options applied."""
        if not self.root.is_dir():
            raise ConfigError(f"{self.root}: project root is not a folder")
        langs = parse_languages(list(self.languages)) if self.languages else None
        config = load_config(
            self.root, self.config_file, out=self.out, languages=langs, jobs=self.jobs
        )
        _validate_checks(config)
        return config


def _validate_checks(config: Config, extra: Sequence[Check] = ()) -> None:
    """The ``checks`` option names sitegen's checks and the loaded plugins' ``extra`` ones
    (known only once they load); else the ConfigError a bad option is, naming its file as
    ``load_config`` does (content/guides/configuration.md#checks)."""
    from sitegen.analyse.checks import validate_checks

    shown = config.set_by.get("checks", "")
    origin = shown if not shown or Path(shown).is_absolute() else str(config.root / shown)
    validate_checks(config.checks, extra, origin)


#: An option naming a file (not a folder): --config, --baseline, --output.
_FILE = click.Path(dir_okay=False, path_type=Path)

#: The shared options, declared once (MkDocs' ``common_config_options`` is the model).
_PROJECT_OPTIONS = [
    click.option(
        "--root",
        type=click.Path(file_okay=False, path_type=Path),
        default=Path("."),
        show_default=True,
        help="Project root (everything read lies below it).",
    ),
    click.option("--out", type=str, default=None, help="Output folder (default: site)."),
    click.option(
        "--config",
        "config_file",
        type=_FILE,
        default=None,
        help="Configuration file (default: sitegen.toml or pyproject.toml).",
    ),
    click.option(
        "--language",
        "languages",
        multiple=True,
        metavar="NAME",
        help="Analyse only this language (repeatable): python, javascript, typescript, "
        "tsx, c, cpp, rust, go, ruby.",
    ),
    click.option(
        "--jobs",
        type=click.IntRange(min=0),
        default=None,
        help="Worker processes (0 = one per core, 1 = in-process).",
    ),
    click.option("--quiet", "-q", is_flag=True, help="No progress bars, no summary."),
]
_PROJECT_FIELDS = tuple(f.name for f in fields(ProjectOptions))


def _project_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Give a command the shared options, handed to it as one ``project: ProjectOptions``;
    they come first in its help, before the command's own options."""

    @functools.wraps(fn)
    def command(**kwargs: Any) -> Any:
        shared = {name: kwargs.pop(name) for name in _PROJECT_FIELDS}
        return fn(project=ProjectOptions(**shared), **kwargs)

    for opt in reversed(_PROJECT_OPTIONS):
        command = opt(command)
    return command


def _print_diagnostics(diags: list[Any]) -> None:
    for d in diags:
        click.echo(d.format(), err=True)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="sitegen")
def main() -> None:
    """sitegen: one provenance-bearing graph of a repository's docs and code, published as a site."""


@main.command(short_help="Build the site into the output folder.")
@_project_options
@click.option("--strict", is_flag=True, help="Exit 1 when any warning was raised.")
@click.option("--clean", is_flag=True, help="Ignore the caches and rebuild everything.")
@click.option("--offline", is_flag=True, help="Read no peer; use their stored copies only.")
def build(
    project: ProjectOptions,
    strict: bool,
    clean: bool,
    offline: bool,
) -> None:
    """Build the site into the output folder."""
    from sitegen.build import BuildOptions
    from sitegen.build import build as run_build

    config = project.config()
    options = BuildOptions(jobs=project.workers, clean=clean, quiet=project.quiet, offline=offline)
    result = run_build(config, options)
    _print_diagnostics(result.diagnostics)
    if not project.quiet:
        from sitegen.layout import layout_line
        from sitegen.link.page_addresses import url_style_reason

        urls = url_style_reason(config, result.crawl.manifests)
        click.echo(f"sitegen: {layout_line(config, urls)}", err=True)
        click.echo(f"sitegen: {result.summary()} -> {config.out_dir}", err=True)
    if strict and result.warnings:
        sys.exit(1)


@main.command(short_help="Run every check; exit 1 on a new error-level finding.")
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
    from sitegen.commands import run_check

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


@main.command(short_help="List the pages that document what changed since REV.")
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
    from sitegen.commands import run_impact

    config = project.config()
    sys.exit(run_impact(config, since, "json" if as_json else fmt, project.workers))


@main.command(short_help="Print the code's dependency cycles and deployment order.")
@_project_options
@click.option("--json", "as_json", is_flag=True, help="Print the JSON contract.")
def cycles(
    project: ProjectOptions,
    as_json: bool,
) -> None:
    """Print the code's dependency cycles, deployment order and relation cycles."""
    from sitegen.commands import print_cycles

    config = project.config()
    print_cycles(config, as_json=as_json, jobs=project.workers)


@main.command(short_help="Print why the link at PAGE:LINE[:COL] resolved as it did.")
@_project_options
@click.argument("where", metavar="PAGE:LINE[:COL]")
@click.option("--json", "as_json", is_flag=True, help="Print the same steps as one JSON document.")
def explain(
    project: ProjectOptions,
    where: str,
    as_json: bool,
) -> None:
    """Print why the link at PAGE:LINE[:COL] resolved as it did: each rule the link step
    applied (relative or absolute, file or folder, address, redirect, wikilink, autoref,
    inventory, anchor), the candidates it rejected, the result and what the build reports.
    PAGE is the page's repository path, or its path from the content folder;
    without COL, the first link on the line."""
    from sitegen.commands import print_explanation

    print_explanation(project.config(), where, as_json=as_json, jobs=project.workers)


@main.command(short_help="Print what links to PAGE, grouped as on its page.")
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


@main.group(cls=_Group, short_help="Read graph exports (graph parse FILE).")
def graph() -> None:
    """Read graph exports."""


@graph.command("parse", short_help="Print the edges of a /graph.md export.")
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


@main.command(short_help="Export the graph (dgraph, code-graph, graph-json, graph-md).")
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
    from sitegen.build import BuildOptions
    from sitegen.build import build as run_build

    config = project.config()
    result = run_build(config, BuildOptions(write_site=False, jobs=project.workers, quiet=True))
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


@main.command()
@_project_options
@click.option(
    "--port", type=int, default=8000, show_default=True, help="Port to listen on (1-65535)."
)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on; anything but the loopback is announced with a warning.",
)
def serve(
    project: ProjectOptions,
    port: int,
    host: str,
) -> None:
    """Build, serve the site on localhost and rebuild when files change."""
    from sitegen.cache import check_cache_dir
    from sitegen.ownership import check_output
    from sitegen.serve import serve as run_serve

    config = project.config()
    # Refused before the server starts: a configuration no build can take is exit 2, not a
    # server that shows the same error after every save.
    check_output(config, writing=True)
    check_cache_dir(config.cache_dir)
    run_serve(
        config,
        port=port,
        quiet=project.quiet,
        config_file=project.config_file,
        host=host,
        load_config=project.config,
    )


@main.command(short_help="Find the pages most related to QUERY.")
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
    from sitegen.explore import explore as run_explore

    config = project.config()
    click.echo(run_explore(config, query, limit=limit, as_json=as_json), nl=False)


if __name__ == "__main__":
    main()
