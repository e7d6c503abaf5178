"""Markdown inside HTML elements with the ``markdown`` attribute (sitegen/docs/mdinhtml.py,
content/syntax/md-in-html.md), compared with what Python-Markdown's md_in_html makes of the
same text: the elements and the text they hold, the links' places in the source, the
headings' ids; and bounded on pages written to be slow."""

from __future__ import annotations

import re
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

import markdown as python_markdown
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.docs.markdown import _parser, extract_page
from sitegen.docs.mdinhtml import MAX_DEPTH
from sitegen.docs.sanitize import RawHtml
from sitegen.generators import Dialect, SlugStyle
from sitegen.records.pages import PageRecord
from tests.safety.linear import grows_linearly

MKDOCS = Dialect.PYTHON_MARKDOWN
MD_IN_HTML = MKDOCS | Dialect.MD_IN_HTML
ROOT = Path(__file__).resolve().parents[2]

#: The grid cards of Material's documentation (reference/grids.md), the shortcodes as text.
GRID_CARDS = """\
<div class="grid cards" markdown>

-   :material-clock-fast:{ .lg .middle } __Set up in 5 minutes__

    ---

    Install with `pip` and get up and running in minutes

    [:octicons-arrow-right-24: Getting started](start.md)

-   __It's just Markdown__

    ---

    Focus on your content

    [Reference](reference.md#usage)

</div>
"""

#: Each case as Python-Markdown's md_in_html must read it too.
CASES = {
    "grid cards": GRID_CARDS,
    "cards without blank lines": """\
<div class="grid" markdown>
<div class="card" markdown>
## Inside a card
A [link](a.md) and **bold** text.
</div>
<div class="card" markdown>
- one
- two
</div>
</div>
""",
    "block cards": """\
<div class="grid" markdown>

__HTML__ for content and structure
{ .card }

__CSS__ for text running out of boxes
{ .card }

> A quote in the grid

</div>
""",
    "one line": '<div markdown="1">**inline** [one](one.md) text</div>\n',
    "closing tag ending a line": "<div markdown>\ntext [seven](seven.md)</div>\n",
    "text after the closing tag": "<div markdown>\n**a**\n</div> tail *b*\n",
    "span element": "<p markdown>**span** [four](four.md) p</p>\n",
    "span attribute": '<div markdown="span">**span** div\nsecond line</div>\n',
    "span element inside a block one": '<div markdown="block">\n<p markdown>in *p*</p>\n</div>\n',
    "heading": "<h2 markdown>Title *x* [five](five.md)</h2>\n\ntext\n",
    "raw element inside": "<div markdown>\n<div>\n**raw**\n\nstill raw\n</div>\n</div>\n",
    "details": "<details markdown>\n<summary>Title *x*</summary>\n\nBody **b**\n</details>\n",
    "nested and indented": """\
<div class="result" markdown>
  <div class="grid cards" markdown>

- __HTML__ for content
- __CSS__ for boxes

  </div>
</div>
""",
    "markdown off": '<div markdown="0">\n**raw**\n</div>\n',
    "after a paragraph": "para\n<div markdown>\n**x**\n</div>\n",
}


class _Structure(HTMLParser):
    """Elements (name and classes) and words, in order; a heading's permalink left out."""

    def __init__(self) -> None:
        super().__init__()
        self.out: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = " ".join(sorted((dict(attrs).get("class") or "").split()))
        if self.skip or classes == "permalink":
            self.skip += tag != "hr"
            return
        self.out.append(f"<{tag}{'.' + classes if classes else ''}>")

    def handle_endtag(self, tag: str) -> None:
        if self.skip:
            self.skip -= 1
            return
        self.out.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.out += data.split()


def structure(html: str) -> list[str]:
    parser = _Structure()
    parser.feed(html)
    return parser.out


def ours(
    text: str,
    dialect: Dialect = MD_IN_HTML,
    slugs: SlugStyle = SlugStyle.GITHUB,
    raw_html: RawHtml = RawHtml.SANITIZE,
) -> PageRecord:
    return extract_page("docs/p.md", text.encode(), raw_html, slugs, dialect)


def python_markdowns(text: str, *extensions: str) -> str:
    return python_markdown.markdown(text, extensions=["md_in_html", "attr_list", *extensions])


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_elements_and_their_text_are_python_markdowns(name: str) -> None:
    text = CASES[name]
    assert structure(ours(text).html) == structure(python_markdowns(text))


def test_grid_cards_with_icons_are_materials() -> None:
    """With Material's icons and inline attribute lists on too, the cards are what
    Python-Markdown makes with pymdownx.emoji and Material's icon index: ``{ .lg .middle }``
    on the icon, the arrow inside the link."""
    from material.extensions import emoji as material_emoji  # the test extra's theme

    material = MD_IN_HTML | Dialect.ATTR_LIST | Dialect.EMOJI | Dialect.ICONS
    theirs = python_markdown.markdown(
        GRID_CARDS,
        extensions=["md_in_html", "attr_list", "pymdownx.emoji"],
        extension_configs={
            "pymdownx.emoji": {
                "emoji_index": material_emoji.twemoji,
                "emoji_generator": material_emoji.to_svg,
            }
        },
    )
    mine = ours(GRID_CARDS, material).html
    assert '<span class="twemoji lg middle"><svg' in mine
    assert structure(mine) == structure(theirs)


def test_without_the_flag_the_forms_without_blank_lines_stay_raw_html() -> None:
    """The MkDocs dialect alone is CommonMark's reading: the card's heading is text."""
    html = ours(CASES["cards without blank lines"], MKDOCS).html
    assert "<h2" not in html and "## Inside a card" in html


def test_without_the_flag_the_parser_has_no_rule() -> None:
    names = [rule.name for rule in _parser(MKDOCS).block.ruler.__rules__]
    assert "sitegen_md_in_html" not in names
    assert "sitegen_md_in_html" in [r.name for r in _parser(MD_IN_HTML).block.ruler.__rules__]


#: An element with the attribute: the pages that have one read differently, as they should.
_ATTRIBUTE = re.compile(rb"<[A-Za-z][^>\n]*\smarkdown[\s=>]", re.IGNORECASE)


def test_pages_without_the_attribute_render_as_without_the_flag() -> None:
    """sitegen's own documentation, each page but the one that shows the attribute."""
    pages = [
        p for p in sorted((ROOT / "content").rglob("*.md")) if not _ATTRIBUTE.search(p.read_bytes())
    ]
    assert len(pages) > 50
    for path in pages:
        data = path.read_bytes()
        with_flag = extract_page(str(path), data, dialect=MD_IN_HTML)
        without = extract_page(str(path), data, dialect=MKDOCS)
        assert with_flag.html.replace(with_flag.link_mark, without.link_mark) == without.html
        assert with_flag.links == without.links, path


def test_the_grid_cards_render_as_one_element_holding_a_list() -> None:
    html = ours(GRID_CARDS).html
    assert html.startswith('<div class="grid cards">\n<ul>\n<li>')
    assert html.rstrip().endswith("</li>\n</ul>\n</div>")
    assert "markdown" not in html.replace("It's just Markdown", "")


def where(text: str, needle: str) -> tuple[int, int]:
    """1-based line and column of ``needle``'s first character (ASCII text)."""
    at = text.index(needle)
    line = text.count("\n", 0, at) + 1
    return line, at - (text.rfind("\n", 0, at) + 1) + 1


@pytest.mark.parametrize("name", sorted(CASES))
def test_links_inside_are_the_pages_links_at_their_places(name: str) -> None:
    text = CASES[name]
    record = ours(text)
    expected = [
        (m.group(2), *where(text, m.group(0)))
        for m in re.finditer(r"\[([^\]]*)\]\(([^)]*)\)", text)
    ]
    assert [(link.href, link.line, link.column) for link in record.links] == expected


def test_headings_inside_get_ids_as_python_markdowns_toc_gives_them() -> None:
    text = "# Page\n\n" + CASES["cards without blank lines"] + "\n" + CASES["heading"]
    record = ours(text, slugs=SlugStyle.MKDOCS)
    theirs = re.findall(r'<h[1-6] id="([^"]*)"', python_markdowns(text, "toc"))
    assert [h.id for h in record.headings] == theirs == ["page", "inside-a-card", "title-x-five"]
    lines = [where(text, h)[0] for h in ("# Page", "## Inside", "<h2 markdown>")]
    assert [h.line for h in record.headings] == lines


def test_a_grid_holds_a_raw_card_and_an_admonition_as_python_markdowns_does() -> None:
    """A child without the attribute is raw HTML; an admonition is sitegen's callout, in the
    grid's place where Python-Markdown puts its admonition."""
    text = (
        '<div class="grid" markdown>\n<div class="card">\n<p>An <strong>HTML</strong> card</p>\n\n'
        '**not bold**\n</div>\n\n!!! note "In the grid"\n    An admonition [n](n.md)\n</div>\n'
        "\nAfter.\n"
    )
    callout = {"callout callout-note": "admonition note", "callout-title": "admonition-title"}
    mine = [
        re.sub(r"\.(.*)>", lambda m: f".{callout.get(m.group(1), m.group(1))}>", item)
        for item in structure(ours(text).html)
    ]
    body = mine.index("<div.callout-body>")  # sitegen's callout wraps its body
    del mine[body], mine[mine.index("</div>", body)]
    assert mine == structure(python_markdowns(text, "admonition"))
    assert [(link.line, link.column) for link in ours(text).links] == [where(text, "[n]")]


def test_the_markdown_attribute_is_taken_out_even_when_raw_html_is_allowed() -> None:
    html = ours('<div class="grid cards" markdown="1">\n\n- a\n\n</div>\n', raw_html=RawHtml.ALLOW)
    assert html.html.startswith('<div class="grid cards">\n<ul>')


def test_grid_classes_survive_the_sanitizer() -> None:
    html = ours(CASES["cards without blank lines"] + "\n" + CASES["block cards"]).html
    assert '<div class="grid">' in html and '<div class="card">' in html
    assert '<p class="card">' in html


def test_an_unclosed_element_is_read_to_the_end_of_its_block_with_a_warning() -> None:
    text = "Intro.\n\n<div markdown>\n**bold** [x](x.md)\n\nmore\n"
    record = ours(text)
    assert structure(record.html) == structure(python_markdowns(text))  # closed at the end
    warnings = [d for d in record.diagnostics if d.code == "md-in-html"]
    assert [(d.line, d.col) for d in warnings] == [(3, 1)]
    assert "<strong>bold</strong>" in record.html and record.html.rstrip().endswith("</div>")


def test_an_element_inside_a_list_item_ends_with_it() -> None:
    record = ours("- item\n\n  <div markdown>\n  **in** [y](y.md)\n  </div>\n\n- next\n")
    assert "<li>\n<p>item</p>\n<div>\n<p><strong>in</strong>" in record.html
    assert [(link.line, link.column) for link in record.links] == [(4, 10)]
    assert not record.diagnostics


def test_nesting_is_capped_and_the_deep_content_kept_with_one_warning() -> None:
    depth = MAX_DEPTH + 5
    text = "<div markdown>\n" * depth + "Deep **text**.\n" + "</div>\n" * depth
    record = ours(text)
    assert "Deep" in record.html
    assert record.html.count("<div>") == MAX_DEPTH + 5  # the deeper ones kept as raw HTML
    assert sum("nest deeper than" in d.message for d in record.diagnostics) == 1


#: Pieces of pages: elements open and close anywhere, in containers, fences and code spans.
_PIECES = [
    "<div markdown>",
    "</div>",
    '<div class="card" markdown>',
    "<p markdown>",
    "</p>",
    "<div>",
    "<h2 markdown>",
    "</h2>",
    '<details markdown="1">',
    "</details>",
    '<div markdown="span">',
    "<div\n markdown>",
    "<pre markdown>",
    "</pre>",
    "</section> tail",
    "`</div>`",
    "text [a](a.md)",
    "**b**",
    "```",
    "!!! note\n    ",
    "- ",
    "> ",
    "  ",
    "    ",
    "\n",
    "\n\n",
]


@settings(deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=30))
def test_any_page_of_pieces_renders_and_each_link_is_placed_at_its_bracket(
    parts: list[str],
) -> None:
    text = "".join(parts)
    lines = text.split("\n")
    for link in ours(text).links:
        assert lines[link.line - 1][link.column - 1] == "[", (text, link)


#: Pages written to be slow, each about ``n`` lines.
HOSTILE: dict[str, Callable[[int], str]] = {
    "nested": lambda n: "<div markdown>\n" * n + "x\n" + "</div>\n" * n,
    "unclosed": lambda n: "<div markdown>\n\n" * n,
    "unclosed in a list item": lambda n: "- x\n\n" + "  <div markdown>\n\n" * n + "</div>\n" * n,
    "in a row": lambda n: "<div markdown>\nx [a](b)\n</div>\n" * n,
    "one line each": lambda n: "<p markdown>x</p>\n" * n,
    "stray closers": lambda n: "</div>\n" * n + "<div markdown>\n",
    "closers on one line": lambda n: "<div markdown>\nx" + "</div>" * n + "\n",
    "tags never ending": lambda n: "<div markdown a='\n" * n,
    "raw elements inside": lambda n: "<div markdown>\n" + "<div>\n\nx\n\n" * n + "</div>\n" * n,
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_pages_take_linear_time(name: str) -> None:
    ok, said = grows_linearly(ours, HOSTILE[name], 200)
    assert ok, f"{name}: {said}"
