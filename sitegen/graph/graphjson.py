"""graph.json v1 (content/reference/graph-json.md): the document graph as sorted JSON, and back.

Pure text in, text out: this module never touches the file system and never mutates a graph.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from sitegen.base.diagnostics import cut
from sitegen.base.paths import NodeId
from sitegen.graph.model import Edge, Graph, Node, NodeKind, Occurrence
from sitegen.state.caches import GRAPH_JSON_VERSION as SCHEMA_VERSION
from sitegen.state.files import Unreadable, parse_json

#: Keys a node object always carries; an analysis figure may not reuse them.
_NODE_KEYS = ("id", "kind", "title")
#: Counts, offsets, lines and columns are 64-bit (what SQLite and numpy hold).
_INT_LIMIT = 1 << 63

Figures = Mapping[str, Mapping[str, Any]]


class GraphJsonError(ValueError):
    """A graph.json text that is not valid JSON or not schema v1."""


def dump_graph_json(graph: Graph, figures: Figures | None = None) -> str:
    """The graph as graph.json v1: nodes by id, edges by ``(from, to, rel)``, one trailing newline.

    ``figures`` maps a node id to extra values (PageRank, community, …) written flat into
    that node's object, keys sorted. Non-finite numbers are refused: JSON has none.
    """
    return "".join(graph_json_pieces(graph, figures))


def graph_json_pieces(graph: Graph, figures: Figures | None = None) -> Iterator[str]:
    """``dump_graph_json``'s text in pieces (a line each), made as they are consumed: a
    writer that takes them one at a time never holds the whole text, nor every node and
    edge as a JSON object at once. Raises ``GraphJsonError`` as it reaches a bad figure."""
    figures = figures or {}
    # One node or edge per line: diff-friendly, and fast (an indent would force json's
    # pure-Python encoder; each line here goes through the C one).
    dumps = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(", ", ": ")).encode
    yield '{"version": ' + str(SCHEMA_VERSION) + ',\n "nodes": ['
    try:
        nodes = (_node_obj(graph.nodes[nid], figures.get(nid, {})) for nid in sorted(graph.nodes))
        yield from _lines(dumps, nodes)
        yield '],\n "edges": ['
        yield from _lines(dumps, (_edge_obj(e) for e in graph.edges()))
    except ValueError as err:
        if isinstance(err, GraphJsonError):
            raise
        raise GraphJsonError(f"graph.json cannot hold a non-finite figure: {err}") from None
    yield "]\n}\n"


def _lines(dumps: Callable[[Any], str], items: Iterator[dict[str, Any]]) -> Iterator[str]:
    """``\n  item,\n  item\n `` (nothing for no items), a line per piece."""
    first = True
    for item in items:
        yield ("\n  " if first else ",\n  ") + dumps(item)
        first = False
    if not first:
        yield "\n "


def _node_obj(node: Node, extra: Mapping[str, Any]) -> dict[str, Any]:
    obj: dict[str, Any] = {"id": node.id, "kind": str(node.kind), "title": node.title}
    for key in sorted(extra):
        if key in _NODE_KEYS:
            raise GraphJsonError(
                f"figure {key!r} of node {node.id} would overwrite the node's own field"
            )
        obj[key] = extra[key]
    return obj


def _edge_obj(edge: Edge) -> dict[str, Any]:
    """Only ``from``/``to`` always; the other fields when non-empty, ``count`` when > 1."""
    obj: dict[str, Any] = {"from": edge.src, "to": edge.dst}
    for key, value in (("rel", edge.rel), ("label", edge.label), ("anchor", edge.anchor)):
        if value:
            obj[key] = value
    if edge.count > 1:
        obj["count"] = edge.count
    if edge.occurrences:
        obj["occurrences"] = [_occurrence_obj(o) for o in sorted(edge.occurrences)]
    return obj


def _occurrence_obj(occ: Occurrence) -> dict[str, Any]:
    obj: dict[str, Any] = {"offset": occ.offset, "line": occ.line, "column": occ.column}
    if occ.fragment:
        obj["fragment"] = occ.fragment
    return obj


def load_graph_json(text: str | bytes) -> Graph:
    """Parse graph.json v1, including files written before rel/label/anchor/count existed.

    A missing ``version`` is read as 1 (the oldest files had none); missing fields take
    their defaults (count 1); unknown keys are ignored. Raises ``GraphJsonError``.
    """
    doc = _parse_doc(text)
    graph = Graph()
    for i, raw in enumerate(_list_field(doc, "nodes")):
        graph.add_node(_node_from(raw, i))
    for i, raw in enumerate(_list_field(doc, "edges")):
        graph.add_edge(_edge_from(raw, i))
    return graph


def load_figures(text: str) -> dict[str, dict[str, Any]]:
    """The extra per-node values of a graph.json (everything but id, kind and title)."""
    doc = _parse_doc(text)
    out: dict[str, dict[str, Any]] = {}
    for i, raw in enumerate(_list_field(doc, "nodes")):
        node = _node_from(raw, i)
        extra = {k: v for k, v in raw.items() if k not in _NODE_KEYS}
        if extra:
            out[node.id] = extra
    return out


def _parse_doc(text: str | bytes) -> dict[str, Any]:
    """The document, or ``GraphJsonError``: not UTF-8, not JSON, nested too deep, a number
    that is not finite or a lone surrogate (sitegen/state/files.py), or not an object of v1."""
    try:
        doc = parse_json(text)
    except Unreadable as err:
        raise GraphJsonError(f"graph.json is {err}") from None
    if not isinstance(doc, dict):
        raise GraphJsonError("graph.json must hold a JSON object")
    version = doc.get("version", SCHEMA_VERSION)
    if version != SCHEMA_VERSION:
        raise GraphJsonError(
            f"graph.json has schema version {cut(repr(version))}; "
            f"this sitegen reads version {SCHEMA_VERSION}"
        )
    return doc


def _list_field(doc: dict[str, Any], key: str) -> list[dict[str, Any]]:
    value = doc.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise GraphJsonError(f"graph.json field {key!r} must be a list of objects")
    return value


def _node_from(raw: dict[str, Any], index: int) -> Node:
    node_id = _str(raw, "id", f"node {index}", required=True)
    try:
        kind = NodeKind(raw.get("kind", ""))
    except ValueError:
        raise GraphJsonError(
            f"node {cut(node_id)} has unknown kind {cut(repr(raw.get('kind')))}"
        ) from None
    return Node(NodeId(node_id), kind, _str(raw, "title", f"node {node_id}"))


def _edge_from(raw: dict[str, Any], index: int) -> Edge:
    where = f"edge {index}"
    count = _int(raw, "count", where, default=1)
    if count < 1:
        raise GraphJsonError(f"{where} has count {count}; a count is a positive integer")
    occurrences = raw.get("occurrences", [])
    if not isinstance(occurrences, list):
        raise GraphJsonError(f"{where} field 'occurrences' must be a list")
    return Edge(
        src=NodeId(_str(raw, "from", where, required=True)),
        dst=NodeId(_str(raw, "to", where, required=True)),
        rel=_str(raw, "rel", where),
        label=_str(raw, "label", where),
        anchor=_str(raw, "anchor", where),
        count=count,
        occurrences=[_occurrence_from(o, where) for o in occurrences],
    )


def _occurrence_from(raw: Any, where: str) -> Occurrence:
    if not isinstance(raw, dict):
        raise GraphJsonError(f"{where} has an occurrence that is not an object")
    offset, line, column = (
        _int(raw, key, f"an occurrence of {where}") for key in ("offset", "line", "column")
    )
    return Occurrence(offset, line, column, _str(raw, "fragment", where))


def _int(raw: dict[str, Any], key: str, where: str, default: int | None = None) -> int:
    value = raw.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or abs(value) >= _INT_LIMIT:
        raise GraphJsonError(f"{where} needs a 64-bit integer {key!r}, not {cut(repr(value))}")
    return value


def _str(raw: dict[str, Any], key: str, where: str, required: bool = False) -> str:
    value = raw.get(key, "")
    if not isinstance(value, str) or (required and not value):
        raise GraphJsonError(
            f"{where} needs a {'non-empty ' if required else ''}string {cut(repr(key))}"
        )
    return value
