"""code-graph.json v2 (content/reference/serialization.md): exact shape, determinism, round trip."""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from recordkit import build, imp, rec, ref, sym

from sitegen.base.languages import LangId
from sitegen.code.serialize import CodeGraphJsonError, dump_code_graph_json, load_code_graph_json
from sitegen.records.code import MetacallCall, MetacallLoad, Range, Symbol, SymbolKind, Visibility
from sitegen.records.code_graph import (
    CodeEdge,
    CodeGraph,
    DataNode,
    DataScope,
    EdgeKind,
    FileNode,
    SymbolNode,
)


def _core_record():
    engine = Symbol(
        "Engine",
        "Engine",
        SymbolKind.CLASS,
        Visibility.PUBLIC,
        Range(100, 190, 8, 11),
        Range(106, 112, 8, 8),
    )
    run = Symbol(
        "run",
        "Engine.run",
        SymbolKind.METHOD,
        Visibility.PUBLIC,
        Range(120, 188, 9, 11),
        Range(128, 131, 9, 9),
        parent="Engine",
    )
    return rec("pkg/core.py", [run, engine], [imp("os", line=1)])


def test_the_document_has_the_specified_shape():
    graph, _ = build([_core_record()])
    doc = json.loads(dump_code_graph_json(graph))
    assert doc == {
        "schema_version": 2,
        "snapshot_id": graph.snapshot_id,
        "nodes": [
            {
                "id": 0,
                "kind": "file",
                "path": "pkg/core.py",
                "language": "python",
                "endpoint": "python:pkg/core.py",
            },
            {
                "id": 1,
                "kind": "symbol",
                "name": "Engine",
                "qualified_name": "Engine",
                "symbol_kind": "class",
                "visibility": "public",
                "file_id": 0,
                "file_path": "pkg/core.py",
                "source_range": {
                    "start_byte": 100,
                    "end_byte": 190,
                    "start_line": 8,
                    "end_line": 11,
                },
                "name_range": {"start_byte": 106, "end_byte": 112, "start_line": 8, "end_line": 8},
                "endpoint": "python:pkg/core.py::Engine",
            },
            {
                "id": 2,
                "kind": "symbol",
                "name": "run",
                "qualified_name": "Engine.run",
                "symbol_kind": "method",
                "visibility": "public",
                "file_id": 0,
                "file_path": "pkg/core.py",
                "source_range": {
                    "start_byte": 120,
                    "end_byte": 188,
                    "start_line": 9,
                    "end_line": 11,
                },
                "name_range": {"start_byte": 128, "end_byte": 131, "start_line": 9, "end_line": 9},
                "endpoint": "python:pkg/core.py::Engine.run",
            },
            {
                "id": 3,
                "kind": "external",
                "name": "os",
                "language": "python",
                "endpoint": "external:python:os",
            },
        ],
        "edges": [
            {"src": 0, "dst": 1, "kind": "ownership", "confidence": 1.0, "line": 8},
            {"src": 0, "dst": 3, "kind": "import", "confidence": 0.9, "line": 1},
            {"src": 1, "dst": 2, "kind": "ownership", "confidence": 1.0, "line": 9},
        ],
    }
    assert len(graph.snapshot_id) == 16


def _project():
    return [
        _core_record(),
        rec(
            "pkg/util.py",
            [
                sym("helper", lines=(1, 2)),
                sym("helper", lines=(4, 5)),
                sym("_hidden", visibility="private", lines=(7, 7)),
            ],
            [imp("core", "from", 1, names=("Engine",), level=1)],
            [ref("Engine.run", "helper", 2), ref("helper", "_hidden", 7)],
        ),
        rec(
            "web/app.ts",
            [sym("main", lines=(1, 5))],
            [imp("../pkg/x", line=1), imp("react", line=2)],
            metacalls=[MetacallCall("helper", 3, "main")],
            loads=[MetacallLoad("py", ("../pkg/util.py",), 1)],
        ),
        rec("lib/a.c", [sym("f", visibility=None)], [imp("stdio.h", "include-system")]),
    ]


def test_output_does_not_depend_on_record_order():
    records = _project()
    first = dump_code_graph_json(build(records)[0])
    for seed in range(3):
        shuffled = list(records)
        random.Random(seed).shuffle(shuffled)
        assert dump_code_graph_json(build(shuffled)[0]) == first


def test_output_does_not_depend_on_the_hash_seed():
    script = (
        "import sys; sys.path[:0] = [sys.argv[1], sys.argv[2]]\n"
        "from test_serialize import _project\n"
        "from recordkit import build\n"
        "from sitegen.code.serialize import dump_code_graph_json\n"
        "sys.stdout.write(dump_code_graph_json(build(_project())[0]))\n"
    )
    here = Path(__file__).parent
    root = here.parent.parent
    outputs = set()
    for seed in ("0", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        done = subprocess.run(
            [sys.executable, "-c", script, str(here), str(root)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        outputs.add(done.stdout)
    assert len(outputs) == 1 and outputs.pop() == dump_code_graph_json(build(_project())[0])


def test_nodes_and_edges_are_sorted_and_ids_dense():
    doc = json.loads(dump_code_graph_json(build(_project())[0]))
    assert [n["id"] for n in doc["nodes"]] == list(range(len(doc["nodes"])))
    keys = [(e["src"], e["dst"], e["kind"], e["line"]) for e in doc["edges"]]
    assert keys == sorted(keys)
    files = [n["path"] for n in doc["nodes"] if n["kind"] == "file"]
    assert files == ["lib/a.c", "pkg/core.py", "pkg/util.py", "web/app.ts"]
    assert [n["kind"] for n in doc["nodes"]][-2:] == ["external", "external"]


def test_round_trip_gives_back_the_same_graph():
    graph, _ = build(_project())
    assert any(s.id.endswith("#2") for s in graph.symbols.values())
    loaded = load_code_graph_json(dump_code_graph_json(graph))
    assert loaded == graph
    assert dump_code_graph_json(loaded) == dump_code_graph_json(graph)


def _flow_graph() -> CodeGraph:
    graph = CodeGraph(snapshot_id="s")
    graph.add_file(FileNode("rust:a.rs", "a.rs", LangId.RUST, "s"))
    graph.add_symbol(
        SymbolNode(
            "rust:a.rs::f",
            "f",
            "f",
            SymbolKind.FUNCTION,
            "rust:a.rs",
            Visibility.PRIVATE,
            Range(0, 50, 1, 3),
        )
    )
    graph.add_edge(CodeEdge("rust:a.rs", "rust:a.rs::f", EdgeKind.OWNERSHIP, 1.0, 1))
    for name, line, scope in (("x", 1, DataScope.PARAMETER), ("y", 2, DataScope.LOCAL)):
        graph.add_data(
            DataNode(
                f"rust:a.rs::f${name}@{line}:5",
                "rust:a.rs::f",
                scope,
                "i32" if name == "x" else None,
                "rust:a.rs",
                name,
                line,
            )
        )
    graph.add_edge(
        CodeEdge("rust:a.rs::f$x@1:5", "rust:a.rs::f$y@2:5", EdgeKind.FLOW, 1.0, 2, "assign")
    )
    return graph


def test_data_nodes_and_flow_edges_round_trip():
    graph = _flow_graph()
    text = dump_code_graph_json(graph)
    doc = json.loads(text)
    assert doc["nodes"][2] == {
        "id": 2,
        "kind": "data",
        "name": "x",
        "scope": "parameter",
        "type_hint": "i32",
        "symbol_id": 1,
        "file_id": 0,
        "line": 1,
        "endpoint": "rust:a.rs::f$x@1:5",
    }
    assert doc["edges"][-1] == {
        "src": 2,
        "dst": 3,
        "kind": "flow",
        "confidence": 1.0,
        "line": 2,
        "flow_kind": "assign",
    }
    assert load_code_graph_json(text) == graph


def test_a_non_finite_confidence_is_written_as_null_and_read_as_nan():
    graph = _flow_graph()
    graph.add_edge(CodeEdge("rust:a.rs::f", "rust:a.rs::f", EdgeKind.REFERENCE, math.inf, 2))
    text = dump_code_graph_json(graph)
    assert '"confidence": null' in text
    loaded = load_code_graph_json(text)
    assert math.isnan(
        loaded.edge_map[("rust:a.rs::f", "rust:a.rs::f", EdgeKind.REFERENCE)].confidence
    )


def test_endpoint_names_are_regenerated_when_absent():
    graph, _ = build(_project())
    doc = json.loads(dump_code_graph_json(graph))
    for node in doc["nodes"]:
        del node["endpoint"]
    assert load_code_graph_json(json.dumps(doc)) == graph


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"schema_version": 1, "nodes": [], "edges": []}', "schema_version 1 is not 2"),
        ('{"nodes": []}', "schema_version None is not 2"),
        ("[1, 2", "not valid JSON"),
        ('{"schema_version": 2, "nodes": [{"id": 0, "kind": "file"}], "edges": []}', "malformed"),
    ],
)
def test_other_versions_and_broken_documents_are_refused(text, message):
    with pytest.raises(CodeGraphJsonError, match=message):
        load_code_graph_json(text)
