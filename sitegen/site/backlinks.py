"""Backlinks of one node, grouped for reading: typed relations first, then plain links.

The same groups feed the HTML section and the ``sitegen backlinks PAGE`` text. This module
never reads the graph store, never renders HTML and never changes the edges it is given.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from sitegen.graph.model import Edge, edge_annotation
from sitegen.site.views import BacklinkEntry, BacklinkGroup

PLAIN_HEADING = "Linked from"

#: Predicates whose human form, seen from the target, is not made by the rules below.
#: SPEC §1 wording ("Depends on this") wins over SITE.md ("Depended on by").
_FIXED_HEADINGS = {
    "supersedes": "Superseded by",
    "depends-on": "Depends on this",
    "implements": "Implemented by",
    "see-also": "See also",
    "related": "Related",
    "related-to": "Related",
    "relates-to": "Related",
    "refers-to": "Referred to by",
    "breaks": "Broken by",
    "overrides": "Overridden by",
    "writes": "Written by",
    "embeds": "Embedded by",
}


_NOT_VERB_ENDINGS = ("ss", "us", "is", "as", "os")


def _participle(verb_s: str) -> str | None:
    """``supersedes`` -> ``superseded``; ``fixes`` -> ``fixed``; None when not a verb form."""
    if len(verb_s) < 4 or not verb_s.endswith("s") or verb_s.endswith(_NOT_VERB_ENDINGS):
        return None
    if verb_s.endswith("ies"):
        return verb_s[:-3] + "ied"
    if verb_s.endswith(("xes", "ches", "shes", "sses", "zzes")):
        return verb_s[:-2] + "ed"
    stem = verb_s[:-1]
    if stem.endswith(("mit", "rol")):  # commits -> committed, controls -> controlled
        return stem + stem[-1] + "ed"
    return stem + "d" if stem.endswith("e") else stem + "ed"


def relation_heading(predicate: str) -> str:
    """The heading of a typed relation as the target page reads it.

    A third-person verb becomes passive (``replaces`` -> "Replaced by"); a phrase is put in
    words followed by "this" (``part-of`` -> "Part of this"), which reads the right way round
    from the target, like SPEC §1's "Depends on this"; any other word is just capitalized.
    """
    if predicate in _FIXED_HEADINGS:
        return _FIXED_HEADINGS[predicate]
    words = predicate.replace("_", "-").split("-")
    words = [w for w in words if w]
    if not words:
        return PLAIN_HEADING
    if len(words) == 1:
        participle = _participle(words[0])
        return participle.capitalize() + " by" if participle else words[0].capitalize()
    return " ".join(words).capitalize() + " this"


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
