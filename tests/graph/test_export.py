"""graph.md and ParseExport (content/reference/graph-md.md): escaping, legacy tables, round trip."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from sitegen.graph.export import export_graph_md, parse_graph_md
from sitegen.graph.model import Edge, Graph, Node, NodeKind

# --- the format, pinned by hand-written literals ------------------------------------------


def test_export_matches_the_documented_layout():
    g = Graph.from_edges(
        [
            Edge("/b.md", "/a.md", "supersedes"),
            Edge("/a.md", "/b.md", "", "Getting started", "intro", 3),
        ],
        [Node("/b.md", NodeKind.PAGE, "B"), Node("/a.md", NodeKind.PAGE, "A")],
    )
    assert export_graph_md(g, title="My site") == (
        "# My site\n"
        "\n"
        "## Nodes\n"
        "\n"
        "| Node | Title | Kind |\n"
        "| --- | --- | --- |\n"
        "| /a.md | A | page |\n"
        "| /b.md | B | page |\n"
        "\n"
        "## Edges\n"
        "\n"
        "| From | To | Rel | Label | Anchor | Count |\n"
        "| --- | --- | --- | --- | --- | --- |\n"
        "| /a.md | /b.md |  | Getting started | #intro | 3 |\n"
        "| /b.md | /a.md | supersedes |  |  | 1 |\n"
    )


def test_cells_escape_backslash_pipe_and_the_three_html_characters():
    g = Graph.from_edges([Edge("/a.md", "/b.md", "", r"a|b\c <script>&amp; *x*", "", 1)])
    row = export_graph_md(g).splitlines()[-1]
    assert row == r"| /a.md | /b.md |  | a\|b\\c &lt;script&gt;&amp;amp; *x* |  | 1 |"


def test_line_breaks_never_reach_a_cell():
    label = "one\ntwo\r\nthree\rfour\u2028five\x85six\x0bseven"
    g = Graph.from_edges(
        [Edge("/a.md", "/b.md", "", label)], [Node("/a.md", NodeKind.PAGE, "T\nitle")]
    )
    text = export_graph_md(g, title="multi\nline")
    assert text.splitlines() == text.split("\n")[:-1]  # no exotic separator left anywhere
    assert "| one two  three four five six seven |" in text
    assert "| /a.md | T itle | page |" in text
    assert text.startswith("# multi line\n")


def test_rows_are_sorted_whatever_the_insertion_order():
    edges = [
        Edge(s, d, r) for s in ("/b.md", "/a.md") for d in ("/z.md", "/c.md") for r in ("", "x")
    ]
    nodes = [Node(n, NodeKind.PAGE) for n in ("/c.md", "/a.md", "/b.md")]
    texts = set()
    for seed in range(5):
        rng = random.Random(seed)
        shuffled_e, shuffled_n = edges[:], nodes[:]
        rng.shuffle(shuffled_e)
        rng.shuffle(shuffled_n)
        texts.add(export_graph_md(Graph.from_edges(shuffled_e, shuffled_n)))
    assert len(texts) == 1
    rows = [line for line in texts.pop().splitlines() if line.startswith("| /")]
    edge_rows = [tuple(c.strip() for c in r.strip("|").split("|")[:3]) for r in rows[3:]]
    assert edge_rows == sorted(edge_rows)
    assert edge_rows[0] == ("/a.md", "/c.md", "")
    assert [r.split("|")[1].strip() for r in rows[:3]] == ["/a.md", "/b.md", "/c.md"]


# --- ParseExport -------------------------------------------------------------------------


def _six(e: Edge) -> tuple:
    return (e.src, e.dst, e.rel, e.label, e.anchor, e.count)


def test_legacy_two_column_table_gets_count_one():
    text = (
        "# Graph\n\n| From | To |\n|------|----|\n| /a.md | /b.md |\n| /b.md | https://x.org/ |\n"
    )
    result = parse_graph_md(text)
    assert result.errors == []
    assert [_six(e) for e in result.edges] == [
        ("/a.md", "/b.md", "", "", "", 1),
        ("/b.md", "https://x.org/", "", "", "", 1),
    ]


def test_two_cell_row_inside_a_wide_table_is_a_legacy_row():
    text = (
        "## Edges\n\n| From | To | Rel | Label | Anchor | Count |\n| --- | --- | --- | --- | --- | --- |\n"
        "| /a.md | /b.md | | Intro | #start | 2 |\n"
        "| /c.md | /d.md |\n"
    )
    result = parse_graph_md(text)
    assert result.errors == []
    assert [_six(e) for e in result.edges] == [
        ("/a.md", "/b.md", "", "Intro", "start", 2),
        ("/c.md", "/d.md", "", "", "", 1),
    ]


def test_headers_are_matched_by_name_case_insensitively_and_extra_columns_ignored():
    text = (
        "Some prose.\n\n"
        "| count | NOTES | to | From | label | rel | anchor |\n"
        "|:-----:|-------|:---|---:|---|---|---|\n"
        r"| 4 | whatever \| here | /b.md | /a.md | A \\ B | depends-on | #sec |"
        "\n"
    )
    result = parse_graph_md(text)
    assert result.errors == []
    assert [_six(e) for e in result.edges] == [("/a.md", "/b.md", "depends-on", "A \\ B", "sec", 4)]


def test_edges_table_found_under_any_heading_and_other_tables_skipped():
    text = (
        "# Report\n\n| Page | Score |\n| --- | --- |\n| /a.md | 3 |\n\n"
        "### Links of the site\n\n| from | to |\n| - | - |\n| /x.md | /y.md |\n"
    )
    assert [_six(e) for e in parse_graph_md(text).edges] == [("/x.md", "/y.md", "", "", "", 1)]


def test_the_table_under_an_edges_heading_wins_over_an_earlier_from_to_table():
    text = (
        "## Redirects\n\n| From | To |\n| --- | --- |\n| /old.md | /new.md |\n\n"
        "## Edges\n\n| From | To |\n| --- | --- |\n| /a.md | /b.md |\n"
    )
    assert [e.src for e in parse_graph_md(text).edges] == ["/a.md"]


def test_malformed_rows_are_reported_with_their_line_and_skipped():
    text = (
        "## Edges\n"  # 1
        "\n"  # 2
        "| From | To | Rel | Label | Anchor | Count |\n"  # 3
        "| --- | --- | --- | --- | --- | --- |\n"  # 4
        "| /a.md | /b.md | | | | 1 |\n"  # 5 fine
        "| /a.md | /c.md | | |\n"  # 6 four cells
        "| /a.md | /d.md | | | | many |\n"  # 7 non-integer count
        "|  | /e.md | | | | 1 |\n"  # 8 empty From
        "| /a.md | /f.md | | | | 0 |\n"  # 9 zero count
        "just text in the table\n"  # 10 one cell
        "| /a.md | /g.md | | | | 2 |\n"  # 11 fine
    )
    result = parse_graph_md(text)
    assert [e.dst for e in result.edges] == ["/b.md", "/g.md"]
    assert [line for line, _ in result.errors] == [6, 7, 8, 9, 10]
    assert "4 cells" in result.errors[0][1] and "many" in result.errors[1][1]


def test_tables_without_outer_pipes_and_with_crlf_line_endings_are_read():
    text = "From | To | Count\r\n--- | :-: | ---\r\n/a.md | /b.md | 7\r\n/c.md | /d\\|e.md | 1\r\n"
    result = parse_graph_md(text)
    assert result.errors == []
    assert [_six(e) for e in result.edges] == [
        ("/a.md", "/b.md", "", "", "", 7),
        ("/c.md", "/d|e.md", "", "", "", 1),
    ]


def test_a_document_without_an_edges_table_is_reported_not_a_crash():
    result = parse_graph_md("# Nothing here\n\njust prose | with a pipe\n")
    assert result.edges == [] and len(result.errors) == 1


def test_tables_inside_fenced_code_are_not_read():
    text = "```\n| From | To |\n| --- | --- |\n| /fake.md | /x.md |\n```\n\n| From | To |\n| --- | --- |\n| /a.md | /b.md |\n"
    assert [e.src for e in parse_graph_md(text).edges] == ["/a.md"]


def test_nodes_table_is_read_and_bad_kinds_reported():
    text = (
        "## Nodes\n\n| Node | Title | Kind |\n| --- | --- | --- |\n"
        "| /a.md | A \\| title | page |\n| /b.md | | planet |\n\n"
        "## Edges\n\n| From | To |\n| --- | --- |\n| /a.md | /b.md |\n"
    )
    result = parse_graph_md(text)
    assert result.nodes == [Node("/a.md", NodeKind.PAGE, "A | title")]
    assert [line for line, _ in result.errors] == [6]


def test_json_output_carries_all_six_fields_in_table_order():
    import json

    text = "| From | To |\n| --- | --- |\n| /b.md | /a.md |\n| /a.md | /b.md |\n"
    data = json.loads(parse_graph_md(text).to_json())
    assert data == {
        "edges": [
            {"from": "/b.md", "to": "/a.md", "rel": "", "label": "", "anchor": "", "count": 1},
            {"from": "/a.md", "to": "/b.md", "rel": "", "label": "", "anchor": "", "count": 1},
        ]
    }


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_parse_never_raises_on_any_text(text):
    result = parse_graph_md(text)
    assert all(isinstance(line, int) and line >= 1 for line, _ in result.errors)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(alphabet="|\\-: ab\n#`", max_size=12), max_size=8))
def test_parse_never_raises_on_table_shaped_text(lines):
    header = "| From | To | Rel | Label | Anchor | Count |\n| --- | --- | --- | --- | --- | --- |\n"
    parse_graph_md(header + "\n".join(lines))


# --- round trip: parse(export(g)) gives g's edges back exactly ---------------------------
# Assumption, as extraction guarantees: labels, titles and ids have no line breaks and no
# leading/trailing whitespace, and labels have single interior spaces (whitespace collapsed).

_CHAR = st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp"))
_WORD = st.text(_CHAR, min_size=1, max_size=6)
_PUNCT_WORD = st.one_of(
    st.text(st.sampled_from("|\\#<>&;`*_[]!a"), min_size=1, max_size=4),
    # text that looks like the entities graph.md writes, or like others
    st.sampled_from(["&amp;", "&lt;", "&gt;", "&amp;lt;", "&lt", "&#60;", "&quot;", "\\&gt;"]),
)
_PHRASE = st.lists(st.one_of(_WORD, _PUNCT_WORD), max_size=4).map(" ".join)
_ID = st.one_of(_WORD, _PUNCT_WORD, st.sampled_from(["/a.md", "/b c.md", "https://x.org/?q=a|b"]))
_REL = st.text("abcz019-", max_size=6)


def _edges(ids, texts, anchors, rels):
    return st.builds(Edge, ids, ids, rels, texts, anchors, st.integers(1, 10**6))


def _nodes(ids, titles):
    return st.builds(Node, ids, st.sampled_from(list(NodeKind)), titles)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(_edges(_ID, _PHRASE, st.one_of(_WORD, _PUNCT_WORD, st.just("")), _REL), max_size=12),
    st.lists(_nodes(_ID, _PHRASE), max_size=6),
)
def test_parse_of_export_gives_back_the_graph(edges, nodes):
    g = Graph.from_edges(edges, nodes)
    result = parse_graph_md(export_graph_md(g))
    assert result.errors == []
    assert [_six(e) for e in result.edges] == [_six(e) for e in g.edges()]
    assert result.nodes == [g.nodes[k] for k in sorted(g.nodes)]


def test_round_trip_of_awkward_values():
    awkward = [
        "\\",
        "|",
        "\\|",
        "a\\",
        "\\\\|\\",
        "<script>alert(1)</script>",
        "#",
        "##x",
        "ü 漢字 😀",
        "| leading pipe",
        "trailing pipe |",
        "-",
        ":---:",
        "&amp;",
        "`code | pipe`",
    ]
    edges = [Edge(f"/{i}.md", v, v.replace(" ", ""), v, v, i + 1) for i, v in enumerate(awkward)]
    g = Graph.from_edges(edges, [Node(v, NodeKind.EXTERNAL, v) for v in awkward])
    result = parse_graph_md(export_graph_md(g))
    assert result.errors == []
    assert [_six(e) for e in result.edges] == [_six(e) for e in g.edges()]
    assert result.nodes == [g.nodes[k] for k in sorted(g.nodes)]


# --- GFM: markdown-it-py's table reads the same cells -------------------------------------
# An alphabet without inline markup (emphasis, code, links, entities, autolinks): what a GFM
# renderer then shows in each cell must be exactly our value. Raw HTML is off, as it must be
# when rendering content; `<` and `>` then stay text.

_GFM_WORD = st.text(st.sampled_from("abXY09éß漢😀|\\#<>/-.&"), min_size=1, max_size=6)
_GFM_PHRASE = st.lists(_GFM_WORD, max_size=4).map(" ".join)


def _gfm_tables(text: str) -> list[list[list[str]]]:
    """Every table's rows (header first) as the plain text markdown-it renders per cell."""
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    tables: list[list[list[str]]] = []
    in_table = False
    for tok in md.parse(text):
        if tok.type in ("table_open", "table_close"):
            in_table = tok.type == "table_open"
            tables += [[]] if in_table else []
        elif tok.type == "tr_open":
            tables[-1].append([])
        elif tok.type == "inline" and in_table:
            assert all(c.type == "text" for c in tok.children or []), tok.children
            tables[-1][-1].append("".join(c.content for c in tok.children or []))
    return tables


@settings(max_examples=150, deadline=None)
@given(
    st.lists(_edges(_GFM_WORD, _GFM_PHRASE, st.one_of(_GFM_WORD, st.just("")), _REL), max_size=10),
    st.lists(_nodes(_GFM_WORD, _GFM_PHRASE), max_size=5),
)
def test_a_gfm_parser_reads_the_same_cells(edges, nodes):
    g = Graph.from_edges(edges, nodes)
    nodes_table, edges_table = _gfm_tables(export_graph_md(g))
    assert nodes_table[0] == ["Node", "Title", "Kind"]
    assert nodes_table[1:] == [
        [n.id, n.title, str(n.kind)] for n in (g.nodes[k] for k in sorted(g.nodes))
    ]
    assert edges_table[0] == ["From", "To", "Rel", "Label", "Anchor", "Count"]
    assert edges_table[1:] == [
        [e.src, e.dst, e.rel, e.label, "#" + e.anchor if e.anchor else "", str(e.count)]
        for e in g.edges()
    ]


def test_gfm_reads_escaped_pipes_and_backslashes_and_leaves_html_as_text():
    g = Graph.from_edges([Edge("/a.md", "/b.md", "", "x\\|y \\ <script>", "", 1)])
    edges_table = _gfm_tables(export_graph_md(g))[1]
    assert edges_table[1] == ["/a.md", "/b.md", "", "x\\|y \\ <script>", "", "1"]
    assert "<script>" not in MarkdownIt("commonmark", {"html": False}).enable("table").render(
        export_graph_md(g)
    )
