"""Attribute lists as a reader of hostile input: kramdown's ``{: #id .class}`` lines
(sitegen/docs/kramdown.py) and the ``{#id .class}`` lists of the attrs plugins
(sitegen/docs/attributes.py, sitegen/docs/syntax.py, the headings' and paragraphs' trailing
lists in sitegen/docs/markdown.py).

Issue 27, defect 20: a list gave a block the theme's own classes (``{: .sidebar}``), which
the raw-HTML sanitizer strips from ``<p class="sidebar">``. Every list now passes the
sanitizer's own rule, ``author_classes``: the classes a list gives are those raw HTML keeps.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it.token import Token

from sitegen.docs.attributes import keep_author_classes
from sitegen.docs.markdown import extract_page
from sitegen.docs.sanitize import sanitize, theme_classes
from tests.docs.against_markdown_it import within_markdown_it
from tests.safety.linear import grows_linearly

#: Each syntax that gives a block or a span classes, with ``{}`` where its list goes.
SYNTAXES = {
    "kramdown line after a paragraph": "Some text\n{{: {} }}\n",
    "kramdown line before a paragraph": "{{: {} }}\nSome text\n",
    "kramdown line after a heading": "## Head\n{{: {} }}\n",
    "kramdown line before a heading": "Intro.\n\n{{: {} }}\n## Head\n",
    "block list before a paragraph": "{{{}}}\nSome text\n",
    "after a link": "[a](b.md){{{}}}\n",
    "after an image": "![i](i.png){{{}}}\n",
    "after a code span": "`c`{{{}}}\n",
    "ending a heading": "## Head {{{}}}\n",
    "ending a paragraph": "Some text {{{}}}\n",
}
_CLASS = re.compile(r'class="([^"]*)"')


def _given_classes(syntax: str, classes: list[str]) -> set[str]:
    """The classes the page's markup carries, but sitegen's own permalink."""
    html = extract_page("p.md", syntax.format(" ".join("." + c for c in classes)).encode()).html
    found = {c for value in _CLASS.findall(html) for c in value.split()}
    return found - {"permalink"}


@pytest.mark.parametrize("name", sorted(SYNTAXES))
def test_a_list_gives_no_class_of_the_theme(name: str) -> None:
    assert {"sidebar", "layout", "toc", "permalink"} <= theme_classes()
    given = _given_classes(SYNTAXES[name], ["sidebar", "mine", "layout", "toc", "note"])
    assert given == {"mine", "note"}


@pytest.mark.parametrize("name", sorted(SYNTAXES))
def test_a_list_of_theme_classes_only_gives_no_class_attribute(name: str) -> None:
    assert _given_classes(SYNTAXES[name], ["sidebar", "toc"]) == set()


def test_sitegen_s_own_classes_stay_beside_an_author_s_list() -> None:
    """Only what a list added is filtered: a class sitegen gave the token first stays."""
    token = Token("div_open", "div", 1, attrs={"class": "callout callout-tip sidebar mine"})
    keep_author_classes(token, "callout callout-tip")
    assert token.attrs["class"] == "callout callout-tip mine"
    token = Token("p_open", "p", 1, attrs={"class": "sidebar"})
    keep_author_classes(token, None)
    assert "class" not in token.attrs


_NAMES = st.sampled_from(sorted(theme_classes())[:40] + ["mine", "note", "x-y", "a1"])


@settings(deadline=None, max_examples=30)
@given(st.lists(_NAMES, min_size=1, max_size=6), st.sampled_from(sorted(SYNTAXES)))
def test_a_list_keeps_exactly_what_raw_html_keeps(classes: list[str], name: str) -> None:
    raw = sanitize(f'<p class="{" ".join(classes)}">x</p>')
    kept = {c for value in _CLASS.findall(raw) for c in value.split()}
    assert _given_classes(SYNTAXES[name], classes) == kept


#: What hostile pages repeat: the lists' own markers, cut and nested.
_MARKERS = ["{:", "{", "}", ":", " ", "#", ".", "%", "=", '"', "\n", "\n\n", "## h", "a"]
_MARKERS += ["{: #a}", "{: .sidebar}", "{:toc}", "`c`", "[l](x)", "\ud800", "{#" + "a" * 40]


@settings(deadline=None, max_examples=50)
@given(st.lists(st.sampled_from(_MARKERS), max_size=60), st.integers(0, 600))
def test_any_page_of_list_markers_is_extracted(parts: list[str], cut: int) -> None:
    page = "".join(parts)[:cut].encode("utf-8", "surrogatepass")
    rec = extract_page("p.md", page)
    assert all(d.line >= 1 and d.col >= 1 for d in rec.diagnostics)
    assert all(h.offset <= len(page) for h in rec.headings)


#: Pages of about ``n`` characters, each a run of one list marker.
HOSTILE = {
    "'{:' * n": lambda n: "{:" * (n // 2),
    "'{: ' + spaces": lambda n: "{: " + " " * n + "x",
    "kramdown lines and headings": lambda n: "a\n\n{: #a .sidebar}\n## h\n" * (n // 24),
    "'{' * n + '}' * n": lambda n: "{" * (n // 2) + "}" * (n // 2),
    "lists after links": lambda n: "[a](b.md){.sidebar .c} " * (n // 23),
    "block lists before paragraphs": lambda n: "{.toc .c}\npara\n\n" * (n // 17),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_page_of_lists_is_extracted_in_linear_time(name: str) -> None:
    make = HOSTILE[name]
    ok, said = grows_linearly(lambda text: extract_page("p.md", text.encode()), make, 2_000)
    assert ok, said


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_page_of_lists_costs_a_few_markdown_it_parses(name: str) -> None:
    """Against markdown-it's own parse and render of the same 60 KB (bench/pathological.py
    times some of these at 360 KB); a tenth of a second is left for what every page costs."""
    ok, said = within_markdown_it(HOSTILE[name](60_000), 8)
    assert ok, said
