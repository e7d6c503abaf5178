"""Change impact (issue 23, point 3): ``sitegen impact --since REV`` and ``sitegen check
--changed-since REV`` on the history of tests/analyse/stalerepo.py plus one commit in which
``c.py`` imports ``a.py`` and uses.md documents ``c.py``; the work tree then changes
``Parser.feed`` and ``Parser.close`` of ``a.py``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.analyse.stalerepo import git, make_repo, write
from tests.e2e.conftest import run_cli

pytestmark = pytest.mark.slow  # whole builds in a subprocess

C = "from a import Parser\n\n\ndef use():\n    return Parser()\n"
USES = "# Uses\n\nSee [c](../c.py).\n"
PRIVATE = "\n\ndef _hidden():\n    return 1\n"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The project with the importer committed; returns it and that commit's hash."""
    root = tmp_path_factory.mktemp("impact") / "proj"
    make_repo(root)
    write(root, {"c.py": C, "content/uses.md": USES})
    git(root, "add", "-A", day=8)
    git(root, "commit", "-q", "-m", "c uses a", day=8)
    return root, git(root, "rev-parse", "HEAD", day=8)


def changed_copy(base: tuple[Path, str], tmp_path: Path) -> Path:
    """A copy whose work tree changes feed (line 9) and close (line 12) of a.py."""
    root = tmp_path / "proj"
    shutil.copytree(base[0], root)
    a = root / "a.py"
    text = a.read_text().replace("return data.strip().lower()", "return data.lower()")
    a.write_text(text.replace("return None", "return 0"))
    return root


def test_impact_text_lists_direct_pages_with_reasons_then_indirect(
    base: tuple[Path, str], tmp_path: Path
) -> None:
    root = changed_copy(base, tmp_path)
    proc = run_cli("impact", "--root", str(root), "--since", "HEAD", "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        f"sitegen impact: since HEAD ({base[1][:10]}, 2024-01-08): 1 changed file; "
        "3 pages document what changed (2 direct, 1 indirect).",
        "content/calm.md",
        "  content/calm.md:5:1: directive to a.py:Parser.close: a.py changed at line 12",
        "content/parser.md",
        "  content/parser.md:3:10: autoref to a.py:Parser.feed: a.py changed at line 9",
        "content/uses.md [indirect]",
        "  content/uses.md:3:5: link to c.py: c.py imports a.py, which changed",
    ]
    # snippet.md and whole.md document b.py, which did not change; rename.md new.py
    for page in ("snippet.md", "whole.md", "rename.md", "index.md"):
        assert page not in proc.stdout


def test_impact_json_names_each_reason(base: tuple[Path, str], tmp_path: Path) -> None:
    root = changed_copy(base, tmp_path)
    proc = run_cli("impact", "--root", str(root), "--since", base[1], "--json", "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["since"] == {
        "rev": base[1],
        "hash": base[1],
        "date": "2024-01-08",
        "subject": "c uses a",
    }
    assert data["changed_files"] == ["a.py"]
    pages = {p["page"]: p for p in data["pages"]}
    assert [p["page"] for p in data["pages"]] == [
        "content/calm.md",
        "content/parser.md",
        "content/uses.md",
    ]
    feed = pages["content/parser.md"]["reasons"][0]
    assert pages["content/parser.md"]["impact"] == "direct"
    assert (feed["how"], feed["symbol"], feed["start"], feed["end"]) == (
        "autoref",
        "Parser.feed",
        8,
        9,
    )
    assert feed["changed_lines"] == [[9, 9]] and feed["via"] == ""
    uses = pages["content/uses.md"]
    assert uses["impact"] == "indirect" and uses["reasons"][0]["via"] == "a.py"


def test_impact_github_annotates_the_changed_lines(base: tuple[Path, str], tmp_path: Path) -> None:
    root = changed_copy(base, tmp_path)
    proc = run_cli("impact", "--root", str(root), "--since", "HEAD", "--format", "github")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert (
        "::warning file=a.py,line=9,col=1,title=stale-doc::content/parser.md documents "
        "a.py:Parser.feed (autoref, content/parser.md:3:10); check that the page still holds"
    ) in lines
    assert any(
        line.startswith("::warning file=a.py,line=12,") and "Parser.close" in line for line in lines
    )
    assert any(
        line.startswith("::notice file=a.py,") and "content/uses.md" in line for line in lines
    )


def test_check_changed_since_fails_on_a_documented_public_symbol(
    base: tuple[Path, str], tmp_path: Path
) -> None:
    root = changed_copy(base, tmp_path)
    proc = run_cli("check", "--root", str(root), "--changed-since", "HEAD", "--jobs", "1")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith(
        f"content/calm.md:5:1: error: a.py:Parser.close changed since {base[1][:10]} (2024-01-08)"
    )
    assert lines[1].startswith("content/parser.md:3:10: error: a.py:Parser.feed changed since")
    assert all("[stale-doc]" in line for line in lines[:2])
    assert lines[-1].startswith("sitegen check failed: 2 errors")
    # the history's stale-doc findings (snippet.md, whole.md, rename.md) give way to the change's
    assert "snippet.md" not in proc.stdout


def test_check_changed_since_json_and_github(base: tuple[Path, str], tmp_path: Path) -> None:
    root = changed_copy(base, tmp_path)
    proc = run_cli("check", "--root", str(root), "--changed-since", "HEAD", "--format", "json")
    assert proc.returncode == 1
    data = json.loads(proc.stdout)
    stale = [f for f in data["findings"] if f["check"] == "stale-doc"]
    assert [(f["path"], f["line"], f["col"], f["level"]) for f in stale] == [
        ("content/calm.md", 5, 1, "error"),
        ("content/parser.md", 3, 10, "error"),
    ]
    assert stale[1]["key"] == "content/parser.md -> a.py:Parser.feed"
    proc = run_cli("check", "--root", str(root), "--changed-since", "HEAD", "--format", "github")
    assert proc.returncode == 1
    assert any(
        line.startswith("::error file=content/parser.md,line=3,col=10,title=stale-doc::")
        for line in proc.stdout.splitlines()
    )


def test_check_changed_since_passes_when_the_change_touches_the_page(
    base: tuple[Path, str], tmp_path: Path
) -> None:
    root = changed_copy(base, tmp_path)
    for page in ("parser.md", "calm.md"):
        path = root / "content" / page
        path.write_text(path.read_text() + "\nUpdated with the code.\n")
    proc = run_cli("check", "--root", str(root), "--changed-since", "HEAD")
    assert proc.returncode == 0, proc.stdout
    assert "[stale-doc]" not in proc.stdout


def test_check_changed_since_ignores_private_symbols_and_warn_does_not_fail(
    base: tuple[Path, str], tmp_path: Path
) -> None:
    root = tmp_path / "proj"
    shutil.copytree(base[0], root)
    (root / "a.py").write_text((root / "a.py").read_text() + PRIVATE)
    (root / "content/private.md").write_text("# Private\n\n[hidden][a._hidden]\n")
    git(root, "add", "-A", day=9)
    git(root, "commit", "-q", "-m", "hidden", day=9)
    (root / "a.py").write_text((root / "a.py").read_text().replace("return 1\n", "return 2\n"))
    proc = run_cli("check", "--root", str(root), "--changed-since", "HEAD")
    assert proc.returncode == 0, proc.stdout  # helper and _hidden changed: no page documents helper
    changed = changed_copy(base, tmp_path / "warn")
    (changed / "sitegen.toml").write_text('title = "Stale"\n[checks]\nstale-doc = "warn"\n')
    proc = run_cli("check", "--root", str(changed), "--changed-since", "HEAD")
    assert proc.returncode == 0
    assert "content/parser.md:3:10: warning: a.py:Parser.feed" in proc.stdout


def test_bad_revision_and_no_checkout_are_one_sentence_and_exit_2(
    base: tuple[Path, str], tmp_path: Path
) -> None:
    proc = run_cli("impact", "--root", str(base[0]), "--since", "no-such-rev")
    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        "error: --since no-such-rev: 'no-such-rev' names no commit of this repository"
    )
    plain = tmp_path / "plain"
    shutil.copytree(base[0], plain, ignore=shutil.ignore_patterns(".git"))
    proc = run_cli("check", "--root", str(plain), "--changed-since", "HEAD")
    assert proc.returncode == 2
    assert "needs a git checkout" in proc.stderr and "Traceback" not in proc.stderr
