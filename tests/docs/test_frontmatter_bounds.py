"""Front matter as a reader of hostile input (sitegen/docs/frontmatter.py, through the bounded
YAML reader sitegen/base/yamldata.py): one diagnostic with a place for whatever it cannot read,
and time linear in its size, beside markdown-it's own parse of the same page.

Issue 27, defect 10: each key's line was found by searching the text for it, from the
start, once per key: 10,000 keys took 23.6 s. The parser now gives the lines in its one pass.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from mdit_py_plugins.front_matter import front_matter_plugin

from sitegen.base.diagnostics import Level
from sitegen.docs.frontmatter import parse_front_matter
from sitegen.docs.markdown import extract_page
from tests.docs.against_markdown_it import within_markdown_it
from tests.safety.linear import grows_linearly
from tests.safety.yaml_shapes import GROWING, REFUSED, yaml_texts


def _keys(n: int) -> str:
    return "".join(f"key{i}: value {i}\n" for i in range(n))


def _page(front: str) -> bytes:
    return ("---\n" + front + "\n---\n# Title\n\n[a link](b.md)\n").encode("utf-8", "surrogatepass")


def test_every_key_of_a_long_front_matter_keeps_its_line() -> None:
    fm = parse_front_matter("# intro\n" + _keys(10_000), "p.md", first_line=2)
    assert len(fm.key_lines) == 10_000
    assert all(fm.key_lines[f"key{i}"] == i + 3 for i in range(0, 10_000, 997))


def test_many_keys_are_located_in_linear_time() -> None:
    ok, said = grows_linearly(lambda text: parse_front_matter(text, "p.md"), _keys, 500)
    assert ok, said


#: A page's bytes are decoded with U+FFFD for what is not UTF-8 (one "utf8" warning), so
#: a lone surrogate reaches the front matter only when it is given text directly.
_IN_PAGES = sorted(set(REFUSED) - {"a lone surrogate"})


def test_a_lone_surrogate_in_front_matter_text_is_one_warning() -> None:
    (diag,) = parse_front_matter("a: b\nc: \ud800\n", "p.md", first_line=2).diagnostics
    assert (diag.line, diag.col, diag.code) == (3, 4, "front-matter")


@pytest.mark.parametrize("name", _IN_PAGES)
def test_front_matter_over_a_bound_is_one_warning_at_its_place(name: str) -> None:
    text, said = REFUSED[name]
    rec = extract_page("p.md", _page(text))
    (diag,) = [d for d in rec.diagnostics if d.code == "front-matter"]
    assert said in diag.message and diag.level == Level.WARNING
    assert 2 <= diag.line <= 2 + text.count("\n") and diag.col >= 1
    assert rec.front_matter == {} and rec.title == "Title"  # the page renders without it


@settings(deadline=None, max_examples=40)
@given(yaml_texts(), st.integers(0, 3))
def test_any_hostile_front_matter_is_data_or_one_warning(text: str, fences: int) -> None:
    page = "---\n" * fences + text  # the fences themselves may be missing or repeated
    rec = extract_page("p.md", page.encode("utf-8", "surrogatepass"))
    problems = [d for d in rec.diagnostics if d.code == "front-matter"]
    assert len(problems) <= 1
    assert all(d.line >= 1 and d.col >= 1 and len(d.message) < 300 for d in problems)


@pytest.mark.parametrize("name", sorted(GROWING))
def test_a_hostile_front_matter_is_read_in_linear_time(name: str) -> None:
    make = GROWING[name]
    ok, said = grows_linearly(lambda text: extract_page("p.md", _page(text)), make, 2_000, 100_000)
    assert ok, said


@pytest.mark.parametrize("name", ["many keys", "aliases", "block maps 40 deep, repeated"])
def test_a_hostile_front_matter_costs_a_few_markdown_it_parses(name: str) -> None:
    """markdown-it's front-matter plugin only finds the fences; sitegen also builds the YAML
    (twice over its events: the bounds, then the values), so the bound is loose, and still
    far below a quadratic reader's 100 times."""
    text = _page(GROWING[name](60_000)).decode("utf-8", "surrogatepass")
    ok, said = within_markdown_it(text, 40, MarkdownIt("commonmark").use(front_matter_plugin))
    assert ok, said
