"""Stale pages (issue 23): what each page documents, and which pages the history makes stale,
on a project whose git history the test writes itself (tests/analyse/stalerepo.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sitegen.analyse.githistory import Hunk, map_back, parse_history
from sitegen.analyse.stale import StaleReport, stale_findings
from sitegen.base.diagnostics import Level
from sitegen.build import BuildOptions, BuildResult, build
from sitegen.config import load_config
from sitegen.records.stale import DocRef
from tests.analyse.stalerepo import git, make_repo

pytestmark = pytest.mark.slow  # whole builds


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    root = tmp_path_factory.mktemp("stale") / "proj"
    return root, make_repo(root)


def checked(root: Path) -> BuildResult:
    return build(load_config(root), BuildOptions(write_site=False, quiet=True, jobs=1))


def report_of(root: Path) -> StaleReport:
    report = checked(root).stale
    assert isinstance(report, StaleReport)
    return report


def subjects(report: StaleReport, page: str) -> list[str]:
    found = report.of(page)
    return [c.subject for c in found.commits] if found else []


def test_what_each_page_documents_with_kind_and_place(repo: tuple[Path, dict[str, str]]) -> None:
    report = report_of(repo[0])
    assert report.documented["content/parser.md"] == [
        # feed is lines 8-9 of a.py after helper grew to 4 lines
        DocRef("content/parser.md", 3, 10, "autoref", "a.py", "Parser.feed", 8, 9)
    ]
    assert report.documented["content/calm.md"] == [
        DocRef("content/calm.md", 5, 1, "directive", "a.py", "Parser.close", 11, 12)
    ]
    assert report.documented["content/snippet.md"] == [
        DocRef("content/snippet.md", 5, 1, "snippet range", "b.py", "", 2, 3)
    ]
    assert report.documented["content/whole.md"] == [
        DocRef("content/whole.md", 3, 8, "link", "b.py")
    ]
    assert "content/index.md" not in report.documented  # it documents no code


def test_a_symbol_is_stale_only_when_a_commit_touched_its_lines(
    repo: tuple[Path, dict[str, str]],
) -> None:
    report = report_of(repo[0])
    # "helper adds up" changed a.py and moved feed down, but never touched feed's lines
    assert subjects(report, "content/parser.md") == ["feed lowers"]
    assert report.of("content/calm.md") is None  # close: no commit after the page touched it


def test_a_snippet_range_is_stale_only_by_its_lines_a_whole_file_by_any_change(
    repo: tuple[Path, dict[str, str]],
) -> None:
    report = report_of(repo[0])
    assert subjects(report, "content/snippet.md") == ["third grows"]
    assert subjects(report, "content/whole.md") == ["third grows", "fifth grows"]


def test_a_rename_follows_the_file(repo: tuple[Path, dict[str, str]]) -> None:
    report = report_of(repo[0])
    stale = report.of("content/rename.md")
    assert stale is not None
    # "go went" changed old.py; the pure rename to new.py is no change of its own
    assert [c.subject for c in stale.commits] == ["go went"]
    assert stale.refs[0].ref.target() == "new.py:go"


def test_commits_are_named_by_hash_and_date(repo: tuple[Path, dict[str, str]]) -> None:
    root, hashes = repo
    stale = report_of(root).of("content/parser.md")
    assert stale is not None
    assert stale.commits[0].hash == hashes["feed"]
    assert stale.commits[0].date == "2024-01-03"
    assert stale.last_change.hash == hashes["start"]
    finding = stale_findings(report_of(root))[0]
    assert finding.check == "stale-doc"
    assert (finding.path, finding.line, finding.col) == ("content/parser.md", 3, 10)
    assert hashes["feed"][:10] in finding.message and "2024-01-03" in finding.message
    assert "ago" not in finding.message


def test_not_stale_before_the_commit_that_changes_feed(
    repo: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    root, hashes = repo
    copy = tmp_path / "proj"
    shutil.copytree(root, copy)
    git(copy, "checkout", "-q", hashes["helper"])
    assert report_of(copy).of("content/parser.md") is None


def test_a_page_changed_after_the_code_is_not_stale(
    repo: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    copy = tmp_path / "proj"
    shutil.copytree(repo[0], copy)
    page = copy / "content/parser.md"
    page.write_text(page.read_text() + "\nIt lowers the text now.\n")
    git(copy, "commit", "-q", "-am", "parser page follows", day=9)
    assert report_of(copy).of("content/parser.md") is None
    assert report_of(copy).of("content/snippet.md") is not None


def test_outside_a_git_checkout_no_report_and_one_info_line(
    repo: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    copy = tmp_path / "proj"
    shutil.copytree(repo[0], copy, ignore=shutil.ignore_patterns(".git"))
    result = checked(copy)
    assert result.stale.pages == [] and result.stale.reason
    lines = [d for d in result.diagnostics if d.code == "stale-doc"]
    assert len(lines) == 1 and lines[0].level == Level.INFO
    assert "not the top of a git checkout" in lines[0].message


def test_a_symbol_or_line_that_no_longer_exists_is_not_stale(
    repo: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    copy = tmp_path / "proj"
    shutil.copytree(repo[0], copy)
    (copy / "content/lines.md").write_text("# Lines\n\nClosing is [here](../a.py#L12).\n")
    git(copy, "add", "-A", day=8)
    git(copy, "commit", "-q", "-m", "a page of lines", day=8)
    a = copy / "a.py"
    # feed is renamed and close goes: a.py ends at line 9 now
    text = a.read_text().replace("def feed(self, data)", "def eat(self, data)")
    a.write_text(text[: text.index("\n    def close")] + "\n")
    git(copy, "commit", "-q", "-am", "feed is eaten, close is gone", day=9)
    result = checked(copy)
    # the line past the end is a broken anchor (the existing check), not a stale page
    assert [(b.path, b.check) for b in result.linked.broken] == [
        ("content/lines.md", "broken-anchor")
    ]
    assert result.stale.of("content/lines.md") is None
    # a.Parser.feed names no symbol now: the page documents no symbol, so nothing is stale
    assert result.stale.of("content/parser.md") is None
    assert "content/parser.md" not in result.stale.documented


# --- the git readers, on literal git output ------------------------------------------------


def test_history_follows_renames_and_a_pure_rename_is_no_change() -> None:
    log = (
        b"\0c3\x002024-01-03\0move\n\nR100\told.py\tnew.py\n"
        b"\0c2\x002024-01-02\0edit\n\nM\told.py\n"
        b"\0c1\x002024-01-01\0start\n\nA\told.py\nA\tpage.md\n"
    )
    history = parse_history(log)
    assert [c.hash for c in history.commits] == ["c3", "c2", "c1"]
    assert history.changes["new.py"] == [1, 2]
    assert history.old_names("new.py") == {"old.py", "new.py"}
    assert history.changes_after("new.py", 2) == [1]


def test_hunks_touch_a_range_only_on_its_lines() -> None:
    inside = Hunk(5, 1, 5, 1)
    before = Hunk(1, 0, 1, 2)  # two lines inserted after line 1
    deleted_inside = Hunk(7, 2, 6, 0)  # lines deleted between new lines 6 and 7
    assert inside.touches(4, 6) and not inside.touches(6, 9)
    assert not before.touches(4, 6)
    assert deleted_inside.touches(5, 8) and not deleted_inside.touches(1, 6)
    # lines 4-6 after the insertion were lines 2-4 before it
    assert map_back(4, 6, [before]) == (2, 4)
    # a range the hunk inserted whole did not exist before it
    start, end = map_back(2, 3, [before])
    assert start > end


def test_a_symbol_linked_twice_is_one_finding_at_its_first_place() -> None:
    from sitegen.records.stale import Commit, StalePage, StaleRef

    commit = Commit("f" * 40, "2024-01-03", "feed lowers")
    start = Commit("s" * 40, "2024-01-01", "start")
    first = DocRef("content/p.md", 3, 10, "autoref", "a.py", "Parser.feed", 8, 9)
    again = DocRef("content/p.md", 7, 1, "autoref", "a.py", "Parser.feed", 8, 9)
    page = StalePage(
        "content/p.md", start, (StaleRef(first, (commit,)), StaleRef(again, (commit,))), (commit,)
    )
    findings = stale_findings(StaleReport(pages=[page]))
    assert [(f.path, f.line, f.col) for f in findings] == [("content/p.md", 3, 10)]


def test_uncommitted_edits_are_carried_back_to_the_committed_lines(
    repo: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    copy = tmp_path / "proj"
    shutil.copytree(repo[0], copy)
    a = copy / "a.py"
    a.write_text("import os\nimport sys\nimport re\n" + a.read_text())  # not committed
    report = report_of(copy)
    # feed is lines 11-12 of the work tree, lines 8-9 of HEAD: still stale by its own commit;
    # close (14-15 now, 11-12 in HEAD) is still untouched
    assert report.documented["content/parser.md"][0].start == 11
    assert subjects(report, "content/parser.md") == ["feed lowers"]
    assert report.of("content/calm.md") is None


def test_the_repository_configuration_runs_nothing(
    repo: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    copy = tmp_path / "proj"
    shutil.copytree(repo[0], copy)
    marker = tmp_path / "ran"
    script = tmp_path / "hook.sh"
    script.write_text(f"#!/bin/sh\ntouch {marker}\nexit 1\n")
    script.chmod(0o755)
    for key in ("core.fsmonitor", "diff.external", "core.pager"):
        git(copy, "config", key, str(script))
    git(copy, "config", "diff.python.textconv", str(script))
    (copy / ".gitattributes").write_text("*.py diff=python\n")
    report = report_of(copy)
    assert subjects(report, "content/parser.md") == ["feed lowers"]
    assert not marker.exists()


def test_a_long_commit_subject_is_cut_at_a_word_in_reports() -> None:
    from sitegen.analyse.stale import SUBJECT_LIMIT, short_subject

    assert short_subject("Fix feed") == "Fix feed"
    exact = "x" * SUBJECT_LIMIT
    assert short_subject(exact) == exact
    long = "Anchors as the docs' own generator makes them (issue 20, point 8): a slugs option, " * 3
    cut = short_subject(long)
    assert cut.endswith("…") and len(cut) <= SUBJECT_LIMIT
    assert long.startswith(cut[:-1]) and long[len(cut) - 1] in " ,"  # cut at a word's end
    unbroken = "y" * (SUBJECT_LIMIT * 2)
    assert short_subject(unbroken) == "y" * (SUBJECT_LIMIT - 1) + "…"
