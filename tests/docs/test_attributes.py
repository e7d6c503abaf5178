"""The attrs plugin's inline rule, bounded (sitegen/docs/attributes.py): the same answers as
the plugin's own rule, which parses the whole rest of the paragraph."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline
from mdit_py_plugins.attrs import attrs_plugin
from mdit_py_plugins.attrs.parse import ParseError, parse

from sitegen.docs import attributes, markdown, syntax

#: Pieces that exercise every state of the attribute parser, comments and escapes included.
PIECES = ["[a](b.md)", "![i](j.png)", "`x`", "{", "}", "%", "#", ".", "c", "k=", '"', "\\", " "]
pages = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)


def _plugin_rule_parser() -> MarkdownIt:
    """sitegen's parser with the plugin's own inline attr rule in place of the bounded one."""
    plain = MarkdownIt()
    attrs_plugin(plain, allowed=syntax.ALLOWED_ATTRS)
    rule = next(r.fn for r in plain.inline.ruler.__rules__ if r.name == "attr")
    md = markdown._build_parser()
    syntax.replace_rule(md.inline.ruler, "attr", rule)
    return md


PLUGIN_RULE = _plugin_rule_parser()


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=pages, start=st.integers(0, 40), window=st.sampled_from([1, 2, 5, 64]))
def test_the_windows_find_what_the_whole_rest_does(text: str, start: int, window: int) -> None:
    src = text + "{" + text  # an attribute list may start anywhere
    start = min(start, len(src) - 1)
    if src[start] != "{":
        start = src.index("{")
    state = StateInline(src, markdown.MARKDOWN, {}, [])
    try:
        used, _ = parse(src[start:])
        expected: int | None = start + used + 1
    except ParseError:
        expected = None
    try:
        found: int | None = attributes._attributes_end(state, start, window)  # grows often
    except ParseError:
        found = None
    assert found == expected


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=pages)
def test_a_page_renders_as_with_the_plugins_rule(text: str) -> None:
    assert markdown.MARKDOWN.render(text) == PLUGIN_RULE.render(text)


@pytest.mark.parametrize(
    ("page", "html"),
    [
        ('[a](b.md){.c #d k="v"}', '<p><a href="b.md" id="d" class="c">a</a></p>\n'),
        # not a class of the theme: those no list gives (tests/docs/test_attribute_lists_bounds.py)
        ("![i](j.png){.photo}", '<p><img src="j.png" alt="i" class="photo" /></p>\n'),
        ("`x`{.py}", '<p><code class="py">x</code></p>\n'),
        ("[a](b.md){%comment}% .c}", '<p><a href="b.md" class="c">a</a></p>\n'),
        ("[a](b.md){#x}{.y}", '<p><a href="b.md" id="x" class="y">a</a></p>\n'),
        ("[a](b.md){.c", '<p><a href="b.md">a</a>{.c</p>\n'),
        ("[a](b.md){[x]}", '<p><a href="b.md">a</a>{[x]}</p>\n'),
    ],
)
def test_attributes_after_links_images_and_code(page: str, html: str) -> None:
    assert markdown.MARKDOWN.render(page) == html == PLUGIN_RULE.render(page)
