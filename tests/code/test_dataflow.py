"""Def-use flow (DataNode / FlowEdge) for Python and Rust; other languages give empty lists."""

from __future__ import annotations

from sitegen.base.languages import LangId
from sitegen.code.dataflow import data_flow
from sitegen.code.dgraph import from_nquads, to_nquads
from sitegen.code.extract import extract_source
from sitegen.code.link import build_code_graph
from sitegen.code.serialize import dump_code_graph_json, load_code_graph_json
from sitegen.code.shards import dump_shard, load_shard
from sitegen.config import Config
from sitegen.records.code_graph import EdgeKind, invariant_violations

PYTHON = b"""def scale(v, k: float = 2.0):
    r = v * k
    r += 1
    for i in range(3):
        r = r + i
    def inner(r):
        return r
    return r
"""

RUST = b"""fn total(items: &[u32], bonus: u32) -> u32 {
    let mut sum: u32 = 0;
    for it in items {
        sum += it;
    }
    let add = |x: u32| x + bonus;
    {
        let sum = 99;
        drop(sum);
    }
    add(sum)
}
"""


def _flow(path: str, lang: LangId, data: bytes):
    nodes, edges = data_flow(extract_source(path, lang, data), data)
    short = {n.id: n.id.split("::", 1)[1] for n in nodes}
    return (
        {(short[n.id], str(n.scope), n.type_hint) for n in nodes},
        {(short[e.src], short[e.dst], e.flow_kind) for e in edges},
    )


def test_python_parameters_assignments_loops_and_returns():
    nodes, edges = _flow("m.py", LangId.PYTHON, PYTHON)
    assert nodes == {
        ("scale$v@1:11", "parameter", None),
        ("scale$k@1:14", "parameter", "float"),
        ("scale$r@2:5", "local", None),
        ("scale$r@3:5", "local", None),
        ("scale$i@4:9", "local", None),
        ("scale$r@5:9", "local", None),
        ("scale$return@8:5", "temporary", None),
        ("scale.inner$r@6:15", "parameter", None),
        ("scale.inner$return@7:9", "temporary", None),
    }
    assert edges == {
        ("scale$v@1:11", "scale$r@2:5", "assign"),
        ("scale$k@1:14", "scale$r@2:5", "assign"),
        ("scale$r@2:5", "scale$r@3:5", "assign"),
        ("scale$r@3:5", "scale$r@5:9", "assign"),
        ("scale$i@4:9", "scale$r@5:9", "assign"),
        ("scale$r@5:9", "scale$return@8:5", "use"),
        ("scale.inner$r@6:15", "scale.inner$return@7:9", "use"),  # the nested def's own r
    }


def test_python_attribute_targets_are_not_bindings_and_comprehensions_are_scopes():
    src = b"def f(xs):\n    obj.attr = xs\n    ys = [x for x in xs]\n    return x\n"
    nodes, edges = _flow("m.py", LangId.PYTHON, src)
    assert {n for n, _, _ in nodes} == {"f$xs@1:7", "f$x@3:17", "f$ys@3:5", "f$return@4:5"}
    assert edges == {("f$xs@1:7", "f$x@3:17", "assign"), ("f$xs@1:7", "f$ys@3:5", "assign")}


def test_rust_let_types_compound_assignment_closures_and_block_scopes():
    nodes, edges = _flow("src/lib.rs", LangId.RUST, RUST)
    assert nodes == {
        ("total$items@1:10", "parameter", "&[u32]"),
        ("total$bonus@1:25", "parameter", "u32"),
        ("total$sum@2:13", "local", "u32"),
        ("total$it@3:9", "local", None),
        ("total$sum@4:9", "local", None),
        ("total$x@6:16", "closure", "u32"),
        ("total$add@6:9", "local", None),
        ("total$sum@8:13", "local", None),
        ("total$return@11:5", "temporary", None),
    }
    assert edges == {
        ("total$items@1:10", "total$it@3:9", "assign"),
        ("total$sum@2:13", "total$sum@4:9", "assign"),
        ("total$it@3:9", "total$sum@4:9", "assign"),
        ("total$bonus@1:25", "total$add@6:9", "assign"),  # the closure captures bonus
        ("total$add@6:9", "total$return@11:5", "use"),
        ("total$sum@4:9", "total$return@11:5", "use"),  # the block's own sum has ended
    }


def test_languages_without_flow_return_empty_lists():
    for path, lang in (("a.js", LangId.JAVASCRIPT), ("a.go", LangId.GO), ("a.c", LangId.C)):
        data = b"function f(a) { let b = a; return b; }\n"
        assert data_flow(extract_source(path, lang, data), data) == ([], [])


def test_flow_is_in_every_graph_and_round_trips_through_json_dgraph_and_shards():
    records = [
        extract_source("m.py", LangId.PYTHON, PYTHON),
        extract_source("src/lib.rs", LangId.RUST, RUST),
    ]
    graph, _ = build_code_graph(records, Config(), {"m.py", "src/lib.rs"})
    # 9 values per file above; 7 + 6 def-use edges, as listed in the two tests above.
    assert len(graph.data) == 18 and len(graph.edges(EdgeKind.FLOW)) == 13
    assert {e.confidence for e in graph.edges(EdgeKind.FLOW)} == {1.0}
    assert all(d.symbol_id in graph.symbols for d in graph.data.values())
    assert invariant_violations(graph) == []
    assert load_code_graph_json(dump_code_graph_json(graph)) == graph
    assert from_nquads(to_nquads(graph)) == graph
    # A shard keeps the flow: a record read back from its shard builds the same graph.
    reloaded = [load_shard(dump_shard(r)[0]) for r in records]
    assert [(r.data, r.flows) for r in reloaded] == [(r.data, r.flows) for r in records]
    assert build_code_graph(reloaded, Config(), {"m.py", "src/lib.rs"})[0] == graph


def test_python_walrus_binds_in_the_function_even_inside_a_comprehension():
    src = b"def f(xs):\n    ys = [x for x in xs if (y := x)]\n    return y\n"
    _, edges = _flow("m.py", LangId.PYTHON, src)
    assert ("f$y@2:29", "f$return@3:5", "use") in edges
    assert ("f$x@2:17", "f$y@2:29", "assign") in edges
