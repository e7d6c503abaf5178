"""What a page documents is read in one pass over its snippet lines and includes (issue 27):
placing each one counted lines from the page's start, so a page of many snippet lines took
time quadratic in its size (8x the lines: 52x the time, 5 s at 720 KB)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sitegen.docs.snippets import MAX_INCLUDES
from sitegen.link.documented import documented
from sitegen.records.pages import PageRecord
from sitegen.records.stale import DocRef
from tests.safety.linear import bytes_grows_linearly

PAGE = "content/page.md"
PATHS = {"pkg/a.py": "pkg/a.py", "/pkg/a.py": "pkg/a.py"}


def _documents(data: bytes) -> list[DocRef]:
    rec = PageRecord(PAGE, "", "", {}, [], [], [], "", "")
    return documented([rec], {}, [], {PAGE: data}, PATHS).get(PAGE, [])


SHAPES: dict[str, Callable[[int], bytes]] = {
    "snippet lines": lambda n: b'--8<-- "pkg/a.py:1:2"\n' * n,
    "code imports": lambda n: b"<<< ../pkg/a.py{1}\n" * n,
    "includes on one line": lambda n: b"{!pkg/a.py!} " * n,
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_the_places_of_many_snippets_and_includes_are_found_in_linear_time(shape: str) -> None:
    ok, said = bytes_grows_linearly(_documents, SHAPES[shape], size=500, max_size=40_000)
    assert ok, f"{shape}: {said}"


def test_each_place_keeps_its_line_and_column() -> None:
    data = b'# T\n\n--8<-- "pkg/a.py:2:3"\n\nSee {!pkg/a.py!} and {!pkg/a.py!}\n  <<< ../pkg/a.py\n'
    refs = [(r.line, r.column, r.how) for r in _documents(data)]
    assert refs == [
        (3, 1, "snippet range"),
        (5, 5, "markdown-include"),
        (5, 22, "markdown-include"),
        (6, 3, "code import"),
    ]


def test_snippet_lines_past_the_limit_or_with_a_huge_range_document_nothing() -> None:
    data = b'--8<-- "pkg/a.py"\n' * (MAX_INCLUDES + 10) + b'--8<-- "pkg/a.py:1:' + b"9" * 50
    data += b'"\n'
    refs = _documents(data)  # the lines the page expands, and not the one left out
    assert len(refs) == MAX_INCLUDES and refs[-1].line == MAX_INCLUDES
