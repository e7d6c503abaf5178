"""The include and snippet readers are bounded by construction (issue 27, Deliver 3): hostile
pages and included files (long runs of their own markers, huge numbers, lone surrogates, cut
short) give diagnostics and never an exception, in time linear in the input and within a few
times markdown-it's own parse of the same page (content/guides/safety.md)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from sitegen.docs.includes import expand_includes, include_names, include_places
from sitegen.docs.markdown import extract_page
from sitegen.docs.snippets import MAX_PROBLEMS, map_back, range_problem, split_range
from tests.safety.linear import bytes_grows_linearly, costs_at_most

PAGE = "docs/guide/page.md"
#: The readers' own markers and the characters their parsers split on.
PIECES = [
    "<!--@include:",
    "<!--@@include:",
    "<!-- @include: ./a.md",
    "-->",
    "<<<",
    "<<< @/a.py",
    "{!",
    "!}",
    "\\{!",
    "{!> a.md !}",
    '{% include "',
    '" %}',
    '--8<-- "',
    ";--8<-- '",
    '--8<-- "a.md:',
    "// #region r",
    "# region r",
    "#endregion",
    "<!-- #region r -->",
    "region = 1",
    "# Heading {#r}",
    "{",
    "}",
    ",",
    "-",
    ":",
    "#",
    "[",
    "]",
    "`",
    "```",
    "\n",
    "\r\n",
    " ",
    "\t",
    "a.md",
    "@/",
    "9" * 30,
    "9" * 4400,  # past Python's limit of 4,300 digits for int()
    '--8<-- "a.md:1:' + "9" * 4400 + '"\n',
    "<!--@include: a.md{1," + "9" * 4400 + "}-->",
    "<<< a.md{" + "9" * 4400 + "}\n",
    "\ud800",
    "é",
]


@st.composite
def hostile(draw: st.DrawFn) -> bytes:
    """Runs of the readers' own pieces, encoded with lone surrogates kept, maybe cut short."""
    runs = draw(
        st.lists(st.tuples(st.sampled_from(PIECES), st.integers(1, 300)), min_size=1, max_size=12)
    )
    data = "".join(piece * count for piece, count in runs).encode("utf-8", "surrogatepass")
    cut = draw(st.integers(0, len(data)))
    return data[:cut] if draw(st.booleans()) else data


def _check(page: bytes, files: dict[str, bytes | None]) -> None:
    names = include_names(PAGE, page)
    assert all(isinstance(n, str) for n in names)
    for offset, _, _, first, last, _ in include_places(PAGE, page):
        assert 0 <= offset <= len(page) and first >= 1 and last >= 0
    ex = expand_includes(PAGE, page, files)
    if ex is None:
        return
    assert len(ex.problems) <= MAX_PROBLEMS + 1
    for _, message in ex.problems:
        assert len(message) < 600, message
        assert "9" * 21 not in message


@settings(deadline=None, max_examples=40)
@given(page=hostile(), body=hostile())
def test_hostile_pages_and_included_files_never_raise(page: bytes, body: bytes) -> None:
    names = include_names(PAGE, page)
    files: dict[str, bytes | None] = dict.fromkeys(names, body)
    _check(page, files)
    ex = expand_includes(PAGE, page, files)
    if ex is not None:  # the expanded page parses, and its places map back into the page
        rec = map_back(extract_page(PAGE, ex.data), page, ex)
        assert all(0 <= x.offset <= len(page) for x in rec.links)
        assert all(d.line >= 1 for d in rec.diagnostics)


@settings(deadline=None, max_examples=40)
@given(body=hostile())
def test_regions_sections_and_ranges_of_hostile_files_never_raise(body: bytes) -> None:
    page = (
        b"<<< @/a.txt#r\n\n<<< @/a.txt#r{2 py}\n\n<!--@include: @/a.txt#r-->\n\n"
        b"<!--@include: @/a.txt#r{2,3}-->\n\n" + b'--8<-- "a.txt:2:3"\n'
    )
    _check(page, {"@/a.txt": body, "a.txt": body})


@st.composite
def snippet_names(draw: st.DrawFn) -> str:
    """``path:first:last`` with numbers of up to 6,000 digits, or any text of its characters."""
    digits = st.integers(0, 6000).map(lambda n: "9" * n)
    parts = draw(st.lists(st.one_of(digits, st.text(":0123456789a.-é\ud800 ")), max_size=5))
    return ":".join(parts)


@settings(deadline=None, max_examples=50)
@given(name=snippet_names())
def test_snippet_ranges_of_any_length_never_raise(name: str) -> None:
    _, first, last = split_range(name)
    assert first >= 1 and 0 <= last < 10**9
    problem = range_problem(name)
    assert problem is None or len(problem) < 200


# --- time -------------------------------------------------------------------------------


def _read(page: bytes) -> None:
    names = include_names(PAGE, page)
    expand_includes(PAGE, page, dict.fromkeys(names, b"one\ntwo\n"))
    include_places(PAGE, page)


def _run(unit: bytes, end: bytes = b"") -> Callable[[int], bytes]:
    return lambda n: unit * n + end


#: Pages made of the readers' own markers (issue 27: the first was 146 s at 130 KB).
SHAPES: dict[str, Callable[[int], bytes]] = {
    "<!--@include: run": _run(b"<!--@include:"),
    "<!--@include: a--> on one line": _run(b"<!--@include: a-->"),
    "<!--@include: a then a long path": lambda n: b"<!--@include: a" + b"/b" * n,
    "<!-- and blanks": lambda n: b"<!--" + b" \t" * n + b"@include: a-->",
    "{!a!} on one line": _run(b"{!a!}"),
    "{!a!} in code spans": _run(b"`{!a!}"),
    "{!a! run": _run(b"{!a|"),
    "{% include run": _run(b'{% include "a" %}'),
    "{% include unclosed": _run(b'{% include "'),
    "<<< lines": _run(b"<<< @/a.py#r{1,3 py} [t]\n"),
    "<<< with long braces": lambda n: b"<<< a{" + b"1," * n + b"}\n",
    "--8<-- lines": _run(b'--8<-- "a.md:1:2"\n'),
    "--8<-- long range": lambda n: b'--8<-- "a.md:' + b"1:" * n + b'"\n',
    "fenced <<<": _run(b"```\n<<< a.py\n```\n"),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_each_page_shape_is_read_in_linear_time(shape: str) -> None:
    ok, said = bytes_grows_linearly(_read, SHAPES[shape], size=500, max_size=20_000)
    assert ok, f"{shape}: {said}"


#: Included files made of the markers the included text is read for.
BODIES: dict[str, tuple[bytes, Callable[[int], bytes]]] = {
    "nested regions": (b"<<< @/a.txt#r\n", _run(b"// #region r\n")),
    "regions opened and closed": (b"<<< @/a.txt#r\n", _run(b"# region r\nx\n# endregion\n")),
    "a region name of blanks": (b"<<< @/a.txt#r\n", lambda n: b"<!-- #region r" + b" " * n),
    "a heading of blanks": (b"<!--@include: @/a.txt#r-->\n", lambda n: b"# a" + b" " * n + b"b"),
    "nested includes": (b"<!--@include: @/a.txt-->\n", _run(b"<!--@include: ./b.md-->\n")),
    "nested snippets": (b'--8<-- "a.txt"\n', _run(b'--8<-- "b.md"\n')),
}


@pytest.mark.parametrize("shape", sorted(BODIES))
def test_each_included_file_shape_is_read_in_linear_time(shape: str) -> None:
    page, make = BODIES[shape]

    def read(body: bytes) -> None:
        expand_includes(PAGE, page, {"@/a.txt": body, "a.txt": body})

    ok, said = bytes_grows_linearly(read, make, size=500, max_size=40_000)
    assert ok, f"{shape}: {said}"


#: Shapes whose page markdown-it parses line by line, as the readers read it.
AGAINST_MARKDOWN_IT = [
    "{!a!} on one line",
    "{!a!} in code spans",
    "{% include run",
    "<<< lines",
    "--8<-- lines",
    "fenced <<<",
]


@pytest.mark.parametrize("shape", AGAINST_MARKDOWN_IT)
def test_reading_includes_costs_at_most_a_few_markdown_it_parses(shape: str) -> None:
    page = SHAPES[shape](12_000)
    text = page.decode()
    md = MarkdownIt("commonmark")
    ok, said = costs_at_most(lambda: _read(page), lambda: md.parse(text), 4)
    assert ok, f"{shape}: {said} (markdown-it's parse)"
