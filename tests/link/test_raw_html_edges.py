"""Links in a page's own HTML in the link step: resolved by the rules of markdown links, edges
with occurrences at the URL's place, broken links and anchors reported there, unsafe URLs
warned about and never edges; and the same graph in every ``raw_html`` mode."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from sitegen.docs.markdown import extract_page
from sitegen.docs.sanitize import RawHtml
from sitegen.graph.model import NodeKind
from sitegen.link.rules import SiteIndex
from sitegen.link.step import link_all
from sitegen.records.linked import Linked, Outcome

ASSETS = frozenset({"content/img/logo.png", "content/media/clip.webm"})


def _link(pages: Mapping[str, str], mode: RawHtml = RawHtml.SANITIZE) -> Linked:
    dirs = {"content", "content/guide", "content/img", "content/media"}
    index = SiteIndex(
        content="content", pages=set(pages), assets=set(ASSETS), sources=set(), dirs=dirs
    )
    records = [extract_page(p, t.encode(), mode) for p, t in pages.items()]
    return link_all(index, records, [], {})


def _graph(
    linked: Linked,
) -> list[tuple[str, str, str, str, str, int, list[tuple[int, int, int, str]]]]:
    return [
        (
            e.src,
            e.dst,
            e.rel,
            e.label,
            e.anchor,
            e.count,
            [(o.offset, o.line, o.column, o.fragment) for o in e.occurrences],
        )
        for e in sorted(linked.graph.edges(), key=lambda e: (e.src, e.dst, e.rel))
    ]


def _diags(linked: Linked) -> list[tuple[str, int, int, str]]:
    return sorted((d.path, d.line, d.col, d.code) for d in linked.diagnostics)


INDEX = (
    "# Home\n\n"
    '<p align="center"><img src="img/logo.png" alt="Logo"></p>\n\n'
    "## Start\n\n"
    'Read <a href="guide/install.md#setup">the <b>install</b> guide</a> and '
    "[again](guide/install.md).\n\n"
    "<div>\n"
    '  <a href="guide/instal.md">typo</a>\n'
    '  <a href="guide/install.md#nowhere">bad anchor</a>\n'
    '  <a href="javascript:alert(1)">script</a>\n'
    '  <a href="https://Example.ORG/x">out</a> <a href="#start">here</a>\n'
    '  <video><source src="media/clip.webm"></video> <img src="data:image/png;base64,AA==">\n'
    "</div>\n"
)
PAGES = {
    "content/index.md": INDEX,
    "content/guide/install.md": '# Install\n\n## Setup\n\n<a href="../index.md">home</a>\n',
}


def test_raw_html_links_are_edges_with_their_places() -> None:
    linked = _link(PAGES)
    edges = {(e.dst, e.label, e.anchor, e.count) for e in linked.graph.edges_from("/index.md")}
    assert edges == {
        ("/img/logo.png", "Logo", "home", 1),
        ("/guide/install.md", "the install guide", "start", 3),  # with the markdown link
        ("/guide/instal.md", "typo", "start", 1),
        ("https://example.org/x", "out", "start", 1),
        ("/media/clip.webm", "", "start", 1),
    }
    install = next(e for e in linked.graph.edges_from("/index.md") if e.dst == "/guide/install.md")
    data = INDEX.encode()
    for occurrence in install.occurrences:
        assert data[occurrence.offset :].startswith((b"guide/install.md", b"[again]"))
    assert [o.fragment for o in install.occurrences] == ["setup", "", "nowhere"]
    assert linked.graph.nodes["/guide/instal.md"].kind is NodeKind.MISSING
    assert [e.src for e in linked.graph.backlinks_of("/index.md")] == ["/guide/install.md"]


def test_broken_links_anchors_and_unsafe_urls_are_reported_at_the_url() -> None:
    linked = _link(PAGES)
    lines = INDEX.split("\n")

    def at(text: str) -> tuple[int, int]:
        line = next(i for i, x in enumerate(lines) if text in x)
        return line + 1, lines[line].index(text) + 1

    assert _diags(linked) == sorted(
        [
            ("content/index.md", *at("guide/instal.md"), "broken-link"),
            ("content/index.md", *at("guide/install.md#nowhere"), "broken-anchor"),
            ("content/index.md", *at("javascript:"), "unsafe-url"),
        ]
    )
    (broken,) = [b for b in linked.broken if b.check == "broken-link"]
    assert broken.target == "guide/instal.md"
    assert "Did you mean" in broken.message


def test_resolutions_follow_the_link_order_of_the_page() -> None:
    linked = _link(PAGES)
    outcomes = [(r.outcome, r.node) for r in linked.resolutions["/index.md"]]
    assert outcomes == [
        (Outcome.INTERNAL, "/img/logo.png"),
        (Outcome.INTERNAL, "/guide/install.md"),
        (Outcome.INTERNAL, "/guide/install.md"),
        (Outcome.MISSING, "/guide/instal.md"),
        (Outcome.INTERNAL, "/guide/install.md"),
        (Outcome.IGNORED, None),
        (Outcome.EXTERNAL, "https://example.org/x"),
        (Outcome.SELF, None),
        (Outcome.INTERNAL, "/media/clip.webm"),
        (Outcome.IGNORED, None),
    ]


@pytest.mark.parametrize("mode", [RawHtml.ESCAPE, RawHtml.ALLOW])
def test_the_graph_and_the_reports_are_the_same_in_every_mode(mode: RawHtml) -> None:
    sanitized, other = _link(PAGES), _link(PAGES, mode)
    assert _graph(other) == _graph(sanitized)
    assert _diags(other) == _diags(sanitized)
    assert other.broken == sanitized.broken
