"""A page's own HTML is read in one forward pass (sitegen/docs/htmlscan.py), for its ids
(sitegen/docs/anchors.py) and its links (sitegen/docs/rawlinks.py).

Issue 27, defect 9: the stdlib's ``HTMLParser`` retried an unterminated ``<!--`` (or tag,
or ``<![CDATA[``) at every later ``<``, each time scanning to the end: ``'<!--' * n`` of
320 KB took 44 s. A construct left open now swallows the rest of its fragment, as a browser
reads it.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.docs.anchors import html_ids
from sitegen.docs.htmlscan import EndTag, StartTag, Text, html_events
from sitegen.docs.markdown import extract_page
from sitegen.docs.rawlinks import html_links
from tests.docs.against_markdown_it import within_markdown_it
from tests.safety.linear import grows_linearly


def test_ids_and_names_are_read_from_start_tags() -> None:
    html = '<div id="a"><a name=b>x</a><span name="c" ID=\'d&amp;e\'></span>'
    assert html_ids([html]) == {"a", "b", "d&e"}


def test_a_quoted_greater_than_does_not_end_a_tag() -> None:
    assert html_ids(['<a title="x>y" id="z">']) == {"z"}


def test_the_first_of_a_repeated_attribute_counts() -> None:
    assert html_ids(['<a id="first" id="second">']) == {"first"}


@pytest.mark.parametrize(
    "html",
    [
        '<!-- <a id="hidden"> -->',
        '<!-- never closed <a id="hidden">',
        '<a id="open-quote <b id=hidden>',
        '<script><a id="hidden"></script>',
        '<style>x</style ><textarea><a id="hidden"></textarea>',
        '<a id="unclosed"',
    ],
)
def test_what_a_browser_reads_as_no_tag_gives_no_id(html: str) -> None:
    assert html_ids([html]) == set()


def test_after_a_closed_comment_or_declaration_tags_are_read_again() -> None:
    html = '<!-- a --><!DOCTYPE html><?pi x?><![CDATA[ y ]]><a id="seen"><!---->'
    assert html_ids([html]) == {"seen"}
    # the stdlib parser raised AssertionError on this marked section: an internal error
    assert extract_page("p.md", b'<div>\n<![ x ><a id="also">\n').anchors == ["also"]


def test_events_are_start_tags_end_tags_and_text_in_order() -> None:
    assert list(html_events("a<b x=1>c</b >&lt;")) == [
        Text("a", 0),
        StartTag("b", [("x", "1")], 1, 8),
        Text("c", 8),
        EndTag("b", 9),
        Text("<", 14),
    ]


def test_a_fragment_left_open_does_not_hide_the_next_one() -> None:
    assert html_ids(["<!-- open", '<a id="next">']) == {"next"}


def test_links_of_raw_html_keep_their_places_and_labels() -> None:
    html = '<p><a href="x.md">the <img src="i.png" alt="pic"> text</a></p>'
    found = html_links(html)
    assert [(link.url, html[link.at : link.at + len(link.url)], link.label) for link in found] == [
        ("x.md", "x.md", "the pic text"),
        ("i.png", "i.png", "pic"),
    ]


#: Markup an attacker repeats: each is markup that never closes, or closes only at the end.
_MARKERS = ["<!--", "--", "-->", "<!", "<?", "</", "<a ", "<a id=", '"', "'", ">", "<![CDATA["]
_MARKERS += ["]]>", "<script>", "</script", "&#", "\ud800", "<", "id=x ", "\n"]


@settings(deadline=None, max_examples=50)
@given(st.lists(st.sampled_from(_MARKERS), max_size=40), st.integers(0, 400))
def test_any_run_of_markers_is_read_without_error(parts: list[str], cut: int) -> None:
    html = "".join(parts)[:cut]  # truncated anywhere, a lone surrogate included
    html_ids([html])
    html_links(html + '<a href="x">')
    extract_page("p.md", ("<div>\n" + html).encode("utf-8", "surrogatepass"))


#: The pages of defect 9 and its relatives, each about ``n`` characters.
HOSTILE_PAGES: dict[str, Callable[[int], str]] = {
    "'<!--' * n": lambda n: "<!--" * (n // 4),
    "'<!--' + 'a' * n": lambda n: "<!--" + "a" * n,
    "'x <!-- ' * n": lambda n: "x <!-- " * (n // 7),
    "'<!-- <a href=x> ' * n": lambda n: "<!-- <a href=x> " * (n // 16),
    "<div> + '<a id=\"x ' * n": lambda n: "<div>" + '<a id="x ' * (n // 9) + "<a href=y>",
    "<div> + '<![CDATA[ >' * n": lambda n: "<div>\n" + "<![CDATA[ >" * (n // 11),
}


@pytest.mark.parametrize("name", sorted(HOSTILE_PAGES))
def test_a_hostile_page_of_raw_html_is_extracted_in_linear_time(name: str) -> None:
    make = HOSTILE_PAGES[name]
    ok, said = grows_linearly(lambda text: extract_page("p.md", text.encode()), make, 4_000)
    assert ok, said


@pytest.mark.parametrize("name", sorted(HOSTILE_PAGES))
def test_a_hostile_page_of_raw_html_costs_what_markdown_it_costs(name: str) -> None:
    """Against markdown-it's own parse and render of the same 100 KB (bench/pathological.py
    times the same shapes at 360 KB). markdown-it reads most of these as one HTML block in
    a millisecond, so the bound allows a tenth of a second for what every page costs
    (hashing, sanitizing); the old parser took 1 to 30 s here."""
    ok, said = within_markdown_it(HOSTILE_PAGES[name](100_000), 5)
    assert ok, said
