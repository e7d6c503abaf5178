"""Nesting: 50 levels of lists and quotes render; deeper content is kept and reported.

markdown-it's commonmark preset (maxNesting 20) dropped every line below about nine list
levels, and everything after it in the enclosing block, without a word
(content/guides/site.md, "Pages").
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from sitegen.base.diagnostics import Level
from sitegen.docs.markdown import extract_page
from sitegen.docs.nesting import MAX_NESTING
from tests.e2e.conftest import run_cli, write_project

DEEPEST_LIST = MAX_NESTING // 2 - 1  # a list level costs two (list, item)
DEEPEST_QUOTE = MAX_NESTING - 1


def nested_list(depth: int) -> str:
    """``depth`` levels, the item of level i holding a link to ``x{i}.md``."""
    return "".join("  " * i + f"- item {i} [a{i}](x{i}.md)\n" for i in range(depth))


def nested_quote(depth: int) -> str:
    return "".join(">" * (i + 1) + f" quote {i} [a{i}](x{i}.md)\n" for i in range(depth))


def warnings_of(data: bytes) -> list[tuple[int, int, str]]:
    rec = extract_page("deep.md", data)
    return [
        (d.line, d.col, d.message)
        for d in rec.diagnostics
        if d.level == Level.WARNING and d.code == "nesting"
    ]


@pytest.mark.parametrize("depth", [50, DEEPEST_LIST])
def test_lists_render_every_level_without_warning(depth: int) -> None:
    data = (nested_list(depth) + "\nafter [z](z.md)\n").encode()
    rec = extract_page("deep.md", data)
    assert rec.html.count("<li>") == depth
    assert rec.html.count("<ul>") == depth
    assert [link.href for link in rec.links] == [f"x{i}.md" for i in range(depth)] + ["z.md"]
    assert warnings_of(data) == []


@pytest.mark.parametrize("depth", [50, DEEPEST_QUOTE])
def test_quotes_render_every_level_without_warning(depth: int) -> None:
    data = (">" * depth + " deep [a](x.md)\n\nafter\n").encode()
    rec = extract_page("deep.md", data)
    assert rec.html.count("<blockquote>") == depth
    assert "<p>deep <a" in rec.html
    assert warnings_of(data) == []


@pytest.mark.parametrize(
    "make, depth, limit", [(nested_list, 80, DEEPEST_LIST), (nested_quote, 160, DEEPEST_QUOTE)]
)
def test_deeper_content_is_kept_and_reported_where_it_starts(make, depth, limit) -> None:  # type: ignore[no-untyped-def]
    text = make(depth) + "\nafter [z](z.md)\n"
    data = text.encode()
    rec = extract_page("deep.md", data)
    # every link kept, in order, at its own byte
    assert [link.href for link in rec.links] == [f"x{i}.md" for i in range(depth)] + ["z.md"]
    for link in rec.links:
        assert data[link.offset : link.offset + 1] == b"["
        assert data.count(b"\n", 0, link.offset) + 1 == link.line
    # its text is on the page, the deeper markers as text; what follows renders normally
    assert f"item {depth - 1}" in rec.html or f"quote {depth - 1}" in rec.html
    assert rec.html.rstrip().endswith('<p>after <a href="' + rec.link_mark + f'{depth}">z</a></p>')
    # one warning, at the first character of the first line that could not nest
    first_flat = text.splitlines()[limit]
    column = len(first_flat) - len(first_flat.lstrip(" >-")) + 1
    [(line, col, message)] = warnings_of(data)
    assert (line, col) == (limit + 1, column)
    assert "one plain paragraph" in message


def test_deep_list_inside_a_quote_ends_with_the_quote() -> None:
    inner = "".join("  " * i + f"- i{i}\n" for i in range(70))
    quoted = "".join("> " + line + "\n" for line in inner.splitlines())
    rec = extract_page("deep.md", (quoted + "\nafter\n").encode())
    assert rec.html.rstrip().endswith("</blockquote>\n<p>after</p>")
    assert "i69" in rec.html
    assert len([d for d in rec.diagnostics if d.code == "nesting"]) == 1


def test_nested_link_labels_far_past_the_limit_do_not_exhaust_the_stack() -> None:
    depth = 3 * MAX_NESTING
    for text in ("[" * depth + "x" + "](y)" * depth, "![" * depth + "x" + "](y)" * depth):
        rec = extract_page("deep.md", text.encode())
        assert "x" in rec.html
    assert sys.getrecursionlimit() >= 1000


def test_build_reports_the_deep_line_and_publishes_its_links(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "proj",
        {
            "content/index.md": "# Deep\n\n" + nested_list(70),
            "sitegen.toml": "source = []\n",
        },
    )
    result = run_cli("build", "--root", str(root), "--quiet")
    assert result.returncode == 0, result.stderr
    out = result.stdout + result.stderr
    assert re.search(rf"content/index\.md:{DEEPEST_LIST + 3}:\d+: warning: lists and quotes", out)
    html = (root / "site" / "index.html").read_text(encoding="utf-8")
    assert "item 69" in html and ">a69</a>" in html
