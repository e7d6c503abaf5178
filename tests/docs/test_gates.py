"""Rules gated by their markers (sitegen/docs/gates.py) change no byte: a page extracts to the
same record with every rule on as with the rules its text lacks switched off."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import reduce
from operator import or_
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.docs import markdown
from sitegen.docs.gates import GATES, RuleGates
from sitegen.docs.records import PageRecord
from sitegen.generators import Dialect

ROOT = Path(__file__).resolve().parents[2]

#: Lines of every syntax a gate names, and of the syntaxes around them.
FRAGMENTS = [
    "# Title {#id .c}",
    "Text with [a link](a.md) and [[Wiki]] and ![[img.png]] and `code`{.x}",
    "| a | b |\n|---|---|\n| 1 | 2 |",
    '!!! note "T"\n    body',
    "??? tip\n    folded",
    "::: warning\nbody\n:::",
    "::: code-group\n```js [a.js]\nx\n```\n:::",
    "::: pkg.Name",
    "/// details | S\nbody\n///",
    "/// tab | One\nx\n///",
    '=== "A"\n    a',
    "$$\nx^2\n$$",
    "$a$ and \\(b\\) and \\[c\\]",
    "\\begin{equation}\na\n\\end{equation}",
    "text[^1]\n\n[^1]: note",
    "<div>raw</div>",
    "a <b>inline</b> &amp; <https://x.org>",
    "Term\n: Meaning",
    "> [!NOTE]\n> alert",
    "> quote\n> : not a definition",
    "- [ ] task\n- [x] done",
    "~~struck~~",
    "{#para-id}\nParagraph",
    "---\ntitle: T\n---",
    "```py\ncode\n```",
    "    indented code",
    "* * *",
    "[ref]: https://example.org",
    "plain words only",
    "[[toc]]\n\n## Section",
    "[TOC]",
    "See [[toc]] and [TOC] in a sentence",
    "Text %%hidden%% and %% open",
    "%%\nblock comment\n\nstill\n%%",
    "A ==highlight== and a == b",
    "A block ^id-1\n\n- item ^i\n\n^alone",
]


@contextmanager
def _ungated() -> Iterator[None]:
    gates = markdown.MARKDOWN.gates
    assert gates is not None
    gates.open_all()
    markdown.MARKDOWN.gates = None
    try:
        yield
    finally:
        markdown.MARKDOWN.gates = gates


def _both(text: str) -> tuple[PageRecord, PageRecord]:
    data = text.encode()
    gated = markdown.extract_page("content/p.md", data)
    with _ungated():
        plain = markdown.extract_page("content/p.md", data)
    return gated, plain


def test_every_gate_names_a_rule_of_the_parser() -> None:
    # a dialect's own rules are on its parser only: the parser of every dialect has them all
    gates = markdown._parser(reduce(or_, Dialect)).gates
    assert gates is not None
    named = {(ruler, pattern.rstrip("*")) for ruler, pattern, _ in GATES}
    found = {(ruler, name) for ruler, name, _ in gates.gates}
    for ruler, prefix in named:
        assert any(r == ruler and n.startswith(prefix) for r, n in found), (ruler, prefix)


def test_a_plain_page_switches_the_gated_rules_off() -> None:
    gates = RuleGates.of(markdown._build_parser())
    gates.fit("plain words only\n")
    assert {"table", "admonition", "container_note", "math_block"} <= gates.off["block"]
    assert "sitegen_math" in gates.off["core"]
    gates.fit("| a |\n|---|\n")
    assert "table" not in gates.off["block"]


@pytest.mark.parametrize("fragment", FRAGMENTS)
def test_each_syntax_alone_renders_the_same(fragment: str) -> None:
    gated, plain = _both(fragment + "\n")
    assert gated == plain


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=6),
    st.sampled_from(["", "> ", "- ", "    "]),
)
def test_mixed_pages_render_the_same(parts: list[str], prefix: str) -> None:
    text = "\n\n".join(parts)
    nested = "\n".join(prefix + line for line in text.splitlines())
    for page in (text, nested):
        gated, plain = _both(page + "\n")
        assert gated == plain


def test_every_page_of_the_manual_renders_the_same() -> None:
    pages = sorted((ROOT / "content").rglob("*.md"))
    assert len(pages) > 30
    for page in pages:
        gated, plain = _both(page.read_text(encoding="utf-8"))
        assert gated == plain, page
