"""Docusaurus's blog in headless Chromium: from the header to the index, "Read more" to the
post, a tag to its page, with no console error (sitegen/site/outputs/blog.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sitegen.build import build
from sitegen.config import load_config
from sitegen.records.result import BuildOptions
from tests.e2e.browser import launched, require_chromium
from tests.e2e.conftest import write_project
from tests.site.test_blog import PROJECT

require_chromium()
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched() as b:
        yield b


def test_a_reader_goes_from_the_header_to_a_post_and_its_tag(browser: Any, tmp_path: Path) -> None:
    root = write_project(tmp_path / "project", PROJECT)
    build(load_config(root), BuildOptions(jobs=1, quiet=True))
    page = browser.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto((root / "site/docs/intro/index.html").as_uri())
    page.get_by_role("link", name="Fx blog").first.click()
    page.wait_for_url("**/blog/index.html")
    assert page.locator("article h2").all_inner_texts() == ["Big", "Hello"]
    page.get_by_role("link", name="Read more about Hello").click()
    page.wait_for_url("**/blog/2021/05/01/hello/index.html")
    assert "May 1, 2021" in page.locator("main").inner_text()
    assert "Rest of it." in page.locator("main").inner_text()
    page.locator("main").get_by_role("link", name="Releases").click()
    page.wait_for_url("**/blog/tags/releases/index.html")
    assert page.locator("h1").inner_text() == "2 posts tagged with “Releases”"
    assert errors == []
