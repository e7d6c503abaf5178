"""An API entry's "documented in" backlinks in Chromium (issue 28, point 3): the prose page
that autorefs the object is listed right after the entry's docstring, visible, with its
section and label, and its link opens that section of the prose page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import require_chromium
from tests.e2e.conftest import run_cli, write_project
from tests.site.test_api_backlinks import PROJECT

require_chromium()


@pytest.fixture(scope="module")
def api_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = write_project(tmp_path_factory.mktemp("api") / "proj", PROJECT)  # type: ignore[arg-type]
    proc = run_cli("build", "--root", str(project), "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    assert "0 broken links, 0 warnings" in proc.stderr, proc.stderr
    return project / "site" / "api.html"


def test_the_documented_in_backlinks_are_visible_on_the_entry(browser: Any, api_page: Path) -> None:
    page = browser.new_page(viewport={"width": 1100, "height": 800})
    page.goto(api_page.as_uri() + "#shapes.Square")
    section = page.locator('[data-testid="entry-backlinks"][data-entry="shapes.Square"]')
    section.scroll_into_view_if_needed()
    assert section.is_visible()
    group = section.locator('[data-group="documented-in"]')
    assert group.is_visible() and group.inner_text().startswith("Documented in")
    link = section.locator("a", has_text="Shapes").first
    assert link.is_visible()
    assert '("square", #step-1-draw, x2)' in section.inner_text()
    # after the entry's docstring, before the next entry's heading
    order = page.evaluate(
        """() => {
            const aside = document.querySelector('[data-entry="shapes.Square"]');
            const doc = [...document.querySelectorAll('p')].find(p => p.textContent === 'A square.');
            const next = document.getElementById('shapes.Square.area');
            const after = (a, b) => !!(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
            return [after(doc, aside), after(aside, next)];
        }"""
    )
    assert order == [True, True]
    link.click()
    page.wait_for_load_state()
    assert page.url.endswith("index.html#step-1-draw")
    assert page.locator("#step-1-draw").is_visible()
    page.close()
