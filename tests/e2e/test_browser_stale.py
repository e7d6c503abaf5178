"""The stale-page notice in headless Chromium (issue 23): a page whose documented code changed
after it says so above its body, links to the symbol's source line and to the report; a page
whose code did not change shows no notice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.analyse.stalerepo import make_repo
from tests.e2e.browser import require_chromium
from tests.e2e.conftest import run_cli

require_chromium()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    root = tmp_path_factory.mktemp("stale-site") / "proj"
    hashes = make_repo(root)
    proc = run_cli("build", "--root", str(root), "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    return root / "site", hashes


def test_the_stale_page_shows_the_notice_with_what_changed(
    browser: Any, site: tuple[Path, dict[str, str]]
) -> None:
    out, hashes = site
    page = browser.new_page()
    page.goto((out / "parser.html").as_uri())
    notice = page.get_by_test_id("stale-notice")
    assert notice.is_visible()
    text = notice.inner_text()
    assert "The code this page documents changed after it" in text
    assert "a.py:Parser.feed" in text
    assert f'1 commit, latest 2024-01-03 {hashes["feed"][:10]} "feed lowers"' in text
    assert f"since the page's last change (2024-01-01 {hashes['start'][:10]})" in text
    notice.get_by_role("link", name="a.py:Parser.feed").click()
    page.wait_for_url("**/code/a.py.html#L8")  # feed's first line
    page.goto((out / "parser.html").as_uri())
    page.get_by_test_id("stale-notice").get_by_role("link", name="All stale pages").click()
    page.wait_for_url("**/stale-docs.html")
    pages = page.locator("table").first.locator("tbody tr")
    assert pages.count() == 4  # parser, rename, snippet, whole: one row each
    assert "1 commit, latest 2024-01-03" in pages.first.inner_text()
    assert "feed lowers" in pages.first.inner_text()
    whole = pages.nth(3).inner_text()  # b.py changed twice after whole.md: the newest first
    assert "2 commits, latest 2024-01-05" in whole and "third grows" in whole
    places = page.locator("section.report-table table tbody tr")
    assert places.count() == 4
    places.first.get_by_role("link", name="a.py:Parser.feed").click()
    page.wait_for_url("**/code/a.py.html#L8")


def test_a_page_whose_code_did_not_change_has_no_notice(
    browser: Any, site: tuple[Path, dict[str, str]]
) -> None:
    out, _ = site
    page = browser.new_page()
    page.goto((out / "calm.html").as_uri())
    assert page.get_by_test_id("stale-notice").count() == 0
