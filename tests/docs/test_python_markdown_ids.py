"""The ids of an MkDocs page are Python-Markdown's and pymdownx's (issue 30, point 1;
content/syntax/anchors.md#footnotes, content/syntax/tabs.md#ids): footnotes ``fn:1`` and
``fnref:1``, tabs ``__tabbed_1_1`` or their label's slug, after the heading's with
``combine_header_slug``. Python-Markdown with pymdownx is the oracle; each id is an anchor
that a link may name."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

import markdown
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown.extensions import toc
from pymdownx.slugs import slugify

from sitegen.docs import slug as slug_module
from sitegen.docs.markdown import extract_page
from sitegen.docs.slug import PythonMarkdownSlugger
from sitegen.generators import Dialect, SlugStyle
from sitegen.link.rules import SiteIndex
from sitegen.link.step import link_all
from sitegen.records.pages import PageRecord

MKDOCS = Dialect.PYTHON_MARKDOWN
SLUGS = MKDOCS | Dialect.TAB_SLUGS
COMBINED = SLUGS | Dialect.TAB_SLUGS_COMBINED
EXTENSIONS = [
    "pymdownx.tabbed",
    "pymdownx.superfences",
    "def_list",
    "admonition",
    "pymdownx.details",
    "footnotes",
    "toc",
]
_ID = re.compile(r'\bid="([^"]*)"')
_HREF = re.compile(r'\bhref="(#[^"]*)"')
_LABEL = re.compile(r'<label[^>]*\bfor="([^"]*)"[^>]*>(.*?)</label>', re.S)


def oracle(source: str, tabbed: Mapping[str, Any] | None = None) -> str:
    configs = {
        "pymdownx.tabbed": {"alternate_style": True, **(tabbed or {})},
        "toc": {"slugify": slugify(case="lower")},
    }
    return markdown.markdown(source, extensions=EXTENSIONS, extension_configs=configs)


def page(source: str, dialect: Dialect = MKDOCS) -> PageRecord:
    return extract_page("docs/p.md", source.encode(), dialect=dialect, slugs=SlugStyle.PYMDOWNX)


# --- footnotes ----------------------------------------------------------------------------

FOOTNOTES = {
    "numbers": "One[^1] and two[^2].\n\n[^1]: The first.\n[^2]: The second.\n",
    "names": "A[^note] and B[^1].\n\n[^1]: One.\n[^note]: The note,\n    on two lines.\n",
    "repeated": "A[^x] b[^x] c[^x] d[^y].\n\n[^x]: Three times.\n[^y]: Once.\n",
    "markup in a name": "A[^x&y].\n\n[^x&y]: An ampersand.\n",
}


def _footnote_ids(html: str) -> tuple[Counter[str], Counter[str]]:
    ids = Counter(i for i in _ID.findall(html) if i.startswith(("fn", "fnref")))
    hrefs = Counter(h for h in _HREF.findall(html) if h.startswith(("#fn", "#fnref")))
    return ids, hrefs


@pytest.mark.parametrize("name", FOOTNOTES)
def test_footnote_ids_and_backlinks_are_python_markdown_s(name: str) -> None:
    source = FOOTNOTES[name]
    record = page(source)
    assert _footnote_ids(record.html) == _footnote_ids(oracle(source))
    ids, _ = _footnote_ids(oracle(source))
    assert {i.replace("&amp;", "&") for i in ids} <= set(record.anchors)


def test_other_pages_keep_their_footnote_ids() -> None:
    html = extract_page("p.md", FOOTNOTES["numbers"].encode()).html
    assert 'id="fn1"' in html and "fn:1" not in html


# --- tabs ---------------------------------------------------------------------------------

TABS = {
    "sets": (
        '# Install\n\n=== "pip"\n\n    a\n\n=== "From a clone"\n\n    b\n\n'
        '## Use\n\nText.\n\n=== "pip"\n\n    c\n\n=== "Install"\n\n    d\n'
    ),
    "nested": (
        '## Setup\n\n=== "Outer"\n\n    === "Inner"\n\n        x\n\n    === "Inner"\n\n'
        '        y\n\n=== "Second"\n\n    z\n'
    ),
    "in callouts and lists": (
        '# Top\n\n## Options\n\n!!! note "Mind"\n\n    === "A `b` *c*"\n\n        a\n\n'
        '- item\n\n    ### Deep\n\n    === "Deep tab"\n\n        d\n\n'
        '??? tip "Fold"\n\n    === "In the fold"\n\n        e\n\n\n    === "Second"\n\n        f\n'
    ),
    "a heading inside a tab": (
        '# Page\n\n=== "Tab"\n\n    ## Inside\n\n    === "Nested"\n\n        n\n'
    ),
    "no heading": '=== "Alone"\n\n    a\n\n=== "Alone"\n\n    b\n',
}


def _tab_ids(html: str) -> Counter[tuple[str, str]]:
    """(label's text, the id its ``for`` names) of every tab."""
    return Counter((re.sub("<[^>]+>", "", label), for_) for for_, label in _LABEL.findall(html))


@pytest.mark.parametrize("name", TABS)
@pytest.mark.parametrize(
    ("dialect", "tabbed"),
    [
        (MKDOCS, {}),
        (SLUGS, {"slugify": slugify(case="lower")}),
        (COMBINED, {"slugify": slugify(case="lower"), "combine_header_slug": True}),
    ],
    ids=["numbered", "slugify", "combine_header_slug"],
)
def test_tab_ids_are_pymdownx_s(name: str, dialect: Dialect, tabbed: dict[str, Any]) -> None:
    source = TABS[name]
    record = page(source, dialect)
    expected = _tab_ids(oracle(source, tabbed))
    assert expected
    assert _tab_ids(record.html) == expected
    assert {for_ for _, for_ in expected} <= set(record.anchors)
    # each label names its own radio input
    inputs = re.findall(r'<input type="radio"[^>]*\bid="([^"]*)"', record.html)
    assert Counter(inputs) == Counter(for_ for _, for_ in expected)


def test_a_link_to_a_tab_or_a_footnote_is_not_broken() -> None:
    target = '# Target\n\n=== "pip install"\n\n    a\n\nText[^1].\n\n[^1]: A note.\n'
    linking = (
        "# Links\n\n[tab](target.md#target-pip-install) [note](target.md#fn:1) "
        "[back](target.md#fnref:1) [missing](target.md#nowhere)\n"
    )
    pages = {"content/target.md": target, "content/links.md": linking}
    index = SiteIndex(
        content="content", pages=set(pages), assets=set(), sources=set(), dirs={"content"}
    )
    records = [
        extract_page(p, t.encode(), dialect=COMBINED, slugs=SlugStyle.PYMDOWNX)
        for p, t in pages.items()
    ]
    linked = link_all(index, records, [], {})
    problems = [d for d in linked.diagnostics if d.path == "content/links.md"]
    assert [d.col for d in problems] == [linking.split("\n")[2].index("[missing]") + 1]


# --- numbering ----------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(["a", "a_1", "a_2", "a_9", "b", "b_1", ""]), max_size=5),
    st.lists(st.sampled_from(["a", "a_1", "a_2", "a_1_1", "b", "b_2", "", "_1"]), max_size=30),
)
def test_repeated_ids_are_numbered_as_python_markdown_numbers_them(
    reserved: list[str], wanted: list[str]
) -> None:
    taken = set(reserved)
    ours = PythonMarkdownSlugger(lambda text: text)
    for id_ in reserved:
        ours.reserve(id_)
    assert [ours.slug(w) for w in wanted] == [toc.unique(w, taken) for w in wanted]


def test_repeated_labels_and_headings_are_numbered_in_linear_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each repeat of an id tried the numbers of every earlier repeat again (n² tries)."""
    tries = Counter[str]()
    real = slug_module._next_number

    def counting(id_: str) -> str:
        tries["n"] += 1
        return real(id_)

    monkeypatch.setattr(slug_module, "_next_number", counting)

    def work(n: int) -> int:
        tries.clear()
        page("## Same\n\n" * n + '=== "Same"\n\n    a\n\n' * n, COMBINED)
        return tries["n"]

    assert work(800) < 5 * work(200)
