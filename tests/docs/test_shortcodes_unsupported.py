"""What sitegen does not run is said, never dropped (issue 30, point 4): in an MkDocs project a
hook's HTML-comment shortcodes (``<!-- md:option x -->``, as Material's documentation writes
them) are shown as their text, so no heading is empty; each kind (shortcodes, a ``template:``
page, mkdocs-macros' ``{{ }}`` and ``{% %}``) is one ``unsupported-syntax`` warning per page;
ordinary comments stay hidden (content/syntax/unsupported.md)."""

from __future__ import annotations

import re

import markdown as python_markdown
import pytest

from sitegen.docs import markdown
from sitegen.docs.markdown import extract_page
from sitegen.generators import Dialect
from sitegen.records.pages import PageRecord

MKDOCS = Dialect.PYTHON_MARKDOWN
PAGE = "docs/setup/search.md"

#: Lines as Material's own docs write them (docs/setup/setting-up-site-search.md and others).
MATERIAL = """\
# Site search

### <!-- md:option search.lang -->

<!-- md:version 9.0 --> <!-- md:default computed -->

Use this setting to pick the language.

#### <!-- md:option search.separator -->

<!-- md:default `[\\s\\-]+` --> Prior to <!-- md:version 5.0.0 -->, it was slower.
"""


def _extract(text: str, dialect: Dialect = MKDOCS) -> PageRecord:
    return extract_page(PAGE, text.encode(), dialect=dialect)


def _unsupported(rec: PageRecord) -> list[str]:
    return [f"{d.line}: {d.message}" for d in rec.diagnostics if d.code == "unsupported-syntax"]


def test_a_heading_of_a_shortcode_shows_its_text() -> None:
    rec = _extract(MATERIAL)
    assert '<h3 id="mdoption-searchlang"><code class="shortcode">md:option search.lang</code>' in (
        rec.html
    )
    titles = [h.text for h in rec.headings]
    assert titles == ["Site search", "md:option search.lang", "md:option search.separator"]
    assert re.search(r"<h[1-6][^>]*>\s*(<a|</h)", rec.html) is None  # no heading is empty


def test_the_shortcodes_of_a_page_are_one_warning_at_the_first() -> None:
    (said,) = _unsupported(_extract(MATERIAL))
    assert said.startswith("3: the shortcode '<!-- md:option search.lang -->' is expanded by")
    assert said.endswith("(5 more on this page)")


def test_shortcodes_are_laid_out_as_python_markdown_lays_out_their_text() -> None:
    # the oracle: Python-Markdown's reading of the page with each shortcode written as the
    # code span of its text (what sitegen shows), so paragraphs, lists and headings match
    page = MATERIAL + "\n- one\n- <!-- md:flag experimental -->\n- three\n"
    as_code = re.sub(r"<!-- (md:[^>]*?) -->", lambda m: f"`` {m.group(1)} ``", page)
    expected = python_markdown.markdown(as_code)
    got = re.sub(
        r' class="shortcode"| id="[^"]*"|<a class="permalink".*?</a>', "", _extract(page).html
    )
    assert _blocks(got) == _blocks(expected)


def _blocks(page_html: str) -> list[str]:
    return [x for x in re.split(r"\s*\n\s*", page_html.strip()) if x]


def test_ordinary_comments_stay_hidden() -> None:
    page = (
        "# T\n\n<!-- a note for authors -->\n\nText <!-- TODO: later --> here.\n\n<!-- more -->\n"
    )
    rec = _extract(page)
    assert "note for authors" not in rec.html and "TODO" not in rec.html and "more" not in rec.html
    assert _unsupported(rec) == []


def test_outside_mkdocs_a_shortcode_comment_is_left_as_it_was() -> None:
    rec = _extract(MATERIAL, Dialect.NONE)
    assert "md:option" not in rec.html and _unsupported(rec) == []


def test_a_template_page_is_one_warning_and_its_markdown_is_shown() -> None:
    rec = _extract("---\ntitle: Home\ntemplate: home.html\n---\n\n# Welcome\n\nWords.\n")
    (said,) = _unsupported(rec)
    assert said.startswith("3: the page asks for the template 'home.html'")
    assert "<p>Words.</p>" in rec.html
    assert _unsupported(_extract("---\ntitle: Home\n---\n# Welcome\n")) == []


def test_macros_are_one_warning_per_kind_and_shown_as_text() -> None:
    page = "# T\n\n{{ config.a }} and {{ config.b }}\n\n{% if x %}yes{% endif %}\n"
    rec = _extract(page)
    said = _unsupported(rec)
    assert len(said) == 2
    assert any("'{{ config.a }}'" in x and x.endswith("(1 more on this page)") for x in said)
    assert any("'{% if x %}'" in x and x.endswith("(1 more on this page)") for x in said)
    assert "{{ config.a }}" in rec.html and "{% if x %}" in rec.html


@pytest.mark.parametrize(
    "text",
    [
        MATERIAL,
        "- a\n- <!-- md:flag x -->\n\n1. b\n\n2. <!-- md:flag y -->\n",
        "> <!-- md:version 1 --> quoted\n\n<!-- plain -->\n\nTerm\n:   <!-- md:default x --> def\n",
        "text <!-- md:x --\n> -->\n",
    ],
)
def test_the_rules_render_the_same_gated_or_not(text: str) -> None:
    parser = markdown._parser(MKDOCS)
    gates = parser.gates
    assert gates is not None
    gated = _extract(text)
    gates.open_all()
    parser.gates = None
    try:
        plain = _extract(text)
    finally:
        parser.gates = gates
    assert gated == plain


@pytest.mark.parametrize(
    "comment",
    [
        "<!-- cSpell:disable -->",
        "<!-- cspell:words pydantic -->",
        "<!-- spellchecker:ignore foo -->",
        "<!-- markdownlint:disable -->",
        "<!-- vale:off -->",
        "<!-- textlint:disable -->",
    ],
)
def test_a_linters_directive_is_no_shortcode(comment: str) -> None:
    rec = _extract(f"# Title\n\n{comment}\n\nText.\n")
    assert "shortcode" not in rec.html and comment.split()[1] not in rec.html
    assert _unsupported(rec) == []
