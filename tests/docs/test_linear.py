"""Link and position recording is linear in the links of a block: counted, not timed.

The parse runs with token lists that count every token read (iteration, index, slice), a
source text that counts every character sliced to measure byte widths, and the attrs
plugin's parser counting every character it is given. For n and 4n links the count must grow
about 4 times; the quadratic walks this replaced (``islice`` from the list's start per link
and per table, encoding the line up to each link, the attrs rule copying the rest of the
paragraph after each link) grew it about 16 times. Timings are in bench/linear.py and
bench/pathological.py; the one timed test here compares with markdown-it at the same size.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, SupportsIndex, overload

import pytest
from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from mdit_py_plugins.attrs.parse import parse as attrs_parse

from sitegen.docs import markdown
from sitegen.docs.positions import PageText
from sitegen.docs.wikilinks import find_closer


class Work:
    reads = 0


class CountingTokens(list[Token]):
    def __iter__(self) -> Iterator[Token]:
        for token in super().__iter__():
            Work.reads += 1
            yield token

    @overload
    def __getitem__(self, key: SupportsIndex) -> Token: ...
    @overload
    def __getitem__(self, key: slice) -> list[Token]: ...
    def __getitem__(self, key: SupportsIndex | slice) -> Token | list[Token]:
        Work.reads += len(range(*key.indices(len(self)))) if isinstance(key, slice) else 1
        return super().__getitem__(key)


class CountingText(str):
    def __getitem__(self, key: Any) -> str:
        Work.reads += len(range(*key.indices(len(self)))) if isinstance(key, slice) else 1
        return str.__getitem__(self, key)


class CountingSource(PageText):
    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self._raw = CountingText(self._raw)


def _count_block_tokens(state: StateCore) -> None:
    state.tokens = CountingTokens()


def _count_inline_tokens(state: StateCore) -> None:
    for token in state.tokens:
        if token.type == "inline" and not token.children:
            token.children = CountingTokens()


_ATTRS_PARSE = attrs_parse


def _counting_attrs_parse(text: str) -> tuple[int, dict[str, str]]:
    Work.reads += len(text)
    return _ATTRS_PARSE(text)


@pytest.fixture
def work(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], int]:
    for module in list(sys.modules.values()):  # wherever the attrs parser was imported
        if getattr(module, "parse", None) is _ATTRS_PARSE:
            monkeypatch.setattr(module, "parse", _counting_attrs_parse)
    md = markdown._build_parser()
    md.core.ruler.before("block", "count_block_tokens", _count_block_tokens)
    md.core.ruler.before("inline", "count_inline_tokens", _count_inline_tokens)
    monkeypatch.setattr(markdown, "MARKDOWN", md)
    monkeypatch.setattr(markdown, "PageText", CountingSource)

    def measure(page: str) -> int:
        Work.reads = 0
        rec = markdown.extract_page("page.md", page.encode())
        assert rec.links  # the page was parsed with its links
        return Work.reads

    return measure


PAGES: dict[str, Callable[[int], str]] = {
    "one paragraph of links": lambda n: " ".join(f"[l{i}](p{i % 7}.md)" for i in range(n)),
    "one line, not ASCII": lambda n: "é " + " ".join(f"[é{i}](p.md)" for i in range(n)),
    "links over many lines": lambda n: "\n".join(f"see [l{i}](p.md) é" for i in range(n)),
    "![[]() repeated": lambda n: "![[]()" * n,
    "[[]() repeated": lambda n: "[[]()" * n,
    "[](){ repeated": lambda n: "[](){" * n,
    "attributes after links": lambda n: " ".join(f"[l{i}](p.md){{.c{i} #i{i}}}" for i in range(n)),
    "images": lambda n: " ".join(f"![i{i}](i.png)" for i in range(n)),
    "autolinks": lambda n: " ".join(f"<https://e.org/{i}>" for i in range(n)),
    "reference links": lambda n: (
        " ".join(f"[r{i % 9}]" for i in range(n))
        + "\n\n"
        + "\n".join(f"[r{i}]: p{i}.md" for i in range(9))
    ),
    "tables": lambda n: "\n\n".join(
        f"| a | b |\n|---|---|\n| [x{i}](p.md) | c |" for i in range(n)
    ),
    "heading with links": lambda n: "# " + " ".join(f"[h{i}](p.md)" for i in range(n)),
    "deep list": lambda n: "".join("  " * (i % 40) + f"- [l{i}](p.md)\n" for i in range(n)),
}


@pytest.mark.parametrize("name", sorted(PAGES))
def test_work_grows_linearly_with_the_links(name: str, work: Callable[[str], int]) -> None:
    make = PAGES[name]
    small, large = work(make(300)), work(make(1200))
    assert 3.0 < large / small < 4.8, (small, large)


def test_the_counters_see_a_quadratic_walk(
    work: Callable[[str], int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The measure itself: the old width computation (encode the line up to each link)."""

    def quadratic_width(self: PageText, start: int, stop: int) -> int:
        span = self._raw[start:stop]
        return len(span.encode("utf-8", "surrogateescape")) - len(span)

    monkeypatch.setattr(PageText, "_extra_bytes", quadratic_width)
    make = PAGES["one line, not ASCII"]
    assert work(make(1200)) / work(make(300)) > 8


def test_a_built_page_of_many_links_on_one_line_keeps_every_position(tmp_path: Path) -> None:
    """Black-box: thousands of links on one non-ASCII line, each occurrence at its own byte."""
    from tests.e2e.conftest import run_cli, write_project

    n = 3000
    line = "Käse " + " ".join(f"[é{i}](p{i % 3}.md)" for i in range(n)) + "\n"
    pages: dict[str, str | bytes] = {f"content/p{k}.md": f"# P{k}\n" for k in range(3)}
    pages |= {"content/index.md": "# Many\n\n" + line, "sitegen.toml": "source = []\n"}
    root = write_project(tmp_path / "proj", pages)
    built = run_cli("build", "--root", str(root), "--quiet")
    assert built.returncode == 0, built.stderr
    data = (root / "content" / "index.md").read_bytes()
    graph = json.loads((root / "site" / "graph.json").read_text(encoding="utf-8"))
    occurrences = sorted(
        (o["offset"], o["column"], e["to"])
        for e in graph["edges"]
        if e["from"] == "/index.md"
        for o in e["occurrences"]
    )
    expected = [m.start() for m in re.finditer(rb"\[\xc3\xa9", data)]
    assert [o[0] for o in occurrences] == expected
    assert all(o[1] == o[0] - data.index(b"K\xc3\xa4se") + 1 for o in occurrences)
    assert [o[2] for o in occurrences] == [f"/p{i % 3}.md" for i in range(n)]


def test_the_closer_memo_stays_out_of_the_inline_state() -> None:
    """``'![[]()' * n`` (issue 18, row 6): markdown-it scans each ``![`` label as deep as the
    nesting limit. sitegen took twice its time because the wikilink rule kept its memo in the
    inline state's ``__dict__``: after that, CPython reads every attribute of the state the
    slow way, and markdown-it's label scan reads little else. The figure is timed in
    bench/pathological.py (1.3x markdown-it now, 2.1x before); here, the cause: the memo
    adds nothing to the state."""
    md = MarkdownIt("commonmark")
    state = StateInline("a ]] b ]] c", md, {}, [])
    fields = dict(vars(state))
    assert find_closer(state, "]]", 0) == 2
    assert find_closer(state, "]]", 3) == 7
    assert vars(state) == fields
