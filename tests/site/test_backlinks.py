"""Backlink grouping, order, headings and the CLI text (content/guides/backlinks.md)."""

from __future__ import annotations

from sitegen.base.paths import NodeId
from sitegen.graph.model import Edge
from sitegen.graph.relations import relation_heading
from sitegen.site.backlinks import backlink_groups, format_backlinks_text


def _href(edge: Edge) -> str:
    stem = edge.src.lstrip("/").removesuffix(".md")
    return f"{stem}.html" + (f"#{edge.anchor}" if edge.anchor else "")


def _edge(src: str, rel: str = "", label: str = "", anchor: str = "", count: int = 1) -> Edge:
    return Edge(NodeId(src), NodeId("/target.md"), rel, label, anchor, count)


EDGES = [
    _edge("/guides/b.md", label="Target", anchor="setup", count=3),
    _edge("/adr/0003.md", rel="supersedes"),
    _edge("/guides/a.md"),
    _edge("/adr/0005.md", rel="depends-on", label="ctx", anchor="context"),
    _edge("/adr/0004.md", rel="supersedes"),
    _edge("/impl.md", rel="implements"),
]
TITLES = {
    "/adr/0003.md": "ADR 0003",
    "/adr/0004.md": "ADR 0004",
    "/guides/a.md": "Alpha",
    "/guides/b.md": "Beta",
    "/adr/0005.md": "ADR 0005",
    "/impl.md": "Impl",
}


def test_typed_relations_come_first_sorted_by_predicate_then_plain_links() -> None:
    groups = backlink_groups(EDGES, TITLES, _href)
    assert [g.rel for g in groups] == ["depends-on", "implements", "supersedes", ""]
    assert [g.heading for g in groups] == [
        "Depends on this",
        "Implemented by",
        "Superseded by",
        "Linked from",
    ]


def test_entries_are_sorted_by_title_and_carry_annotation_and_section_link() -> None:
    groups = {g.rel: g for g in backlink_groups(EDGES, TITLES, _href)}
    assert [e.title for e in groups["supersedes"].entries] == ["ADR 0003", "ADR 0004"]
    assert [e.title for e in groups[""].entries] == ["Alpha", "Beta"]
    beta = groups[""].entries[1]
    # The EdgeAnnotation literals of content/reference/edges.md#the-edgeannotation.
    assert beta.annotation == ' ("Target", #setup, x3)'
    assert beta.href == "guides/b.html#setup"
    assert groups["supersedes"].entries[0].annotation == " [supersedes]"
    assert groups[""].entries[0].annotation == ""
    assert groups["depends-on"].entries[0].annotation == ' [depends-on] ("ctx", #context)'


def test_order_does_not_depend_on_input_order() -> None:
    assert backlink_groups(EDGES, TITLES, _href) == backlink_groups(EDGES[::-1], TITLES, _href)


def test_untitled_source_falls_back_to_its_node_id() -> None:
    (group,) = backlink_groups([_edge("/no-title.md")], {}, _href)
    assert group.entries[0].title == "/no-title.md"


def test_only_plain_links_gives_one_linked_from_group() -> None:
    (group,) = backlink_groups([_edge("/a.md"), _edge("/b.md")], {}, _href)
    assert (group.heading, group.rel, group.count) == ("Linked from", "", 2)


def test_no_edges_gives_no_groups() -> None:
    assert backlink_groups([], {}, _href) == ()


def test_other_predicates_are_put_in_words_seen_from_the_target() -> None:
    assert relation_heading("see-also") == "See also"
    assert relation_heading("replaces") == "Replaced by"
    assert relation_heading("fixes") == "Fixed by"
    assert relation_heading("specifies") == "Specified by"
    assert relation_heading("commits") == "Committed by"
    assert relation_heading("part-of") == "Part of this"
    assert relation_heading("derived-from") == "Derived from this"
    assert relation_heading("status") == "Status"  # not a verb form: no passive


def test_text_lists_heading_count_title_annotation_and_node_id() -> None:
    text = format_backlinks_text(backlink_groups(EDGES, TITLES, _href), "/target.md")
    lines = text.splitlines()
    assert lines[0] == "Backlinks of /target.md"
    assert "Superseded by (2)" in lines
    assert "  ADR 0003 [supersedes] -> /adr/0003.md" in lines
    assert '  Beta ("Target", #setup, x3) -> /guides/b.md' in lines
    # groups appear in the same order as in HTML
    assert lines.index("Superseded by (2)") < lines.index("Linked from (2)")


def test_text_says_so_when_nothing_links_here() -> None:
    assert "No pages link here." in format_backlinks_text(())


def test_entries_sort_by_title_ignoring_case_then_by_href() -> None:
    edges = [_edge("/z.md"), _edge("/b.md"), _edge("/a.md"), _edge("/c.md")]
    titles = {"/z.md": "sitegen", "/b.md": "Your first site", "/a.md": "Alpha", "/c.md": "Alpha"}
    (group,) = backlink_groups(edges, titles, _href)
    assert [(e.title, e.href) for e in group.entries] == [
        ("Alpha", "a.html"),
        ("Alpha", "c.html"),
        ("sitegen", "z.html"),
        ("Your first site", "b.html"),
    ]
