"""Rules gated by their markers (sitegen/docs/gates.py, declared by each syntax in
sitegen/docs/registry.py) change no byte: a page extracts to the same record with every rule
on as with the rules its text lacks switched off."""

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
from sitegen.docs.registry import SYNTAXES
from sitegen.generators import Dialect
from sitegen.records.pages import PageRecord

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
    # the pymdownx family's (content/syntax/material.md), read in MATERIAL below
    "An emoji :smile: and :material-file-tree:{ .lg .middle } at 10:30:00",
    "Keys ++ctrl+alt+del++ and C++ and ^^ins^^ and x^2^ and H~2~O and ~~del~~ and a\\ b",
    "[a](b){ .button } and __strong__{ .x } and **b**{: #y }",
    '<div class="grid cards" markdown>\n\n- __A__\n\n    ---\n\n    text [l](x.md)\n\n</div>',
    "<span markdown>*em*</span> and <details markdown>\n<summary>S</summary>\n\nbody\n</details>",
    '``` yaml { .annotate #ex title="a.yml" }\nkey: 1 # (1)!\n```\n\n1. A note.',
    "```py\nx = 1  # (1)\n```\n\n1. Numbered.",
    "### <!-- md:option x -->\n\n<!-- md:version 9 -->\n<!-- cSpell:disable -->",
    '!!! note\n\n    ```py\n    a\n\n\n    b\n    ```\n\n    === "A"\n\n        a\n\n\n    === "B"\n\n        b',
    'Term\n:   === "T"\n\n        in a term',
    # pairs made after the inline parse (ruler2): nested marks, and marks without pairs
    "*em ~~del ==hi== ^^ins^^~~* and ~one and == and ^^ and H~2~O^3^",
]
#: Every flag of the pymdownx family and MkDocs (not MDX, a dialect of its own).
MATERIAL = reduce(or_, (d for d in Dialect if d != Dialect.MDX))
#: The dialects each fragment and page is read in.
DIALECTS = [Dialect.NONE, MATERIAL, Dialect.MDX]


@contextmanager
def _ungated(dialect: Dialect = Dialect.NONE) -> Iterator[None]:
    parser = markdown._parser(dialect)
    gates = parser.gates
    assert gates is not None
    gates.open_all()
    parser.gates = None
    try:
        yield
    finally:
        parser.gates = gates


def _both(text: str, dialect: Dialect = Dialect.NONE) -> tuple[PageRecord, PageRecord]:
    data = text.encode()
    gated = markdown.extract_page("content/p.md", data, dialect=dialect)
    with _ungated(dialect):
        plain = markdown.extract_page("content/p.md", data, dialect=dialect)
    return gated, plain


def test_every_gate_names_a_rule_of_the_parser() -> None:
    # a dialect's own rules are on its parser only: the parser of every dialect has them all
    gates = markdown._parser(reduce(or_, Dialect)).gates
    assert gates is not None
    found = {(ruler, name) for ruler, name, _ in gates.gates}
    named = {
        tuple(pattern.rstrip("*").split(":"))
        for entry in SYNTAXES
        if isinstance(entry.markers, dict)
        for pattern, marker in entry.markers.items()
        if marker is not None and ":" in pattern
    }
    for ruler, prefix in named:
        assert any(r == ruler and n.startswith(prefix) for r, n in found), (ruler, prefix)


def test_a_plain_page_switches_the_gated_rules_off() -> None:
    gates = markdown._build_parser().gates
    assert gates is not None
    gates.fit("plain words only\n")
    assert {"table", "admonition", "container_note", "math_block"} <= gates.off["block"]
    assert "sitegen_math" in gates.off["core"]
    assert {"strikethrough", "sitegen_highlight"} <= gates.off["inline2"]
    gates.fit("| a |\n|---|\n")
    assert "table" not in gates.off["block"]


@pytest.mark.parametrize("dialect", DIALECTS, ids=["plain", "material", "mdx"])
@pytest.mark.parametrize("fragment", FRAGMENTS)
def test_each_syntax_alone_renders_the_same(fragment: str, dialect: Dialect) -> None:
    gated, plain = _both(fragment + "\n", dialect)
    assert gated == plain


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=6),
    st.sampled_from(["", "> ", "- ", "    "]),
    st.sampled_from(DIALECTS),
)
def test_mixed_pages_render_the_same(parts: list[str], prefix: str, dialect: Dialect) -> None:
    text = "\n\n".join(parts)
    nested = "\n".join(prefix + line for line in text.splitlines())
    for page in (text, nested):
        gated, plain = _both(page + "\n", dialect)
        assert gated == plain


@pytest.mark.parametrize("dialect", DIALECTS, ids=["plain", "material", "mdx"])
def test_every_page_of_the_manual_renders_the_same(dialect: Dialect) -> None:
    pages = sorted((ROOT / "content").rglob("*.md"))
    assert len(pages) > 30
    for page in pages:
        gated, plain = _both(page.read_text(encoding="utf-8"), dialect)
        assert gated == plain, page
