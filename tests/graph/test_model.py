"""The document graph's merge rules (content/reference/edges.md) and the one EdgeAnnotation."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sitegen.graph.model import Edge, Graph, Occurrence, edge_annotation


def test_edge_annotation_pinned_literals() -> None:
    assert edge_annotation("supersedes", "", "", 1) == " [supersedes]"
    assert edge_annotation("", "Getting started", "intro", 3) == ' ("Getting started", #intro, x3)'
    assert edge_annotation("", "", "", 1) == ""
    assert edge_annotation("depends-on", "x", "", 2) == ' [depends-on] ("x", x2)'
    assert edge_annotation("", "", "setup", 1) == " (#setup)"
    assert edge_annotation("", "", "", 2) == " (x2)"


def _occ(i: int) -> Occurrence:
    return Occurrence(offset=i * 10, line=i + 1, column=1)


def test_identity_is_from_to_rel_and_occurrences_aggregate() -> None:
    g = Graph()
    g.add_edge(Edge("/a.md", "/b.md", "", "", "top", 1, [_occ(0)]))
    g.add_edge(Edge("/a.md", "/b.md", "", "Bee", "usage", 1, [_occ(1)]))
    g.add_edge(Edge("/a.md", "/b.md", "", "Later", "end", 1, [_occ(2)]))
    g.add_edge(Edge("/a.md", "/b.md", "supersedes"))
    plain = g.edge("/a.md", "/b.md")
    assert plain is not None
    assert (plain.label, plain.anchor, plain.count) == ("Bee", "usage", 3)
    assert [o.line for o in plain.occurrences] == [1, 2, 3]
    typed = g.edge("/a.md", "/b.md", "supersedes")
    assert typed is not None and typed.count == 1
    assert [e.key for e in g.edges()] == [("/a.md", "/b.md", ""), ("/a.md", "/b.md", "supersedes")]


def test_backlinks_and_removal_use_the_indexes() -> None:
    g = Graph()
    g.add_edge(Edge("/a.md", "/c.md"))
    g.add_edge(Edge("/b.md", "/c.md"))
    g.add_edge(Edge("/a.md", "/b.md"))
    assert [e.src for e in g.backlinks_of("/c.md")] == ["/a.md", "/b.md"]
    g.remove_edges_from("/a.md")
    assert [e.src for e in g.backlinks_of("/c.md")] == ["/b.md"]
    assert g.edges_from("/a.md") == []


labels = st.lists(
    st.tuples(st.sampled_from(["", "x", "y z"]), st.sampled_from(["", "s1", "s2"])),
    min_size=1,
    max_size=8,
)


@given(labels)
def test_first_labelled_occurrence_supplies_label_and_anchor(
    occurrences: list[tuple[str, str]],
) -> None:
    g = Graph()
    for i, (label, anchor) in enumerate(occurrences):
        g.add_edge(Edge("/a.md", "/b.md", "", label, anchor, 1, [_occ(i)]))
    edge = g.edge("/a.md", "/b.md")
    assert edge is not None
    assert edge.count == len(occurrences)
    labelled = [o for o in occurrences if o[0]]
    expected = labelled[0] if labelled else occurrences[0]
    assert (edge.label, edge.anchor) == expected
