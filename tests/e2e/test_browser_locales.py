"""Locales and home pages in headless Chromium, from file:// (content/guides/locales.md,
content/guides/navigation.md#home-pages): the language switcher leads to the same page in
the other language, search finds the reader's language only, and a ``layout: home`` page
shows its hero and features with working links."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import require_chromium
from tests.e2e.conftest import run_cli, write_project

require_chromium()

PAGES: dict[str, str | bytes] = {
    "sitegen.toml": 'title = "Airships"\nlocales = ["es"]\n',
    "docs/index.md": "---\nlayout: home\nhero:\n  name: Airships\n  tagline: Lighter than air\n"
    "  actions:\n    - theme: brand\n      text: Read the guide\n      link: /guide/zeppelin\n"
    "features:\n  - title: Hangars\n    details: Where <b>they</b> rest.\n"
    "    link: ./guide/zeppelin\n---\n",
    "docs/guide/zeppelin.md": "# Zeppelin\n\nThe zeppelinhangar holds rigid airships.\n",
    "docs/es/index.md": "# Dirigibles\n\nInicio.\n",
    "docs/es/guide/zeppelin.md": "# Zepelín\n\nEl zeppelinhangar guarda dirigibles rígidos.\n",
}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = write_project(tmp_path_factory.mktemp("loc") / "proj", PAGES)
    proc = run_cli("build", "--root", str(project), "--jobs", "1", "--strict")
    assert proc.returncode == 0, proc.stderr
    return project / "site"


def _open(browser: Any, path: Path) -> tuple[Any, list[str]]:
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    return page, errors


def test_the_language_switcher_leads_to_the_same_page(browser: Any, site: Path) -> None:
    page, errors = _open(browser, site / "guide/zeppelin.html")
    assert page.get_attribute("html", "lang") == "en"
    page.click('nav.languages a[hreflang="es"]')
    page.wait_for_load_state()
    assert page.url.endswith("/es/guide/zeppelin.html")
    assert page.get_attribute("html", "lang") == "es"
    assert page.inner_text("nav.languages [aria-current]") == "Español"
    assert not errors


def test_search_finds_the_readers_language_only(browser: Any, site: Path) -> None:
    for start, expected in (
        ("guide/zeppelin.html", "guide/zeppelin.html"),
        ("es/guide/zeppelin.html", "es/guide/zeppelin.html"),
    ):
        page, errors = _open(browser, site / start)
        page.fill("#search-input", "zeppelinhangar")
        page.wait_for_selector('#search-results[data-query="zeppelinhangar"]', state="attached")
        hrefs = page.eval_on_selector_all(
            ".search-results a", "els => els.map(e => e.getAttribute('href'))"
        )
        depth = start.count("/")
        assert [h.split("#")[0] for h in hrefs] == ["../" * depth + expected], start
        assert not errors


def test_the_home_page_shows_its_hero_and_features(browser: Any, site: Path) -> None:
    page, errors = _open(browser, site / "index.html")
    assert page.inner_text("h1") == "Airships"
    assert page.inner_text(".home-tagline") == "Lighter than air"
    assert page.inner_text(".home-features p") == "Where <b>they</b> rest."
    page.click("a.home-action.brand")
    page.wait_for_load_state()
    assert page.url.endswith("/guide/zeppelin.html")
    assert not errors
