"""Includes and snippets against hostile or careless input (issue 27): the scans are linear,
an included file obeys the crawl's own rules, region markers are comments as VitePress
reads them, ranges of any length never stop the build, and every include that is left out
says so once (content/syntax/includes.md, content/syntax/snippets.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.config import load_config
from sitegen.crawl import Reads, build_reads, crawl
from sitegen.docs.includes import expand_includes, include_names, include_places
from sitegen.docs.markdown import extract_page
from sitegen.docs.snippets import MAX_INCLUDES, MAX_PROBLEMS, expand, split_range
from tests.safety.conftest import make_project, sitegen

PAGE = "docs/guide/page.md"
HUGE = "9" * 5000


def _expand(page: bytes, files: dict[str, bytes]) -> tuple[bytes, list[tuple[int, str]]]:
    ex = expand_includes(PAGE, page, files)
    assert ex is not None
    return ex.data, ex.problems


def _warnings(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if ": warning: " in line]


# --- 7: an included file obeys the crawl's rules -------------------------------------------

LEFT_OUT = {
    "sitegen.toml": 'content = "docs"\nexclude = ["private/*"]\n',
    ".gitignore": "build/\n",
    "docs/index.md": (
        "# Home\n\n"
        '--8<-- "private/key.txt"\n\n'
        "{!build/out.txt!}\n\n"
        '{% include "venv/lib/site.py" %}\n\n'
        "<<< ../build/app.py\n\n"
        "<!--@include: ../private/notes.md-->\n\n"
        '--8<-- "shared/ok.txt"\n'
    ),
    "private/key.txt": "EXCLUDED-SECRET\n",
    "private/notes.md": "EXCLUDED-NOTES\n",
    "build/out.txt": "IGNORED-OUTPUT\n",
    "build/app.py": "IGNORED_CODE = 1\n",
    "venv/pyvenv.cfg": "home = /usr/bin\n",
    "venv/lib/site.py": "VENV_CODE = 1\n",
    "shared/ok.txt": "SHARED-TEXT\n",
}


def test_the_crawl_reads_no_included_file_that_its_walk_leaves_out(tmp_path: Path) -> None:
    root = make_project(tmp_path, LEFT_OUT)
    config = load_config(root)
    found = crawl(config, includes=include_names)
    assert found.snippets == {"shared/ok.txt": b"SHARED-TEXT\n"}
    assert sorted(found.unread_snippets) == [
        "/build/app.py",
        "/private/notes.md",
        "build/out.txt",
        "private/key.txt",
        "venv/lib/site.py",
    ]
    assert "private/key.txt is excluded or ignored" in found.unread_snippets["private/key.txt"]
    # serve rebuilds on what the build reads, by the same rule
    names = set(found.unread_snippets) | set(found.snippets)
    assert build_reads(config, root / "private/key.txt", names) is Reads.NOTHING
    assert build_reads(config, root / "venv/lib/site.py", names) is Reads.NOTHING
    assert build_reads(config, root / "shared/ok.txt", names) is Reads.BYTES


def test_a_build_publishes_nothing_of_an_excluded_or_ignored_include(tmp_path: Path) -> None:
    root = make_project(tmp_path, LEFT_OUT)
    proc = sitegen(root, "build", "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    html = (root / "site/index.html").read_text(encoding="utf-8")
    assert "SHARED-TEXT" in html
    for secret in ("EXCLUDED", "IGNORED", "VENV_CODE"):
        assert secret not in html
    said = [w for w in _warnings(proc.stderr) if "is excluded or ignored" in w]
    assert [w.split(": warning: ")[0] for w in said] == [
        "docs/index.md:3:1",
        "docs/index.md:5:1",
        "docs/index.md:7:1",
        "docs/index.md:9:1",
        "docs/index.md:11:1",
    ], proc.stderr
    assert said[0].endswith(
        "snippet 'private/key.txt': private/key.txt is excluded or ignored (the exclude "
        "option, a .gitignore, a virtual environment, sitegen's own output or another "
        "generator's) and is not included"
    )


# --- 8: a region marker is a comment ------------------------------------------------------


def test_a_code_line_that_starts_with_region_is_code() -> None:
    body = (
        b"# region config\n"
        b'region = "eu"\n'
        b"regions = 3\n"
        b"# endregion config\n"
        b'secret = "not in the region"\n'
    )
    data, problems = _expand(b"<<< ./conf.py#config\n", {"/docs/guide/conf.py": body})
    assert problems == []
    assert data == b'```py [conf.py]\nregion = "eu"\nregions = 3\n```\n'


@pytest.mark.parametrize(
    ("start", "end"),
    [
        ("// #region r", "// #endregion r"),
        ("//region r", "//endregion"),
        ("-- #region r", "-- #endregion"),
        ("REM #region r", "REM #endregion r"),
        ("#region r", "#endregion r"),
        ("# region r", "# endregion"),
        ("#pragma region r", "#pragma endregion r"),
        ('#Region "r"', "#End Region"),
        ("<!-- #region r -->", "<!-- #endregion r -->"),
        ("<!-- region r -->", "<!-- endregion -->"),
        ("/* #region r */", "/* #endregion r */"),
        ("(* #region r *)", "(* #endregion r *)"),
        ('"// #region r": "",', '"// #endregion r": "",'),
    ],
)
def test_the_region_markers_of_vitepress(start: str, end: str) -> None:
    body = f"before\n  {start}\n  inside\n  {end}\nafter\n".encode()
    data, problems = _expand(b"<<< ./a.txt#r\n", {"/docs/guide/a.txt": body})
    assert problems == []
    assert data == b"```txt [a.txt]\ninside\n```\n"


def test_markers_of_other_regions_and_code_words_are_told_apart() -> None:
    body = (
        b"// #region outer\n"
        b"const region = 1\n"
        b"// #region inner\n"
        b"f(region)\n"
        b"// #endregion\n"  # unnamed: closes inner, the innermost of its style
        b"// #endregion outer\n"
        b"// #region outer\n"
        b"second()\n"
        b"// #endregion outer\n"
    )
    data, _ = _expand(b"<<< ./a.js#outer\n", {"/docs/guide/a.js": body})
    assert data == b"```js [a.js]\nconst region = 1\nf(region)\nsecond()\n```\n"


# --- 13 and 25: numbers of any length, messages of bounded length --------------------------


@pytest.mark.parametrize(
    "page",
    [
        f'--8<-- "a.txt:1:{HUGE}"\n',
        f'--8<-- "a.txt:{HUGE}"\n',
        f"<!--@include: ./a.txt{{1,{HUGE}}}-->\n",
        f"<!--@include: ./a.txt{{{HUGE},}}-->\n",
        f"<<< ./a.txt{{{HUGE}}}\n",
        f"<<< ./a.txt{{1,3-{HUGE} txt}}\n",
    ],
)
def test_a_range_of_5000_digits_is_one_warning_that_quotes_20(page: str) -> None:
    files = {"a.txt": b"one\n", "/docs/guide/a.txt": b"one\n"}
    data, problems = _expand(page.encode(), files)
    assert data == b"\n"  # left out
    assert len(problems) == 1
    line, message = problems[0]
    assert line == 1 and "has over 9 digits; nothing is included" in message
    assert "9" * 21 not in message and len(message) < 200, message


def test_a_huge_range_never_raises_where_the_range_is_read() -> None:
    assert split_range(f"a.py:{HUGE}:{HUGE}") == ("a.py", 999_999_999, 999_999_999)
    assert split_range("a.py:0003:5") == ("a.py", 3, 5)
    places = include_places(PAGE, f"<!--@include: ./a.md{{1,{HUGE}}}-->\n".encode())
    assert places == []  # left out, so it documents nothing


def test_a_5000_digit_range_does_not_stop_the_build(tmp_path: Path) -> None:
    root = make_project(
        tmp_path,
        {
            "content/index.md": (
                f'# Home\n\n--8<-- "a.txt:1:{HUGE}"\n\n<!--@include: ./a.txt{{1,{HUGE}}}-->\n\n'
                f"<<< ./a.txt{{{HUGE}}}\n"
            ),
            "content/a.txt": "one\n",
        },
    )
    proc = sitegen(root, "build", "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    assert "internal error" not in proc.stderr
    warned = [w for w in _warnings(proc.stderr) if "over 9 digits" in w]
    assert len(warned) == 3 and all(len(w) < 300 for w in warned), warned


# --- 24: a code import's braces read as VitePress reads them -------------------------------


@pytest.mark.parametrize(
    ("written", "info"),
    [
        ("{2}", "py{2} [x.py]"),
        ("{1,3-5}", "py{1,3-5} [x.py]"),
        ("{1, 3}", "py{1,3} [x.py]"),
        ("{2 python}", "python{2} [x.py]"),
        ("{python}", "python [x.py]"),
        ("{1,3 ts:line-numbers} [Title]", "ts:line-numbers{1,3} [Title]"),
        ("{2 py twoslash}", "py{2} [x.py]"),
    ],
)
def test_the_braces_of_a_code_import_are_lines_then_a_language(written: str, info: str) -> None:
    page = f"<<< @/x.py{written}\n".encode()
    data, problems = _expand(page, {"@/x.py": b"a = 1\nb = 2\n"})
    assert problems == []
    assert data.split(b"\n")[0].decode() == "```" + info


def test_the_line_vitepress_highlights_is_highlighted() -> None:
    data, _ = _expand(b"<<< @/x.py{2}\n", {"@/x.py": b"a = 1\nb = 2\n"})
    html = extract_page(PAGE, data).html
    assert 'class="language-2"' not in html
    assert '<span class="hll"><span class="n">b</span>' in html


# --- 25: what a left-out include says ------------------------------------------------------


def test_a_missing_region_is_a_warning_and_no_code_block() -> None:
    page = b"Before.\n\n<<< @/x.py#nowhere\n\nAfter.\n"
    data, problems = _expand(page, {"@/x.py": b"a = 1\n"})
    assert data == b"Before.\n\n\n\nAfter.\n"  # as VitePress: nothing rendered
    assert problems == [
        (3, "code import '@/x.py': no region 'nowhere' in the file; nothing is included")
    ]


def test_a_nested_snippet_says_it_is_nested() -> None:
    ex = expand(b'--8<-- "a.md"\n', {"a.md": b'A\n--8<-- "b.md"\n--8<-- "c.md"\n'})
    assert ex.data == b"A\n\n\n"
    assert ex.problems == [
        (
            1,
            "snippet 'a.md': its own snippet line '--8<-- \"b.md\"' (1 more) is left out: "
            "sitegen reads snippets one level deep",
        )
    ]
    rec = extract_page("content/index.md", ex.data)
    assert not [d for d in rec.diagnostics if "one-line form" in d.message]
    # an escaped one is shown as pymdownx shows it, without its ';'
    shown = expand(b'```\n--8<-- "a.md"\n```\n', {"a.md": b';--8<-- "d.md"\n'})
    assert shown.data == b'```\n--8<-- "d.md"\n```\n' and shown.problems == []


def test_a_nested_markdown_include_is_said_and_left_out() -> None:
    body = b"B line\n<!--@include: ./c.md-->\nB <!--@include: ./d.md--> after\n"
    data, problems = _expand(b"<!--@include: ./b.md-->\n", {"/docs/guide/b.md": body})
    assert data == b"B line\n\nB  after\n"
    assert problems == [
        (
            1,
            "include './b.md': its own include '<!--@include: ./c.md-->' (1 more) is left out: "
            "sitegen reads includes one level deep",
        )
    ]


def test_a_nested_include_inside_a_paragraph_is_warned_in_a_build(tmp_path: Path) -> None:
    root = make_project(
        tmp_path,
        {
            "content/index.md": "# Home\n\nText <!--@include: ./parts/b.md--> here.\n",
            "content/parts/b.md": "B <!--@include: ./c.md--> B\n",
            "content/parts/c.md": "C-TEXT\n",
        },
    )
    proc = sitegen(root, "build", "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    assert _warnings(proc.stderr) == [
        "content/index.md:3:1: warning: include './parts/b.md': its own include "
        "'<!--@include: ./c.md-->' is left out: sitegen reads includes one level deep"
    ], proc.stderr


def test_a_long_path_is_cut_in_the_message() -> None:
    path = "a" * 5000
    _, problems = _expand(f"<<< ./{path}.py\n".encode(), {})
    assert len(problems) == 1 and len(problems[0][1]) < 250
    assert "…'" in problems[0][1]


# --- caps: includes, problems and bytes per page -------------------------------------------


def test_over_the_limit_of_includes_one_warning_and_the_rest_left_out() -> None:
    n = MAX_INCLUDES + 50
    page = "".join(f"{{!f{i}.md!}}\n" for i in range(n)).encode()
    names = include_names(PAGE, page)
    assert len(names) == MAX_INCLUDES  # the crawl looks up no more
    files: dict[str, bytes] = dict.fromkeys(names, b"x")
    data, problems = _expand(page, files)
    assert data.count(b"x") == MAX_INCLUDES
    assert problems == [
        (
            MAX_INCLUDES + 1,
            f"the page has {n} includes, over the limit of {MAX_INCLUDES}: this one and the "
            "49 after it are left out",
        )
    ]


def test_many_missing_includes_list_a_few_and_count_the_rest() -> None:
    page = b"{!nowhere.md!}\n" * 100
    _, problems = _expand(page, {})
    assert len(problems) == MAX_PROBLEMS + 1
    assert problems[-1] == (
        MAX_PROBLEMS + 1,
        f"{100 - MAX_PROBLEMS} more problems with this page's snippets and includes are not listed",
    )


def test_the_bytes_a_page_includes_are_bounded() -> None:
    page = b'--8<-- "big.txt"\n' * 10
    ex = expand(page, {"big.txt": b"y" * 3_000_000})
    assert len(ex.data) < 8_000_100
    assert [line for line, _ in ex.problems] == list(range(3, 11))
    assert "add over 8000000 bytes" in ex.problems[0][1]
