"""Heading ids in each slug style (content/reference/headings.md#slug-styles), against the ids
the real generators give. Each expected id was worked out by hand from the generators' own
rules (github-slugger; @mdit-vue/shared's slugify read by markdown-it-anchor, as VitePress 1
configures it; Python-Markdown's toc ``slugify``/``slugify_unicode`` and ``unique``;
pymdownx.slugs' ``slugify``), not from sitegen's output."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sitegen.docs.markdown import extract_page, record_key
from sitegen.docs.slug import pymdownx_slug, slugger, toc_slug, vitepress_slug
from sitegen.generators import SlugStyle

GH, VP, MK, MKU, PX, PXC = (
    SlugStyle.GITHUB,
    SlugStyle.VITEPRESS,
    SlugStyle.MKDOCS,
    SlugStyle.MKDOCS_UNICODE,
    SlugStyle.PYMDOWNX,
    SlugStyle.PYMDOWNX_CASED,
)
STYLES = (GH, VP, MK, MKU, PX, PXC)

#: A heading's markdown -> its id in github, vitepress, mkdocs, mkdocs-unicode, pymdownx,
#: pymdownx-cased; each heading alone on its page.
HEADINGS: list[tuple[str, tuple[str, str, str, str, str, str]]] = [
    (
        "Getting Started",
        ("getting-started",) * 5 + ("Getting-Started",),
    ),
    (
        "What's new in 2.0?",
        (
            "whats-new-in-20",
            "what-s-new-in-2-0",
            "whats-new-in-20",
            "whats-new-in-20",
            "whats-new-in-20",
            "Whats-new-in-20",
        ),
    ),
    ("a - b", ("a---b", "a-b", "a-b", "a-b", "a---b", "a---b")),
    (
        "Café & Crème",
        ("café--crème", "cafe-creme", "cafe-creme", "café-crème", "café--crème", "Café--Crème"),
    ),
    (
        "2024 roadmap",
        ("2024-roadmap", "_2024-roadmap", "2024-roadmap", "2024-roadmap", "2024-roadmap")
        + ("2024-roadmap",),
    ),
    ("🎉 Party", ("-party", "🎉-party", "party", "party", "-party", "-Party")),
    (
        "日本語 見出し",
        ("日本語-見出し", "日本語-見出し", "_1", "日本語-見出し", "日本語-見出し", "日本語-見出し"),
    ),
    ("x²", ("x", "x2", "x2", "x²", "x²", "x²")),
    ("½ cup", ("-cup", "_1\u20442-cup", "12-cup", "½-cup", "½-cup", "½-cup")),
    # İ lower-cases to i + U+0307: GitHub keeps the mark; VitePress and MkDocs decompose and
    # drop it; toc's Unicode slugify drops non-words *before* lower-casing, so it stays;
    # pymdownx lower-cases first, then drops the mark as a non-word character.
    (
        "İstanbul",
        ("i\u0307stanbul", "istanbul", "istanbul", "i\u0307stanbul", "istanbul", "İstanbul"),
    ),
    ("C++ & Rust", ("c--rust", "c-rust", "c-rust", "c-rust", "c--rust", "C--Rust")),
    (
        "snake_case names",
        ("snake_case-names", "snake-case-names")
        + ("snake_case-names",) * 3
        + ("snake_case-names",),
    ),
    ("A\u2014B", ("ab", "a\u2014b", "ab", "ab", "ab", "AB")),
    ("\u201cQuoted\u201d \u2018words\u2019", ("quoted-words",) * 5 + ("Quoted-words",)),
    # A typed no-break space: not a space to GitHub, JavaScript's \s to VitePress, a
    # separator after NFKD or as whitespace to Python-Markdown, which collapses it to a
    # space (strip_tags) before pymdownx sees it.
    (
        "Hello\u00a0World",
        ("helloworld", "hello-world", "hello-world", "hello-world", "hello-world", "Hello-World"),
    ),
    # markdown-it-anchor reads text and code spans; the <Badge> is raw HTML, dropped by all.
    (
        '`defineStore()` <Badge type="tip" text="beta" />',
        ("definestore-", "definestore", "definestore", "definestore", "definestore")
        + ("defineStore",),
    ),
    ("<span>Styled</span> text", ("styled-text",) * 5 + ("Styled-text",)),
    # An image is its alt text to GitHub only.
    (
        "Logo ![the alt](logo.png) here",
        ("logo-the-alt-here", "logo-here", "logo-here", "logo-here", "logo-here", "Logo-here"),
    ),
    ("Title {#custom-id}", ("custom-id",) * 6),
]


@pytest.mark.parametrize(("heading", "ids"), HEADINGS, ids=[h for h, _ in HEADINGS])
@pytest.mark.parametrize("index", range(len(STYLES)), ids=[s.value for s in STYLES])
def test_a_heading_gets_the_id_its_generator_gives(
    heading: str, ids: tuple[str, ...], index: int
) -> None:
    rec = extract_page("docs/p.md", f"## {heading}\n".encode(), slugs=STYLES[index])
    assert [h.id for h in rec.headings] == [ids[index]]


def _ids(markdown: str, style: SlugStyle) -> list[str]:
    return [h.id for h in extract_page("docs/p.md", markdown.encode(), slugs=style).headings]


def test_a_setext_heading_over_two_lines() -> None:
    text = "Two\nlines\n===\n"
    # GitHub drops the newline (not a space), markdown-it-anchor never sees the soft break,
    # Python-Markdown's rendered text has whitespace there.
    assert [_ids(text, s) for s in (GH, VP, MK, PX)] == [
        ["twolines"],
        ["twolines"],
        ["two-lines"],
        ["two-lines"],
    ]


def test_repeats_are_numbered_as_each_generator_numbers_them() -> None:
    text = "## Foo\n\n## Foo\n\n## Foo-1\n\n## Foo\n"
    assert _ids(text, GH) == ["foo", "foo-1", "foo-1-1", "foo-2"]
    assert _ids(text, VP) == ["foo", "foo-1", "foo-1-1", "foo-2"]
    # Python-Markdown: "_1", and an id ending in _<n> counts on from n
    assert _ids(text, MK) == ["foo", "foo_1", "foo-1", "foo_2"]
    assert _ids("## Foo_1\n\n## Foo\n\n## Foo\n", MK) == ["foo_1", "foo", "foo_2"]
    assert _ids("## Foo_1\n\n## Foo\n\n## Foo\n", PX) == ["foo_1", "foo", "foo_2"]


def test_headings_that_slug_to_nothing() -> None:
    text = "## ???\n\n## !!!\n"
    # GitHub and VitePress: "" (no id, no permalink), then "-1"; Python-Markdown: _1, _2
    assert _ids(text, GH) == ["", "-1"]
    assert _ids(text, VP) == ["", "-1"]
    assert _ids(text, MK) == ["_1", "_2"]
    assert _ids(text, PX) == ["_1", "_2"]


@pytest.mark.parametrize("style", STYLES, ids=[s.value for s in STYLES])
def test_an_explicit_id_is_kept_and_avoided_in_every_style(style: SlugStyle) -> None:
    ids = _ids("## Custom ID\n\n## Setup {#custom-id}\n", style)
    cased = "Custom-ID" if style == PXC else "custom-id"
    numbered = f"{cased}-1" if style in (GH, VP) else f"{cased}_1"
    assert ids == ([numbered, "custom-id"] if style != PXC else [cased, "custom-id"])


def test_python_markdown_avoids_every_id_of_the_page() -> None:
    """Its toc numbers around every id in the document, a paragraph's ``{#id}`` too."""
    text = "{#intro}\nA paragraph.\n\n## Intro\n"
    assert _ids(text, MK) == ["intro_1"]
    assert _ids(text, GH) == ["intro"]


def test_links_and_sections_use_the_styled_ids() -> None:
    rec = extract_page("docs/p.md", b"## What's new?\n\nSee [it](#what-s-new).\n", slugs=VP)
    assert rec.links[0].anchor == "what-s-new"
    assert 'id="what-s-new"' in rec.html
    assert 'href="#what-s-new" aria-label="Permalink"' in rec.html


def test_the_record_key_holds_the_style() -> None:
    data = b"## A heading\n"
    keys = {extract_page("docs/p.md", data, slugs=s).content_hash for s in STYLES}
    assert len(keys) == len(STYLES)
    github = extract_page("docs/p.md", data).content_hash
    assert record_key(github, GH) == github  # the bytes' hash, as before


# --- the string functions alone ----------------------------------------------------------


def test_vitepress_spaces_are_javascripts() -> None:
    assert vitepress_slug("a\ufeffb") == "a-b"  # U+FEFF is JavaScript whitespace
    assert vitepress_slug("a\x85b") == "a\x85b"  # U+0085 is not (Python's \s says it is)
    assert vitepress_slug("a\x1fb") == "ab"  # a control character is dropped
    assert vitepress_slug("--a--b--") == "a-b"
    assert vitepress_slug("٣ arabic digit") == "٣-arabic-digit"  # only ASCII digits get _


def test_python_markdown_functions() -> None:
    assert toc_slug("-Leading and trailing-") == "-leading-and-trailing-"
    assert toc_slug("a\x85b") == "ab"  # not ASCII: cut
    assert toc_slug("a\x85b", unicode=True) == "a-b"  # Python's whitespace
    assert toc_slug("Straße", unicode=True) == "straße"
    assert toc_slug("Straße") == "strae"
    assert pymdownx_slug("`<div>` element".replace("`", "")) == "element"
    assert pymdownx_slug("Mixed Case", lower=False) == "Mixed-Case"


@given(st.lists(st.text(max_size=12), max_size=12))
def test_ids_are_unique_in_every_style(texts: list[str]) -> None:
    for style in STYLES:
        ids = slugger(style)
        made = [ids.slug(t) for t in texts]
        given_ids = [i for i in made if i]
        assert len(set(given_ids)) == len(given_ids), style
