"""An API page in Chromium (issue 28): a ``:::`` block's objects are listed in the page's table
of contents, opening ``page.html#pkg.Name`` scrolls to that object's heading, and its
signature and parameter table are shown (content/guides/api-reference.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import require_chromium
from tests.e2e.conftest import run_cli, write_project

require_chromium()

FILLER = "".join(f"Paragraph {i} of prose that takes room on the page.\n\n" for i in range(40))

PROJECT = {
    "sitegen.toml": 'title = "Shapes"\ncontent = "docs"\nsource = ["src"]\n',
    "docs/index.md": "# Shapes\n\nSee [the API](api.md).\n",
    "docs/api.md": "# Shapes API\n\n"
    + FILLER
    + """::: shapes
    options:
      show_root_heading: true
      merge_init_into_class: true
      separate_signature: true
      show_signature_annotations: true
""",
    "src/shapes/__init__.py": '''"""Shapes and how to make them."""

from shapes.core import Square, make

__all__ = ["Square", "make"]
''',
    "src/shapes/core.py": '''"""The shapes themselves."""


class Square:
    """A square."""

    def __init__(self, side: float, colour: str = "red") -> None:
        """Paint a square.

        Args:
            side: The length of a side.
            colour: What it is painted with.
        """
        self.side = side
        self.colour = colour

    def area(self) -> float:
        """The surface it covers."""
        return self.side * self.side


def make(side: float) -> Square:
    """A red square.

    Args:
        side: The length of a side.
    """
    return Square(side)
''',
}
OBJECTS = ["shapes", "shapes.Square", "shapes.Square.area", "shapes.make"]


@pytest.fixture(scope="module")
def api_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = write_project(tmp_path_factory.mktemp("api") / "proj", PROJECT)  # type: ignore[arg-type]
    proc = run_cli("build", "--root", str(project), "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    assert "0 broken links, 0 warnings" in proc.stderr, proc.stderr
    return project / "site" / "api.html"


def test_the_toc_lists_the_objects(browser: Any, api_page: Path) -> None:
    page = browser.new_page()
    page.goto(api_page.as_uri())
    entries = page.eval_on_selector_all(
        "nav.toc a", "links => links.map(a => [a.getAttribute('href'), a.textContent.trim()])"
    )
    page.close()
    hrefs = [href for href, _ in entries]
    assert [h for h in hrefs if h.lstrip("#") in OBJECTS] == [f"#{o}" for o in OBJECTS]
    labels = dict(entries)
    assert labels["#shapes.Square"] == "Square" and labels["#shapes.make"] == "make"


def test_a_fragment_scrolls_to_the_object_with_its_signature_and_parameters(
    browser: Any, api_page: Path
) -> None:
    page = browser.new_page(viewport={"width": 1100, "height": 800})
    page.goto(api_page.as_uri() + "#shapes.Square")
    page.wait_for_function("() => window.scrollY > 0")
    seen = page.evaluate(
        """() => {
            const heading = document.getElementById('shapes.Square');
            const box = heading.getBoundingClientRect();
            return {tag: heading.tagName, top: box.top, bottom: box.bottom,
                    height: window.innerHeight, targeted: heading.matches(':target'),
                    text: heading.textContent};
        }"""
    )
    assert seen["tag"] in ("H2", "H3") and seen["targeted"] is True
    assert seen["top"] >= 0 and seen["bottom"] <= seen["height"]  # in the viewport
    assert "Square" in seen["text"]

    signature = page.locator("pre", has_text="Square(").first
    assert signature.is_visible()
    assert "side: float" in signature.inner_text() and "colour: str = 'red'" in (
        signature.inner_text().replace('"', "'")
    )
    assert signature.bounding_box()["y"] < 800  # right below the heading, on screen

    table = page.locator("table", has=page.locator("td", has_text="What it is painted with."))
    assert table.is_visible()
    headers = table.locator("th").all_inner_texts()
    assert [h.strip() for h in headers] == ["Name", "Type", "Description", "Default"]
    row = table.locator("tr", has_text="colour").inner_text()
    assert "str" in row and "red" in row
    page.close()
