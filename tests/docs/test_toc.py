"""Tables of contents in a page (content/syntax/toc.md): VitePress's ``[[toc]]`` and
Python-Markdown's ``[TOC]`` render the headings as nested links, are never links themselves,
and use the ids of the page's slug style."""

from __future__ import annotations

import re

from sitegen.docs.markdown import extract_page
from sitegen.docs.toc import MAX_TABLES
from sitegen.generators import SlugStyle
from sitegen.records.pages import PageRecord

PAGE = """# Title

[[toc]]

## First part

### Detail `code`

#### Too deep for VitePress

## Second part

> ## Quoted heading
"""


def _page(text: str, slugs: SlugStyle = SlugStyle.GITHUB) -> PageRecord:
    return extract_page("docs/p.md", text.encode(), slugs=slugs)


def _tables(html: str) -> list[str]:
    return re.findall(r'<nav class="table-of-contents">.*?</nav>', html)


def test_vitepress_toc_lists_levels_two_and_three_outside_containers() -> None:
    rec = _page(PAGE)
    assert rec.links == []
    assert _tables(rec.html) == [
        '<nav class="table-of-contents"><ul>'
        '<li><a href="#first-part">First part</a>'
        '<ul><li><a href="#detail-code">Detail code</a></li></ul></li>'
        '<li><a href="#second-part">Second part</a></li>'
        "</ul></nav>"
    ]


def test_python_markdown_toc_lists_every_heading() -> None:
    rec = _page(PAGE.replace("[[toc]]", "[TOC]"), SlugStyle.MKDOCS)
    (table,) = _tables(rec.html)
    assert table == (
        '<nav class="table-of-contents"><ul><li><a href="#title">Title</a><ul>'
        '<li><a href="#first-part">First part</a><ul>'
        '<li><a href="#detail-code">Detail code</a><ul>'
        '<li><a href="#too-deep-for-vitepress">Too deep for VitePress</a></li></ul></li>'
        "</ul></li>"
        '<li><a href="#second-part">Second part</a></li>'
        '<li><a href="#quoted-heading">Quoted heading</a></li>'
        "</ul></li></ul></nav>"
    )
    assert "[TOC]" not in rec.html


def test_the_table_links_the_ids_of_the_slug_style() -> None:
    text = "[[toc]]\n\n## What's new?\n\n## What's new?\n"
    assert 'href="#what-s-new"' in _page(text, SlugStyle.VITEPRESS).html
    assert 'href="#what-s-new-1"' in _page(text, SlugStyle.VITEPRESS).html
    assert 'href="#whats-new_1"' in _page(text, SlugStyle.MKDOCS).html


def test_markers_in_any_case_and_interrupting_a_paragraph() -> None:
    rec = _page("Some text\n[[TOC]]\n\n## A\n")
    assert len(_tables(rec.html)) == 1
    assert "<p>Some text</p>" in rec.html


def test_a_marker_among_words_stays_text_and_is_no_link() -> None:
    rec = _page("See [[toc]] here, and [TOC] too.\n\n[TOC] and more\n\n## A\n")
    assert rec.links == []
    assert _tables(rec.html) == []
    assert "See [[toc]] here, and [TOC] too." in rec.html
    assert not rec.diagnostics


def test_a_wikilink_is_still_a_wikilink() -> None:
    rec = _page("[[Toc page]] and [[other]]\n")
    assert [link.href for link in rec.links] == ["Toc page", "other"]


def test_indented_or_fenced_markers_are_code() -> None:
    rec = _page("    [[toc]]\n\n```\n[TOC]\n```\n\n## A\n")
    assert _tables(rec.html) == []


def test_the_table_shows_the_text_without_raw_html() -> None:
    rec = _page('[[toc]]\n\n## Install <Badge type="tip" text="beta" />\n')
    assert '<a href="#install-">Install</a>' in _tables(rec.html)[0]


def test_heading_text_is_escaped_in_the_table() -> None:
    rec = _page("[TOC]\n\n## a \\<script> b\n")
    assert "&lt;script&gt;" in _tables(rec.html)[0]
    assert "<script>" not in rec.html


def test_a_page_without_headings_gets_an_empty_table() -> None:
    assert _tables(_page("[[toc]]\n").html) == ['<nav class="table-of-contents"></nav>']


def test_tables_past_the_limit_are_left_out_with_a_warning() -> None:
    text = "## A\n\n" + "[[toc]]\n\n" * (MAX_TABLES + 2)
    rec = _page(text)
    assert len(_tables(rec.html)) == MAX_TABLES
    warnings = [d for d in rec.diagnostics if d.code == "toc"]
    assert [d.line for d in warnings] == [3 + 2 * MAX_TABLES, 5 + 2 * MAX_TABLES]
