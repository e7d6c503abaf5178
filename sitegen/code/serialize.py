"""``/code-graph.json`` version 2 (content/reference/serialization.md), with local numeric ids.

Pure text in, text out, deterministic (nodes and edges sorted). Never touches the file system
and never mutates a graph. Numeric ids exist only here and in the Dgraph sink.
"""

from __future__ import annotations

import json
import math
from typing import Any

from sitegen.base.languages import LangId
from sitegen.records.code import (
    SymbolKind,
    Visibility,
    optional_range_from_json,
    range_from_json,
    range_json,
)
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
    data_endpoint,
    external_endpoint,
    file_endpoint,
    symbol_endpoint,
)

SCHEMA_VERSION = 2


class CodeGraphJsonError(ValueError):
    """A code-graph.json text that is not valid JSON or not schema version 2."""


def node_order(graph: CodeGraph) -> list[str]:
    """Endpoint names in serialized order: each file, then its symbols by position, then its
    data nodes; externals last. The index in this list is the snapshot-local numeric id."""

    def key(node: Node) -> tuple[int, str, int, int, str]:
        if isinstance(node, FileNode):
            return (0, node.path, 0, 0, node.id)
        if isinstance(node, SymbolNode):
            return (0, _path(graph, node.file_id), 1, node.source_range.start_byte, node.id)
        if isinstance(node, DataNode) and node.file_id in graph.files:
            return (0, _path(graph, node.file_id), 2, node.line, node.id)
        return (1, "", 0, 0, node.id)

    return [n.id for n in sorted(graph.iter_nodes(), key=key)]


def numeric_ids(graph: CodeGraph) -> dict[str, int]:
    return {endpoint: i for i, endpoint in enumerate(node_order(graph))}


def _path(graph: CodeGraph, file_id: str) -> str:
    node = graph.files.get(file_id)
    return node.path if node else ""


def finite_or_none(value: float) -> float | None:
    """JSON has no NaN or Infinity: a non-finite confidence (no signal) is written as null."""
    return value if math.isfinite(value) else None


# ---------------------------------------------------------------- dump


def dump_code_graph_json(graph: CodeGraph) -> str:
    ids = numeric_ids(graph)
    nodes = [_node_obj(graph, graph.node(endpoint), ids) for endpoint in ids]
    edges = sorted(
        (_edge_obj(e, ids) for e in graph.edges()),
        key=lambda o: (o["src"], o["dst"], o["kind"], o["line"]),
    )
    doc = {
        "schema_version": SCHEMA_VERSION,
        "snapshot_id": graph.snapshot_id,
        "nodes": nodes,
        "edges": edges,
    }
    return json.dumps(doc, ensure_ascii=False, indent=1, allow_nan=False) + "\n"


def _node_obj(graph: CodeGraph, node: Node, ids: dict[str, int]) -> dict[str, Any]:
    obj: dict[str, Any] = {"id": ids[node.id]}
    if isinstance(node, FileNode):
        obj.update(kind="file", path=node.path, language=str(node.language))
    elif isinstance(node, SymbolNode):
        obj.update(
            kind="symbol",
            name=node.name,
            qualified_name=node.qualified_name,
            symbol_kind=str(node.kind),
            visibility=str(node.visibility) if node.visibility else None,
            file_id=ids[node.file_id],
            file_path=_path(graph, node.file_id),
            source_range=range_json(node.source_range),
            name_range=range_json(node.name_range),
        )
    elif isinstance(node, ExternalNode):
        obj.update(kind="external", name=node.name, language=str(node.language))
    else:
        obj.update(
            kind="data",
            name=node.name,
            scope=str(node.scope),
            type_hint=node.type_hint,
            symbol_id=ids.get(node.symbol_id) if node.symbol_id else None,
            file_id=ids.get(node.file_id) if node.file_id else None,
            line=node.line,
        )
    obj["endpoint"] = node.id  # an extra field: the stable name, for consumers that diff snapshots
    return obj


def _edge_obj(edge: CodeEdge, ids: dict[str, int]) -> dict[str, Any]:
    obj: dict[str, Any] = {
        "src": ids[edge.src],
        "dst": ids[edge.dst],
        "kind": str(edge.kind),
        "confidence": finite_or_none(edge.confidence),
        "line": edge.line,
    }
    if edge.flow_kind is not None:
        obj["flow_kind"] = edge.flow_kind
    if edge.context:
        obj["context"] = edge.context
    return obj


# ---------------------------------------------------------------- load


def load_code_graph_json(text: str) -> CodeGraph:
    """Parse a code-graph.json v2 text back into a graph (raises ``CodeGraphJsonError``)."""
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as err:  # bad JSON, huge numbers, deep nesting
        raise CodeGraphJsonError(f"code-graph.json is not valid JSON: {err}") from None
    if not isinstance(doc, dict) or doc.get("schema_version") != SCHEMA_VERSION:
        found = doc.get("schema_version") if isinstance(doc, dict) else None
        raise CodeGraphJsonError(
            f"code-graph.json schema_version {found!r} is not {SCHEMA_VERSION}"
        )
    graph = CodeGraph(snapshot_id=str(doc.get("snapshot_id", "")))
    try:
        endpoints = _load_nodes(graph, doc.get("nodes", []))
        for raw in doc.get("edges", []):
            confidence = raw.get("confidence")
            graph.add_edge(
                CodeEdge(
                    endpoints[raw["src"]],
                    endpoints[raw["dst"]],
                    EdgeKind(raw["kind"]),
                    math.nan if confidence is None else float(confidence),
                    int(raw["line"]),
                    raw.get("flow_kind"),
                    str(raw.get("context", "")),
                )
            )
    except (KeyError, TypeError, ValueError) as err:
        raise CodeGraphJsonError(f"code-graph.json: malformed node or edge: {err!r}") from None
    return graph


def _load_nodes(graph: CodeGraph, raws: list[dict[str, Any]]) -> dict[int, str]:
    """Nodes in file order (a symbol's file comes before it); numeric id -> endpoint name."""
    endpoints: dict[int, str] = {}
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for raw in raws:
        by_kind.setdefault(raw["kind"], []).append(raw)
    for kind in ("file", "external", "symbol", "data"):
        for raw in by_kind.get(kind, []):
            endpoints[int(raw["id"])] = _load_node(graph, kind, raw, endpoints)
    return endpoints


def _load_node(graph: CodeGraph, kind: str, raw: dict[str, Any], ids: dict[int, str]) -> str:
    endpoint = raw.get("endpoint")
    if kind == "file":
        lang = LangId(raw["language"])
        node_id = endpoint or file_endpoint(lang, raw["path"])
        graph.add_file(FileNode(node_id, raw["path"], lang, graph.snapshot_id))
    elif kind == "external":
        lang = LangId(raw["language"])
        node_id = endpoint or external_endpoint(lang, raw["name"])
        graph.add_external(ExternalNode(node_id, raw["name"], lang))
    elif kind == "symbol":
        file_id = ids[int(raw["file_id"])]
        node_id = endpoint or _fresh_symbol_id(graph, file_id, raw["qualified_name"])
        graph.add_symbol(
            SymbolNode(
                node_id,
                raw["name"],
                raw["qualified_name"],
                SymbolKind(raw["symbol_kind"]),
                file_id,
                Visibility(raw["visibility"]) if raw.get("visibility") else None,
                range_from_json(raw["source_range"]),
                optional_range_from_json(raw.get("name_range")),
            )
        )
    else:
        file_id = ids[int(raw["file_id"])] if raw.get("file_id") is not None else ""
        symbol_id = ids[int(raw["symbol_id"])] if raw.get("symbol_id") is not None else None
        node_id = endpoint or data_endpoint(
            symbol_id or file_id, raw.get("name", ""), int(raw.get("line", 0)), int(raw["id"])
        )
        graph.add_data(
            DataNode(
                node_id,
                symbol_id,
                DataScope(raw["scope"]),
                raw.get("type_hint"),
                file_id,
                raw.get("name", ""),
                int(raw.get("line", 0)),
            )
        )
    return node_id


def _fresh_symbol_id(graph: CodeGraph, file_id: str, qualified_name: str) -> str:
    """For files written without ``endpoint``: the same ``#2`` rule as extraction."""
    ordinal = 1
    while symbol_endpoint(file_id, qualified_name, ordinal) in graph.symbols:
        ordinal += 1
    return symbol_endpoint(file_id, qualified_name, ordinal)
