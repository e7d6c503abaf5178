"""One record per broken link: the build's warning, the check's finding, the broken-links page
and the summary count all say the same thing about the same link."""

from __future__ import annotations

import html
from pathlib import Path

from tests.cli.conftest import sitegen, write

PROJECT = {
    "content/index.md": "# Home\n\n[[Page]] and [x](nope.md) and [y](a/page.md#nowhere)\n",
    "content/a/page.md": "# Page\n",
    "content/b/page.md": "# Page\n",
}
GONE = "link target 'nope.md' does not exist (looked for 'content/nope.md')."
AMBIGUOUS = "wikilink '[[Page]]' matches 2 files (content/a/page.md, content/b/page.md)"


def test_every_surface_shows_the_same_broken_links(tmp_path: Path) -> None:
    root = write(tmp_path / "p", PROJECT)
    built = sitegen("build", root=root)
    assert f"content/index.md:3:14: warning: {GONE}" in built.err_lines
    assert any(
        line.startswith(f"content/index.md:3:1: warning: {AMBIGUOUS}") for line in built.err_lines
    )
    assert "2 broken links" in built.err  # the anchor is not counted as a broken link
    page = html.unescape((root / "site" / "broken-links.html").read_text(encoding="utf-8"))
    for check in ("broken-link", "broken-anchor", "ambiguous-wikilink"):
        assert f"<td>{check}</td>" in page
    assert GONE in page and AMBIGUOUS in page


def test_check_reports_the_records_its_checks_own_and_does_not_crash_on_the_others(
    tmp_path: Path,
) -> None:
    root = write(tmp_path / "p", PROJECT)
    run = sitegen("check", root=root)
    assert run.code == 1, run.err
    assert f"content/index.md:3:14: error: {GONE} [broken-links]" in run.out.splitlines()
    assert "[broken-anchors]" in run.out
    assert "wikilink" not in run.out and "internal error" not in run.err
