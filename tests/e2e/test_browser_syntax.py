"""The three callout families, tabs and code on one page, in headless Chromium, light and dark:
the blocks are rendered (no raw marker is visible), tabs switch without JavaScript."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.browser import require_chromium
from tests.e2e.conftest import run_cli, write_project

FIXTURES = Path(__file__).parents[1] / "docs" / "fixtures" / "syntax"

require_chromium()

RAW_MARKERS = ("!!!", "???", ":::", "[!NOTE]", "[!", "===", "///")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pages: dict[str, str | bytes] = {
        f"content/{p.name}": p.read_bytes() for p in FIXTURES.glob("*.md")
    }
    project = write_project(tmp_path_factory.mktemp("syntax") / "proj", pages)
    proc = run_cli("build", "--root", str(project), "--jobs", "1", "--strict")
    assert proc.returncode == 0, proc.stderr
    return project / "site"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_families_render_in_both_schemes(
    browser,
    site: Path,
    scheme: str,  # type: ignore[no-untyped-def]
    tmp_path: Path,
) -> None:
    page = browser.new_page(
        color_scheme=scheme, java_script_enabled=False, viewport={"width": 1100, "height": 900}
    )
    page.goto((site / "families.html").as_uri())
    main = page.locator("main")
    text = main.inner_text()
    for marker in RAW_MARKERS:
        assert marker not in text, marker
    assert page.locator("div.callout.callout-note").first.is_visible()
    assert page.locator("div.callout.callout-warning").first.is_visible()
    assert page.locator("details.callout.callout-tip").count() == 2
    assert page.locator("details.callout.callout-caution").count() == 1
    assert page.locator(".callout.callout-important").is_visible()
    assert page.locator(".tabbed-set .tabbed-label").count() == 2
    # the icon is drawn by CSS, in the kind's colour, and differs between the schemes
    icon = page.evaluate("""() => {
        const t = document.querySelector('.callout-note .callout-title');
        const s = getComputedStyle(t, '::before');
        return [s.content, s.backgroundColor, getComputedStyle(t.closest('.callout')).backgroundColor];
    }""")
    assert icon[0] == '"i"'
    expected = {"light": "rgb(221, 244, 255)", "dark": "rgb(13, 35, 65)"}[scheme]
    assert icon[2] == expected
    shot = tmp_path / f"families-{scheme}.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    page.close()


def test_tabs_and_folds_work_without_javascript(browser, site: Path) -> None:  # type: ignore[no-untyped-def]
    page = browser.new_page(java_script_enabled=False)
    page.goto((site / "families.html").as_uri())
    panels = page.locator(".tabbed-panel")
    assert panels.nth(0).is_visible() and not panels.nth(1).is_visible()
    page.locator(".tabbed-label", has_text="Shell").click()
    assert panels.nth(1).is_visible() and not panels.nth(0).is_visible()
    # the label names its radio input, so assistive tools announce the tab by name
    assert page.get_by_label("Shell").is_checked()
    closed = page.locator("details.callout", has_text="Closed danger")
    assert not closed.locator(".callout-body").is_visible()
    closed.locator("summary").click()
    assert closed.locator(".callout-body").is_visible()
    page.close()
