"""The Dgraph sink (content/reference/serialization.md): N-Quads parsed back to an equal graph."""

from __future__ import annotations

import math
import re

import pytest
from recordkit import build, imp, rec, ref, sym

from sitegen.base.languages import LangId
from sitegen.code.dgraph import NQuadsError, dgraph_schema, from_nquads, quote, to_nquads, unquote
from sitegen.records.code import MetacallCall, MetacallLoad
from sitegen.records.code_graph import (
    CodeEdge,
    CodeGraph,
    DataNode,
    DataScope,
    EdgeKind,
    ExternalNode,
    FileNode,
)


def _graph() -> CodeGraph:
    graph, _ = build(
        [
            rec(
                'we ird/"q"\\x.py',
                [
                    sym("Engine", "class", (1, 5)),
                    sym("Engine.run", "method", (2, 3)),
                    sym("f", lines=(7, 8)),
                    sym("f", lines=(9, 9), visibility=None),
                ],
                [imp("os"), imp("m", line=2)],
                [ref("Engine.run", "f", 8)],
            ),
            rec("m.py", [sym("g")]),
            rec(
                "app.js",
                [sym("main", lines=(1, 4))],
                metacalls=[MetacallCall("g", 2, "main")],
                loads=[MetacallLoad("py", ("m.py",), 1)],
            ),
        ]
    )
    return graph


def test_round_trip_gives_an_equal_graph():
    graph = _graph()
    assert from_nquads(to_nquads(graph)) == graph
    assert to_nquads(from_nquads(to_nquads(graph))) == to_nquads(graph)


def test_every_line_is_one_quad_with_blank_nodes_and_facets():
    text = to_nquads(_graph())
    quad = re.compile(
        r"^_:(n\d+|snapshot) <[a-z_.]+> (_:n\d+( \((confidence=\d\.\d+, )?line=\d+\))?"
        r'|"([^"\\]|\\.)*"(\^\^<xs:int>)?) \.$'
    )
    for line in text.splitlines():
        assert quad.match(line), line
    assert '_:n0 <path> "app.js" .' in text
    assert "<imports>" in text and "(confidence=0.5, line=1)" in text
    assert re.search(r'<start_line> "1"\^\^<xs:int> \.', text)


def test_edges_use_kind_predicates():
    text = to_nquads(_graph())
    predicates = {m.group(1) for m in re.finditer(r"^_:n\d+ <(\w+)> _:n\d+ \(", text, re.MULTILINE)}
    assert predicates == {"imports", "references", "owns"}


@pytest.mark.parametrize(
    "value, literal",
    [
        ('say "hi"', r'"say \"hi\""'),
        ("back\\slash", r'"back\\slash"'),
        ("two\nlines\r\t", r'"two\nlines\r\t"'),
        ("bell\x07", r'"bell\u0007"'),
        ("café", '"café"'),
    ],
)
def test_strings_are_escaped_and_unescaped(value, literal):
    assert quote(value) == literal
    assert unquote(literal) == value


def test_flow_edges_data_nodes_and_non_finite_confidence():
    graph = CodeGraph(snapshot_id="snap")
    graph.add_file(FileNode("rust:a.rs", "a.rs", LangId.RUST, "snap"))
    graph.add_external(ExternalNode("external:rust:std", "std", LangId.RUST))
    graph.add_data(
        DataNode("rust:a.rs$x@1:1", None, DataScope.LOCAL, 'Vec<"T">', "rust:a.rs", "x", 1)
    )
    graph.add_data(
        DataNode("rust:a.rs$y@2:1", None, DataScope.TEMPORARY, None, "rust:a.rs", "y", 2)
    )
    graph.add_edge(CodeEdge("rust:a.rs$x@1:1", "rust:a.rs$y@2:1", EdgeKind.FLOW, 0.7, 2, "use"))
    graph.add_edge(CodeEdge("rust:a.rs", "external:rust:std", EdgeKind.IMPORT, math.nan, 1))
    text = to_nquads(graph)
    assert '<flows_to> _:n2 (confidence=0.7, line=2, flow_kind="use") .' in text
    assert "<imports> _:n3 (line=1) ." in text  # Dgraph facets have no NaN
    back = from_nquads(text)
    assert back.data == graph.data and back.files == graph.files
    assert math.isnan(back.edge_map[("rust:a.rs", "external:rust:std", EdgeKind.IMPORT)].confidence)


def test_comments_blank_lines_and_graph_labels_are_accepted():
    text = "# exported by sitegen\n\n" + to_nquads(_graph()).replace(
        ' <kind> "file" .', ' <kind> "file" <g> .', 1
    )
    assert from_nquads(text) == _graph()


@pytest.mark.parametrize("text", ['_:a <kind> "file"', "not a quad .", '_:a <kind> "file" .\n'])
def test_malformed_input_is_refused(text):
    with pytest.raises(NQuadsError):
        from_nquads(text)


def test_schema_declares_the_edge_predicates_as_uid_lists():
    schema = dgraph_schema()
    for predicate in ("imports", "references", "owns", "flows_to"):
        assert f"<{predicate}>: [uid] @reverse ." in schema
    assert "<path>: string @index(exact) ." in schema
