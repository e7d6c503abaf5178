"""What links here, for one page or source file: the groups its published "Linked from" and
"Referenced by" sections show, as data for ``sitegen backlinks`` (text or JSON).

Built from the same edges and the same grouping as the HTML sections
(sitegen/site/outputs/pages.py, sitegen/site/code_pages.py); never reads files, never renders
HTML, never changes the graph.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from sitegen.base.paths import (
    NodeId,
    SitePath,
    is_source_node,
    source_repo_path,
)
from sitegen.graph.model import Edge, annotate
from sitegen.site.backlinks import backlink_groups, peer_groups
from sitegen.site.views import BacklinkEntry, BacklinkGroup

if TYPE_CHECKING:
    from sitegen.records.result import BuildResult

#: The headings of the groups that are not document links, as the source page names them.
DOCUMENTED_BY = "Documented by"
FROM_CODE = "Referenced from code"
IMPORTED_BY = "Imported by"
SYMBOLS_USED = "Symbols used from other files"


def _titles(result: BuildResult) -> dict[str, str]:
    return {n: x.title or n for n, x in result.graph.nodes.items()}


def _where(edge: Edge) -> str:
    return edge.src + ("#" + edge.anchor if edge.anchor else "")


def what_links_here(result: BuildResult, node: NodeId) -> tuple[BacklinkGroup, ...]:
    """The groups of ``node``'s backlinks section, in the order the page shows them."""
    titles = _titles(result)
    incoming = result.graph.backlinks_of(node)
    docs = [e for e in incoming if not is_source_node(e.src)]
    code = [e for e in incoming if is_source_node(e.src)]
    if not is_source_node(node):  # a page: relations and links, then "Referenced from code"
        groups = list(backlink_groups(docs, titles, _where))
        groups += peer_groups(result.federation, node)
        refs = tuple(
            BacklinkEntry(
                title=f"{source_repo_path(e.src)}:{_line(e)}",
                href="",
                annotation=annotate(e),
                source=e.src,
            )
            for e in code
        )
        return tuple(groups + _group(FROM_CODE, refs))
    documented = tuple(
        BacklinkEntry(
            title=titles.get(e.src, e.src), href="", annotation=annotate(e), rel=e.rel, source=e.src
        )
        for e in sorted(docs, key=lambda e: (titles.get(e.src, e.src), e.src))
    )
    groups = _group(DOCUMENTED_BY, documented) + list(backlink_groups(code, titles, _where))
    return tuple(groups + _code_groups(result, source_repo_path(node)))


def _line(edge: Edge) -> int:
    return edge.occurrences[0].line if edge.occurrences else 0


def _group(heading: str, entries: tuple[BacklinkEntry, ...]) -> list[BacklinkGroup]:
    return [BacklinkGroup(heading=heading, rel="", entries=entries)] if entries else []


def _code_groups(result: BuildResult, path: str) -> list[BacklinkGroup]:
    """Importers and symbol users of one source file, from the code graph."""
    from sitegen.site.code_pages import code_index_of, import_note

    index = code_index_of(result.code)
    importers = tuple(
        BacklinkEntry(
            title=src,
            href="",
            annotation="",
            detail=import_note(line, context),
            source=SitePath.source(src).node,
        )
        for src, line, context in sorted(index.imported_by.get(path, []))
    )
    users = tuple(
        BacklinkEntry(
            title=f"{name} ({src})", href="", annotation="", source=SitePath.source(src).node
        )
        for src, name in sorted(index.refs_in.get(path, set()))
    )
    return _group(IMPORTED_BY, importers) + _group(SYMBOLS_USED, users)


def what_links_here_json(node: NodeId, groups: tuple[BacklinkGroup, ...]) -> str:
    """``{"node": …, "groups": [{"heading", "rel", "entries": [{"title", "source",
    "annotation", "detail"}]}]}``, in the order of the page."""
    data: dict[str, Any] = {
        "node": node,
        "groups": [
            {
                "heading": g.heading,
                "rel": g.rel,
                "entries": [
                    {
                        "title": e.title,
                        "source": e.source,
                        "annotation": e.annotation,
                        "detail": e.detail,
                    }
                    for e in g.entries
                ],
            }
            for g in groups
        ],
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
