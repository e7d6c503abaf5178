"""The link step as a unit: records in, one graph out, with the rules of
content/guides/linking.md (what is an edge, what is reported, where, and what a node is).

Pages are extracted from markdown written here; the site index is written by hand, so each
test states what exists and what the step must make of it.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from sitegen.docs.markdown import extract_page
from sitegen.graph.model import NodeKind
from sitegen.link.rules import SiteIndex
from sitegen.link.step import link_all
from sitegen.records.linked import Linked


def _link(
    pages: Mapping[str, str],
    *,
    assets: frozenset[str] = frozenset(),
    sources: Mapping[str, int] | None = None,
    why_unread: Mapping[str, str] | None = None,
) -> Linked:
    dirs = {"content"}
    for path in [*pages, *assets, *(sources or {})]:
        parts = path.split("/")[:-1]
        dirs.update("/".join(parts[: k + 1]) for k in range(len(parts)))
    index = SiteIndex(
        content="content",
        pages=set(pages),
        assets=set(assets),
        sources=set(sources or {}),
        dirs=dirs,
    )
    records = [extract_page(p, t.encode()) for p, t in pages.items()]
    unread = dict(why_unread or {})
    return link_all(index, records, [], dict(sources or {}), unread.get)


def _diags(linked: Linked) -> list[tuple[str, int, int, str]]:
    return sorted((d.path, d.line, d.col, d.code) for d in linked.diagnostics)


def test_occurrences_between_two_pages_are_one_edge_with_a_count() -> None:
    later = "[again](b.md#b) and [x](./b.md)"
    linked = _link(
        {"content/a.md": f"# A\n\nSee [B](b.md).\n\n## Later\n\n{later}\n", "content/b.md": "# B\n"}
    )
    (edge,) = linked.graph.edges_from("/a.md")
    assert edge.dst == "/b.md"
    assert edge.count == 3
    # Each occurrence keeps its own line, column and fragment.
    assert [(o.line, o.column, o.fragment) for o in edge.occurrences] == [
        (3, 5, ""),
        (7, 1, "b"),
        (7, later.index("[x]") + 1, ""),
    ]
    assert linked.diagnostics == []


def test_label_and_anchor_are_those_of_the_first_occurrence() -> None:
    linked = _link(
        {
            "content/a.md": "Intro [*the* `guide`](g.md).\n\n## Setup steps\n\n[other](g.md)\n",
            "content/g.md": "# G\n",
        }
    )
    (edge,) = linked.graph.edges_from("/a.md")
    assert edge.label == "the guide"  # plain text, markup stripped
    assert edge.anchor == ""  # before the first heading


def test_a_relation_is_an_edge_of_its_own_kind_beside_the_plain_link() -> None:
    linked = _link(
        {
            "content/adr/2.md": "---\nrel-supersedes: 1.md\n---\n# Two\n\nSee [one](1.md).\n",
            "content/adr/1.md": "# One\n",
        }
    )
    edges = sorted((e.dst, e.rel) for e in linked.graph.edges_from("/adr/2.md"))
    assert edges == [("/adr/1.md", ""), ("/adr/1.md", "supersedes")]


def test_a_missing_target_is_an_edge_to_a_missing_node_and_a_broken_link() -> None:
    linked = _link(
        {"content/a.md": "# A\n\n[gone](gudes/install.md)\n", "content/guides/install.md": "# I\n"}
    )
    (edge,) = linked.graph.edges_from("/a.md")
    assert edge.dst == "/gudes/install.md"
    assert linked.graph.nodes[edge.dst].kind is NodeKind.MISSING
    assert _diags(linked) == [("content/a.md", 3, 1, "broken-link")]
    (diag,) = linked.diagnostics
    assert "looked for 'content/gudes/install.md'" in diag.message
    assert "guides/install.md" in diag.message.split("looked for")[1].split(")", 1)[1]


def test_a_link_out_of_the_root_is_missing_and_says_nothing_there_is_read() -> None:
    linked = _link({"content/a.md": "[up](../../../etc/passwd)\n"})
    (edge,) = linked.graph.edges_from("/a.md")
    assert linked.graph.nodes[edge.dst].kind is NodeKind.MISSING
    (diag,) = linked.diagnostics
    assert (diag.code, diag.line, diag.col) == ("broken-link", 1, 1)
    assert "outside the project root" in diag.message


def test_a_file_that_exists_but_was_not_read_is_reported_with_the_reason() -> None:
    linked = _link(
        {"content/a.md": "[tool](../tools/run.rb)\n"},
        why_unread={"tools/run.rb": "is a ruby file, not analysed (--language python)"},
    )
    (diag,) = linked.diagnostics
    assert diag.message.endswith("is a ruby file, not analysed (--language python)")
    assert "does not exist" not in diag.message


def test_a_fragment_that_names_no_heading_keeps_the_edge_and_is_a_broken_anchor() -> None:
    linked = _link(
        {
            "content/a.md": "# A\n\n[b](b.md#frist-run)\n",
            "content/b.md": "# B\n\n## First run\n",
        }
    )
    (edge,) = linked.graph.edges_from("/a.md")
    assert edge.dst == "/b.md"
    (diag,) = linked.diagnostics
    assert (diag.code, diag.line, diag.col) == ("broken-anchor", 3, 1)
    assert "Did you mean '#first-run'?" in diag.message


def test_a_link_to_the_page_itself_is_no_edge_but_its_fragment_is_checked() -> None:
    line = "[up](#part) [self](a.md) [bad](#nope)"
    linked = _link({"content/a.md": f"# A\n\n## Part\n\n{line}\n"})
    assert linked.graph.edges_from("/a.md") == []
    assert _diags(linked) == [("content/a.md", 5, line.index("[bad]") + 1, "broken-anchor")]


def test_line_anchors_into_a_source_file_are_checked_against_its_line_count() -> None:
    line = "[ok](../pkg/mod.py#L2-L3) [past](../pkg/mod.py#L9)"
    linked = _link(
        {"content/a.md": line + "\n"},
        sources={"pkg/mod.py": 3},
    )
    (edge,) = linked.graph.edges_from("/a.md")
    assert edge.dst == "/code/pkg/mod.py"
    assert [o.fragment for o in edge.occurrences] == ["L2-L3", "L9"]
    assert _diags(linked) == [("content/a.md", 1, line.index("[past]") + 1, "broken-anchor")]


def test_an_image_is_an_edge_to_an_asset_node() -> None:
    linked = _link(
        {"content/a.md": "![logo](img/logo.png)\n"}, assets=frozenset({"content/img/logo.png"})
    )
    (edge,) = linked.graph.edges_from("/a.md")
    assert edge.dst == "/img/logo.png"
    assert linked.graph.nodes[edge.dst].kind is NodeKind.ASSET
    assert edge.label == "logo"


def test_two_spellings_of_one_url_are_one_external_node() -> None:
    linked = _link(
        {
            "content/a.md": "[a](HTTPS://Docs.Example.COM.:443/Guide/#top) [b](https://docs.example.com/Guide/)\n"
        }
    )
    (edge,) = linked.graph.edges_from("/a.md")
    assert edge.dst == "https://docs.example.com/Guide/"
    assert linked.graph.nodes[edge.dst].kind is NodeKind.EXTERNAL
    assert edge.count == 2


@pytest.mark.parametrize(
    "host", ["localhost:8000", "127.0.0.1", "[::1]", "0.0.0.0", "10.0.0.7", "192.168.1.20:8080"]
)
def test_a_loopback_or_private_link_is_no_edge_and_no_warning(host: str) -> None:
    linked = _link({"content/a.md": f"# Run it\n\nOpen [dev](http://{host}/x).\n"})
    assert linked.graph.edges_from("/a.md") == []
    assert not any(h.startswith("http") for h in linked.graph.nodes)
    assert linked.diagnostics == [] and linked.broken == []
    (found,) = linked.loopback
    assert (found.path, found.line, found.col) == ("content/a.md", 3, 6)
    assert (found.check, found.target) == ("loopback-link", f"http://{host}/x")
    # the page keeps the link: its resolution says where it goes, for the renderer
    (res,) = linked.resolutions["/a.md"]
    assert res.outcome.value == "loopback"


def test_a_relation_to_a_loopback_host_is_no_edge_and_is_reported_apart() -> None:
    linked = _link({"content/a.md": "---\nrel-see-also: http://localhost:3000/\n---\n# A\n"})
    assert linked.graph.edges_from("/a.md") == []
    assert [(f.check, f.target) for f in linked.loopback] == [
        ("loopback-link", "http://localhost:3000/")
    ]
    assert "relation 'rel-see-also'" in linked.loopback[0].message


def test_mail_links_are_not_edges_and_not_reported() -> None:
    linked = _link({"content/a.md": "[me](mailto:me@example.com) [call](tel:+100)\n"})
    assert linked.graph.edges_from("/a.md") == []
    assert linked.diagnostics == []


def test_every_page_read_has_an_entry_and_resolutions_follow_its_links() -> None:
    linked = _link({"content/a.md": "[b](b.md) [gone](c.md)\n", "content/b.md": "no links\n"})
    assert sorted(linked.edges_by_source) == ["/a.md", "/b.md"]
    assert linked.edges_by_source["/b.md"] == []
    assert [r.outcome.value for r in linked.resolutions["/a.md"]] == ["internal", "missing"]


def test_the_graph_does_not_depend_on_the_order_records_come_in() -> None:
    pages = {
        "content/a.md": "[b](b.md) [c](c.md#x)\n",
        "content/b.md": "[a](a.md) [gone](z.md)\n",
        "content/c.md": "# C\n",
    }
    forward = _link(pages)
    backward = _link(dict(reversed(list(pages.items()))))
    assert forward.graph.edges() == backward.graph.edges()
    assert forward.graph.edges()  # the comparison is not of two empty lists
    assert _diags(forward) == _diags(backward)
