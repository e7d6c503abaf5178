"""Links in a page's own HTML (``<a href>``, ``<img src>``, ``<source src>``) are links: each at
its URL's exact byte, line and column, with a label and a section, the same in every
``raw_html`` mode; the published HTML holds a placeholder where each URL goes, and escaped
HTML shows the author's text (content/guides/linking.md, "Links in HTML")."""

from __future__ import annotations

import html
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.docs.markdown import extract_page
from sitegen.docs.rawlinks import html_links
from sitegen.docs.sanitize import RawHtml
from sitegen.records.pages import Link, LinkKind, PageRecord
from tests.docs.test_extract import line_and_column, offsets_of
from tests.docs.test_sanitize import published

LINE_ENDINGS = {"lf": "\n", "crlf": "\r\n", "cr": "\r"}

# Each case: markdown, and the bytes each link's URL starts with, in document order.
CASES = {
    "inline a and img": (
        'Text <a href="one.md">one</a> and <img src="two.png" alt="Two">.\n',
        ["one.md", "two.png"],
    ),
    "after multi-byte characters": (
        "café 日本語 😀 <a href=\"one.md\">é</a> ünï <img src='two.png'>\n",
        ["one.md", "two.png"],
    ),
    "an html block spanning lines": (
        '# T\n\n<div>\n  <p>é <a class="x"\n     HREF=one.md>one</a></p>\n'
        '  <picture>\n    <source src="two.webm">\n    <img alt="é"\n src="thr&amp;ee.png">\n'
        "  </picture>\n</div>\n",
        ["one.md", "two.webm", "thr&amp;ee.png"],
    ),
    "a tag spanning lines in a paragraph": (
        'first line\nsecond <a\n   title="t"\n   href="one.md">x</a> [two](2.md)\n',
        ["one.md", "[two"],
    ),
    "in a list and a quote": (
        '- item <a href="one.md">1</a>\n  - deeper\n\n    <div><a href="two.md">2</a></div>\n\n'
        '> quoted <img src="three.png">\n> > <a href="four.md">4</a>\n',
        ["one.md", "two.md", "three.png", "four.md"],
    ),
    "in a table cell, beside an escaped pipe": (
        '| a | b |\n|---|---|\n| x \\| y <a href="one.md">1</a> | <img src="two.png"> |\n',
        ["one.md", "two.png"],
    ),
    "in a heading and beside markdown links": (
        '# Title <a href="one.md">1</a>\n\n[two](2.md) <a href="three.md">3</a> ![four](4.png)\n',
        ["one.md", "[two", "three.md", "![four"],
    ),
    "in a markdown link's text": ('[<img src="one.png"> two](2.md)\n', ["[<img", "one.png"]),
    "tabs before a block": ('-\t<div>\n\t<a href="one.md">1</a>\n\t</div>\n', ["one.md"]),
    "an admonition": ('!!! note "N"\n    <a href="one.md">1</a> x\n', ["one.md"]),
}


def _assert_at_their_urls(data: bytes, rec: PageRecord) -> None:
    for link in rec.links:
        assert (link.line, link.column) == line_and_column(data, link.offset), link
        if link.kind in (LinkKind.HTML, LinkKind.HTML_IMAGE):
            written = html.unescape(data[link.offset :].decode()).encode()
            assert written.startswith(html.unescape(link.href).encode()), link


@pytest.mark.parametrize("ending", sorted(LINE_ENDINGS))
@pytest.mark.parametrize("case", sorted(CASES))
def test_each_url_is_at_its_exact_byte_line_and_column(case: str, ending: str) -> None:
    text, markers = CASES[case]
    data = text.replace("\n", LINE_ENDINGS[ending]).encode()
    rec = extract_page("content/p.md", data)
    assert [link.offset for link in rec.links] == offsets_of(data, [m.encode() for m in markers])
    _assert_at_their_urls(data, rec)


def test_a_bom_counts_in_the_offset() -> None:
    data = '\ufeff<a href="one.md">1</a>\n'.encode()
    (link,) = extract_page("content/p.md", data).links
    assert (link.offset, link.line, link.column) == (12, 1, 13)


def test_labels_kinds_and_sections() -> None:
    text = (
        'Intro <a href="a.md">the *A*\n page</a>.\n\n# One\n\n'
        '<a href="b.md">B <img src="i.png" alt="icon"> text</a>\n\n'
        '## Two\n\n<img src="c.png" alt=" the  C "><picture><source src="d.webm"></picture>\n'
        '<a href="e.md">unclosed\n\nx <a href="f.md"><b>F</b></a>\n'
    )
    rec = extract_page("content/p.md", text.encode())
    got = [(link.href, link.kind, link.label, link.anchor) for link in rec.links]
    assert got == [
        ("a.md", LinkKind.HTML, "the A page", ""),
        ("b.md", LinkKind.HTML, "B icon text", "one"),
        ("i.png", LinkKind.HTML_IMAGE, "icon", "one"),
        ("c.png", LinkKind.HTML_IMAGE, "the C", "two"),
        ("d.webm", LinkKind.HTML_IMAGE, "", "two"),
        ("e.md", LinkKind.HTML, "unclosed", "two"),
        ("f.md", LinkKind.HTML, "F", "two"),
    ]


def test_urls_are_read_as_a_browser_reads_them() -> None:
    text = (
        '<a href=" a&amp;b.md ">1</a> <a href="caf\u00e9 x.md#r\u00e9sum\u00e9">2</a> '
        '<A HREF=\'c.md\' href="not-this.md">3</A> <img src=d.png/> <a href="java\tscript:x()">5</a>\n'
    )
    hrefs = [link.href for link in extract_page("content/p.md", text.encode()).links]
    assert hrefs == [
        "a&b.md",
        "caf%C3%A9%20x.md#r%C3%A9sum%C3%A9",  # percent-encoded as a markdown destination is
        "c.md",
        "d.png/",
        "javascript:x()",  # refused by the URL gate: kept as read, so the linker warns
    ]


@pytest.mark.parametrize(
    "text",
    [
        '<!-- <a href="a.md">a</a> -->',
        "<div>\n<script>\nlet s = '<a href=\"a.md\">';\n</script>\n</div>",
        '<style>a { background: url("<img src=a.png>") }</style>',
        '`<a href="a.md">a</a>`',
        '```html\n<a href="a.md">a</a>\n```',
        '    <a href="a.md">a</a>',
        '\\<a href="a.md">a</a>',
        '<a name="x">anchor</a> <a>no href</a> <a href="">empty</a> <a href>bare</a>',
        '<link href="a.css"> <video poster="p.png"></video> <img srcset="a.png 2x">',
        '<iframe src="a.html"></iframe> <form action="a.md"></form>',
    ],
)
def test_what_is_not_a_link(text: str) -> None:
    assert extract_page("content/p.md", (text + "\n").encode()).links == []


def _published_urls(rec: PageRecord) -> list[str]:
    marks = re.findall(f"{re.escape(rec.link_mark)}([0-9]+)", rec.html)
    return [rec.links[int(i)].href for i in marks]


PAGE = (
    "# P\n\n"
    'See <a href="other.md#x" class="c">other</a>, <img src="pic.png" alt="P">.\n\n'
    '<div>\n<a HREF=\'up.md\' title="t">up</a>\n<a href="javascript:alert(1)">bad</a>\n</div>\n\n'
    "[md](md.md)\n"
)


def test_sanitize_and_allow_publish_a_placeholder_for_each_url() -> None:
    for mode in (RawHtml.SANITIZE, RawHtml.ALLOW):
        rec = extract_page("content/p.md", PAGE.encode(), mode)
        hrefs = [link.href for link in rec.links]
        assert hrefs == ["other.md#x", "pic.png", "up.md", "javascript:alert(1)", "md.md"]
        assert _published_urls(rec) == hrefs
        assert "other.md" not in rec.html and "pic.png" not in rec.html


def test_a_url_the_gate_refuses_goes_with_its_attribute_in_every_mode() -> None:
    for mode in (RawHtml.SANITIZE, RawHtml.ALLOW):
        page = published(extract_page("content/p.md", PAGE.encode(), mode))
        assert "javascript" not in page
        assert ">bad</a>" in page
        assert '<a href="other.md#x" class="c">other</a>' in page
    escaped = published(extract_page("content/p.md", PAGE.encode(), RawHtml.ESCAPE))
    assert "&lt;a href=&quot;javascript:alert(1)&quot;&gt;bad&lt;/a&gt;" in escaped


def test_escape_shows_the_authors_text_unchanged() -> None:
    rec = extract_page("content/p.md", PAGE.encode(), RawHtml.ESCAPE)
    assert _published_urls(rec) == ["md.md"]  # only the markdown link is markup
    assert "&lt;a href=&quot;other.md#x&quot; class=&quot;c&quot;&gt;other&lt;/a&gt;" in rec.html
    assert "&lt;a HREF='up.md' title=&quot;t&quot;&gt;up&lt;/a&gt;" in rec.html


def test_html_the_sanitizer_cannot_keep_is_shown_as_the_author_wrote_it() -> None:
    # an unclosed <script> would swallow the markdown after it: the paragraph is text
    text = 'a <script> *b* <a href="other.md">o</a>\n'
    rec = extract_page("content/p.md", text.encode())
    assert [link.href for link in rec.links] == ["other.md"]
    assert "&lt;a href=&quot;other.md&quot;&gt;" in rec.html
    assert rec.link_mark not in rec.html


def test_a_page_without_raw_html_renders_as_before() -> None:
    page = '# T\n\n[a](a.md) ![i](i.png) <https://x.org> `<a href="b.md">`\n'
    rec = extract_page("content/p.md", page.encode())
    for mode in RawHtml:
        assert extract_page("content/p.md", page.encode(), mode).html == rec.html
    assert [link.kind for link in rec.links] == ["inline", "image", "autolink"]


def test_html_links_reads_the_stdlib_parsers_attributes() -> None:
    fragment = '<a\tdata-x="href=no" href = "one.md" >x</a><img src=two.png/>'
    (a, img) = html_links(fragment)
    assert (a.url, a.attribute, a.label, a.open) == ("one.md", "href", "x", False)
    assert fragment[slice(*a.span)] == ' href = "one.md"' and a.at == fragment.index("one")
    assert (img.url, img.kind) == ("two.png/", LinkKind.HTML_IMAGE)


# --- the same links in every mode, over generated HTML ------------------------------------

_URLS = st.sampled_from(
    ["a.md", "../b.md#s", "c.png", "/d/", "https://x.org/p?q=1&amp;r=2", "#top", "mailto:m@x.y"]
)
_TEXT = st.sampled_from(["x", "é", "日本", "😀", "*em*", "[l](l.md)", "a  b", ""])
_QUOTES = st.sampled_from(['"{}"', "'{}'", "{}"])


@st.composite
def _tag(draw: st.DrawFn) -> str:
    url = draw(_QUOTES).format(draw(_URLS))
    space = draw(st.sampled_from([" ", "\n  ", "  "]))
    kind = draw(st.sampled_from(["a", "img", "source", "span", "b"]))
    text = draw(_TEXT)
    if kind == "a":
        return f'<a{space}title="t"{space}href={url}>{text}</a>'
    if kind in ("img", "source"):
        return f'<{kind} alt="{text}"{space}src={url}>'
    return f"<{kind}>{text}</{kind}>"


@st.composite
def _page(draw: st.DrawFn) -> str:
    parts = []
    for _ in range(draw(st.integers(1, 6))):
        tags = " ".join(draw(st.lists(_tag(), min_size=1, max_size=4)))
        where = draw(st.sampled_from(["paragraph", "block", "list", "quote", "heading"]))
        text = draw(_TEXT)
        parts.append(
            {
                "paragraph": f"{text} {tags} {text}",
                "block": f"<div>\n{tags}\n</div>",
                "list": f"- {text} {tags}",
                "quote": f"> {tags}",
                "heading": f"## {text} {tags}".replace("\n", " "),
            }[where]
        )
    return "\n\n".join(parts) + "\n"


@settings(max_examples=150, deadline=None)
@given(_page(), st.sampled_from(list(LINE_ENDINGS.values())))
def test_every_mode_records_the_same_links(page: str, ending: str) -> None:
    data = page.replace("\n", ending).encode()
    records = {mode: extract_page("content/p.md", data, mode) for mode in RawHtml}
    links: set[tuple[Link, ...]] = {tuple(rec.links) for rec in records.values()}
    assert len(links) == 1
    sanitized = records[RawHtml.SANITIZE]
    _assert_at_their_urls(data, sanitized)
    # sanitized, every URL is published but a <source>'s src, which the allow-list drops
    kept = [i for i, link in enumerate(sanitized.links) if not _in_source(data, link.offset)]
    assert set(kept) <= {int(i) for i in _marks(sanitized)}
    allowed = records[RawHtml.ALLOW]
    assert sorted(_published_urls(allowed)) == sorted(link.href for link in allowed.links)
    escaped = records[RawHtml.ESCAPE]
    raw_kinds = (LinkKind.HTML, LinkKind.HTML_IMAGE)
    assert all(escaped.links[int(i)].kind not in raw_kinds for i in _marks(escaped))


def _in_source(data: bytes, offset: int) -> bool:
    return data[data.rfind(b"<", 0, offset) :].startswith(b"<source")


def _marks(rec: PageRecord) -> list[str]:
    return re.findall(f"{re.escape(rec.link_mark)}([0-9]+)", rec.html)
