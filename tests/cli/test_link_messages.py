"""Point 2 of issue 14, links: a broken anchor suggests the target page's closest heading id;
a link to a file that exists but is not analysed says so, never "does not exist"."""

from __future__ import annotations

from pathlib import Path

from tests.cli.conftest import sitegen, write

PROJECT = {
    "content/index.md": "# Home\n\n## First run\n\nSee [a](#frist-run) and [b](guide.md#instal).\n"
    "And [c](guide.md#zzzzzz) and [the code](../pkg/core.py).\n",
    "content/guide.md": "# Guide\n\n## Install\n\n## Configure\n",
    "pkg/core.py": "import os\n",
    "tools/once.py": "x = 1\n",
    "sitegen.toml": 'source = ["pkg"]\n',
}


def _build(root: Path, *args: str) -> list[str]:
    run = sitegen("build", *args, root=root)
    assert run.code == 0, run.err
    return run.err_lines


def test_broken_anchors_suggest_the_closest_heading_of_the_target(tmp_path: Path) -> None:
    lines = _build(write(tmp_path / "p", PROJECT))
    assert (
        "content/index.md:5:5: warning: link '#frist-run': no heading or line '#frist-run' "
        "in the target. Did you mean '#first-run'?"
    ) in lines
    assert (
        "content/index.md:5:25: warning: link 'guide.md#instal': no heading or line "
        "'#instal' in the target. Did you mean '#install'?"
    ) in lines
    # nothing close: no guess
    assert (
        "content/index.md:6:5: warning: link 'guide.md#zzzzzz': no heading or line "
        "'#zzzzzz' in the target"
    ) in lines


def test_check_prints_the_suggestion_too(tmp_path: Path) -> None:
    run = sitegen("check", root=write(tmp_path / "p", PROJECT))
    assert run.code == 1
    assert (
        "content/index.md:5:25: error: link 'guide.md#instal': no heading or line '#instal' "
        "in the target. Did you mean '#install'? [broken-anchors]"
    ) in run.out.splitlines()


def test_a_file_of_a_language_not_analysed_is_not_analysed(tmp_path: Path) -> None:
    lines = _build(write(tmp_path / "p", PROJECT), "--language", "rust")
    assert (
        "content/index.md:6:30: warning: link target '../pkg/core.py' is a python file, "
        "not analysed (--language rust)"
    ) in lines
    assert not [line for line in lines if "does not exist" in line]


def test_languages_set_in_the_file_are_named_as_set(tmp_path: Path) -> None:
    files = dict(PROJECT, **{"sitegen.toml": 'source = ["pkg"]\nlanguages = ["go"]\n'})
    lines = _build(write(tmp_path / "p", files))
    assert (
        "content/index.md:6:30: warning: link target '../pkg/core.py' is a python file, "
        'not analysed (languages = ["go"] in sitegen.toml)'
    ) in lines


def test_files_outside_the_source_roots_or_unpublished_say_why(tmp_path: Path) -> None:
    files = dict(PROJECT, **{"content/more.md": "[t](../tools/once.py) [s](../sitegen.toml)\n"})
    lines = _build(write(tmp_path / "p", files))
    assert (
        "content/more.md:1:1: warning: link target '../tools/once.py' is not under the source "
        "roots (pkg/), so it is not analysed"
    ) in lines
    assert (
        "content/more.md:1:23: warning: link target '../sitegen.toml' is not published: only "
        "pages and assets under content/ and source files are"
    ) in lines


def test_a_file_that_is_not_there_still_does_not_exist(tmp_path: Path) -> None:
    files = dict(PROJECT, **{"content/more.md": "[g](../pkg/gone.py)\n"})
    lines = _build(write(tmp_path / "p", files))
    assert (
        "content/more.md:1:1: warning: link target '../pkg/gone.py' does not exist "
        "(looked for 'pkg/gone.py')."
    ) in lines


def test_a_page_linked_as_a_folder_is_told_to_drop_the_slash(tmp_path: Path) -> None:
    files = dict(PROJECT, **{"content/more.md": "[g](guide.md/#install)\n"})
    lines = _build(write(tmp_path / "p", files))
    assert (
        "content/more.md:1:1: warning: link target 'guide.md/#install' is a file, not a folder: "
        "drop the trailing '/'"
    ) in lines
