"""The one edge-merge rule (content/adr/0003-edge-identity.md): what identifies an edge and how
its confidence, count and position combine, for the document graph, the code graph and the
cycle analysis alike."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.analyse.cycles import merge_edges as merge_dependencies
from sitegen.base.paths import NodeId
from sitegen.graph.dependencies import DepEdge
from sitegen.graph.model import (
    Edge,
    Graph,
    Occurrence,
    earliest,
    merge_by_key,
    merged_confidence,
    strongest,
)
from sitegen.records.code_graph import CodeEdge, EdgeKind, normalize_edges

CONFIDENCES = [1.0, 0.9, 0.7, 0.5, 0.0, -0.0, math.nan, math.inf, -math.inf]
#: One piece of evidence: (confidence, line).
evidence = st.lists(
    st.tuples(st.sampled_from(CONFIDENCES), st.integers(0, 5)), min_size=1, max_size=6
)


def spelled(value: float) -> str:
    """NaN != NaN and 0.0 == -0.0: compare spellings."""
    return "nan" if math.isnan(value) else repr(value)


def test_the_strongest_finite_confidence_wins() -> None:
    assert merged_confidence([0.5, 0.9, 0.7]) == 0.9
    assert merged_confidence([math.inf, 0.5, math.nan, -math.inf]) == 0.5
    assert spelled(merged_confidence([-0.0])) == "0.0"
    assert math.isnan(merged_confidence([math.inf, -math.inf]))


def test_the_strongest_evidence_wins_ties_go_to_the_earlier_line() -> None:
    pieces = [(0.7, 1), (0.9, 8), (0.9, 3), (math.inf, 0)]
    assert strongest(pieces, lambda p: p[0], lambda p: p[1]) == (0.9, 3)
    assert strongest([(math.nan, 4), (math.inf, 2)], lambda p: p[0], lambda p: p[1]) == (
        math.inf,
        2,
    )


def test_the_earliest_position_is_the_first_file_at_its_first_known_line() -> None:
    places = [("b.py", 1, "x"), ("a.py", 0, "x"), ("a.py", 7, "y"), ("a.py", 7, "x")]
    assert earliest(places, lambda p: p) == ("a.py", 7, "x")


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("ab"), st.sampled_from("abc"), st.integers(0, 9))))
def test_merge_by_key_is_one_per_key_sorted_and_order_free(
    items: list[tuple[str, str, int]],
) -> None:
    def key(item: tuple[str, str, int]) -> tuple[str, str, str]:
        return (item[0], item[1], "")

    def combine(group: list[tuple[str, str, int]]) -> tuple[str, str, int]:
        return (group[0][0], group[0][1], sum(i[2] for i in group))

    merged = merge_by_key(items, key, combine)
    assert merged == merge_by_key(reversed(items), key, combine)
    assert [key(m) for m in merged] == sorted({key(i) for i in items})
    assert sum(m[2] for m in merged) == sum(i[2] for i in items)


@settings(max_examples=200, deadline=None)
@given(evidence)
def test_code_and_dependency_edges_agree_on_the_confidence(pieces: list[tuple[float, int]]) -> None:
    code = normalize_edges(
        CodeEdge("a", "b", EdgeKind.IMPORT, c, max(line, 1)) for c, line in pieces
    )
    deps = merge_dependencies(DepEdge("a", "b", "import", c, line) for c, line in pieces)
    expected = spelled(merged_confidence(c for c, _ in pieces))
    assert (
        [spelled(e.confidence) for e in code] == [spelled(e.confidence) for e in deps] == [expected]
    )


@settings(max_examples=200, deadline=None)
@given(evidence, st.randoms(use_true_random=False))
def test_dependency_edges_merge_the_same_in_every_order(
    pieces: list[tuple[float, int]], rnd: object
) -> None:
    edges = [DepEdge("a", "b", "import", c, line, 2, f"f{line % 2}.py") for c, line in pieces]
    shuffled = list(edges)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    (one,), (other,) = merge_dependencies(edges), merge_dependencies(shuffled)
    assert (spelled(one.confidence), one.line, one.count, one.src_file) == (
        spelled(other.confidence),
        other.line,
        other.count,
        other.src_file,
    )
    assert one.count == 2 * len(pieces)


def test_every_graph_identifies_an_edge_by_its_ends_and_relation() -> None:
    graph = Graph.from_edges([Edge("/a", "/b"), Edge("/a", "/b"), Edge("/a", "/b", "supersedes")])
    assert [(e.key, e.count) for e in graph.edges()] == [
        (("/a", "/b", ""), 2),
        (("/a", "/b", "supersedes"), 1),
    ]
    code = normalize_edges(
        [
            CodeEdge("a", "b", EdgeKind.IMPORT, 0.9, 1),
            CodeEdge("a", "b", EdgeKind.IMPORT, 0.5, 2),
            CodeEdge("a", "b", EdgeKind.REFERENCE, 0.5, 2),
        ]
    )
    assert [e.key for e in code] == [("a", "b", "import"), ("a", "b", "reference")]


#: Small edges over three nodes and two relations, so that added edges often meet old ones.
small_edges = st.lists(
    st.builds(
        lambda s, d, rel, label, line: Edge(
            s, d, rel, label, occurrences=[Occurrence(line, line, 1, "")]
        ),
        st.sampled_from(["a", "b", "c"]),
        st.sampled_from(["a", "b", "c"]),
        st.sampled_from(["", "imports"]),
        st.sampled_from(["", "x"]),
        st.integers(1, 9),
    ),
    max_size=8,
)


def _shape(graph: Graph) -> list[object]:
    edges = [(e.key, e.label, e.anchor, e.count, tuple(e.occurrences)) for e in graph.edges()]
    around = [
        ([e.key for e in graph.edges_from(n)], [e.key for e in graph.backlinks_of(n)])
        for n in (NodeId("a"), NodeId("b"), NodeId("c"))
    ]
    return [edges, around]


@given(small_edges, small_edges)
@settings(max_examples=200)
def test_a_graph_with_edges_added_is_the_graph_of_all_of_them_and_the_first_is_unchanged(
    first: list[Edge], added: list[Edge]
) -> None:
    base = Graph.from_edges(first)
    before = _shape(base)
    grown = base.with_edges(e.copy() for e in added)
    assert _shape(grown) == _shape(Graph.from_edges(first + added))
    assert _shape(base) == before  # no edge of the first graph was changed by the second
