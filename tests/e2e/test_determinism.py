"""Same input, same bytes, whatever the workers or hash seed (ARCHITECTURE.md#invariants); and this
repository's own documentation builds with zero warnings."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.e2e.conftest import PAGES, write_project

REPO = Path(__file__).resolve().parents[2]


def _build(root: Path, jobs: str, seed: str) -> dict[str, bytes]:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "sitegen.commands.cli",
            "build",
            "--root",
            str(root),
            "--jobs",
            jobs,
            "--clean",
            "--quiet",
        ],
        env=env,
        check=False,  # the assert below shows stderr
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    site = root / "site"
    return {
        p.relative_to(site).as_posix(): p.read_bytes()
        for p in sorted(site.rglob("*"))
        if p.is_file()
    }


def test_output_is_identical_for_every_jobs_and_hash_seed(tmp_path: Path) -> None:
    pages = dict(PAGES)
    # enough pages that the worker pools are really used
    for i in range(80):
        pages[f"content/many/p{i}.md"] = (
            f"# Page {i}\n\n[next](p{(i + 1) % 80}.md) [home](../index.md#home)\n"
        )
    root = write_project(tmp_path / "proj", pages)
    one = _build(root, "1", "1")
    two = _build(root, "2", "2")
    assert one.keys() == two.keys()
    assert [k for k in one if one[k] != two[k]] == []


def test_this_repository_builds_with_zero_warnings(tmp_path: Path) -> None:
    copy = tmp_path / "repo"
    shutil.copytree(
        REPO,
        copy,
        ignore=shutil.ignore_patterns(
            ".git",
            "site",
            ".sitegen",
            ".venv",
            "venv",
            "__pycache__",
            "*.egg-info",
            "tests",
            "bench",
        ),
    )
    proc = subprocess.run(
        [sys.executable, "-m", "sitegen.commands.cli", "build", "--root", str(copy), "--strict"],
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert " 0 broken links, 0 warnings" in proc.stderr
    assert (copy / "site/code/sitegen/graph/model.py.html").is_file()
