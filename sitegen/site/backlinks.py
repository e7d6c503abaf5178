"""Backlinks of one node, grouped for reading: typed relations first, then plain links.

The same groups feed the HTML section and the ``sitegen backlinks PAGE`` text. This module
never reads the graph store, never renders HTML and never changes the edges it is given.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from sitegen.base.paths import NodeId
from sitegen.graph.model import Edge, edge_annotation
from sitegen.graph.relations import PLAIN_HEADING, relation_heading
from sitegen.records.federation import Federation
from sitegen.site.views import BacklinkEntry, BacklinkGroup

#: The heading of the backlinks from other sites' pages (content/guides/federation.md).
PEERS_HEADING = "Linked from other sites"


def _entry(edge: Edge, titles: Mapping[str, str], href_for: Callable[[Edge], str]) -> BacklinkEntry:
    return BacklinkEntry(
        title=titles.get(edge.src) or str(edge.src),
        href=href_for(edge),
        annotation=edge_annotation(edge.rel, edge.label, edge.anchor, edge.count),
        rel=edge.rel,
        source=str(edge.src),
    )


def backlink_groups(
    edges: Iterable[Edge], titles: Mapping[str, str], href_for: Callable[[Edge], str]
) -> tuple[BacklinkGroup, ...]:
    """Group the edges INTO one node: typed relations sorted by predicate, then plain links.

    One entry per edge, sorted by title (case-insensitively, then exactly) and href;
    ``href_for`` gives the link to the source's exact section (``page.html#anchor``),
    relative to the page shown.
    """
    by_rel: dict[str, list[BacklinkEntry]] = {}
    for edge in edges:
        by_rel.setdefault(edge.rel, []).append(_entry(edge, titles, href_for))
    groups = []
    for rel in sorted(r for r in by_rel if r) + ([""] if "" in by_rel else []):
        # Case-insensitive first, as a reader scans a list; the exact title and href break ties.
        entries = sorted(by_rel[rel], key=lambda e: (e.title.casefold(), e.title, e.href))
        heading = relation_heading(rel) if rel else PLAIN_HEADING
        groups.append(BacklinkGroup(heading=heading, rel=rel, entries=tuple(entries)))
    return tuple(groups)


def peer_groups(federation: Federation, node: NodeId) -> tuple[BacklinkGroup, ...]:
    """The "Linked from other sites" group of ``node``, or none: one entry per edge from a
    peer's page, with the linking page's title, its EdgeAnnotation (a typed relation keeps
    its predicate) and the peer site's name; sorted by site, then title and URL."""
    entries = [
        BacklinkEntry(
            title=federation.graph.title_of(e.src),
            href=federation.hrefs.get(e.src, ""),
            annotation=edge_annotation(e.rel, e.label, e.anchor, e.count),
            rel=e.rel,
            detail=f"on {federation.site_of.get(e.src, '')}",
            source=str(e.src),
        )
        for e in federation.graph.backlinks_of(node)
    ]
    if not entries:
        return ()
    entries.sort(key=lambda e: (e.detail.casefold(), e.title.casefold(), e.title, e.href, e.rel))
    return (BacklinkGroup(PEERS_HEADING, "", tuple(entries), group_id="peers"),)


def format_backlinks_text(
    groups: Iterable[BacklinkGroup], page: str = "", empty: str = "No pages link here."
) -> str:
    """The groups as plain text for the terminal, one entry per line::

    Superseded by (1)
      ADR 0003 [supersedes] -> /adr/0003.md
    """
    groups = list(groups)
    lines = [f"Backlinks of {page}"] if page else []
    if not groups:
        return "\n".join(lines + [empty]) + "\n"
    for group in groups:
        lines.append(f"{group.heading} ({group.count})")
        for e in group.entries:
            target = e.source or e.href
            detail = f" {e.detail}" if e.detail else ""
            lines.append(f"  {e.title}{e.annotation}{detail} -> {target}")
    return "\n".join(lines) + "\n"
