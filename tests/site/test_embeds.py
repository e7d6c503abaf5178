"""Embeds written into their page (sitegen/site/embeds.py, content/syntax/obsidian.md#embeds):
the part of the target, its links published from the host's address, its ids dropped, a line
that links to the source; an embed in the part stays a link (one level deep)."""

from __future__ import annotations

from dataclasses import replace

from sitegen.addresses import HTML_ADDRESSES
from sitegen.base.paths import NodeId, OutPath
from sitegen.docs.markdown import extract_page
from sitegen.link.rules import SiteIndex
from sitegen.link.step import link_all
from sitegen.records.linked import Linked, Resolved
from sitegen.records.pages import PageRecord
from sitegen.site.embeds import with_embeds
from sitegen.site.outputs.pages import substitute_links

PAGES = {
    "content/index.md": "# Home\n\n![[b#One]]\n\n![[b#^blk]]\n\n![[nowhere]]\n",
    "content/sub/b.md": (
        "# Bee\n\n## One\n\nSee [home](../index.md), [[#Two|two]] and [[c]].\n\n"
        "![[c]]\n\n## Two\n\nA block. ^blk\n"
    ),
    "content/c.md": "# C\n\nCee.\n",
}


def _shown(host: str) -> str:
    records = {p: extract_page(p, t.encode()) for p, t in sorted(PAGES.items())}
    index = SiteIndex(
        content="content", pages=set(PAGES), assets=set(), sources=set(), dirs={"content"}
    )
    linked: Linked = link_all(index, list(records.values()), [], {})
    pages = {NodeId("/" + p.removeprefix("content/")): r for p, r in records.items()}
    node = NodeId("/" + host.removeprefix("content/"))
    out = OutPath(node.removeprefix("/").replace(".md", ".html"))

    def publish(rec: PageRecord, found: list[Resolved]) -> str:
        return substitute_links(rec, found, out, linked.graph, HTML_ADDRESSES)

    html = with_embeds(
        pages[node], linked.embeds.by_host.get(node, {}), pages, linked.resolutions, publish
    )
    return publish(replace(pages[node], html=html), linked.resolutions[node])


def test_a_section_is_shown_with_its_source_and_its_links_from_the_host() -> None:
    html = _shown("content/index.md")
    first = html[html.index('<blockquote class="embed">') :]
    first = first[: first.index("</blockquote>")]
    assert (
        '<p class="embed-source">From <a href="sub/b.html#one" class="wikilink">Bee &gt; One</a></p>'
        in first
    )
    assert "<h2>One</h2>" in first  # the heading, without its id and permalink
    assert 'href="index.html">home</a>' in first  # ../index.md, written in sub/b.md
    assert 'href="sub/b.html#two" class="wikilink">two</a>' in first  # [[#Two]]: b's own
    assert '<p><a href="c.html" class="wikilink embed">c</a></p>' in first  # one level deep
    assert "Two" not in first.replace(">two<", "")


def test_a_block_is_shown_and_no_id_of_the_target_lands_in_the_host() -> None:
    html = _shown("content/index.md")
    assert "<p>A block.</p>" in html
    assert (
        'id="^blk"' not in html
        and 'id="one"' not in html
        and "permalink" not in html.split("</h1>")[1]
    )
    assert html.count('<blockquote class="embed">') == 2


def test_an_embed_that_shows_nothing_is_a_link_in_a_paragraph() -> None:
    html = _shown("content/index.md")
    assert '<p><a href="nowhere" class="wikilink embed broken-link"' in html
