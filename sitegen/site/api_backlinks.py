"""The backlinks of each API entry, shown on its page after the entry's docstring: the pages
that document it (link to it or autoref it), the source files whose docstrings name it, its
users and importers from the code graph, and its bases and subclasses
(content/guides/api-reference.md).

Read from the finished graph, the link step's entries and the code graph; never reads files
and never changes the graph.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sitegen.base.paths import NodeId, OutPath, SitePath, is_source_node, source_repo_path
from sitegen.graph.model import Edge, Graph, NodeKind, annotate
from sitegen.link.api_entries import symbol_node
from sitegen.records.linked import ApiEntries, ApiEntry
from sitegen.site.backlinks import backlink_groups
from sitegen.site.views import BacklinkEntry, BacklinkGroup

if TYPE_CHECKING:
    from sitegen.site.state import SiteState

DOCUMENTED_IN = "Documented in"
FROM_CODE = "Named in docstrings"
USED_BY = "Used by"
IMPORTED_BY = "Imported by"
BASES = "Bases"
SUBCLASSES = "Subclasses"
#: The predicate of a class's edge to each of its bases (sitegen/link/step.py, ``link_api``).
INHERITS = "inherits"


@dataclass(frozen=True)
class EntryBacklinks:
    """What links to one entry of a page, by group (empty groups left out)."""

    id: str
    groups: tuple[BacklinkGroup, ...]


@dataclass(frozen=True)
class CodeUses:
    """The code graph seen per symbol: who references it and who imports its file."""

    #: symbol node -> (file, referring symbol's name, line)
    used_by: Mapping[str, list[tuple[str, str, int]]]
    #: file -> (importing file, line)
    imported_by: Mapping[str, list[tuple[str, int]]]


def code_uses(code: Any) -> CodeUses:
    """References and imports of the code graph (sitegen/records/code_graph.py), by their target."""
    used: dict[str, list[tuple[str, str, int]]] = {}
    imported: dict[str, list[tuple[str, int]]] = {}
    if code is None:
        return CodeUses(used, imported)
    from sitegen.records.code_graph import EdgeKind

    for e in code.edges(EdgeKind.REFERENCE):
        src = code.file_of(e.src)
        if src is not None and e.dst in code.symbols:
            name = code.symbols[e.src].qualified_name if e.src in code.symbols else "(module)"
            used.setdefault(e.dst, []).append((src.path, name, e.line))
    for e in code.edges(EdgeKind.IMPORT):
        src, dst = code.file_of(e.src), code.file_of(e.dst)
        if src is not None and dst is not None and src.path != dst.path:
            imported.setdefault(dst.path, []).append((src.path, e.line))
    return CodeUses(used, imported)


@dataclass(frozen=True)
class _Place:
    """What the groups of one page need: the graph, titles, and hrefs from the page."""

    graph: Graph
    entries: ApiEntries
    titles: Mapping[str, str]
    source_href: Callable[[str, int], str]
    entry_href: Callable[[ApiEntry], str]
    edge_href: Callable[[Edge], str]


def entry_backlinks(
    entries: Iterable[ApiEntry], place: _Place, uses: CodeUses
) -> tuple[EntryBacklinks, ...]:
    """The groups of each entry, in page order."""
    model = place.entries.model
    found = []
    for entry in entries:
        node = symbol_node(model, entry.canonical)
        incoming = place.graph.backlinks_of(node)
        groups = [
            *_documented_in(entry, incoming, place),
            *_group(FROM_CODE, "from-code", _from_code(incoming, place)),
            *_group(USED_BY, "used-by", _used_by(node, uses, place)),
            *_group(IMPORTED_BY, "imported-by", _imported_by(node, uses, place)),
            *_group(BASES, "bases", _related(place.graph.edges_from(node), place, out=True)),
            *_group(SUBCLASSES, "subclasses", _related(incoming, place, out=False)),
        ]
        if groups:
            found.append(EntryBacklinks(entry.id, tuple(groups)))
    return tuple(found)


def _group(heading: str, group_id: str, entries: tuple[BacklinkEntry, ...]) -> list[BacklinkGroup]:
    return [BacklinkGroup(heading, "", entries, group_id=group_id)] if entries else []


def _documented_in(entry: ApiEntry, incoming: list[Edge], place: _Place) -> list[BacklinkGroup]:
    """The pages that link to the entry or autoref it, each with its section and label, in
    the house format (``Install ("home", #step-1, x3)``); typed relations keep their groups."""
    docs = [
        e
        for e in incoming
        if not is_source_node(e.src)
        and e.rel not in ("documents", INHERITS)
        and e.src != entry.page
    ]
    groups = backlink_groups(docs, place.titles, place.edge_href)
    return [
        BacklinkGroup(DOCUMENTED_IN, "", g.entries, group_id="documented-in") if not g.rel else g
        for g in groups
    ]


def _from_code(incoming: list[Edge], place: _Place) -> tuple[BacklinkEntry, ...]:
    found = [e for e in incoming if is_source_node(e.src)]
    return tuple(
        BacklinkEntry(
            title=f"{source_repo_path(e.src)}:{_line(e)}",
            href=place.edge_href(e),
            annotation=annotate(e),
            source=e.src,
        )
        for e in sorted(found, key=lambda e: (e.src, _line(e)))
    )


def _used_by(node: str, uses: CodeUses, place: _Place) -> tuple[BacklinkEntry, ...]:
    return tuple(
        BacklinkEntry(
            title=f"{name} ({path})",
            href=place.source_href(path, line),
            annotation="",
            source=SitePath.source(path).node,
        )
        for path, name, line in sorted(set(uses.used_by.get(node, ())))
    )


def _imported_by(node: str, uses: CodeUses, place: _Place) -> tuple[BacklinkEntry, ...]:
    """The files that import a module's file (a module's node is its file's: ``python:x.py``)."""
    language, _, path = node.partition(":")
    if language != "python" or "::" in path:
        return ()
    return tuple(
        BacklinkEntry(
            title=src,
            href=place.source_href(src, line),
            annotation="",
            source=SitePath.source(src).node,
        )
        for src, line in sorted(set(uses.imported_by.get(path, ())))
    )


def _related(edges: list[Edge], place: _Place, *, out: bool) -> tuple[BacklinkEntry, ...]:
    """Bases (``out``) or subclasses: each by its path, linked to its entry when one is shown."""
    found = []
    for e in edges:
        if e.rel != INHERITS:
            continue
        other = e.dst if out else e.src
        name = place.graph.nodes[other].title if other in place.graph.nodes else other
        shown = place.entries.by_canonical.get(name)
        href = place.entry_href(shown) if shown is not None else ""
        found.append(BacklinkEntry(title=name, href=href, annotation="", source=other))
    return tuple(sorted(found, key=lambda b: b.title))


def _line(edge: Edge) -> int:
    return edge.occurrences[0].line if edge.occurrences else 0


# --- on the page -------------------------------------------------------------------------


def page_entry_backlinks(site: SiteState, node: NodeId, out: OutPath) -> tuple[EntryBacklinks, ...]:
    """The backlinks of every entry the page ``node`` shows (none for a page without any)."""
    linked = site.result.linked
    if linked.api is None or not linked.entries:
        return ()
    on_page = linked.entries.on_page(node)
    if not on_page:
        return ()
    from sitegen.site.state import edge_source_href, href_for_node

    graph, addresses = site.graph, site.addresses
    place = _Place(
        graph=graph,
        entries=linked.entries,
        titles=site.titles,
        source_href=lambda path, line: href_for_node(
            SitePath.source(path).node, f"L{line}" if line else "", out, NodeKind.SOURCE, addresses
        ),
        entry_href=lambda e: href_for_node(e.page, e.id, out, NodeKind.PAGE, addresses),
        edge_href=lambda e: edge_source_href(e, out, graph, addresses),
    )
    return entry_backlinks(on_page, place, _uses_of(site))


_USES: dict[int, tuple[Any, CodeUses]] = {}


def _uses_of(site: SiteState) -> CodeUses:
    """The code graph's uses, computed once per build (held with the graph they come from)."""
    code = site.result.code
    held = _USES.get(id(code))
    if held is None or held[0] is not code:
        _USES.clear()
        held = _USES[id(code)] = (code, code_uses(code))
    return held[1]


def with_entry_backlinks(
    body: str, sections: Iterable[EntryBacklinks], render: Callable[[EntryBacklinks], str]
) -> str:
    """``body`` with each entry's section placed after the entry's docstring: before the next
    heading that follows the entry's own heading (or hidden root), else at the end."""
    places: list[tuple[int, str]] = []
    for section in sections:
        at = body.find(f'id="{html.escape(section.id, quote=True)}"')
        if at < 0:
            continue
        start = body.find(">", at) + 1
        if _is_heading(body, at):  # after the heading's own end tag
            start = body.find(">", body.find("</h", start)) + 1 or len(body)
        places.append((_next_heading(body, start), render(section)))
    out, last = [], 0
    for at, text in sorted(places, key=lambda p: p[0]):
        out += [body[last:at], text]
        last = at
    return "".join(out) + body[last:]


def _is_heading(body: str, at: int) -> bool:
    """Whether the element holding the id at ``at`` is a heading (not a hidden root's <a>)."""
    opened = body.rfind("<", 0, at)
    return body[opened + 1 : opened + 2] == "h" and body[opened + 2 : opened + 3].isdigit()


def _next_heading(body: str, start: int) -> int:
    found = [body.find(f"<h{level}", start) for level in range(1, 7)]
    found = [f for f in found if f >= 0]
    return min(found) if found else len(body)
