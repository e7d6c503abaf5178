"""``sitegen build``: build the site into the output folder (content/reference/cli.md#sitegen-build)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import click

from sitegen.commands.options import ProjectOptions, _project_options


@click.command(short_help="Build the site into the output folder.")
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


def _print_diagnostics(diags: Sequence[Any]) -> None:
    for d in diags:
        click.echo(d.format(), err=True)
