"""extract_page: links with exact byte positions, labels, kinds, anchors, headings, title."""

import hashlib
import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from markdown_it.common import normalize_url

from sitegen.base.diagnostics import Level
from sitegen.docs.markdown import MARKDOWN, extract_page
from sitegen.records.pages import LinkKind, PageRecord

FIRST_BYTE = {"image": b"!", "autolink": b"<", "inline": b"[", "reference": b"["}
RAW_HTML_KINDS = (LinkKind.HTML, LinkKind.HTML_IMAGE)


def line_and_column(data: bytes, offset: int) -> tuple[int, int]:
    """The oracle: 1-based line and byte column of ``offset``, any line ending."""
    breaks = [m.end() for m in re.finditer(rb"\r\n?|\n", data[:offset])]
    return len(breaks) + 1, offset - (breaks[-1] if breaks else 0) + 1


def assert_positions_agree(data: bytes, rec: PageRecord) -> None:
    for link in rec.links:
        if link.kind in RAW_HTML_KINDS:  # the URL itself, inside the attribute's quotes
            assert data[link.offset :].startswith(link.href.encode()), link
        else:
            assert data[link.offset : link.offset + 1] == FIRST_BYTE[link.kind], link
        assert (link.line, link.column) == line_and_column(data, link.offset), link


def offsets_of(data: bytes, markers: list[bytes]) -> list[int]:
    """Where each marker occurs, in order, each one searched after the previous."""
    found, at = [], -1
    for marker in markers:
        at = data.index(marker, at + 1)
        found.append(at)
    return found


# Each case: markdown, and the text each link starts with, in document order.
TRICKY = {
    "nested lists": (
        "- a\n  - b [one](1.md)\n    - c\n\n      [two](2.md) after\n",
        ["[one", "[two"],
    ),
    "blockquotes and lazy lines": (
        "> q\n> > deep [one](1.md)\n> back\nlazy [two](2.md)\n",
        ["[one", "[two"],
    ),
    "table with escaped pipes": (
        "| h1 | h2 |\n|----|----|\n| a \\| b [one](1.md) | x\\|y [two](2.md) |\n",
        ["[one", "[two"],
    ),
    "table in a blockquote": (
        "> | h | i |\n> |---|---|\n> | [one](1.md) | [two](2.md) |\n",
        ["[one", "[two"],
    ),
    "table in a list": (
        "- | h | i |\n  |---|---|\n  | [one](1.md) | c [two](2.md) |\n",
        ["[one", "[two"],
    ),
    "table without outer pipes": ("h | i\n--|--\n[one](1.md) | x [two](2.md)\n", ["[one", "[two"]),
    "link in a table header": ("| [one](1.md) | h |\n|---|---|\n| x | y |\n", ["[one"]),
    "multi-line paragraph": (
        "first line\nsecond [one](1.md)\n   third indented [two](2.md)\n",
        ["[one", "[two"],
    ),
    "trailing whitespace": (
        "ends with spaces [one](1.md) end   \n\nnext [two](2.md)\t\u3000\n",
        ["[one", "[two"],
    ),
    "hard breaks": ("a  \n[one](1.md)\\\n[two](2.md)\n", ["[one", "[two"]),
    "tabs": (
        "-\tlist [one](1.md)\n\n>\tquote [two](2.md)\n\n- a\n\n\t[three](3.md) in item\n",
        ["[one", "[two", "[three"],
    ),
    "unicode before links": ("café 日本語 😀 [one](1.md) ünï [two](2.md)\n", ["[one", "[two"]),
    "links in headings": (
        "# Title [one](1.md)\n\nSetext [two](2.md)\n===\n\n## Closed [three](3.md) ##\n",
        ["[one", "[two", "[three"],
    ),
    "reference definitions": (
        "[one][r1] and [two][] and [three]\n\n[r1]: /a.md\n[two]: /b.md\n[three]: <c d.md> 'T'\n",
        ["[one", "[two", "[three"],
    ),
    "footnotes": (
        "Text[^1].\n\n[^1]: Note [one](1.md)\n    more [two](2.md)\n\nAfter [three](3.md)\n",
        ["[one", "[two", "[three"],
    ),
    "emphasis and code spans": ("*[one](1.md)* `[no](x.md)` **[two](2.md)**\n", ["[one", "[two"]),
    "images and autolinks": (
        "![one](1.png) <https://two.example/> [![three](3.png)](4.md)\n",
        ["![one", "<https://two", "[![three", "![three"],
    ),
    "inline html around a link": (
        '<span>[one](1.md)</span> <a href="two.md">two</a>\n',
        ["[one", "two.md"],
    ),
    "task list": ("- [ ] todo [one](1.md)\n- [x] done [two](2.md)\n", ["[one", "[two"]),
    "lazy list continuation": ("1. item\nlazy [one](1.md)\n", ["[one"]),
    "deep nesting": ("> 1. > - [one](1.md)\n>      >   more [two](2.md)\n", ["[one", "[two"]),
    "links spanning lines": ("[one\nlabel](1.md) and [two](\n2.md)\n", ["[one", "[two"]),
    "after a front matter": ("---\ntitle: T\n---\n[one](1.md)\n", ["[one"]),
    "after html and code blocks": (
        ("<div>\n[no](x.md)\n</div>\n\n```\n[no](y.md)\n```\n\n    [no](z.md)\n\n[one](1.md)\n"),
        ["[one"],
    ),
    "unicode whitespace lines": ("\u3000\n[one](1.md) x\n\u3000\n", ["[one"]),
}

LINE_ENDINGS = {"lf": "\n", "crlf": "\r\n", "cr": "\r"}


@pytest.mark.parametrize("ending", sorted(LINE_ENDINGS))
@pytest.mark.parametrize("case", sorted(TRICKY))
def test_link_offsets_are_exact(case: str, ending: str) -> None:
    markdown, markers = TRICKY[case]
    data = markdown.replace("\n", LINE_ENDINGS[ending]).encode()
    rec = extract_page("content/p.md", data)
    assert [link.offset for link in rec.links] == offsets_of(data, [m.encode() for m in markers])
    assert_positions_agree(data, rec)


def test_bom_counts_in_offsets_and_columns() -> None:
    data = b"\xef\xbb\xbf[one](1.md)\n# H\n[two](2.md)"
    rec = extract_page("content/p.md", data)
    assert [(link.offset, link.line, link.column) for link in rec.links] == [
        (3, 1, 4),
        (data.index(b"[two"), 3, 1),
    ]
    assert rec.headings[0].offset == data.index(b"# H")


def test_invalid_utf8_is_a_warning_and_positions_stay_exact() -> None:
    data = b"fine\nbad \xff\xfe here [one](1.md)\n\xc3( [two](2.md)\n"
    rec = extract_page("content/p.md", data)
    (diag,) = rec.diagnostics
    assert (diag.path, diag.line, diag.col, diag.level, diag.code) == (
        "content/p.md",
        2,
        5,
        Level.WARNING,
        "utf8",
    )
    assert [link.offset for link in rec.links] == offsets_of(data, [b"[one", b"[two"])
    assert_positions_agree(data, rec)
    assert "\ufffd" in rec.html


def test_nul_characters_keep_positions() -> None:
    data = b"a\x00b [one](1.md)"
    (link,) = extract_page("content/p.md", data).links
    assert link.offset == data.index(b"[one")


def test_kinds_and_normalized_hrefs() -> None:
    md = (
        "[a](/café#Sec) ![b](i.png) <https://x.org/p> <me@x.org> [c][r] [r][] [r]\n\n[r]: /ref.md\n"
    )
    rec = extract_page("content/p.md", md.encode())
    assert [(link.kind, link.href) for link in rec.links] == [
        ("inline", "/caf%C3%A9#Sec"),
        ("image", "i.png"),
        ("autolink", "https://x.org/p"),
        ("autolink", "mailto:me@x.org"),
        ("reference", "/ref.md"),
        ("reference", "/ref.md"),
        ("reference", "/ref.md"),
    ]


def test_labels_are_plain_text_with_collapsed_whitespace() -> None:
    md = (
        "[a *b*   `c`\n  d](x) ![alt **x**](i.png) <https://x.org> "
        "[![badge](b.svg) text](y) [a &amp; b <b>z</b>](z) [](empty)\n"
    )
    rec = extract_page("content/p.md", md.encode())
    assert [link.label for link in rec.links] == [
        "a b c d",
        "alt x",
        "https://x.org",
        "badge text",
        "badge",
        "a & b z",
        "",
    ]


@pytest.mark.parametrize(
    "markdown",
    [
        "`[a](b.md)`",
        "``[a](b.md)``",
        "```\n[a](b.md)\n```",
        "~~~md\n[a](b.md)\n~~~",
        "    [a](b.md)",
        "<div>\n[a](b.md)\n</div>",
        "<!-- [a](b.md) -->",
        '<!-- <a href="b.md">a</a> -->',
        "[a](javascript:alert(1))",
        "[a](vbscript:x)",
        "[a](file:///etc/passwd)",
        "\\[a](b.md)",
        "[a] (b.md)",
        "https://plain.example/url",
    ],
)
def test_no_links_in_code_html_or_unsafe_urls(markdown: str) -> None:
    assert extract_page("content/p.md", markdown.encode()).links == []


def test_anchor_is_the_enclosing_section() -> None:
    md = (
        "intro [a](a.md)\n\n# One\n\n[b](b.md)\n\n## One\n\n> [c](c.md)\n\n"
        "### Two {#custom}\n\n- [d](d.md)[^n]\n\n[^n]: [e](e.md)\n\n#### Last [f](f.md)\n"
    )
    rec = extract_page("content/p.md", md.encode())
    assert [(link.label, link.anchor) for link in rec.links] == [
        ("a", ""),
        ("b", "one"),
        ("c", "one-1"),
        ("d", "custom"),
        ("e", "custom"),
        ("f", "last-f"),
    ]


def test_headings_text_ids_lines_and_offsets() -> None:
    md = (
        "# Title *em* `code`\n\n## Foo\n\n## Foo\n\n## Foo-1\n\n> ### Quoted\n\n"
        "Setext\n------\n\n# Custom {#custom .photo}\n\n# Custom\n\n{#blockid}\n## Block\n\n"
        "## Esc \\{#no}\n"
    )
    data = md.encode()
    rec = extract_page("content/p.md", data)
    assert [(h.level, h.text, h.id) for h in rec.headings] == [
        (1, "Title em code", "title-em-code"),
        (2, "Foo", "foo"),
        (2, "Foo", "foo-1"),
        (2, "Foo-1", "foo-1-1"),
        (3, "Quoted", "quoted"),
        (2, "Setext", "setext"),
        (1, "Custom", "custom"),
        (1, "Custom", "custom-1"),
        (2, "Block", "blockid"),
        (2, "Esc {#no}", "esc-no"),
    ]
    expected = offsets_of(
        data,
        [
            b"# Title",
            b"## Foo",
            b"## Foo",
            b"## Foo-1",
            b"### Quoted",
            b"Setext",
            b"# Custom",
            b"# Custom",
            b"## Block",
            b"## Esc",
        ],
    )
    assert [h.offset for h in rec.headings] == expected
    assert [h.line for h in rec.headings] == [line_and_column(data, o)[0] for o in expected]
    assert '<h1 id="custom" class="photo">' in rec.html


def test_a_multi_line_setext_heading_slugs_like_github() -> None:
    # GitHub slugs the heading's text content, where the line break is a newline: removed.
    (heading,) = extract_page("content/p.md", b"Foo\nbar\n===\n").headings
    assert (heading.text, heading.id) == ("Foo bar", "foobar")


def test_title_from_front_matter_then_first_h1_then_file_name() -> None:
    assert extract_page("content/p.md", b"---\ntitle: Given\n---\n# H1\n").title == "Given"
    first_h1 = extract_page("content/p.md", b"## Two\n\n# First *one*\n\n# Second\n")
    assert first_h1.title == "First one"
    assert extract_page("content/guides/getting-started.md", b"text").title == "Getting started"
    assert extract_page("content/my_page.md", b"").title == "My page"


def test_html_has_heading_ids_permalinks_and_link_marks() -> None:
    data = b"## Intro\n\n[a](a.md) ![i](i.png) [b](b.md)\n"
    rec = extract_page("content/p.md", data)
    digest = hashlib.sha256(data).hexdigest()
    assert rec.content_hash == digest
    assert rec.link_mark == f"sglink-{digest[:16]}-"
    assert (
        '<h2 id="intro">Intro<a class="permalink" href="#intro" aria-label="Permalink">#</a></h2>'
    ) in rec.html
    mark = rec.link_mark
    assert f'<a href="{mark}0">a</a>' in rec.html
    assert f'<img src="{mark}1" alt="i" />' in rec.html
    assert f'<a href="{mark}2">b</a>' in rec.html
    assert "a.md" not in rec.html and "i.png" not in rec.html


def test_link_marks_follow_source_order_even_for_footnotes() -> None:
    rec = extract_page("content/p.md", b"x[^1]\n\n[^1]: [note](n.md)\n\n[after](a.md)\n")
    assert [link.label for link in rec.links] == ["note", "after"]
    note = rec.html.index(f'href="{rec.link_mark}0"')
    after = rec.html.index(f'href="{rec.link_mark}1"')
    assert after < note  # footnotes render at the end; indices follow the source


def test_text_is_escaped_and_attributes_cannot_inject() -> None:
    md = (
        '[a < b & "c"](x "t\\"q")\n\n# T {#a onclick=evil style=x}\n\n'
        "[x](y){#i onclick=evil href=javascript:evil src=z}\n"
    )
    rec = extract_page("content/p.md", md.encode())
    assert "a &lt; b &amp; &quot;c&quot;" in rec.html
    assert 'title="t&quot;q"' in rec.html
    assert '<h1 id="a">T<a' in rec.html and f'<a href="{rec.link_mark}1" id="i">x</a>' in rec.html
    assert not re.search(r"<[^>]*\s(onclick|style|src)=", rec.html)
    assert "javascript" not in rec.html


def test_footnotes_task_lists_tables_and_strikethrough_render() -> None:
    md = (
        "x[^1] ~~old~~\n\n[^1]: note\n\n- [ ] todo\n- [x] done\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    )
    html = extract_page("content/p.md", md.encode()).html
    assert '<section class="footnotes">' in html
    assert html.count('type="checkbox"') == 2 and 'checked="checked"' in html
    assert "<table>" in html and "<td>2</td>" in html
    assert "<s>old</s>" in html


def test_front_matter_is_not_rendered_and_raw_html_passes() -> None:
    rec = extract_page("content/p.md", b'---\nsecret: value\n---\n<div class="x">raw</div>\n')
    assert "secret" not in rec.html and '<div class="x">raw</div>' in rec.html


def test_record_round_trips_through_json() -> None:
    md = (
        "---\ntitle: T\ndate: 2024-05-06\nrel-supersedes: a.md, b.md\nrel:x: y\n---\n"
        "# T\n\n[a](a.md) \xff\n"
    ).encode("latin-1")
    rec = extract_page("content/p.md", md)
    assert rec.diagnostics and rec.relations and rec.links
    again = PageRecord.from_dict(json.loads(json.dumps(rec.to_dict())))
    assert again == rec
    assert all(d.path == "content/p.md" for d in rec.diagnostics)


def test_extraction_is_deterministic() -> None:
    data = TRICKY["footnotes"][0].encode() + TRICKY["links in headings"][0].encode()
    assert extract_page("content/p.md", data) == extract_page("content/p.md", data)


def test_duplicate_explicit_ids_are_reported() -> None:
    rec = extract_page("content/p.md", b"# A {#x}\n\n# B {#x}\n")
    assert [h.id for h in rec.headings] == ["x", "x"]
    assert [(d.code, d.line) for d in rec.diagnostics] == [("duplicate-id", 3)]


@given(st.one_of(st.text(), st.text(alphabet="abcXYZ019/._~#-%:@?&=+ \\é")))
def test_link_normalization_is_markdown_its(url: str) -> None:
    assert MARKDOWN.normalizeLink(url) == normalize_url.normalizeLink(url)
