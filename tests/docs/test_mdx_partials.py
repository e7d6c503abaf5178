"""MDX partials (issue 29, point 2): in a page read as MDX, ``<X />`` alone on its line, ``X``
imported from a ``.md``/``.mdx`` file by a relative path, is replaced by that file's markdown
through the includes machinery: the crawl reads it (inside the root, bounded), it is part of
the page's cache key, its relative links are rebased, and a partial that cannot be read is
one warning at the element's line (content/syntax/docusaurus.md)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sitegen.build import build
from sitegen.config import load_config
from sitegen.docs.includes import expand_includes, include_names
from sitegen.generators import Dialect
from sitegen.records.result import BuildOptions, BuildResult
from sitegen.state.ownership import files_below
from tests.safety.linear import bytes_grows_linearly

PAGE = "docs/tutorials/part-1.md"
NAME = "/docs/components/_Warning.mdx"
IMPORT = b"import Warning from '../components/_Warning.mdx';\n"
BODY = (
    b"---\ntitle: x\n---\n:::caution\n\nRead [the essentials](../tutorials/essentials.md).\n\n:::\n"
)
CONFIG = "module.exports = { presets: [['classic', { docs: { path: '../docs' } }]] }\n"


def _expand(data: bytes, files: dict[str, bytes | None], dialect: Dialect = Dialect.MDX) -> str:
    names = include_names(PAGE, data, dialect)
    paths = {n: n.lstrip("/") for n in names if files.get(n) is not None}
    ex = expand_includes(PAGE, data, files, paths=paths, dialect=dialect)
    return "" if ex is None else ex.data.decode()


def test_the_partial_is_read_by_the_crawl_from_the_pages_folder() -> None:
    data = IMPORT + b"\n# Part 1\n\n<Warning />\n"
    assert include_names(PAGE, data, Dialect.MDX) == [NAME]


def test_the_partial_takes_the_place_of_its_element_with_its_links_rebased() -> None:
    data = IMPORT + b"\n# Part 1\n\n<Warning />\n\nAfter.\n"
    text = _expand(data, {NAME: BODY})
    assert "<Warning />" not in text and "title: x" not in text
    assert ":::caution\n\nRead [the essentials](essentials.md).\n\n:::\n\nAfter." in text


def test_props_are_not_read_and_the_indentation_is_kept() -> None:
    data = IMPORT + b'\n- item\n\n  <Warning kind="big" />\n'
    text = _expand(data, {NAME: b"Part text.\n"})
    assert "- item\n\n  Part text.\n" in text and "kind" not in text


def test_an_element_in_a_code_block_or_inside_a_paragraph_is_not_read() -> None:
    data = IMPORT + b"\n```\n<Warning />\n```\n\nSee <Warning /> here.\n"
    assert include_names(PAGE, data, Dialect.MDX) == []
    assert _expand(data, {NAME: b"Part text.\n"}) == ""


def test_only_the_mdx_dialect_reads_partials() -> None:
    data = IMPORT + b"\n<Warning />\n"
    assert include_names(PAGE, data) == []
    assert expand_includes(PAGE, data, {NAME: BODY}) is None


def test_a_missing_partial_or_one_outside_the_root_is_one_warning_at_its_line() -> None:
    data = b"import A from '../../../../etc/_a.mdx';\n\n<A />\n"
    assert include_names(PAGE, data, Dialect.MDX) == ["/../../etc/_a.mdx"]
    ex = expand_includes(PAGE, data, {}, dialect=Dialect.MDX)
    assert ex is not None and b"<A />" not in ex.data
    problems = [(line, problem) for line, problem, _ in ex.coded()]
    assert len(problems) == 1 and problems[0][0] == 3
    assert "MDX partial <A> (imported from '../../../../etc/_a.mdx')" in problems[0][1]
    assert "no such file inside the project" in problems[0][1]


def test_a_partials_own_partial_and_imports_are_left_out_with_a_warning() -> None:
    body = b"import Other from './_Other.mdx';\nimport X from '@site/x';\n\nOwn.\n\n<Other />\n"
    ex = expand_includes(PAGE, IMPORT + b"\n<Warning />\n", {NAME: body}, dialect=Dialect.MDX)
    assert ex is not None
    text = ex.data.decode()
    assert "Own." in text and "<Other />" not in text and "import" not in text.split("\n", 1)[1]
    (said,) = [problem for _, problem, _ in ex.coded()]
    assert "its own partial <Other> is left out" in said


def test_a_partial_that_imports_itself_is_read_once() -> None:
    body = b"import Warning from './_Warning.mdx';\n\nSelf.\n\n<Warning />\n"
    ex = expand_includes(PAGE, IMPORT + b"\n<Warning />\n", {NAME: body}, dialect=Dialect.MDX)
    assert ex is not None and ex.data.decode().count("Self.") == 1


SHAPES: dict[str, Callable[[int], bytes]] = {
    "many elements": lambda n: IMPORT + b"\n<Warning />\n" * n,
    "many imports": lambda n: IMPORT * n + b"<Warning />\n",
    "an element of blanks": lambda n: IMPORT + b"<Warning " + b" " * n + b"/ >\n",
    "an import of blanks": lambda n: b"import W from '" + b" " * n + b"';  " + b" " * n + b"x\n",
    "an element of closers": lambda n: IMPORT + b"<Warning " + b"/> " * n + b"x\n",
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_pages_are_read_in_linear_time(shape: str) -> None:
    def read(data: bytes) -> None:
        expand_includes(PAGE, data, {NAME: b"Part.\n"}, dialect=Dialect.MDX)

    ok, said = bytes_grows_linearly(read, SHAPES[shape], size=200, max_size=40_000)
    assert ok, f"{shape}: {said}"


def test_a_partial_using_itself_many_times_is_read_in_linear_time() -> None:
    def read(body: bytes) -> None:
        expand_includes(PAGE, IMPORT + b"<Warning />\n", {NAME: body}, dialect=Dialect.MDX)

    def make(n: int) -> bytes:
        return b"import Warning from './_Warning.mdx';\n" + b"<Warning />\n" * n

    ok, said = bytes_grows_linearly(read, make, size=200, max_size=40_000)
    assert ok, said


# --- whole builds ---------------------------------------------------------------------------

PART = "import Warning from '../components/_Warning.mdx';\n\n# Part 1\n\n<Warning />\n\nAfter.\n"


def _project(root: Path, docusaurus: bool = True, page: str = PART) -> None:
    files = {
        "sitegen.toml": 'content = "docs"\n',
        "docs/tutorials/part-1.md": page,
        "docs/tutorials/essentials.md": "# Essentials\n",
        "docs/components/_Warning.mdx": BODY.decode().replace("Read", "Partial words: read"),
    }
    if docusaurus:
        files["website/docusaurus.config.js"] = CONFIG
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def _build(root: Path) -> tuple[BuildResult, str]:
    result = build(load_config(root), BuildOptions(jobs=1, quiet=True))
    (path,) = [p for p in files_below(root / "site") if "part-1" in p and p.endswith(".html")]
    return result, (root / "site" / path).read_text()


def _warnings(result: BuildResult) -> list[str]:
    return [f"{d.path}:{d.line}: {d.message}" for d in result.diagnostics if "part-1" in d.path]


@pytest.mark.slow
def test_a_docusaurus_page_shows_its_partial_with_no_warning(tmp_path: Path) -> None:
    _project(tmp_path)
    result, html = _build(tmp_path)
    assert "Partial words: read" in html and 'href="../essentials/index.html"' in html
    assert "&lt;Warning" not in html
    assert _warnings(result) == []


@pytest.mark.slow
def test_a_missing_partial_is_one_warning_and_the_build_goes_on(tmp_path: Path) -> None:
    _project(tmp_path, page=PART.replace("_Warning.mdx", "_Gone.mdx"))
    result, html = _build(tmp_path)
    assert "After." in html
    (said,) = _warnings(result)
    assert said.startswith("docs/tutorials/part-1.md:5: MDX partial <Warning>")


@pytest.mark.slow
def test_a_changed_partial_shows_on_the_next_build(tmp_path: Path) -> None:
    _project(tmp_path)
    _build(tmp_path)
    partial = tmp_path / "docs/components/_Warning.mdx"
    partial.write_text(":::note\n\nNew partial words.\n\n:::\n")
    _, html = _build(tmp_path)
    assert "New partial words." in html and "Partial words: read" not in html


@pytest.mark.slow
def test_a_project_without_a_generator_does_not_read_partials(tmp_path: Path) -> None:
    _project(tmp_path, docusaurus=False)
    _, html = _build(tmp_path)
    assert "Partial words" not in html and "import Warning" in html
