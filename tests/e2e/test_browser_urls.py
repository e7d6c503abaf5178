"""Directory URLs in headless Chromium (content/guides/urls.md): from file:// and from `sitegen
serve`, a click on a page-tree link and on a body link lands on the page, a redirect page at
an old address lands on its target, and the 404 page opened from disk links into the site."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import require_chromium
from tests.e2e.conftest import run_cli, write_project
from tests.e2e.test_safety_serve import Served, serving

require_chromium()

PAGES: dict[str, str | bytes] = {
    "mkdocs.yml": "site_name: Ships\nplugins:\n  - redirects:\n      redirect_maps:\n"
    "        old-rigid.md: guides/rigid.md\n",
    "docs/index.md": "# Ships\n\nRead about [rigid airships](guides/rigid.md#frames).\n",
    "docs/guides/index.md": "# Guides\n\n- [Rigid](rigid.md)\n- [Blimps](blimp.md)\n",
    "docs/guides/rigid.md": "# Rigid airships\n\n## Frames\n\nAluminium rings. "
    "See [blimps](../blimp/).\n",
    "docs/guides/blimp.md": "---\naliases: [/ships/blimp/]\n---\n# Blimps\n\nNo frame.\n",
}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = write_project(tmp_path_factory.mktemp("urls") / "proj", PAGES)
    proc = run_cli("build", "--root", str(project), "--jobs", "1", "--strict")
    assert proc.returncode == 0, proc.stderr
    assert (project / "site/guides/rigid/index.html").is_file()
    return project / "site"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    with serving(write_project(tmp_path / "proj", PAGES)) as server:
        yield server


def _clicks(browser: Any, start: str) -> list[str]:
    """From the home page: the tree's "Guides" opened and its "Blimps" clicked, then, back
    home, a body link to a section and from there a body link to a page."""
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(start)
    landed = []
    page.locator("#sidebar summary", has_text="Guides").click()
    for selector, text, title in (
        ("#sidebar a", "Blimps", "Blimps"),
        ("main p a", "rigid airships", "Rigid airships"),
        ("main p a", "blimps", "Blimps"),
    ):
        with page.expect_navigation():
            page.locator(selector, has_text=text).first.click()
        landed.append(page.url)
        assert page.locator("h1").inner_text().startswith(title)
        if selector == "#sidebar a":
            page.goto(start)
    assert not errors
    return landed


def test_from_disk_a_click_lands_on_the_page(browser: Any, site: Path) -> None:
    root = site.as_uri() + "/"
    assert _clicks(browser, root + "index.html") == [
        root + "guides/blimp/index.html",
        root + "guides/rigid/index.html#frames",
        root + "guides/blimp/index.html",
    ]


def test_served_a_click_lands_on_the_page(browser: Any, served: Served) -> None:
    root = f"http://127.0.0.1:{served.port}/"
    assert _clicks(browser, root) == [
        root + "guides/blimp/index.html",
        root + "guides/rigid/index.html#frames",
        root + "guides/blimp/index.html",
    ]
    # The page's address as MkDocs publishes it, and the old ones, land on the page too.
    page = browser.new_page()
    for address in ("guides/rigid/", "guides/rigid", "old-rigid/"):
        page.goto(root + address)
        page.wait_for_url(root + "guides/rigid/**")
        assert page.locator("h1").inner_text().startswith("Rigid airships")


def test_from_disk_a_redirect_page_and_the_404_page_lead_into_the_site(
    browser: Any, site: Path
) -> None:
    page = browser.new_page()
    page.goto((site / "ships/blimp/index.html").as_uri())
    page.wait_for_url("**/guides/blimp/index.html")
    assert page.locator("h1").inner_text().startswith("Blimps")
    page.goto((site / "404.html").as_uri())  # its <base href="/"> is written only when served
    with page.expect_navigation():
        page.locator("main a", has_text="Guides").click()
    assert page.url == (site / "guides/index.html").as_uri()
