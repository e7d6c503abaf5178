"""The Dgraph sink (content/reference/serialization.md): the code graph as N-Quads, and back.

Edges become uid predicates (``<imports>``, ``<references>``, ``<owns>``, ``<flows_to>``) with
facets ``(confidence=0.9, line=3)``. Pure text in, text out; never touches the file system.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from sitegen.base.languages import LangId
from sitegen.code.serialize import numeric_ids
from sitegen.records.code import Range, SymbolKind, Visibility
from sitegen.records.code_graph import (
    CodeEdge,
    CodeGraph,
    DataNode,
    DataScope,
    EdgeKind,
    ExternalNode,
    FileNode,
    Node,
    SymbolNode,
)

EDGE_PREDICATES = {
    EdgeKind.IMPORT: "imports",
    EdgeKind.REFERENCE: "references",
    EdgeKind.OWNERSHIP: "owns",
    EdgeKind.FLOW: "flows_to",
}
_EDGE_KINDS = {v: k for k, v in EDGE_PREDICATES.items()}
_TYPES = {
    "file": "CodeFile",
    "symbol": "CodeSymbol",
    "external": "CodeExternal",
    "data": "CodeData",
}
_RANGE_FIELDS = ("start_byte", "end_byte", "start_line", "end_line")
SNAPSHOT_NODE = "_:snapshot"


class NQuadsError(ValueError):
    """A line that is not an N-Quad this sink writes, or a graph that does not hold together."""


def dgraph_schema() -> str:
    """A DQL schema for the predicates (``dgraph live -s``): indexes for lookups by path/name."""
    strings = [
        "endpoint",
        "kind",
        "path",
        "language",
        "name",
        "qualified_name",
        "symbol_kind",
        "visibility",
        "file_path",
        "scope",
        "type_hint",
        "snapshot_id",
    ]
    ints = [*_RANGE_FIELDS, *("name_" + f for f in _RANGE_FIELDS), "line"]
    lines = [f"<{p}>: string @index(exact) ." for p in strings]
    lines += [f"<{p}>: int ." for p in ints]
    lines += [f"<{p}>: [uid] @reverse ." for p in sorted(_EDGE_KINDS)]
    lines += ["<file>: uid @reverse .", "<symbol>: uid ."]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- writing


def quote(text: str) -> str:
    """An N-Quads string literal: ECHAR escapes, ``\\uXXXX`` for other controls/surrogates."""
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch in _ECHAR:
            out.append(_ECHAR[ch])
        elif code < 0x20 or code == 0x7F or 0xD800 <= code <= 0xDFFF:
            out.append(f"\\u{code:04X}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


_ECHAR = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


def _int(value: int) -> str:
    return f'"{value}"^^<xs:int>'


def to_nquads(graph: CodeGraph) -> str:
    """One quad per line, nodes in serialization order, then edges sorted; deterministic."""
    ids = numeric_ids(graph)
    lines = [
        f'{SNAPSHOT_NODE} <dgraph.type> "CodeSnapshot" .',
        f"{SNAPSHOT_NODE} <snapshot_id> {quote(graph.snapshot_id)} .",
    ]
    for endpoint, num in ids.items():
        subject = f"_:n{num}"
        lines += [
            f"{subject} <{p}> {o} ." for p, o in _node_quads(graph, graph.node(endpoint), ids)
        ]
    edges = sorted(graph.edges(), key=lambda e: (ids[e.src], ids[e.dst], str(e.kind)))
    lines += [_edge_quad(e, ids) for e in edges]
    return "\n".join(lines) + "\n"


def _node_quads(graph: CodeGraph, node: Node, ids: dict[str, int]) -> Iterator[tuple[str, str]]:
    kind = graph.node_kind(node.id)
    assert kind is not None, node.id
    yield "dgraph.type", quote(_TYPES[kind])
    yield "kind", quote(kind)
    yield "endpoint", quote(node.id)
    if isinstance(node, FileNode):
        yield from (
            ("path", quote(node.path)),
            ("language", quote(str(node.language))),
            ("snapshot_id", quote(node.snapshot_id)),
        )
    elif isinstance(node, SymbolNode):
        yield from (
            ("name", quote(node.name)),
            ("qualified_name", quote(node.qualified_name)),
            ("symbol_kind", quote(str(node.kind))),
            ("file", f"_:n{ids[node.file_id]}"),
            ("file_path", quote(graph.files[node.file_id].path)),
        )
        if node.visibility is not None:
            yield "visibility", quote(str(node.visibility))
        yield from _range_quads("", node.source_range)
        yield from _range_quads("name_", node.name_range)
    elif isinstance(node, ExternalNode):
        yield from (("name", quote(node.name)), ("language", quote(str(node.language))))
    else:
        yield from (
            ("name", quote(node.name)),
            ("scope", quote(str(node.scope))),
            ("line", _int(node.line)),
        )
        if node.type_hint is not None:
            yield "type_hint", quote(node.type_hint)
        if node.symbol_id is not None:
            yield "symbol", f"_:n{ids[node.symbol_id]}"
        if node.file_id:
            yield "file", f"_:n{ids[node.file_id]}"


def _range_quads(prefix: str, r: Range | None) -> Iterator[tuple[str, str]]:
    if r is not None:
        for name in _RANGE_FIELDS:
            yield prefix + name, _int(getattr(r, name))


def _edge_quad(edge: CodeEdge, ids: dict[str, int]) -> str:
    """Facets: ``line`` always, ``confidence`` when finite (Dgraph has no NaN), ``flow_kind``,
    ``context`` (a deferred or type-only import's)."""
    facets = []
    if math.isfinite(edge.confidence):
        facets.append(f"confidence={float(edge.confidence)!r}")
    facets.append(f"line={edge.line}")
    if edge.flow_kind is not None:
        facets.append(f"flow_kind={quote(edge.flow_kind)}")
    if edge.context:
        facets.append(f"context={quote(edge.context)}")
    return (
        f"_:n{ids[edge.src]} <{EDGE_PREDICATES[edge.kind]}> _:n{ids[edge.dst]} "
        f"({', '.join(facets)}) ."
    )


# ---------------------------------------------------------------- reading

_TERM = r'(_:[A-Za-z0-9_.\-]+|<[^<>"{}|^`\\\s]*>|"(?:[^"\\]|\\.)*"(?:\^\^<[^>]*>|@[A-Za-z0-9\-]+)?)'
_QUAD = re.compile(rf"^\s*{_TERM}\s+{_TERM}\s+{_TERM}(?:\s+{_TERM})?\s*(?:\((.*)\))?\s*\.\s*$")
_FACET = re.compile(r'\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*("(?:[^"\\]|\\.)*"|[^,\s)]+)\s*(?:,|$)')
_UNESCAPE = re.compile(r"\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)")
_UNECHAR = {"t": "\t", "b": "\b", "n": "\n", "r": "\r", "f": "\f", '"': '"', "'": "'", "\\": "\\"}


@dataclass
class _Subject:
    values: dict[str, str] = field(default_factory=dict)
    links: dict[str, str] = field(default_factory=dict)


def unquote(literal: str) -> str:
    """The value of an N-Quads literal (typed or not)."""
    body = literal[1 : literal.rindex('"')]

    def one(m: re.Match[str]) -> str:
        esc = m.group(1)
        return chr(int(esc[1:], 16)) if esc[0] in "uU" and len(esc) > 1 else _UNECHAR.get(esc, esc)

    return _UNESCAPE.sub(one, body)


def _facets(text: str | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for m in _FACET.finditer(text or ""):
        value = m.group(2)
        out[m.group(1)] = unquote(value) if value.startswith('"') else value
    return out


def from_nquads(text: str) -> CodeGraph:
    """Parse N-Quads written by ``to_nquads`` (or hand-edited alike) back into a code graph."""
    subjects: dict[str, _Subject] = {}
    edges: list[tuple[str, str, str, dict[str, str]]] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = _QUAD.match(line)
        if m is None:
            raise NQuadsError(f"line {number}: not an N-Quad: {line[:80]!r}")
        subject, predicate, obj, _label, facets = m.groups()
        predicate = predicate[1:-1]
        if predicate in _EDGE_KINDS:
            edges.append((subject, predicate, obj, _facets(facets)))
        elif obj.startswith("_:"):
            subjects.setdefault(subject, _Subject()).links[predicate] = obj
        else:
            subjects.setdefault(subject, _Subject()).values[predicate] = unquote(obj)
    return _assemble(subjects, edges)


def _assemble(
    subjects: dict[str, _Subject], edges: list[tuple[str, str, str, dict[str, str]]]
) -> CodeGraph:
    snapshot = subjects.pop(SNAPSHOT_NODE, _Subject()).values.get("snapshot_id", "")
    graph = CodeGraph(snapshot_id=snapshot)
    endpoint = {blank: s.values.get("endpoint", blank) for blank, s in subjects.items()}
    try:
        for kind in ("file", "external", "symbol", "data"):
            for blank in sorted(b for b, s in subjects.items() if s.values.get("kind") == kind):
                _add_node(graph, kind, subjects[blank], endpoint)
        for src, predicate, dst, facets in edges:
            confidence = float(facets["confidence"]) if "confidence" in facets else math.nan
            graph.add_edge(
                CodeEdge(
                    endpoint[src],
                    endpoint[dst],
                    _EDGE_KINDS[predicate],
                    confidence,
                    int(facets.get("line", "0")),
                    facets.get("flow_kind"),
                    facets.get("context", ""),
                )
            )
    except (KeyError, ValueError) as err:
        raise NQuadsError(f"N-Quads do not describe a code graph: {err!r}") from None
    return graph


def _add_node(graph: CodeGraph, kind: str, s: _Subject, endpoint: dict[str, str]) -> None:
    v = s.values
    node_id = v["endpoint"]
    if kind == "file":
        graph.add_file(
            FileNode(node_id, v["path"], LangId(v["language"]), v.get("snapshot_id", ""))
        )
    elif kind == "external":
        graph.add_external(ExternalNode(node_id, v["name"], LangId(v["language"])))
    elif kind == "symbol":
        graph.add_symbol(
            SymbolNode(
                node_id,
                v["name"],
                v["qualified_name"],
                SymbolKind(v["symbol_kind"]),
                endpoint[s.links["file"]],
                Visibility(v["visibility"]) if "visibility" in v else None,
                _read_range("", v) or Range(0, 0, 0, 0),
                _read_range("name_", v),
            )
        )
    else:
        graph.add_data(
            DataNode(
                node_id,
                endpoint[s.links["symbol"]] if "symbol" in s.links else None,
                DataScope(v["scope"]),
                v.get("type_hint"),
                endpoint[s.links["file"]] if "file" in s.links else "",
                v.get("name", ""),
                int(v.get("line", "0")),
            )
        )


def _read_range(prefix: str, values: dict[str, str]) -> Range | None:
    if prefix + "start_byte" not in values:
        return None
    start_byte, end_byte, start_line, end_line = (int(values[prefix + f]) for f in _RANGE_FIELDS)
    return Range(start_byte, end_byte, start_line, end_line)
