"""Issue 8, point 1: sitegen deletes or replaces only what it wrote (content/guides/safety.md).

Every refused output exits 2 with one sentence saying what to do, before anything is
written; every file that existed before is byte-identical afterwards, whatever the output.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.safety.conftest import make_project, sitegen, snapshot

pytestmark = pytest.mark.slow  # whole builds, in subprocesses (the fast loop skips them)

#: --out values a user (or a typo) may give, and whether sitegen may build there.
OUTPUTS = {
    "site": True,  # the default: a fresh folder
    "empty": True,  # an existing empty folder
    ".": False,  # the project root
    "..": False,  # the folder above it
    "content": False,  # the pages
    "content/built": False,  # inside the pages
    "src": False,  # a source root
    "src/out": False,
    ".git": False,
    ".sitegen": False,  # the cache
    "public": False,  # a folder of the user's files (CNAME)
    "out.txt": False,  # a file
    "link-to-public": False,  # a symlink to the user's folder
    "link-to-content": False,  # a symlink into the pages
    "link-to-empty": True,  # a symlink to an empty folder: its target is written
}


def _prepare(base: Path) -> Path:
    root = make_project(base)
    os.symlink("public", root / "link-to-public")
    os.symlink("content", root / "link-to-content")
    os.symlink("empty", root / "link-to-empty")
    return root


@pytest.mark.parametrize("out", sorted(OUTPUTS))
def test_refused_outputs_exit_2_with_one_sentence_and_touch_nothing(
    tmp_path: Path, out: str
) -> None:
    root = _prepare(tmp_path)
    before = snapshot(tmp_path)
    proc = sitegen(root, "build", "--out", out, "--jobs", "1")
    assert "Traceback" not in proc.stderr
    if OUTPUTS[out]:
        assert proc.returncode == 0, proc.stderr
        return
    assert proc.returncode == 2, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    # Nothing was written at all: not the site, not even the cache.
    assert snapshot(tmp_path) == before


def test_a_folder_of_the_users_files_is_named_in_the_refusal(tmp_path: Path) -> None:
    root = make_project(tmp_path, {"content/index.md": "# Home\n", "site/content/hugo.md": "x\n"})
    proc = sitegen(root, "build")
    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        "error: site/ holds files sitegen did not write, e.g. "
        "site/content/hugo.md: remove them or choose another --out"
    )
    assert (root / "site/content/hugo.md").read_text() == "x\n"


def test_a_users_file_added_to_a_built_site_is_not_deleted(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    assert sitegen(root, "build", "--jobs", "1").returncode == 0
    (root / "site/CNAME").write_text("docs.example.org\n")
    proc = sitegen(root, "build", "--jobs", "1", "--clean")
    assert proc.returncode == 2
    assert "site/CNAME" in proc.stderr
    assert (root / "site/CNAME").read_text() == "docs.example.org\n"


def test_the_site_sitegen_wrote_is_replaced_and_rebuilt(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    assert sitegen(root, "build", "--jobs", "1").returncode == 0
    (root / "content/new.md").write_text("# New\n")
    proc = sitegen(root, "build", "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    assert (root / "site/new.html").is_file()


def test_a_symlinked_output_keeps_its_link_and_its_target_is_replaced(tmp_path: Path) -> None:
    root = _prepare(tmp_path)
    for _ in range(2):  # the second build replaces the first one's site through the link
        proc = sitegen(root, "build", "--out", "link-to-empty", "--jobs", "1")
        assert proc.returncode == 0, proc.stderr
    assert (root / "link-to-empty").is_symlink()
    assert os.readlink(root / "link-to-empty") == "empty"
    assert (root / "empty/index.html").is_file()


def test_stale_folders_are_found_by_exact_name_and_marker_only(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    # Hidden folders of the user's whose names a glob ".site.tmp-*" would have matched.
    (root / ".site.tmp-notes").mkdir()
    (root / ".site.tmp-notes/todo.txt").write_text("mine\n")
    (root / ".site.old-123").mkdir()
    (root / ".site.old-123/keep.txt").write_text("no marker: not sitegen's\n")
    # A killed build's folder: sitegen's exact name and its marker.
    (root / ".site.tmp-99999").mkdir()
    (root / ".site.tmp-99999/.sitegen-output").write_text('{"generator": "sitegen"}\n')
    assert sitegen(root, "build", "--jobs", "1").returncode == 0
    assert (root / ".site.tmp-notes/todo.txt").read_text() == "mine\n"
    assert (root / ".site.old-123/keep.txt").is_file()
    assert not (root / ".site.tmp-99999").exists()


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(out=st.sampled_from(sorted(OUTPUTS)), second=st.sampled_from(sorted(OUTPUTS)))
def test_every_file_that_existed_is_byte_identical_whatever_the_output(
    out: str, second: str
) -> None:
    """Property: for any --out (twice in a row, the second maybe another), the user's files,
    the repository and the files beside the project keep their bytes, whatever the exit code."""
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        root = _prepare(base)
        # sitegen's own folders (its cache, and the output it may legitimately write) aside,
        # everything must survive.
        before = snapshot(base, skip=("project/.sitegen/", "project/site/", "project/empty/"))
        for value in (out, second):
            proc = sitegen(root, "build", "--out", value, "--jobs", "1", "--quiet")
            assert "Traceback" not in proc.stderr
            assert proc.returncode == (0 if OUTPUTS[value] else 2), (value, proc.stderr)
        after = snapshot(base, skip=("project/.sitegen/", "project/site/", "project/empty/"))
        assert {k: v for k, v in after.items() if k in before} == before
        assert set(before) <= set(after)
