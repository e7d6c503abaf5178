"""The code graph model: confidence ladder and tiers, endpoint names, the merge rule, invariants."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from recordkit import build, rec, ref, rng, sym

from sitegen.base.languages import LangId
from sitegen.records import code_graph as g
from sitegen.records.code import MetacallCall, MetacallLoad, SymbolKind
from sitegen.records.code_graph import (
    CodeEdge,
    CodeGraph,
    ConfidenceTier,
    EdgeKind,
    ExternalNode,
    FileNode,
    SymbolNode,
    confidence_tier,
    invariant_violations,
    merge_edges,
    normalize_edges,
)

# ---------------------------------------------------------------- ladder and tiers


def test_ladder_constants_are_the_specified_values():
    assert (g.SAME_FILE, g.DIRECT_IMPORT, g.TRANSITIVE_IMPORT, g.CROSS_LANGUAGE) == (
        1.0,
        0.9,
        0.7,
        0.5,
    )


@pytest.mark.parametrize(
    "value, tier",
    [
        (1.0, ConfidenceTier.SAME_FILE),
        (0.9, ConfidenceTier.DIRECT_IMPORT),
        (0.7, ConfidenceTier.TRANSITIVE_IMPORT),
        (0.5, ConfidenceTier.CROSS_LANGUAGE),
        (1, ConfidenceTier.SAME_FILE),
    ],
)
def test_confidence_tier_by_exact_equality(value, tier):
    assert confidence_tier(value) is tier


@pytest.mark.parametrize(
    "value", [0.8, 0.9000001, 0.89999999, 0.6, 0.0, 0.95, math.nan, math.inf, -math.inf, -0.5]
)
def test_confidence_tier_never_interpolates(value):
    assert confidence_tier(value) is ConfidenceTier.UNKNOWN


def test_endpoint_names():
    assert g.file_endpoint(LangId.PYTHON, "pkg/mod.py") == "python:pkg/mod.py"
    assert (
        g.symbol_endpoint("python:pkg/mod.py", "Class.method") == "python:pkg/mod.py::Class.method"
    )
    assert g.symbol_endpoint("python:pkg/mod.py", "f", 2) == "python:pkg/mod.py::f#2"
    assert g.external_endpoint(LangId.PYTHON, "requests") == "external:python:requests"


# ---------------------------------------------------------------- merge


def edge(confidence: float, line: int = 1, flow_kind: str | None = None) -> CodeEdge:
    return CodeEdge("a", "b", EdgeKind.REFERENCE, confidence, line, flow_kind)


def test_highest_confidence_wins_with_its_line():
    merged = merge_edges(edge(0.7, 3), edge(0.9, 8))
    assert (merged.confidence, merged.line) == (0.9, 8)


def test_equal_confidence_keeps_the_earlier_line():
    assert merge_edges(edge(0.9, 8), edge(0.9, 3)).line == 3


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_non_finite_never_displaces_finite(bad):
    for a, b in ((edge(0.5, 2), edge(bad, 1)), (edge(bad, 1), edge(0.5, 2))):
        merged = merge_edges(a, b)
        assert (merged.confidence, merged.line) == (0.5, 2)


def test_only_non_finite_inputs_merge_to_nan():
    assert math.isnan(merge_edges(edge(math.inf, 1), edge(-math.inf, 2)).confidence)


def test_first_flow_kind_wins_whatever_the_arrival_order():
    for a, b in (
        (edge(0.9, 5, "use"), edge(0.5, 2, "assign")),
        (edge(0.5, 2, "assign"), edge(0.9, 5, "use")),
    ):
        merged = merge_edges(a, b)
        assert (merged.flow_kind, merged.confidence, merged.line) == ("assign", 0.9, 5)
    assert merge_edges(edge(0.9, 5, None), edge(0.5, 7, "use")).flow_kind == "use"


confidences = st.sampled_from([1.0, 0.9, 0.7, 0.5, 0.0, -0.0, math.nan, math.inf, -math.inf])
edges_strategy = st.lists(
    st.builds(
        CodeEdge,
        src=st.sampled_from(["a", "b"]),
        dst=st.sampled_from(["a", "b", "c"]),
        kind=st.sampled_from(list(EdgeKind)),
        confidence=confidences,
        line=st.integers(1, 4),
        flow_kind=st.sampled_from([None, "use", "assign"]),
    ),
    min_size=1,
    max_size=8,
)


def _canonical(edges: list[CodeEdge]) -> list[tuple]:
    """NaN != NaN, so compare a NaN-free spelling (and the sign of zero)."""
    return [
        (e.key, "nan" if math.isnan(e.confidence) else repr(e.confidence), e.line, e.flow_kind)
        for e in edges
    ]


@settings(max_examples=200, deadline=None)
@given(edges_strategy, st.randoms(use_true_random=False))
def test_merge_is_identical_for_every_arrival_order(edges, rnd):
    shuffled = list(edges)
    rnd.shuffle(shuffled)
    assert _canonical(normalize_edges(edges)) == _canonical(normalize_edges(shuffled))
    assert _canonical(normalize_edges(edges)) == _canonical(normalize_edges(reversed(edges)))


@settings(max_examples=100, deadline=None)
@given(edges_strategy)
def test_merge_keeps_the_best_finite_confidence(edges):
    for merged in normalize_edges(edges):
        group = [e.confidence for e in edges if e.key == merged.key]
        finite = [c for c in group if math.isfinite(c)]
        if finite:
            assert merged.confidence == max(finite)
        else:
            assert math.isnan(merged.confidence)


def test_graph_merges_on_insertion_and_rejects_dangling_edges():
    graph = CodeGraph()
    graph.add_file(FileNode("python:a.py", "a.py", LangId.PYTHON, ""))
    graph.add_external(ExternalNode("external:python:os", "os", LangId.PYTHON))
    graph.add_external(ExternalNode("external:python:os", "os", LangId.PYTHON))  # idempotent
    graph.add_edge(CodeEdge("python:a.py", "external:python:os", EdgeKind.IMPORT, 0.7, 4))
    graph.add_edge(CodeEdge("python:a.py", "external:python:os", EdgeKind.IMPORT, 0.9, 9))
    assert [(e.confidence, e.line) for e in graph.edges()] == [(0.9, 9)]
    with pytest.raises(ValueError, match="unknown node"):
        graph.add_edge(CodeEdge("python:a.py", "python:b.py", EdgeKind.IMPORT, 0.9, 1))
    with pytest.raises(ValueError, match="duplicate node id"):
        graph.add_file(FileNode("python:a.py", "a.py", LangId.PYTHON, ""))


# ---------------------------------------------------------------- invariants


def _sound_graph() -> CodeGraph:
    graph, _ = build(
        [
            rec(
                "pkg/a.py",
                [
                    sym("Engine", "class", (1, 9)),
                    sym("Engine.run", "method", (2, 4)),
                    sym("Engine.run.inner", "function", (3, 3)),
                    sym("helper", lines=(10, 11)),
                ],
                refs=[ref("helper", "Engine.run", 2), ref("inner", "Engine.run", 4)],
            ),
        ]
    )
    return graph


def test_a_built_graph_satisfies_every_invariant():
    graph = _sound_graph()
    assert invariant_violations(graph) == []
    owners = {(e.src, e.dst) for e in graph.edges(EdgeKind.OWNERSHIP)}
    assert owners == {
        ("python:pkg/a.py", "python:pkg/a.py::Engine"),
        ("python:pkg/a.py::Engine", "python:pkg/a.py::Engine.run"),
        ("python:pkg/a.py::Engine.run", "python:pkg/a.py::Engine.run.inner"),
        ("python:pkg/a.py", "python:pkg/a.py::helper"),
    }


def _symbol(node_id: str, file_id: str = "python:a.py") -> SymbolNode:
    return SymbolNode(node_id, "x", "x", SymbolKind.FUNCTION, file_id, None, rng(1))


def _two_files() -> CodeGraph:
    graph = CodeGraph()
    graph.add_file(FileNode("python:a.py", "a.py", LangId.PYTHON, ""))
    graph.add_file(FileNode("python:b.py", "b.py", LangId.PYTHON, ""))
    return graph


def test_invariant_1_a_symbol_without_its_file_is_reported():
    graph = _two_files()
    graph.add_symbol(_symbol("python:gone.py::x", "python:gone.py"))
    assert any("names no file" in p for p in invariant_violations(graph))


def test_invariant_1_a_symbol_owned_twice_or_not_at_all_is_reported():
    graph = _two_files()
    graph.add_symbol(_symbol("python:a.py::x"))
    assert any("0 owners" in p for p in invariant_violations(graph))
    graph.add_edge(CodeEdge("python:a.py", "python:a.py::x", EdgeKind.OWNERSHIP, 1.0, 1))
    assert invariant_violations(graph) == []
    graph.add_edge(CodeEdge("python:b.py", "python:a.py::x", EdgeKind.OWNERSHIP, 1.0, 1))
    assert any("2 owners" in p for p in invariant_violations(graph))


def test_invariant_1_ownership_from_another_file_is_reported():
    graph = _two_files()
    graph.add_symbol(_symbol("python:a.py::x"))
    graph.add_edge(CodeEdge("python:b.py", "python:a.py::x", EdgeKind.OWNERSHIP, 1.0, 1))
    assert any("not its own file" in p for p in invariant_violations(graph))


def test_invariant_2_an_ownership_cycle_is_reported():
    graph = _two_files()
    for name in ("x", "y"):
        graph.add_symbol(_symbol(f"python:a.py::{name}"))
    graph.add_edge(CodeEdge("python:a.py::x", "python:a.py::y", EdgeKind.OWNERSHIP, 1.0, 1))
    graph.add_edge(CodeEdge("python:a.py::y", "python:a.py::x", EdgeKind.OWNERSHIP, 1.0, 1))
    assert any("ownership cycle" in p for p in invariant_violations(graph))


def test_edges_join_only_the_node_kinds_of_their_kind():
    graph = _two_files()
    graph.add_edge(CodeEdge("python:a.py", "python:b.py", EdgeKind.REFERENCE, 1.0, 1))
    assert invariant_violations(graph) == [
        "reference edge python:a.py -> python:b.py joins file to file"
    ]


def test_invariant_5_metacall_projections_never_collide():
    graph, _ = build(
        [
            rec(
                "app.py",
                [sym("main", lines=(3, 6))],
                metacalls=[MetacallCall("sum", 4, "main"), MetacallCall("sum", 8, None)],
                loads=[MetacallLoad("node", ("sum.js",), 1)],
            ),
            rec("sum.js", [sym("sum")]),
        ]
    )
    refs = [(e.src, e.dst, e.confidence, e.line) for e in graph.edges(EdgeKind.REFERENCE)]
    # One resolution, two projections with different source kinds, so different keys.
    assert refs == [
        ("python:app.py", "javascript:sum.js::sum", 0.5, 4),
        ("python:app.py::main", "javascript:sum.js::sum", 0.5, 4),
    ]
    assert invariant_violations(graph) == []


def test_one_id_in_two_node_tables_is_reported():
    graph = _two_files()
    graph.symbols["python:a.py"] = _symbol("python:a.py")  # bypasses add_symbol's check
    assert any("names nodes of two kinds" in p for p in invariant_violations(graph))
