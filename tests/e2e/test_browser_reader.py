"""The reader's and the writer's loop in headless Chromium (issue 10): search from file:// and
from `sitegen serve`, live reload of an open page, a failed build shown in the page, the
light/dark toggle, the 404 page, and zero axe-core violations on every page type, light and dark.
"""

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
    "content/index.md": "# Airships\n\nA site about [lighter-than-air craft](guides/zeppelin.md).\n",
    "content/guides/index.md": "# Guides\n\n- [Zeppelins](zeppelin.md)\n- [Blimps](blimp.md)\n",
    "content/guides/zeppelin.md": """---
tags: [history, rigid]
---
# Zeppelins

The rigid frame carries the gas cells.

## Hindenburg disaster

In 1937 the hydrogen caught fire at Lakehurst; a [missing page](nowhere.md) is marked.

| year | ship | length | gas | crew | passengers | speed | range | engines | fate |
|------|------|--------|-----|------|------------|-------|-------|---------|------|
| 1936 | LZ 129 Hindenburg | 245 m | hydrogen | 40 | 72 | 135 km/h | 16,000 km | 4 Daimler-Benz | burned at Lakehurst in 1937 |

- [ ] restore the archive
- [x] scan the photographs

| a second table |
|---|
| so that each scroll box needs a label of its own |

```text
a_very_long_line_of_code_that_cannot_wrap_and_must_scroll_inside_its_own_box_on_any_screen_at_all()
```
""",
    "content/guides/blimp.md": "# Blimps\n\nNon-rigid ships keep their shape by pressure. Goodyear flies them.\n",
    "pkg/hangar.py": "import os\n\n\ndef moor_airship(name):\n    return os.path.join('hangar', name)\n",
    "sitegen.toml": 'title = "Airships"\nsource = ["pkg"]\nrepo_url = "https://github.com/example/airships"\n',
}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = write_project(tmp_path_factory.mktemp("reader") / "proj", PAGES)
    proc = run_cli("build", "--root", str(project), "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    return project / "site"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    with serving(write_project(tmp_path / "proj", PAGES)) as server:
        yield server


def _open(browser: Any, url: str, scheme: str = "light") -> tuple[Any, list[str]]:
    page = browser.new_context(color_scheme=scheme).new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    return page, errors


def _search(page: Any, query: str) -> list[str]:
    """Press / and type the query like a reader; the hrefs of the results, in order."""
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "search-input"
    page.keyboard.type(query)
    page.wait_for_selector(".search-results a", timeout=10_000)
    return [
        str(h)
        for h in page.eval_on_selector_all(".search-results a", "els => els.map(e => e.href)")
    ]


# ---------------------------------------------------------------- search


def test_search_from_file_finds_the_page_first_with_heading_and_snippet(
    browser: Any, site: Path
) -> None:
    page, errors = _open(browser, (site / "guides" / "blimp.html").as_uri())
    hrefs = _search(page, "hindenburg")
    assert hrefs[0].endswith("/guides/zeppelin.html#hindenburg-disaster")
    first = page.locator(".search-results a").first
    assert first.locator(".result-heading").inner_text() == "Hindenburg disaster"
    assert "hydrogen caught fire" in first.locator(".result-snippet").inner_text()
    assert first.locator("mark").first.inner_text().lower() == "hindenburg"
    assert not errors


def test_search_keyboard_navigation_follows_the_result(browser: Any, site: Path) -> None:
    page, _ = _open(browser, (site / "index.html").as_uri())
    hrefs = _search(page, "goodyear")
    assert hrefs[0].endswith("/guides/blimp.html")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.href") == hrefs[0]
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url.startswith(hrefs[0].split("#")[0])
    assert page.locator("h1").inner_text().startswith("Blimps")


def test_search_finds_a_code_symbol_at_its_definition(browser: Any, site: Path) -> None:
    page, _ = _open(browser, (site / "guides" / "index.html").as_uri())
    hrefs = _search(page, "moor_airship")
    assert hrefs[0].endswith("/code/pkg/hangar.py.html#L4")
    with page.expect_navigation():
        page.locator(".search-results a").first.click()
    assert "moor_airship" in page.locator("#L4").inner_text()


def test_search_when_served(browser: Any, served: Served) -> None:
    page, errors = _open(browser, f"http://127.0.0.1:{served.port}/guides/")
    hrefs = _search(page, "rigid frame")
    assert hrefs[0] == f"http://127.0.0.1:{served.port}/guides/zeppelin.html"
    assert not errors


# ---------------------------------------------------------------- the writer's loop


def test_live_reload_shows_the_edit_without_a_reload_call(browser: Any, served: Served) -> None:
    page, _ = _open(browser, f"http://127.0.0.1:{served.port}/guides/blimp.html")
    assert "pressure" in page.locator("main").inner_text()
    (served.root / "content" / "guides" / "blimp.md").write_text(
        "# Blimps\n\nNow with helium and a brand-new sentence.\n"
    )
    page.wait_for_selector("text=brand-new sentence", timeout=30_000)


def test_a_failed_build_shows_in_the_open_page_then_clears(browser: Any, served: Served) -> None:
    page, _ = _open(browser, f"http://127.0.0.1:{served.port}/index.html")
    (served.root / "theme").mkdir()
    (served.root / "theme" / "page.html").write_text(
        "{% extends 'base.html' %}{% block content %}{{ oops }"
    )
    (served.root / "sitegen.toml").write_text(PAGES["sitegen.toml"] + 'theme_dir = "theme"\n')  # type: ignore[operator]
    banner = page.wait_for_selector("#sitegen-build-error", timeout=30_000)
    assert "theme/page.html:1:" in banner.inner_text()
    (served.root / "theme" / "page.html").unlink()
    page.wait_for_selector("#sitegen-build-error", state="detached", timeout=30_000)
    assert page.locator("h1").inner_text().startswith("Airships")


# ---------------------------------------------------------------- the toggle and the 404 page


def _background(page: Any) -> str:
    return str(page.evaluate("getComputedStyle(document.body).backgroundColor"))


def test_theme_toggle_defaults_to_the_system_and_remembers_the_choice(
    browser: Any, site: Path
) -> None:
    url = (site / "guides" / "zeppelin.html").as_uri()
    context = browser.new_context(color_scheme="light")
    page = context.new_page()
    page.goto(url)
    light = _background(page)
    page.locator(".theme-toggle").click()
    dark = _background(page)
    assert dark != light and page.evaluate("document.documentElement.dataset.theme") == "dark"
    page.goto((site / "index.html").as_uri())  # another page: the choice is remembered
    assert _background(page) == dark
    system_dark = browser.new_context(color_scheme="dark").new_page()
    system_dark.goto(url)  # no choice stored here: the system's dark scheme
    assert _background(system_dark) == dark
    assert system_dark.evaluate("document.documentElement.dataset.theme") is None
    context.close()


def test_404_page_offers_search_and_sections(browser: Any, site: Path) -> None:
    page, errors = _open(browser, (site / "404.html").as_uri())
    assert page.locator("h1").inner_text() == "Page not found"
    assert page.locator("#search-input").is_visible()
    assert page.locator("main a", has_text="Guides").count() == 1
    assert not errors


def test_served_404_at_any_depth_links_back_into_the_site(browser: Any, served: Served) -> None:
    page = browser.new_page()
    response = page.goto(f"http://127.0.0.1:{served.port}/no/such/page.html")
    assert response.status == 404
    with page.expect_navigation():
        page.locator("main a", has_text="Guides").click()
    assert page.url == f"http://127.0.0.1:{served.port}/guides/index.html"


# ---------------------------------------------------------------- accessibility


PAGE_TYPES = [
    "index.html",
    "guides/index.html",
    "guides/zeppelin.html",
    "pages.html",
    "broken-links.html",
    "cycles.html",
    "graph.html",
    "code/index.html",
    "code/pkg/hangar.py.html",
    "tags/index.html",
    "tags/history.html",
    "404.html",
]


@pytest.fixture(scope="module")
def axe() -> Any:
    module = pytest.importorskip(
        "axe_playwright_python.sync_playwright",
        reason="axe-playwright-python (ships axe-core) is not installed",
    )
    return module.Axe()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violations_on_any_page_type(
    browser: Any, site: Path, axe: Any, scheme: str
) -> None:
    context = browser.new_context(color_scheme=scheme)
    page = context.new_page()
    found = {}
    for rel in PAGE_TYPES:
        assert (site / rel).is_file(), rel
        page.goto((site / rel).as_uri())
        violations = axe.run(page).response["violations"]
        if violations:
            found[rel] = [(v["id"], v["nodes"][0]["html"][:120]) for v in violations]
    _search(page, "zeppelin")  # and with the results panel open
    violations = axe.run(page).response["violations"]
    if violations:
        found["search results"] = [(v["id"], v["nodes"][0]["html"][:120]) for v in violations]
    context.close()
    assert not found, found


def test_wide_tables_scroll_inside_their_box(browser: Any, site: Path) -> None:
    page = browser.new_context(viewport={"width": 700, "height": 800}).new_page()
    page.goto((site / "guides" / "zeppelin.html").as_uri())
    table = page.locator(".page-body .table-scroll").first
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert table.evaluate("t => t.scrollWidth > t.clientWidth")


def test_the_tree_does_not_move_between_pages_with_and_without_toc(
    browser: Any, site: Path
) -> None:
    page = browser.new_context(viewport={"width": 1400, "height": 800}).new_page()
    boxes = []
    for rel in ("guides/zeppelin.html", "guides/blimp.html"):  # with and without a TOC
        page.goto((site / rel).as_uri())
        places = [page.locator(sel).bounding_box() for sel in (".sidebar", "main")]
        boxes.append([(round(b["x"]), round(b["width"])) for b in places])
    assert boxes[0] == boxes[1]
