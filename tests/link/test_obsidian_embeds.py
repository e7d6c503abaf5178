"""Which embeds the site transcludes and what part of the target each shows
(sitegen/link/embeds.py, content/syntax/obsidian.md#embeds): a section up to the next heading
of its level or above, a block by its id, a whole page; cycles are one warning and a link."""

from __future__ import annotations

from sitegen.docs.markdown import extract_page
from sitegen.link.embeds import balanced, part_of
from sitegen.link.rules import SiteIndex
from sitegen.link.step import link_all
from sitegen.records.linked import Linked

B = (
    "# B\n\n## One\n\nFirst [x](a.md).\n\n### Deeper\n\nStill one.\n\n## Two\n\n"
    "A block. ^blk\n\n- item\n- listed ^li\n"
)


def _link(pages: dict[str, str], assets: frozenset[str] = frozenset()) -> Linked:
    records = [extract_page(p, t.encode()) for p, t in sorted(pages.items())]
    index = SiteIndex(
        content="content", pages=set(pages), assets=set(assets), sources=set(), dirs={"content"}
    )
    return link_all(index, records, [], {})


def _shown(linked: Linked, host: str) -> dict[int, tuple[str, str]]:
    return {i: (e.target, e.fragment) for i, e in linked.embeds.by_host.get(host, {}).items()}


def test_a_section_runs_to_the_next_heading_of_its_level_or_above() -> None:
    part = part_of(extract_page("content/b.md", B.encode()), "one")
    assert part is not None
    assert part.startswith('<h2 id="one">') and "Still one." in part and "Deeper" in part
    assert "Two" not in part and "A block." not in part


def test_a_block_is_the_element_that_carries_its_id() -> None:
    rec = extract_page("content/b.md", B.encode())
    assert part_of(rec, "^blk") == '<p id="^blk">A block.</p>'
    assert part_of(rec, "^li") == '<ul>\n<li id="^li">listed</li>\n</ul>'
    assert part_of(rec, "^none") is None and part_of(rec, "nothing") is None
    assert part_of(rec, "") == rec.html


def test_a_heading_inside_a_quote_ends_with_the_quote() -> None:
    assert balanced("<h2>A</h2>\n<p>x</p>\n</blockquote>\n<p>after</p>") == "<h2>A</h2>\n<p>x</p>\n"
    assert balanced("<div><p>open") == "<div><p>open</p></div>"


def test_embeds_of_pages_sections_and_blocks_are_transcluded() -> None:
    linked = _link(
        {
            "content/a.md": "# A\n\n![[b#One]]\n\n![[b#^blk]]\n\n![[b]]\n\n![[b#Nope]]\n\n"
            "![[missing]]\n\n![[file.pdf]]\n",
            "content/b.md": B,
        },
        frozenset({"content/file.pdf"}),
    )
    assert _shown(linked, "/a.md") == {0: ("/b.md", "one"), 1: ("/b.md", "^blk"), 2: ("/b.md", "")}
    assert sorted((d.line, d.code, str(d.level)) for d in linked.diagnostics) == [
        (9, "broken-anchor", "warning"),
        (11, "broken-link", "warning"),
        (13, "unsupported-syntax", "info"),  # file.pdf: a link to the file
    ]


def test_a_page_embedding_itself_is_a_cycle_but_another_section_of_it_is_not() -> None:
    linked = _link(
        {
            "content/a.md": "# A\n\n![[a]]\n\n## Two\n\n![[a#Three]]\n\n![[a#Two]]\n\n## Three\n\nThree.\n"
        }
    )
    assert _shown(linked, "/a.md") == {1: ("/a.md", "three")}
    assert sorted((d.line, d.code) for d in linked.diagnostics) == [
        (3, "embed-cycle"),
        (9, "embed-cycle"),  # the section Two holds this embed
    ]


def test_two_pages_embedding_each_other_are_a_cycle_reported_at_both() -> None:
    linked = _link(
        {
            "content/a.md": "# A\n\n![[b]]\n\n![[c]]\n",
            "content/b.md": "# B\n\n![[a]]\n",
            "content/c.md": "# C\n\n## Part\n\n![[a]]\n\n## Other\n",
        }
    )
    assert _shown(linked, "/a.md") == {}
    assert _shown(linked, "/c.md") == {}
    assert [(d.path, d.code) for d in sorted(linked.diagnostics)] == [
        ("content/a.md", "embed-cycle"),
        ("content/a.md", "embed-cycle"),
        ("content/b.md", "embed-cycle"),
        ("content/c.md", "embed-cycle"),
    ]
    assert "which embeds this page in turn" in linked.diagnostics[0].message


def test_an_embed_of_a_section_without_the_way_back_is_no_cycle() -> None:
    linked = _link(
        {
            "content/a.md": "# A\n\n![[b#Two]]\n",
            "content/b.md": "# B\n\n## One\n\n![[a]]\n\n## Two\n\nTwo.\n",
        }
    )
    assert _shown(linked, "/a.md") == {0: ("/b.md", "two")}
    assert [d.path for d in linked.diagnostics] == ["content/b.md"]  # b's whole-page way back
