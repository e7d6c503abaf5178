"""Material's code annotations in headless Chromium, on a small MkDocs-Material project
(content/syntax/code.md#code-annotations): a marker is a button reached with the keyboard,
Enter shows its item beside it, Escape closes it, at 1280 and at 390 px; without JavaScript
the list is readable under the block and each marker links to its item. The fence's
``#example`` id is a target the strict build finds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import require_chromium
from tests.e2e.conftest import run_cli, write_project

require_chromium()

MATERIAL: dict[str, str | bytes] = {
    "mkdocs.yml": """site_name: Annotated
theme:
  name: material
  features:
    - content.code.annotate
markdown_extensions:
  - attr_list
  - pymdownx.highlight
  - pymdownx.superfences
""",
    "docs/index.md": """# Configuration

Run [the example](#example) first, then set the theme.

``` { .sh #example title="setup.sh" }
pip install mkdocs-material
```

``` yaml
theme:
  name: material # (1)!
  palette:
    scheme: slate # the dark (2)
```

1.  The theme's name, as the package **registers** it.
2.  A scheme for the night, see [the guide](guide.md#colours).

Dark themes (1) are easier on the eyes at night.
{ .annotate }

1.  A note on a paragraph, with a note (1).
    { .annotate }

    1.  A note on the note.

The end of the page.
""",
    "docs/guide.md": "# Guide\n\n## Colours\n\nBack to [the example](index.md#example).\n",
}

ITEM_1 = "The theme's name, as the package registers it."


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = write_project(tmp_path_factory.mktemp("annotations") / "proj", MATERIAL)
    proc = run_cli("build", "--root", str(project), "--jobs", "1", "--strict")
    assert proc.returncode == 0, proc.stdout + proc.stderr  # #example is a target, no warning
    return project / "site"


def _index(site: Path) -> Path:
    assert (site / "index.html").exists(), sorted(p.name for p in site.iterdir())
    return site / "index.html"


def _tab_to_marker(page: Any) -> None:
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('button.annotation-marker')"):
            return
    raise AssertionError("no annotation marker is reached with Tab")


@pytest.mark.parametrize("width", [1280, 390])
def test_enter_shows_the_annotation_and_escape_closes_it(
    browser: Any, site: Path, width: int, tmp_path: Path
) -> None:
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.goto(_index(site).as_uri())
    item = page.locator("#__code_1_annotation_1")
    assert not item.is_visible()  # the list is gone from the flow
    _tab_to_marker(page)
    button = page.locator("button.annotation-marker").first
    assert button.get_attribute("aria-controls") == "__code_1_annotation_1"
    assert button.get_attribute("aria-expanded") == "false"
    page.keyboard.press("Enter")
    assert item.is_visible() and item.inner_text() == ITEM_1
    assert button.get_attribute("aria-expanded") == "true"
    box = item.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    page.screenshot(path=str(tmp_path / f"annotation-{width}.png"))
    page.keyboard.press("Escape")
    assert not item.is_visible()
    assert button.get_attribute("aria-expanded") == "false"
    assert page.evaluate("document.activeElement.matches('button.annotation-marker')")
    # the second: a click opens it, a click elsewhere closes it
    second = page.locator("button.annotation-marker").nth(1)
    second.click()
    assert page.locator("#__code_1_annotation_2").is_visible()
    page.locator("h1").click()
    assert not page.locator("#__code_1_annotation_2").is_visible()
    # a paragraph's annotation works the same way, and a note's own note opens over it
    outer, inner = page.locator("#__block_0_annotation_1"), page.locator("#__block_1_annotation_1")
    page.locator("button[aria-controls=__block_0_annotation_1]").click()
    assert outer.is_visible() and "A note on a paragraph" in outer.inner_text()
    assert not inner.is_visible()
    page.locator("button[aria-controls=__block_1_annotation_1]").click()
    assert inner.is_visible() and inner.inner_text() == "A note on the note."
    assert outer.is_visible()
    page.keyboard.press("Escape")
    assert outer.is_visible() and not inner.is_visible()
    page.keyboard.press("Escape")
    assert not outer.is_visible()
    page.close()


def test_without_javascript_the_list_is_read_under_the_block(browser: Any, site: Path) -> None:
    page = browser.new_page(java_script_enabled=False, viewport={"width": 390, "height": 900})
    page.goto(_index(site).as_uri())
    item = page.locator("#__code_1_annotation_1")
    assert item.is_visible() and item.inner_text() == ITEM_1
    text = page.locator("main").inner_text()
    assert "(1)!" not in text and "# (1)" not in text
    page.locator("a.annotation-marker").first.click()
    assert page.url.endswith("#__code_1_annotation_1")
    page.close()


def test_the_fence_id_is_a_target(browser: Any, site: Path) -> None:
    page = browser.new_page()
    page.goto(_index(site).as_uri() + "#example")
    target = page.locator("#example")
    assert target.is_visible() and "pip install mkdocs-material" in target.inner_text()
    assert "setup.sh" in target.inner_text()
    page.close()


def test_a_printed_page_shows_the_notes(browser: Any, site: Path) -> None:
    page = browser.new_page()
    page.goto(_index(site).as_uri())
    assert not page.locator("#__code_1_annotation_1").is_visible()
    page.emulate_media(media="print")
    assert page.locator("#__code_1_annotation_1").is_visible()
    page.close()
