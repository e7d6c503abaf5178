"""graph.md writes ``<``, ``>`` and ``&`` as entities; ParseExport decodes them and still
reads legacy files that hold the raw characters (content/reference/graph-md.md, "Escaping").
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from sitegen.graph.export import export_graph_md, parse_graph_md
from sitegen.graph.model import Edge, Graph, Node, NodeKind
from tests.e2e.conftest import run_cli, write_project

LEGACY = """\
## Edges

| From | To | Rel | Label | Anchor | Count |
| --- | --- | --- | --- | --- | --- |
| /a.md | /b.md |  | <script>alert(1)</script> & more |  | 1 |
| /a.md | /c.md |  | &amp; |  | 1 |
| /a.md | /d.md |  | &copy; &#60; &lt |  | 1 |
"""


def _labels(text: str) -> list[str]:
    result = parse_graph_md(text)
    assert result.errors == []
    return [e.label for e in result.edges]


def test_every_cell_writes_the_three_characters_as_entities() -> None:
    evil = "<script>alert('x')</script> & <img src=x onerror=y>"
    g = Graph.from_edges(
        [Edge("/a.md", "/b.md", "", evil, "", 1)],
        [Node("/a.md", NodeKind.PAGE, evil), Node("/b.md", NodeKind.PAGE, "<b>")],
    )
    text = export_graph_md(g, title="<script>site</script>")
    assert "<" not in text and ">" not in text
    assert "&lt;script&gt;alert('x')&lt;/script&gt; &amp; &lt;img" in text
    assert text.startswith("# &lt;script&gt;site&lt;/script&gt;\n")


def test_rendered_with_raw_html_on_nothing_becomes_markup() -> None:
    evil = "<script>alert(1)</script><img src=x onerror=alert(2)>"
    g = Graph.from_edges(
        [Edge("/a.md", "/b.md", "", evil, "", 1)], [Node("/a.md", NodeKind.PAGE, evil)]
    )
    html = MarkdownIt("commonmark").enable("table").render(export_graph_md(g))  # html allowed
    assert "<script" not in html and "<img" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html  # shown as the text it is


def test_legacy_raw_characters_still_parse() -> None:
    labels = _labels(LEGACY)
    assert labels[0] == "<script>alert(1)</script> & more"
    assert labels[2] == "&copy; &#60; &lt"  # only &lt; &gt; &amp; are decoded


def test_a_literal_amp_entity_in_a_legacy_file_reads_as_the_ampersand() -> None:
    """The documented rule: ``&amp;`` always means ``&`` (what a markdown renderer showed)."""
    assert _labels(LEGACY)[1] == "&"
    # the new export writes such a label so that it comes back unchanged
    g = Graph.from_edges([Edge("/a.md", "/c.md", "", "&amp;", "", 1)])
    assert "| &amp;amp; |" in export_graph_md(g)
    assert _labels(export_graph_md(g)) == ["&amp;"]


def test_decoding_is_one_pass_after_the_backslash_escapes() -> None:
    row = "| /a.md | /b.md |  | &amp;lt; \\\\&amp;gt; a\\|&amp;\\|b |  | 1 |"
    text = "| From | To | Rel | Label | Anchor | Count |\n|---|---|---|---|---|---|\n" + row + "\n"
    assert _labels(text) == ["&lt; \\&gt; a|&|b"]


_ENTITYISH = st.sampled_from(
    ["&", "<", ">", ";", "&amp;", "&lt;", "&gt;", "&amp;amp;", "&lt", "&#62;", "\\", "|", "a", " "]
)
_VALUE = (
    st.lists(_ENTITYISH, min_size=1, max_size=8).map("".join).map(lambda s: " ".join(s.split()))
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_VALUE, _VALUE, _VALUE), min_size=1, max_size=8))
def test_entity_looking_values_round_trip_exactly(rows: list[tuple[str, str, str]]) -> None:
    edges = [
        Edge(f"/{i}{src}.md".replace(" ", ""), f"/t{i}", "", label, anchor.replace(" ", ""), i + 1)
        for i, (src, label, anchor) in enumerate(rows)
    ]
    nodes = [Node(f"/{i}", NodeKind.PAGE, title) for i, (_, title, _) in enumerate(rows)]
    g = Graph.from_edges(edges, nodes)
    text = export_graph_md(g)
    assert "<" not in text and ">" not in text
    result = parse_graph_md(text)
    assert result.errors == []
    six = [(e.src, e.dst, e.rel, e.label, e.anchor, e.count) for e in result.edges]
    assert six == [(e.src, e.dst, e.rel, e.label, e.anchor, e.count) for e in g.edges()]
    assert result.nodes == [g.nodes[k] for k in sorted(g.nodes)]


def test_the_published_graph_md_has_no_raw_markup_and_parses_back(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "proj",
        {
            "content/index.md": "---\ntitle: <script>alert(1)</script> & co\n---\n"
            "See [`<b>` & y](other.md).\n",
            "content/other.md": "# Other\n",
            "sitegen.toml": "source = []\n",
        },
    )
    built = run_cli("build", "--root", str(root), "--quiet")
    assert built.returncode == 0, built.stderr
    published = (root / "site" / "graph.md").read_text(encoding="utf-8")
    assert "<script" not in published and "<b>" not in published
    assert "| /index.md | &lt;script&gt;alert(1)&lt;/script&gt; &amp; co | page |" in published
    parsed = run_cli("graph", "parse", str(root / "site" / "graph.md"), "--json")
    assert parsed.returncode == 0, parsed.stderr
    [edge] = [e for e in json.loads(parsed.stdout)["edges"] if e["to"] == "/other.md"]
    assert edge["label"] == "<b> & y"
