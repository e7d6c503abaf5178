"""Callout titles holding a link, bold or code are one run of text (content/syntax/callouts.md
#titles): at 1280 px each title of usual length is one line, in headless Chromium. Laid out
as flex items, each piece of such a title was a column of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.browser import require_chromium
from tests.e2e.conftest import run_cli, write_project

require_chromium()

#: Titles of Material for MkDocs' own pages, each family of callout.
TITLES = """# Titles

!!! info "The [`site_url`](other.md) setting must be set, with **bold** and `code` in it"

    Body.

??? tip "Recommended: [configuration validation and auto-complete](other.md)"

    Body.

???+ warning "Requirements when using [custom color schemes](other.md) and **more**"

    Body.

!!! note "A plain title of about the same length, words only, no markup"

    Body.
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pages: dict[str, str | bytes] = {
        "content/titles.md": TITLES,
        "content/other.md": "# Other\n",
    }
    project = write_project(tmp_path_factory.mktemp("titles") / "proj", pages)
    proc = run_cli("build", "--root", str(project), "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    return project / "site"


def test_a_title_with_markup_is_one_line(browser, site: Path) -> None:  # type: ignore[no-untyped-def]
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto((site / "titles.html").as_uri())
    lines = page.evaluate("""() => [...document.querySelectorAll('.callout-title')].map(t => {
        const s = getComputedStyle(t);
        const inner = t.clientHeight - parseFloat(s.paddingTop) - parseFloat(s.paddingBottom);
        return [t.textContent.trim(), inner / parseFloat(s.lineHeight)];
    })""")
    assert len(lines) == 4
    for text, count in lines:  # inline code may make the line a pixel taller
        assert count < 1.5, (text, count)
    # the words keep their spaces: the title reads as written, links and code inline
    shown = page.locator(".callout-title").first.inner_text()
    assert shown == "The site_url setting must be set, with bold and code in it"
    page.close()
