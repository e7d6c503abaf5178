"""``sitegen explain``: why the link at PAGE:LINE[:COL] resolved as it did
(content/reference/cli.md#sitegen-explain).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from sitegen.commands.options import ProjectOptions, _build, _project_options
from sitegen.config import Config

if TYPE_CHECKING:
    from sitegen.records.pages import PageRecord
    from sitegen.records.result import BuildResult


@click.command(short_help="Print why the link at PAGE:LINE[:COL] resolved as it did.")
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
    print_explanation(project.config(), where, as_json=as_json, jobs=project.workers)


def print_explanation(config: Config, where: str, as_json: bool, jobs: int) -> None:
    """Why the link at ``where`` (``PAGE:LINE[:COL]``) resolved as it did; a place that is
    not one, or holds no link, is a ``click.BadParameter`` (one sentence, exit 2)."""
    from sitegen.link.explain import (
        Place,
        explanation,
        explanation_json,
        explanation_text,
        link_at,
        link_lines,
        shown,
    )
    from sitegen.link.step import LinkInputs

    place = Place.parse(where)
    if isinstance(place, str):
        raise click.BadParameter(place, param_hint="PAGE:LINE[:COL]")
    result = _build(config, jobs)
    rec = _page_record(result, place.page)
    if rec is None:
        raise click.BadParameter(f"no page '{shown(place.page)}' was built", param_hint="PAGE")
    link = link_at(rec, place.line, place.column)
    if link is None:
        starts = link_lines(rec)
        lines = ", ".join(map(str, starts[:20])) + (", …" if len(starts) > 20 else "") or "none"
        raise click.BadParameter(
            f"no link at {rec.path}:{place.line}"
            + (f":{place.column}" if place.column else "")
            + f" (the page's links start on lines: {lines})",
            param_hint="PAGE:LINE[:COL]",
        )
    traced = LinkInputs.of(result).trace(rec, link)
    data = explanation(rec.path, link, traced)
    click.echo(explanation_json(data) if as_json else explanation_text(data), nl=False)


def _page_record(result: BuildResult, page: str) -> PageRecord | None:
    """PAGE as written: a page's repository path, a path from the content folder, or its
    node id (``/guides/a.md``)."""
    content = result.config.content_rel
    wanted = page.strip().removeprefix("./")
    candidates = {wanted, f"{content}/{wanted.lstrip('/')}" if content else wanted.lstrip("/")}
    return next((p for p in result.pages if p.path in candidates), None)
