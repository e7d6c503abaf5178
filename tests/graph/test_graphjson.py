"""graph.json v1 (content/reference/graph-json.md): omitted fields, legacy files, round trip."""

from __future__ import annotations

import json
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.graph.graphjson import GraphJsonError, dump_graph_json, load_figures, load_graph_json
from sitegen.graph.model import Edge, Graph, Node, NodeKind, Occurrence


def _sample() -> Graph:
    return Graph.from_edges(
        [
            Edge("/b.md", "/a.md", "supersedes"),
            Edge(
                "/a.md",
                "/b.md",
                "",
                "Démarrer",
                "intro",
                2,
                [Occurrence(40, 3, 5, "setup"), Occurrence(10, 1, 11)],
            ),
        ],
        [Node("/b.md", NodeKind.PAGE, "B"), Node("/a.md", NodeKind.PAGE, "A")],
    )


def test_dump_matches_the_documented_shape():
    # One node or edge per line, fields in the documented order.
    expected = (
        '{"version": 1,\n "nodes": [\n'
        '  {"id": "/a.md", "kind": "page", "title": "A"},\n'
        '  {"id": "/b.md", "kind": "page", "title": "B"}\n ],\n'
        ' "edges": [\n'
        '  {"from": "/a.md", "to": "/b.md", "label": "Démarrer", "anchor": "intro", "count": 2, '
        '"occurrences": [{"offset": 10, "line": 1, "column": 11}, '
        '{"offset": 40, "line": 3, "column": 5, "fragment": "setup"}]},\n'
        '  {"from": "/b.md", "to": "/a.md", "rel": "supersedes"}\n ]\n}\n'
    )
    assert dump_graph_json(_sample()) == expected


def test_empty_fields_are_omitted_and_count_only_above_one():
    g = Graph.from_edges(
        [Edge("/a.md", "/b.md"), Edge("/a.md", "/c.md", "", "", "", 1, [Occurrence(0, 1, 1)])]
    )
    edges = json.loads(dump_graph_json(g))["edges"]
    assert edges[0] == {"from": "/a.md", "to": "/b.md"}
    assert edges[1] == {
        "from": "/a.md",
        "to": "/c.md",
        "occurrences": [{"offset": 0, "line": 1, "column": 1}],
    }


def test_dump_is_the_same_bytes_whatever_the_insertion_order():
    edges = [
        Edge(f"/{s}.md", f"/{d}.md", r, "L", "", 1, [Occurrence(s * 10 + d, 1, 1)])
        for s in range(3)
        for d in range(3)
        for r in ("", "x")
    ]
    nodes = [Node(f"/{i}.md", NodeKind.PAGE, str(i)) for i in range(3)]
    outputs = set()
    for seed in range(4):
        rng = random.Random(seed)
        e, n = edges[:], nodes[:]
        rng.shuffle(e)
        rng.shuffle(n)
        outputs.add(dump_graph_json(Graph.from_edges(e, n)))
    assert len(outputs) == 1


def test_legacy_file_of_from_to_edges_loads_with_count_one():
    for text in (
        '{"version": 1, "edges": [{"from": "/a.md", "to": "/b.md"}]}',
        '{"edges": [{"from": "/a.md", "to": "/b.md"}], "nodes": []}',
    ):
        g = load_graph_json(text)
        assert [
            (e.src, e.dst, e.rel, e.label, e.anchor, e.count, e.occurrences) for e in g.edges()
        ] == [("/a.md", "/b.md", "", "", "", 1, [])]
        assert g.nodes == {}


def test_unknown_keys_are_ignored():
    text = (
        '{"version": 1, "generator": "mark", "nodes": [{"id": "/a.md", "kind": "page", "title": "A", "rank": 3}],'
        ' "edges": [{"from": "/a.md", "to": "/b.md", "weight": 0.5}]}'
    )
    g = load_graph_json(text)
    assert g.nodes == {"/a.md": Node("/a.md", NodeKind.PAGE, "A")}
    assert g.edge("/a.md", "/b.md") is not None


def test_figures_are_written_flat_on_their_node_and_read_back():
    figures = {"/a.md": {"pagerank": 0.5, "community": 2}}
    text = dump_graph_json(_sample(), figures)
    node = json.loads(text)["nodes"][0]
    assert list(node) == ["id", "kind", "title", "community", "pagerank"]
    assert load_figures(text) == {"/a.md": {"community": 2, "pagerank": 0.5}}
    assert load_graph_json(text).nodes == _sample().nodes


@pytest.mark.parametrize(
    "figures",
    [{"/a.md": {"pagerank": math.nan}}, {"/a.md": {"x": [math.inf]}}, {"/a.md": {"kind": "other"}}],
)
def test_unwritable_figures_are_refused(figures):
    with pytest.raises(GraphJsonError):
        dump_graph_json(_sample(), figures)


@pytest.mark.parametrize(
    "text, needle",
    [
        ('{"version": 2, "edges": []}', "version 2"),
        ("{not json", "not valid JSON"),
        ("[]", "object"),
        ('{"nodes": [{"id": "/a.md", "kind": "planet"}]}', "planet"),
        ('{"edges": [{"from": "/a.md", "to": "/b.md", "count": 0}]}', "count"),
        ('{"edges": [{"from": "/a.md"}]}', "'to'"),
        (
            '{"edges": [{"from": "/a.md", "to": "/b.md", "occurrences": [{"offset": 1}]}]}',
            "occurrence",
        ),
        ('{"edges": [{"from": "/a.md", "to": "/b.md", "count": NaN}]}', "NaN"),
    ],
)
def test_bad_files_raise_a_clear_error(text, needle):
    with pytest.raises(GraphJsonError, match=needle):
        load_graph_json(text)


_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=8)
_OCC = st.builds(
    Occurrence, st.integers(0, 10**6), st.integers(1, 10**4), st.integers(1, 500), _TEXT
)
_EDGE = st.builds(
    Edge,
    st.sampled_from(["/a.md", "/b.md", "https://x.org/ü"]),
    _TEXT.filter(bool),
    st.text("abc-", max_size=4),
    _TEXT,
    _TEXT,
    st.integers(1, 50),
    st.lists(_OCC, max_size=3),
)
_NODE = st.builds(Node, st.text(min_size=1, max_size=6), st.sampled_from(list(NodeKind)), _TEXT)


@settings(max_examples=150, deadline=None)
@given(st.lists(_EDGE, max_size=10), st.lists(_NODE, max_size=6))
def test_load_of_dump_gives_back_the_graph(edges, nodes):
    g = Graph.from_edges(edges, nodes)
    back = load_graph_json(dump_graph_json(g))
    assert back.nodes == g.nodes
    for e in g.edges():
        e.occurrences.sort()  # the file holds occurrences in document (offset) order
    assert back.edges() == g.edges()
    assert dump_graph_json(back) == dump_graph_json(g)
