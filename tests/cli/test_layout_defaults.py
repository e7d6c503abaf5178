"""Point 1 of issue 14: the build says which content folder and source roots it used and why;
both default folders present is an info line; nothing found is a warning naming what was
looked for (sitegen/layout.py)."""

from __future__ import annotations

from pathlib import Path

from tests.cli.conftest import sitegen, write

DEFAULT_SOURCES = "source files from the project root (no source option)"


def test_docs_without_content_says_so(tmp_path: Path) -> None:
    root = write(tmp_path / "p", {"docs/index.md": "# Docs\n"})
    run = sitegen("build", root=root)
    assert run.code == 0, run.err
    assert f"sitegen: pages from docs/ (no content/ folder); {DEFAULT_SOURCES}" in run.err_lines


def test_content_and_docs_both_present_is_an_info_line_naming_the_key(tmp_path: Path) -> None:
    root = write(tmp_path / "p", {"content/index.md": "# C\n", "docs/index.md": "# D\n"})
    run = sitegen("build", root=root)
    assert run.code == 0, run.err
    assert (
        "docs:1:1: info: both content/ and docs/ exist; pages are read from content/ "
        '(set content = "docs" in sitegen.toml to build docs/ instead)'
    ) in run.err_lines
    assert f"sitegen: pages from content/ (the default); {DEFAULT_SOURCES}" in run.err_lines
    # the info line names the file the project already uses
    write(root, {"pyproject.toml": '[tool.sitegen]\nout = "site"\n'})
    run = sitegen("build", root=root)
    assert (
        "docs:1:1: info: both content/ and docs/ exist; pages are read from content/ "
        '(set content = "docs" in pyproject.toml to build docs/ instead)'
    ) in run.err_lines


def test_set_folders_say_where_they_were_set(tmp_path: Path) -> None:
    root = write(
        tmp_path / "p",
        {
            "notes/index.md": "# N\n",
            "src/app.py": "x = 1\n",
            "pyproject.toml": '[tool.sitegen]\ncontent = "notes"\nsource = ["src"]\n',
        },
    )
    run = sitegen("build", root=root)
    assert run.code == 0, run.err
    assert (
        "sitegen: pages from notes/ (content set in pyproject.toml); source files from "
        "src/ (source set in pyproject.toml)"
    ) in run.err_lines


def test_an_empty_project_is_a_warning_saying_what_was_looked_for(tmp_path: Path) -> None:
    root = write(tmp_path / "empty", {})
    run = sitegen("build", root=root)
    assert run.code == 0
    assert (
        ".:1:1: warning: nothing to build: looked for markdown pages in content/ or docs/ "
        "and for source files in the project root, and found none; set content and "
        "source in sitegen.toml"
    ) in run.err_lines
    assert (
        "sitegen: no pages (neither content/ nor docs/ exists); " + DEFAULT_SOURCES
    ) in run.err_lines
    assert sitegen("build", "--strict", root=root).code == 1


def test_a_configured_folder_that_does_not_exist_is_exit_2(tmp_path: Path) -> None:
    root = write(tmp_path / "p", {"sitegen.toml": 'source = ["scr"]\n', "src/a.py": "x = 1\n"})
    run = sitegen("build", root=root)
    assert run.code == 2
    assert run.err_lines == [
        (
            f"error: {root / 'sitegen.toml'}: source = 'scr' is not a folder of "
            "the project; create it or fix the setting"
        )
    ]


def test_quiet_prints_neither_line(tmp_path: Path) -> None:
    root = write(tmp_path / "p", {"docs/index.md": "# Docs\n"})
    run = sitegen("build", "--quiet", root=root)
    assert run.code == 0
    assert not [line for line in run.err_lines if line.startswith("sitegen:")]
