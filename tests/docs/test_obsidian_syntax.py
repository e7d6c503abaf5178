"""Obsidian's own syntaxes (content/syntax/obsidian.md): comments, highlights, block ids,
and that hostile runs of their markers cost time linear in the page, near markdown-it's."""

from __future__ import annotations

from sitegen.docs.markdown import extract_page
from sitegen.link.rules import SiteIndex
from sitegen.link.step import link_all
from sitegen.site.search import page_sections
from tests.docs.against_markdown_it import within_markdown_it
from tests.safety.linear import grows_linearly
from tests.safety.test_url_gate import _published


def _html(text: str) -> str:
    return extract_page("p.md", text.encode()).html


# --- comments -----------------------------------------------------------------------------


def test_an_inline_comment_is_removed_from_the_page() -> None:
    html = _html("Shown %%secret words%% and shown.")
    assert "secret" not in html and "%%" not in html
    assert "Shown" in html and "and shown." in html


def test_an_inline_comment_may_span_the_lines_of_a_paragraph() -> None:
    html = _html("Start %%first\nsecond%% end")
    assert "first" not in html and "second" not in html
    assert "Start" in html and "end" in html


def test_a_block_comment_spans_blank_lines_and_leaves_no_block() -> None:
    html = _html("Before.\n\n%%\nHidden one.\n\n# Hidden heading\n%%\n\nAfter.")
    assert "Hidden" not in html and "%%" not in html
    assert "<p>Before.</p>" in html and "<p>After.</p>" in html


def test_a_comment_line_ends_the_paragraph_above_it() -> None:
    html = _html("Text\n%%\nnote\n\nmore note\n%%")
    assert "note" not in html and "<p>Text</p>" in html


def test_links_inside_a_comment_are_no_links() -> None:
    record = extract_page("p.md", b"See %%[a](a.md) and [[B]]%% nothing.")
    assert record.links == []


def test_an_unclosed_comment_is_shown_as_written() -> None:
    assert "<p> left %% open</p>" in _html("%%gone%% left %% open\n\nand here.")
    html = _html("%%gone%%\n\n%%\nnever closed")
    assert "gone" not in html and "%%\nnever closed" in html


def test_comments_inside_code_are_code() -> None:
    html = _html("Use `%%kept%%` here %%gone%%.\n\n```\n%%also kept%%\n```")
    assert "<code>%%kept%%</code>" in html and "%%also kept%%" in html
    assert "gone" not in html


def test_a_comment_is_not_in_the_search_text() -> None:
    html = _html("# Page\n\nVisible %%needle%% words.\n\n%%\nhaystack\n%%")
    text = " ".join(section.text for section in page_sections(html))
    assert "Visible" in text
    assert "needle" not in text and "haystack" not in text


# --- highlights ---------------------------------------------------------------------------


def test_a_highlight_is_a_mark() -> None:
    assert "<p>Read <mark>this part</mark> first.</p>" in _html("Read ==this part== first.")


def test_a_highlight_nests_with_emphasis_and_links() -> None:
    html = _html("==*all* of [it](a.md)== and **bold ==inner==**")
    assert html.startswith("<p><mark><em>all</em> of <a ")
    assert "</a></mark>" in html and "<strong>bold <mark>inner</mark></strong>" in html


def test_a_highlight_is_not_read_in_code_or_between_spaces() -> None:
    html = _html("`==code==` and a == b == c and ==real==\n\n```\n==fenced==\n```")
    assert "<code>==code==</code>" in html and "a == b == c" in html
    assert "==fenced==" in html and "<mark>real</mark>" in html


def test_an_unclosed_highlight_is_text_and_an_odd_run_keeps_its_extra_sign() -> None:
    html = _html("==open and ===odd===")
    assert html == "<p>==open and =<mark>odd</mark>=</p>\n"


# --- block ids ----------------------------------------------------------------------------


def _page(text: str) -> tuple[str, list[str]]:
    record = extract_page("p.md", text.encode())
    return record.html, record.anchors


def test_a_block_id_ending_a_paragraph_is_its_anchor_and_is_not_shown() -> None:
    html, anchors = _page("A claim worth citing. ^claim-1\n\nNext *line*\n^own-line")
    assert '<p id="^claim-1">A claim worth citing.</p>' in html
    assert '<p id="^own-line">Next <em>line</em></p>' in html
    assert anchors == ["^claim-1", "^own-line"]


def test_a_block_id_ending_a_list_item_is_the_items_anchor() -> None:
    html, anchors = _page("- first ^i-1\n- second\n  more ^i-2\n- third")
    assert '<li id="^i-1">first</li>' in html and '<li id="^i-2">second\nmore</li>' in html
    assert anchors == ["^i-1", "^i-2"]


def test_an_id_alone_below_a_table_or_quote_is_that_blocks_anchor() -> None:
    html, anchors = _page("| a |\n|---|\n| b |\n\n^table\n\n> said\n\n^quote")
    assert '<table id="^table">' in html and '<blockquote id="^quote">' in html
    assert "<p>^" not in html and anchors == ["^quote", "^table"]


def test_a_block_id_glued_to_an_image_is_the_paragraphs_anchor() -> None:
    html, anchors = _page("![[diagram.png]]^fig-1\n\n![chart](chart.png)^fig-2")
    assert anchors == ["^fig-1", "^fig-2"] and "^fig" not in html.replace('id="^fig', "")


def test_what_is_no_block_id_is_shown_as_written() -> None:
    text = "a^b\n\n`code ^c`\n\nx ^under_score\n\n[label ^d](u.md)\n\n2^10 ^e"
    html, anchors = _page(text)
    assert "a^b" in html and "<code>code ^c</code>" in html and "x ^under_score" in html
    assert "label ^d</a>" in html
    assert '<p id="^e">2^10</p>' in html and anchors == ["^e"]


# --- obsidian: links ---------------------------------------------------------------------

VAULT = "obsidian://open?vault=notes&amp;file=Start"


def test_an_obsidian_link_stays_a_link_in_every_syntax_of_an_href() -> None:
    url = "obsidian://open?vault=notes&file=Start"
    html = _published(f'[app]({url}) <{url}> <a href="{url}">raw</a> [[{url}|wiki]]')
    assert html.count(f'href="{VAULT}"') == 4, html


def test_an_obsidian_url_is_never_a_source() -> None:
    url = "obsidian://open?vault=notes"
    html = _published(f'![pic]({url}) <img src="{url}" alt="raw"> [ok]({url})')
    assert html.count("obsidian:") == 1 and f'href="{url}"' in html, html


def test_an_obsidian_link_is_not_reported() -> None:
    index = SiteIndex("content", {"content/p.md"}, set(), set(), {"content"})
    rec = extract_page("content/p.md", b"# P\n\n[open](obsidian://open?vault=v) [x](vscode://a)\n")
    linked = link_all(index, [rec], [], {}, lambda _path: None)
    assert [(d.col, d.code) for d in linked.diagnostics] == [(33, "unsafe-url")]


# --- time ---------------------------------------------------------------------------------

#: Runs of each marker written to be slow: openers without closers, closers without
#: openers, and markers split over lines.
HOSTILE = {
    "percent": lambda n: "%%a " * n,
    "percent lines": lambda n: "%%a\n" * n,
    "percent odd": lambda n: "%" * (2 * n + 1) + "\n\n" + "x %% " * n,
    "equals": lambda n: "==a " * n,
    "equals nested": lambda n: "==*a " * n + "b==" * n,
    "equals odd": lambda n: "=" * (2 * n + 1) + " " + "a== " * n,
    "carets": lambda n: "a ^b" * n,
    "caret paragraphs": lambda n: "x ^id\n\n^id\n\n" * n,
    "caret list": lambda n: "- a ^i\n" * n,
}


def _extract(text: str) -> object:
    return extract_page("p.md", text.encode())


def test_hostile_marker_runs_take_linear_time() -> None:
    for name, make in HOSTILE.items():
        ok, said = grows_linearly(_extract, make)
        assert ok, f"{name}: {said}"


def test_hostile_marker_runs_cost_about_what_markdown_it_does() -> None:
    for name, make in HOSTILE.items():
        ok, said = within_markdown_it(make(20_000), 6)
        assert ok, f"{name}: {said}"
