"""The page chrome on a phone and on a desktop, in headless Chromium (issue 30, point 7;
content/guides/site.md#the-header): at 390 px the header is one row (the menu button, the
site's title and search), the rest of it (links, languages, the theme button) behind the
menu button; at 1280 px one row with everything shown. A site with many sections and
languages and a long title, from file://."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import require_chromium
from tests.e2e.conftest import run_cli, write_project

require_chromium()

#: One row of the header: its text line and padding, well under two rows.
ONE_ROW = 64
LANGUAGES = ["de", "es", "fr", "ja", "pt-BR", "zh"]
SECTIONS = ["getting-started", "guides", "reference", "plugins", "setup", "blog", "about"]
PAGES: dict[str, str | bytes] = {
    "sitegen.toml": 'title = "Material for MkDocs and its many friends"\n'
    f"locales = {LANGUAGES!r}\n".replace("'", '"'),
    "docs/index.md": "# Home\n\nWelcome.\n",
    **{f"docs/{s}/index.md": f"# {s.title()}\n\nText.\n" for s in SECTIONS},
    **{f"docs/{s}/page-{i}.md": f"# {s} {i}\n\nText.\n" for s in SECTIONS for i in range(3)},
    **{f"docs/{lang}/index.md": f"# Home {lang}\n" for lang in LANGUAGES},
}


def _site(root: Path, options: str = "") -> Path:
    pages = {**PAGES, "sitegen.toml": str(PAGES["sitegen.toml"]) + options}
    project = write_project(root, pages)
    proc = run_cli("build", "--root", str(project), "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    return project / "site"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _site(tmp_path_factory.mktemp("phone") / "proj")


def _open(browser: Any, url: str, width: int) -> Any:
    page = browser.new_page(viewport={"width": width, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector(".site-search:not([hidden])")  # search.js ran
    assert not errors
    return page


def _height(page: Any, selector: str) -> float:
    return float(page.eval_on_selector(selector, "e => e.getBoundingClientRect().height"))


def _visible(page: Any, selector: str) -> bool:
    return bool(page.is_visible(selector))


def test_the_header_is_one_row_on_a_phone(browser: Any, site: Path) -> None:
    page = _open(browser, (site / "index.html").as_uri(), 390)
    assert _height(page, ".site-header") <= ONE_ROW
    for shown in (".menu-button", ".site-title", "#search-input"):
        assert _visible(page, shown), shown
    for behind in ("nav.languages", ".theme-toggle", ".site-links"):
        assert not _visible(page, behind), behind
    # nothing of the header sticks out of the screen
    right = page.eval_on_selector(".site-header", "e => e.scrollWidth")
    assert right <= 390
    # the menu button shows the rest of the header and the page tree
    page.click(".menu-button")
    for shown in ("nav.languages", ".theme-toggle", ".site-links", "#sidebar"):
        assert _visible(page, shown), shown
    page.click("nav.languages summary")  # more than three languages: a menu
    page.click('nav.languages a[hreflang="fr"]')
    page.wait_for_load_state()
    assert page.get_attribute("html", "lang") == "fr"


def test_the_menu_is_reachable_by_keyboard_on_a_phone(browser: Any, site: Path) -> None:
    page = _open(browser, (site / "index.html").as_uri(), 390)
    page.focus("#menu-toggle")
    page.keyboard.press("Space")
    assert _visible(page, "nav.languages")


def test_the_header_is_one_row_on_a_desktop(browser: Any, site: Path) -> None:
    page = _open(browser, (site / "index.html").as_uri(), 1280)
    assert _height(page, ".site-header") <= ONE_ROW
    for shown in (".site-title", "#search-input", "nav.languages", ".theme-toggle", ".site-links"):
        assert _visible(page, shown), shown
    assert not _visible(page, ".menu-button")


def test_report_links_are_a_maintainers_option(browser: Any, tmp_path: Path) -> None:
    public = _site(tmp_path / "public")
    page = _open(browser, (public / "guides/page-1.html").as_uri(), 1280)
    assert page.locator('.site-header a[href$="broken-links.html"]').count() == 0
    maintainer = _site(tmp_path / "maintainer", "header_reports = true\n")
    page = _open(browser, (maintainer / "guides/page-1.html").as_uri(), 390)
    assert _height(page, ".site-header") <= ONE_ROW  # behind the menu on a phone too
    page.click(".menu-button")
    assert page.is_visible('.site-header a[href$="broken-links.html"]')
