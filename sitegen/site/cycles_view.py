"""``/cycles.html``'s view: the cycle report as plain values with each link's href, for
``templates/cycles.html`` (content/guides/cycles.md).

Formats ``sitegen.analyse.reports``' findings and links them; never looks for cycles itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sitegen.analyse.reports import (
    KIND_NOUN,
    confidence_text,
    edge_kind_words,
    pair_edges,
    reexport_words,
    summary_sentence,
    unit_title,
)
from sitegen.base.paths import NodeId, OutPath, SitePath, href_between, html_out_path
from sitegen.graph.dependencies import DepEdge
from sitegen.records.analysis import CodeCycles, CycleReport, CyclicUnit

#: ``href(path, line)``: link from the cycles page to a source file's line (0: the file).
PathLineHref = Callable[[str, int], str]
#: ``href(node_id)``: link from the cycles page to a page of the site.
NodeHref = Callable[[str], str]

CYCLES_PAGE = OutPath("cycles.html")


def cycle_anchor(index: int) -> str:
    """The id of cyclic unit ``index`` (0-based, as in ``membership``) on ``/cycles.html``."""
    return f"cycle-{index + 1}"


def source_href(path: str, line: int) -> str:
    """Default link from ``/cycles.html`` to ``code/<path>.html#L<line>``, percent-encoded
    (a ``#`` or a space in a file name must not end the path)."""
    return SitePath.source(path).href_from(CYCLES_PAGE, f"L{line}" if line > 0 else "")


def page_href(node: str) -> str:
    """Default link from ``/cycles.html`` to a page node's HTML, percent-encoded."""
    return href_between(CYCLES_PAGE, html_out_path(NodeId(node)))


def cycles_view(
    result: CycleReport,
    href_for_path_line: PathLineHref = source_href,
    href_for_node: NodeHref = page_href,
) -> dict[str, Any]:
    """Everything ``templates/cycles.html`` shows, as plain values with precomputed hrefs.

    ``href_for_path_line(path, line)`` links a source file's line (line 0: the file itself);
    ``href_for_node(node_id)`` links a page. Both must be relative to ``/cycles.html``.
    """
    code = result.code
    independent = set(code.independent)
    return {
        "summary": summary_sentence(result),
        "code_cycles": [
            _unit_view(i, u, href_for_path_line, code) for i, u in enumerate(code.cyclic)
        ],
        "deploy_order": [
            {**_unit_link(p, href_for_path_line, code), "independent": p in independent}
            for p in code.deploy_order
        ],
        "independent": [_unit_link(p, href_for_path_line, code) for p in code.independent],
        "internal": [
            {
                "unit": c.unit,
                "kind": KIND_NOUN.get(c.kind, c.kind),
                "members": [_file_link(m, href_for_path_line) for m in c.members],
            }
            for c in code.internal
        ],
        "recursion": [_recursion_view(u, href_for_path_line) for u in code.symbol_cyclic],
        "relations": [
            {
                "predicate": p,
                "cycles": [
                    [{"id": n, "href": href_for_node(n)} for n in members] for members in units
                ],
            }
            for p, units in sorted(result.relations.items())
        ],
    }


def _file_link(path: str, href: PathLineHref) -> dict[str, str]:
    return {"path": path, "href": href(path, 0)}


def _unit_link(unit: str, href: PathLineHref, code: CodeCycles) -> dict[str, str]:
    """A unit links to its first file (a crate: its root; a package: the first by path)."""
    kind = code.kind_of(unit)
    return {
        "path": unit,
        "href": href(code.files_of(unit)[0], 0),
        "kind": "" if kind == "file" else KIND_NOUN.get(kind, kind),
    }


def _edge_view(edge: DepEdge, breaks: set[tuple[str, str]], href: PathLineHref) -> dict[str, Any]:
    return {
        "src": edge.src,
        "dst": edge.dst,
        "kind": edge_kind_words(edge),
        "line": edge.line,
        "confidence": confidence_text(edge.confidence),
        "count": edge.count,
        "href": href(edge.src_file or edge.src, edge.line),
        "breaks": (edge.src, edge.dst) in breaks,
    }


def _unit_view(
    index: int, unit: CyclicUnit, href: PathLineHref, code: CodeCycles
) -> dict[str, Any]:
    breaks = set(unit.breaks)
    return {
        "number": index + 1,
        "anchor": cycle_anchor(index),
        "title": unit_title(unit),
        "self_loop": unit.self_loop,
        "unit_kind": unit.kind,
        "members": [_unit_link(m, href, code) for m in unit.members],
        "example": list(unit.example),
        "edges": [_edge_view(e, breaks, href) for e in unit.edges],
        "breaks": [
            {
                "src": s,
                "dst": d,
                "edges": [_edge_view(e, breaks, href) for e in pair_edges(unit, s, d)],
                "reexport": reexport_words(found) if (found := unit.reexport(s, d)) else "",
            }
            for s, d in unit.breaks
        ],
    }


def _recursion_view(unit: CyclicUnit, href: PathLineHref) -> dict[str, Any]:
    breaks = set(unit.breaks)
    return {
        "kind": "recursion" if unit.self_loop else "mutual recursion",
        "members": list(unit.members),
        "edges": [_edge_view(e, breaks, href) for e in unit.edges],
    }
