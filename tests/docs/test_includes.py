"""Includes of other generators, read like snippets (content/syntax/includes.md): VitePress
``<<< @/file`` and ``<!--@include: file-->``, markdown-include ``{!file!}`` and mkdocs-macros
``{% include "file" %}``: the file's text in place, positions mapped back, inside the root
only, a changed file parses the page again; what sitegen does not run is one warning per
page and kind."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sitegen.config import load_config
from sitegen.crawl import Reads, build_reads, crawl, include_base, snippet_candidates
from sitegen.docs.includes import expand_includes, include_names
from sitegen.docs.markdown import extract_page
from sitegen.docs.snippets import map_back
from tests.safety.conftest import make_project, sitegen

PAGE = "docs/guide/page.md"
REGION_JS = (
    b"const before = 0\n"
    b"// #region snippet\n"
    b"  function foo() {\n"
    b"    // #region inner\n"
    b"    return 1\n"
    b"    // #endregion inner\n"
    b"  }\n"
    b"// #endregion snippet\n"
    b"const after = 2\n"
)
PART_MD = (
    b"# Part\n\nIntro line.\n\n## Basic usage\n\nUse it.\n\n### Detail\n\n```sh\n# not a heading\n```\n\n"
    b"## Next {#custom-id}\n\nLast.\n"
)


def _expanded(page: bytes, files: dict[str, bytes]) -> bytes:
    ex = expand_includes(PAGE, page, files)
    assert ex is not None and ex.problems == []
    return ex.data


# --- VitePress code import -----------------------------------------------------------------


def test_a_code_import_is_a_fence_with_its_region_highlights_language_and_title() -> None:
    page = b"Intro.\n\n<<< @/snippets/x.js#snippet{1,3 ts:line-numbers} [A title]\n\nEnd.\n"
    assert include_names(PAGE, page) == ["@/snippets/x.js"]
    data = _expanded(page, {"@/snippets/x.js": REGION_JS})
    # the region's lines, its markers and the nested ones left out, dedented
    assert b"```ts:line-numbers{1,3} [A title]\nfunction foo() {\n  return 1\n}\n```" in data
    html = extract_page(PAGE, data).html
    assert "foo" in html and "#region" not in html and "before" not in html
    assert "hll" in html  # the highlighted lines


def test_every_region_of_a_name_is_taken_and_names_may_hold_dots() -> None:
    body = (
        b"<template>\n  <!-- #region v1.x -->\n  <p>one</p>\n  <!-- #endregion v1.x -->\n</template>\n"
        b"<script>\n// #region v1.x\nconst two = 2\n// #endregion v1.x\n</script>\n"
    )
    data = _expanded(b"<<< ./Comp.vue#v1.x\n", {"/docs/guide/Comp.vue": body})
    assert data == b"```vue [Comp.vue]\n  <p>one</p>\nconst two = 2\n```\n"


def test_a_code_import_without_options_takes_its_language_from_the_extension() -> None:
    page = b"<<< ../snippets/a.py\n"
    name = include_names(PAGE, page)[0]
    assert name == "/docs/snippets/a.py"  # relative to the page, read from the root
    data = _expanded(page, {name: b"x = '```'\n```\n"})
    assert data.startswith(b"````py [a.py]\n")  # a fence longer than any inside
    assert data.endswith(b"\n````\n")


def test_a_code_import_inside_a_fence_is_code() -> None:
    page = b"````md\n<<< @/snippets/x.js\n````\n"
    assert include_names(PAGE, page) == []
    assert expand_includes(PAGE, page, {}) is None


# --- VitePress markdown include ------------------------------------------------------------


def test_a_markdown_include_with_a_line_range_a_section_and_an_id() -> None:
    files = {"/docs/guide/parts/basics.md": PART_MD}
    whole = _expanded(b"<!--@include: ./parts/basics.md-->\n", files)
    assert whole == PART_MD
    ranged = _expanded(b"<!--@include: ./parts/basics.md{3,3}-->\n", files)
    assert ranged == b"Intro line.\n"
    section = _expanded(b"<!--@include: ./parts/basics.md#basic-usage-->\n", files)
    assert section == b"\nUse it.\n\n### Detail\n\n```sh\n# not a heading\n```\n\n"
    custom = _expanded(b"<!--@include: ./parts/basics.md#custom-id{2,}-->\n", files)
    assert custom == b"Last.\n"


def test_a_markdown_include_from_the_source_root_and_in_a_list_item() -> None:
    page = b"- item\n\n  <!--@include: @/parts/x.md-->\n"
    assert include_names(PAGE, page) == ["@/parts/x.md"]
    data = _expanded(page, {"@/parts/x.md": b"one\n\ntwo\n"})
    assert data == b"- item\n\n  one\n\n  two\n"


def test_the_escaped_include_is_shown_and_not_read() -> None:
    page = b"```md\n<!--@@include: ./parts/basics.md-->\n```\n"
    assert include_names(PAGE, page) == []
    assert b"<!--@include: ./parts/basics.md-->" in _expanded(page, {})


# --- markdown-include and mkdocs-macros ----------------------------------------------------


def test_markdown_include_in_prose_and_inside_a_fence() -> None:
    page = (
        b"Version {!VERSION!} is out.\n\n```python\n{!> ../../docs_src/app.py!}\n```\n\n"
        b"Write `{!file!}` to include, or \\{!file!} in a fence.\n"
    )
    assert include_names(PAGE, page) == ["VERSION", "../../docs_src/app.py"]
    data = _expanded(page, {"VERSION": b"1.2\n", "../../docs_src/app.py": b"import os\n"})
    assert data.startswith(b"Version 1.2 is out.\n\n```python\nimport os\n```")
    assert b"`{!file!}`" in data and b" \\{!file!} in a fence" in data


def test_an_escaped_markdown_include_is_shown_without_a_warning() -> None:
    page = b"Shown: \\{!part.md!}.\n\n```md\n\\{!part.md!}\n```\n"
    assert include_names(PAGE, page) == []
    rec = extract_page(PAGE, _expanded(page, {}))
    assert "<p>Shown: {!part.md!}.</p>" in rec.html
    assert "<code>{!part.md!}\n</code>" in rec.html  # no backslash in code either
    assert rec.diagnostics == []


def test_a_macros_include_outside_fences_only() -> None:
    page = b'Before.\n\n{% include "parts/note.md" %}\n\n```jinja\n{% include "x.html" %}\n```\n'
    assert include_names(PAGE, page) == ["parts/note.md"]
    data = _expanded(page, {"parts/note.md": b"**Note** kept.\n"})
    assert b'**Note** kept.\n\n```jinja\n{% include "x.html" %}' in data


def test_names_are_looked_for_where_each_tool_looks() -> None:
    # by name: root, content folder, then mkdocs.yml's folder; @/ and / from one place only
    assert snippet_candidates("docs/en/docs", "../../docs_src/a.py", "docs/en") == [
        "docs/docs_src/a.py",
        "docs_src/a.py",
    ]
    assert snippet_candidates("docs", "@/snippets/a.js") == ["docs/snippets/a.js"]
    assert snippet_candidates("docs", "/docs/guide/a.md") == ["docs/guide/a.md"]
    assert snippet_candidates("docs", "/../etc/passwd") == []


# --- positions and problems ----------------------------------------------------------------


def test_positions_after_includes_are_the_pages_own_and_problems_are_at_their_line() -> None:
    page = (
        b"# Title\n\n<<< @/snippets/x.js\n\nSee {!missing.md!} and [a link](a.md).\n\n"
        b"<!--@include: ./parts/basics.md#nowhere-->\n\n[Last](b.md)\n"
    )
    files = {"@/snippets/x.js": REGION_JS, "/docs/guide/parts/basics.md": PART_MD}
    ex = expand_includes(PAGE, page, files)
    assert ex is not None
    rec = map_back(extract_page(PAGE, ex.data), page, ex)
    lines = page.split(b"\n")
    for link in rec.links:
        assert page[link.offset : link.offset + 1] == b"["
        assert lines[link.line - 1][link.column - 1 :].startswith(b"[")
    assert [(x.label, x.line) for x in rec.links] == [("a link", 5), ("Last", 9)]
    warnings = [(d.line, d.code, d.message) for d in rec.diagnostics]
    assert (5, "snippet") in [(w[0], w[1]) for w in warnings]
    assert any(w[0] == 7 and "no region or section 'nowhere'" in w[2] for w in warnings)


@pytest.mark.slow  # two whole builds, in subprocesses
def test_includes_in_a_build_read_inside_the_root_and_rebuild(tmp_path: Path) -> None:
    root = make_project(
        tmp_path,
        {
            "docs/index.md": (
                "# Home\n\n<<< @/snippets/app.js{2}\n\n"
                "<!--@include: ../../../../../../etc/passwd-->\n\n"
                "{!.git/config!}\n\n"
                '{% include "notes/part.md" %}\n'
            ),
            "docs/snippets/app.js": "const a = 1\nconst b = 2\n",
            "notes/part.md": "First version.\n",
            ".git/config": "[core]\nsecret = yes\n",
            "sitegen.toml": 'content = "docs"\n',
        },
    )
    proc = sitegen(root, "build", "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    html = (root / "site/index.html").read_text()
    assert re.search(r"const.*b.*=.*2", html) and "First version." in html
    assert "root:x:0" not in html and "secret = yes" not in html
    assert "docs/index.md:5:1: warning: include '../../../../../../etc/passwd'" in proc.stderr
    assert "docs/index.md:7:1: warning: markdown-include '.git/config'" in proc.stderr
    (root / "notes/part.md").write_text("Second version.\n")
    (root / "docs/snippets/app.js").write_text("const changed = 3\n")
    assert sitegen(root, "build", "--jobs", "1").returncode == 0
    html = (root / "site/index.html").read_text()
    assert "Second version." in html and "changed" in html


# --- what sitegen does not run: one warning per page and kind ------------------------------


def test_syntax_not_run_is_one_warning_per_page_and_kind_at_its_first_line() -> None:
    text = (
        "# T\n\n{* ../../docs_src/a.py hl[3] *}\n\nText {{ $frontmatter.title }}.\n\n"
        "{* ../../docs_src/b.py *}\n\n{% if x %}\n\n{{ y }} and {{ z }}\n\n`{{ code }}`\n"
    )
    rec = extract_page(PAGE, text.encode())
    found = sorted((d.line, d.col, d.message) for d in rec.diagnostics)
    assert [(line, col) for line, col, _ in found] == [(3, 1), (5, 6), (9, 1)]
    assert all(d.code == "unsupported-syntax" for d in rec.diagnostics)
    assert "'{* ../../docs_src/a.py hl[3] *}'" in found[0][2] and "1 more" in found[0][2]
    assert "'{{ $frontmatter.title }}'" in found[1][2] and "2 more" in found[1][2]
    assert "'{% if x %}'" in found[2][2] and "more" not in found[2][2]


def test_markdown_include_reads_from_the_folder_of_mkdocs_yml(tmp_path: Path) -> None:
    # FastAPI's layout: docs/en/mkdocs.yml, pages in docs/en/docs, examples in docs_src/
    root = make_project(
        tmp_path,
        {
            "docs/en/mkdocs.yml": "site_name: x\n",
            "docs/en/docs/index.md": "# Home\n\n```python\n{!../../docs_src/app.py!}\n```\n",
            "docs_src/app.py": "import os\n",
            "sitegen.toml": 'content = "docs/en/docs"\n',
        },
    )
    config = load_config(root)
    assert include_base(config) == "docs/en"
    found = crawl(config, includes=include_names)
    assert found.snippets == {"../../docs_src/app.py": b"import os\n"}
    assert found.snippet_paths == {"../../docs_src/app.py": "docs_src/app.py"}


def test_template_syntax_inside_html_is_reported_too() -> None:
    text = (
        '# T\n\n<div>\n{% for s in sponsors %}\n<a href="{{ s.url }}">x</a>\n{% endfor %}\n</div>\n'
    )
    rec = extract_page(PAGE, text.encode())
    found = sorted((d.line, d.message.split("'")[1]) for d in rec.diagnostics)
    assert found == [(4, "{% for s in sponsors %}"), (5, "{{ s.url }}")]


def test_serve_rebuilds_when_an_included_file_outside_the_content_changes(tmp_path: Path) -> None:
    root = make_project(
        tmp_path,
        {
            "docs/index.md": "<<< ../examples/a.js\n\n{!shared/b.md!}\n",
            "shared/b.md": "B\n",
            "other/c.md": "C\n",
            "sitegen.toml": 'content = "docs"\n',
        },
    )
    config = load_config(root)
    names = {
        n
        for page in crawl(config, includes=include_names).pages
        for n in include_names(page.path, page.data)
    }
    assert names == {"/examples/a.js", "shared/b.md"}
    # a file not there yet is read once it is created; a file no page includes is not
    assert build_reads(config, root / "examples/a.js", names) is Reads.BYTES
    assert build_reads(config, root / "shared/b.md", names) is Reads.BYTES
    assert build_reads(config, root / "other/c.md", names) is not Reads.BYTES


def test_relative_links_of_a_markdown_include_lead_where_they_did() -> None:
    body = (
        b'See [b](b.md#x), ![img](../img/p.png "t"), [abs](/x.md), [web](https://e.com/a), '
        b'[frag](#y).\n\n[ref]: other/c.md\n<img src="i.png">\n'
    )
    name = "/docs/guide/parts/a.md"
    ex = expand_includes(
        PAGE, b"<!--@include: ./parts/a.md-->\n", {name: body}, paths={name: name[1:]}
    )
    assert ex is not None
    assert ex.data == (
        b'See [b](parts/b.md#x), ![img](img/p.png "t"), [abs](/x.md), [web](https://e.com/a), '
        b'[frag](#y).\n\n[ref]: parts/other/c.md\n<img src="parts/i.png">\n'
    )
