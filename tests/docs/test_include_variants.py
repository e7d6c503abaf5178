"""Include variants (issue 30, point 3): where mkdocs.yml lists ``markdown_include_variants``,
``{* file.py hl[…] ln[…] *}`` shows the file and its variant files as tabs, labelled and
ordered as the extension (markdown-include-variants 0.0.8) labels and orders them, read
through the includes machinery: inside the root, a missing file one warning at its line,
rebuilt when a variant changes or appears (content/syntax/include-variants.md).

The expected labels, orders and lines are written out by hand from the extension's rules,
never computed by sitegen's code."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from sitegen.build import build
from sitegen.config import load_config
from sitegen.crawl import Reads, build_reads, crawl
from sitegen.docs.includes import expand_includes, include_names
from sitegen.docs.markdown import extract_page
from sitegen.generators import Dialect
from sitegen.records.result import BuildOptions, BuildResult
from sitegen.serve.schedule import included_names
from sitegen.serve.watch import config_files
from sitegen.state.ownership import files_below
from tests.safety.linear import bytes_grows_linearly

PAGE = "docs/en/docs/tutorial/query.md"
VARIANTS = Dialect.PYTHON_MARKDOWN | Dialect.INCLUDE_VARIANTS
DIR = "../../docs_src/query"
CODE = "\n".join(f"line_{n} = {n}" for n in range(1, 11)) + "\n"


def _render(
    page: str, files: dict[str, str], dialect: Dialect = VARIANTS
) -> tuple[str, list[tuple[int, str]]]:
    """The page's HTML and its include problems, the files given by the names the page asks
    for (as the crawl hands them in)."""
    data = page.encode()
    names = include_names(PAGE, data, dialect)
    given = {n: files[n].encode() for n in names if n in files}
    ex = expand_includes(PAGE, data, given, dialect=dialect)
    text = data if ex is None else ex.data
    return extract_page(PAGE, text, dialect=dialect).html, [] if ex is None else ex.problems


def _shape(page_html: str) -> list[str]:
    """What a reader sees, in order: each tab label, each details summary, each code block's
    lines (highlighted lines marked '>')."""
    out = []
    for m in re.finditer(
        r'<label class="tabbed-label"[^>]*>(.*?)</label>|<summary[^>]*>(.*?)</summary>'
        r"|<pre[^>]*>(?:<span></span>)?<code[^>]*>(.*?)</code></pre>",
        page_html,
        re.S,
    ):
        label, summary, code = m.groups()
        if label is not None:
            out.append(f"tab: {html.unescape(label)}")
        elif summary is not None:
            out.append(f"details: {html.unescape(summary)}")
        else:
            # Pygments closes a highlighted line's span after its line break
            lines = code.replace("\n</span>", "</span>\n").removesuffix("\n").split("\n")
            out += [
                (">" if x.startswith('<span class="hll">') else " ")
                + html.unescape(re.sub(r"<[^>]+>", "", x)).rstrip("\n")
                for x in lines
            ]
    return out


def _files(*names: str, body: str = CODE) -> dict[str, str]:
    return {f"{DIR}/{n}": f"# {n}\n{body}" for n in names}


def test_the_named_file_is_the_first_tab_and_its_variants_follow_in_the_extensions_order() -> None:
    files = _files(
        "tutorial002_an_py310.py",
        "tutorial002_py310.py",
        "tutorial002_an_py39.py",
        "tutorial002_py39.py",
        "tutorial002.py",
    )
    page_html, problems = _render(f"# Query\n\n{{* {DIR}/tutorial002_an_py39.py *}}\n", files)
    tabs = [x for x in _shape(page_html) if x.startswith(("tab", "details"))]
    # the named one first; then the Annotated ones newest first, the non-Annotated ones,
    # then the versions with one file (the extension's order and labels)
    assert tabs == [
        "tab: Python 3.9+",
        "details: 🤓 Other versions and variants",
        "tab: Python 3.10+",
        "tab: Python 3.10+ - non-Annotated",
        "tab: Python 3.9+ - non-Annotated",
        "tab: Python 3.8+",
    ]
    assert problems == []
    # each tab holds its own file; the non-Annotated ones say to prefer the Annotated one
    assert "# tutorial002_an_py39.py" in _shape(page_html)[1]
    assert page_html.count("Prefer to use the <code>Annotated</code> version") == 2


def test_a_file_with_no_variant_is_one_tab_and_no_other_versions() -> None:
    page_html, _ = _render(f"{{* {DIR}/tutorial001_py310.py *}}\n", _files("tutorial001_py310.py"))
    assert [x for x in _shape(page_html) if x.startswith(("tab", "details"))] == [
        "tab: Python 3.10+"
    ]


def test_hl_highlights_the_lines_of_the_file() -> None:
    files = _files("tutorial001_py310.py")
    page_html, _ = _render(f"{{* {DIR}/tutorial001_py310.py hl[3,5:6] *}}\n", files)
    code = _shape(page_html)[1:]
    assert [x for x in code if x.startswith(">")] == [">line_2 = 2", ">line_4 = 4", ">line_5 = 5"]
    assert len(code) == 11  # the whole file: its comment line and ten lines


def test_ln_shows_the_lines_with_what_is_left_out_said_and_the_whole_file_under_a_preview() -> None:
    files = _files("tutorial001_py310.py")
    page_html, _ = _render(f"{{* {DIR}/tutorial001_py310.py ln[3:4,7] hl[4,7] *}}\n", files)
    shape = _shape(page_html)
    preview = shape.index("details: 👀 Full file preview")
    # file lines 3-4 are line_2 and line_3, line 7 is line_6: the highlights move with them
    assert shape[:preview] == [
        "tab: Python 3.10+",
        " # Code above omitted 👆",
        " ",
        " line_2 = 2",
        ">line_3 = 3",
        " ",
        " # Code here omitted 👈",
        " ",
        ">line_6 = 6",
        " ",
        " # Code below omitted 👇",
    ]
    # the preview: the whole file, highlighted at the file's own lines
    whole = shape[preview + 2 :]
    assert len(whole) == 11 and [x for x in whole if x.startswith(">")] == [
        ">line_3 = 3",
        ">line_6 = 6",
    ]


def test_the_title_is_the_code_blocks_title() -> None:
    files = _files("tutorial001_py310.py")
    page_html, _ = _render(f'{{* {DIR}/tutorial001_py310.py title["app/main.py"] *}}\n', files)
    assert "app/main.py" in page_html


def test_variants_by_folder_name_as_the_extension_finds_them() -> None:
    files = {
        f"{DIR}/app_an_py310/main.py": "import app\n",
        f"{DIR}/app_py310/main.py": "import plain\n",
        f"{DIR}/app_an_py310/routers/users.py": "router = 1\n",
    }
    page_html, _ = _render(f"{{* {DIR}/app_an_py310/main.py *}}\n", files)
    assert [x for x in _shape(page_html) if x.startswith("tab")] == [
        "tab: Python 3.10+",
        "tab: Python 3.10+ - non-Annotated",
    ]
    # one folder deeper, the folder's own name (routers) has no family: a plain file
    page_html, _ = _render(f"{{* {DIR}/app_an_py310/routers/users.py *}}\n", files)
    assert [x for x in _shape(page_html) if x.startswith("tab")] == ["tab: Python 3.8+"]


def test_a_missing_file_is_one_warning_at_its_line_and_the_page_goes_on() -> None:
    page_html, problems = _render(
        f"# Q\n\nBefore.\n\n{{* {DIR}/gone_py310.py hl[2] *}}\n\nAfter.\n", {}
    )
    assert "After." in page_html and "{*" not in page_html
    ((line, message),) = problems
    assert line == 5 and message.startswith(f"include variants '{DIR}/gone_py310.py': no such file")


def test_only_the_line_form_at_the_first_column_outside_code_is_read() -> None:
    files = _files("tutorial001_py310.py")
    page = (
        f"```md\n{{* {DIR}/tutorial001_py310.py *}}\n```\n\n"
        f"- item\n  {{* {DIR}/tutorial001_py310.py *}}\n"
    )
    page_html, problems = _render(page, files)
    assert "tabbed-label" not in page_html and problems == []
    assert page_html.count("{* ../../docs_src") == 2
    rec = extract_page(PAGE, page.encode(), dialect=VARIANTS)
    (said,) = [d.message for d in rec.diagnostics if d.code == "unsupported-syntax"]
    assert "alone on its line, from the line's first column" in said


def test_without_the_extension_the_line_is_text_and_warned() -> None:
    files = _files("tutorial001_py310.py")
    page = f"{{* {DIR}/tutorial001_py310.py *}}\n"
    assert include_names(PAGE, page.encode(), Dialect.PYTHON_MARKDOWN) == []
    page_html, _ = _render(page, files, Dialect.PYTHON_MARKDOWN)
    assert "tabbed-label" not in page_html and "{* ../../docs_src" in page_html


def test_a_bad_option_is_said_and_the_file_still_shown() -> None:
    files = _files("tutorial001_py310.py")
    page_html, problems = _render(f"{{* {DIR}/tutorial001_py310.py hl[x] *}}\n", files)
    assert "tabbed-label" in page_html
    ((_, message),) = problems
    assert "hl[x]" in message and "no line number" in message


SHAPES = {
    "many lines": lambda n: f"{{* {DIR}/tutorial001_py310.py hl[2] *}}\n".encode() * n,
    "a long line": lambda n: b"{* " + b"a" * n + b" " + b"x" * n + b"\n",
    "a long line of stars": lambda n: b"{* a.py " + b"*" * n + b"\n",
    "many ranges": lambda n: f"{{* {DIR}/tutorial001_py310.py hl[{'1,' * n}2] *}}\n".encode(),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_pages_are_read_in_linear_time(shape: str) -> None:
    files = {k: v.encode() for k, v in _files("tutorial001_py310.py").items()}

    def read(data: bytes) -> None:
        include_names(PAGE, data, VARIANTS)
        expand_includes(PAGE, data, files, dialect=VARIANTS)

    ok, said = bytes_grows_linearly(read, SHAPES[shape], size=200, max_size=40_000)
    assert ok, f"{shape}: {said}"


# --- whole builds: FastAPI's layout, mkdocs.yml in docs/en --------------------------------------

TUTORIAL = (
    "# First steps\n\n{* ../../docs_src/first_steps/tutorial001_an_py310.py hl[2] *}\n\nAfter.\n"
)


def _project(root: Path, page: str = TUTORIAL) -> None:
    files = {
        "sitegen.toml": 'content = "docs/en/docs"\n',
        "docs/en/mkdocs.yml": "site_name: x\nmarkdown_extensions:\n  - markdown_include_variants\n",
        "docs/en/docs/index.md": "# Home\n",
        "docs/en/docs/tutorial/first-steps.md": page,
        "docs_src/first_steps/tutorial001_an_py310.py": "from fastapi import FastAPI\nannotated = 1\n",
        "docs_src/first_steps/tutorial001_py310.py": "plain = 1\n",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


def _build(root: Path) -> tuple[BuildResult, str]:
    result = build(load_config(root), BuildOptions(jobs=1, quiet=True))
    (path,) = [p for p in files_below(root / "site") if "first-steps" in p and p.endswith(".html")]
    page_html = (root / "site" / path).read_text(encoding="utf-8")
    return result, page_html[page_html.index("<article") : page_html.index("</article>")]


def _warnings(result: BuildResult) -> list[str]:
    return [
        f"{d.path}:{d.line}: {d.message}" for d in result.diagnostics if "first-steps" in d.path
    ]


@pytest.mark.slow
def test_a_fastapi_page_shows_its_code_in_tabs_with_no_warning(tmp_path: Path) -> None:
    _project(tmp_path)
    result, page_html = _build(tmp_path)
    assert [x for x in _shape(page_html) if x.startswith(("tab", "details"))] == [
        "tab: Python 3.10+",
        "details: 🤓 Other versions and variants",
        "tab: Python 3.10+ - non-Annotated",
    ]
    assert ">annotated = 1" in _shape(page_html) and "After." in page_html
    assert _warnings(result) == []


@pytest.mark.slow
def test_a_file_outside_the_root_is_refused_with_one_warning(tmp_path: Path) -> None:
    root = tmp_path / "project"
    (tmp_path / "secret_py310.py").write_text("SECRET = 'kept out'\n", encoding="utf-8")
    _project(root, TUTORIAL.replace("../../docs_src/first_steps/tutorial001_an", "../../../secret"))
    result, page_html = _build(root)
    assert "kept out" not in page_html and "After." in page_html
    (said,) = _warnings(result)
    assert said.startswith("docs/en/docs/tutorial/first-steps.md:3: include variants '../../../")
    assert "no such file inside the project" in said


@pytest.mark.slow
def test_a_changed_or_new_variant_file_shows_on_the_next_build(tmp_path: Path) -> None:
    _project(tmp_path)
    _build(tmp_path)
    (tmp_path / "docs_src/first_steps/tutorial001_py310.py").write_text("changed = 2\n")
    (tmp_path / "docs_src/first_steps/tutorial001_an_py39.py").write_text("older = 3\n")
    _, page_html = _build(tmp_path)
    shape = _shape(page_html)
    assert " changed = 2" in shape and " plain = 1" not in shape
    assert "tab: Python 3.9+" in shape and " older = 3" in shape


def test_serve_watches_every_variant_file_the_line_could_have(tmp_path: Path) -> None:
    # a variant created after the build is a new input of the page (content/syntax/
    # include-variants.md): serve must rebuild when it appears, as when a variant changes.
    # Python is not analysed here, so only being a variant makes a .py file an input.
    _project(tmp_path)
    (tmp_path / "sitegen.toml").write_text('content = "docs/en/docs"\nlanguages = ["go"]\n')
    config = load_config(tmp_path)
    found = crawl(config, includes=lambda p, d: include_names(p, d, config.dialect))
    names = included_names(found, config.dialect)
    files = config_files(config, None)
    for name in ("tutorial001_py310.py", "tutorial001_an_py39.py", "tutorial001_py311.py"):
        path = tmp_path / "docs_src/first_steps" / name
        assert build_reads(config, path, names, files) is Reads.BYTES, name
    other = tmp_path / "docs_src/first_steps/unrelated.py"
    assert build_reads(config, other, names, files) is Reads.NAME


@pytest.mark.slow
def test_the_page_documents_its_file_and_each_variant_read(tmp_path: Path) -> None:
    """What the page documents (stale pages, sitegen/link/documented.py): the named file and
    its variant, whole; a candidate name no file answers is left out."""
    from sitegen.analyse.stale import documents_of_build

    _project(tmp_path)
    result, _ = _build(tmp_path)
    refs = documents_of_build(result)["docs/en/docs/tutorial/first-steps.md"]
    assert sorted((r.path, r.line, r.how) for r in refs) == [
        ("docs_src/first_steps/tutorial001_an_py310.py", 3, "include variant"),
        ("docs_src/first_steps/tutorial001_py310.py", 3, "include variant"),
    ]
