"""Counts agree with their nouns and verbs everywhere, through one helper (sitegen/base/plural.py),
and the CLI's summaries read right for one thing: "1 broken link", "1 finding"."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from sitegen.base.plural import agrees, counted, plural_of


@pytest.mark.parametrize(
    "noun,plural",
    [
        ("link", "links"),
        ("broken link", "broken links"),
        ("baseline entry", "baseline entries"),
        ("day", "days"),
        ("match", "matches"),
        ("box", "boxes"),
        ("finding", "findings"),
        ("dependency edge", "dependency edges"),
        ("class", "classes"),
    ],
)
def test_plural_of_regular_nouns(noun: str, plural: str) -> None:
    assert plural_of(noun) == plural


def test_counted_and_agrees() -> None:
    assert [counted(n, "broken link") for n in (0, 1, 2)] == [
        "0 broken links",
        "1 broken link",
        "2 broken links",
    ]
    assert counted(1, "baseline entry") == "1 baseline entry"
    assert counted(3, "baseline entry") == "3 baseline entries"
    assert counted(2, "person", "people") == "2 people"
    assert agrees(1, "occurs", "occur") == "occurs"
    assert agrees(2, "occurs", "occur") == "occur"


def _sitegen(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sitegen.commands.cli", *args, "--root", str(root), "--jobs", "1"],
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _one_of_each(root: Path) -> Path:
    (root / "content").mkdir(parents=True)
    (root / "content/index.md").write_text("# Home\n\nSee [gone](gone.md).\n")
    return root


def test_build_summary_says_one_page_one_link_one_broken_link(tmp_path: Path) -> None:
    root = _one_of_each(tmp_path / "p")
    proc = _sitegen(root, "build")
    assert proc.returncode == 0, proc.stderr
    summary = [line for line in proc.stderr.splitlines() if line.startswith("sitegen: 1 page")]
    assert len(summary) == 1, proc.stderr
    assert summary[0].startswith(
        "sitegen: 1 page, 0 source files, 1 link, 1 broken link, 1 warning in "
    )


def test_check_writes_one_finding_and_one_stale_baseline_entry(tmp_path: Path) -> None:
    root = _one_of_each(tmp_path / "p")
    proc = _sitegen(root, "check", "--write-baseline")
    assert proc.returncode == 0, proc.stderr
    assert (
        proc.stderr.splitlines()[-1]
        == f"sitegen: wrote 1 finding to {root / '.sitegen-baseline.json'}"
    )
    (root / "content/index.md").write_text("# Home\n\nNo links now.\n")
    proc = _sitegen(root, "check")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines()[-1].endswith(
        " 1 baseline entry no longer occurs; rewrite the baseline."
    )


def test_published_pages_count_in_words(tmp_path: Path) -> None:
    """The templates count through the same helper (the ``counted`` filter)."""
    root = tmp_path / "p"
    (root / "content").mkdir(parents=True)
    (root / "content/index.md").write_text("# Home\n")
    (root / "src").mkdir()
    (root / "src/one.py").write_text("def f(): return 1")
    (root / "sitegen.toml").write_text('source = ["src"]\n')
    assert _sitegen(root, "build").returncode == 0
    source = (root / "site/code/src/one.py.html").read_text()
    assert "<span>1 line</span>" in source and ">1 symbol</a>" in source
    assert "1 source file analysed." in (root / "site/code/index.html").read_text()
    graph = (root / "site/graph.html").read_text()
    assert "2 nodes and 0 links." in graph
