"""What a reader sees, in headless Chromium: backlinks, working heading anchors, a source page,
the graph page offline, no console errors, no request leaving the site."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.browser import require_chromium
from tests.e2e.conftest import run_cli

require_chromium()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.e2e.conftest import write_project

    project = write_project(tmp_path_factory.mktemp("browser") / "proj")
    proc = run_cli("build", "--root", str(project), "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    return project / "site"


def _open(browser, url: str):  # type: ignore[no-untyped-def]
    page = browser.new_page()
    errors: list[str] = []
    remote: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on(
        "request",
        lambda r: (
            remote.append(r.url) if not r.url.startswith(("file:", "data:", "about:")) else None
        ),
    )
    page.goto(url)
    return page, errors, remote


def test_backlinks_section_is_visible(browser, site: Path) -> None:  # type: ignore[no-untyped-def]
    page, errors, remote = _open(browser, (site / "adr/0001-old.html").as_uri())
    section = page.locator("#sitegen-backlinks")
    assert section.is_visible()
    text = section.inner_text()
    assert "Superseded by" in text and "ADR 0002 new" in text and "[supersedes]" in text
    # the entry links to the exact source section
    href = section.locator("a", has_text="ADR 0002 new").first.get_attribute("href")
    assert href == "0002-new.html"
    assert errors == [] and remote == []
    page.close()


def test_heading_anchors_work(browser, site: Path) -> None:  # type: ignore[no-untyped-def]
    page, errors, _ = _open(browser, (site / "guides/install.html").as_uri())
    heading = page.locator("h2#step-1-download")
    assert heading.count() == 1
    heading.hover()
    permalink = heading.locator("a.permalink")
    assert permalink.is_visible()
    permalink.click()
    assert page.url.endswith("#step-1-download")
    # a link with a fragment to another page lands on that heading
    page.locator("main a", has_text="the ADR").first.click()
    page.wait_for_load_state()
    assert page.url.endswith("adr/0002-new.html#decision")
    assert page.locator("#decision").count() == 1
    assert errors == []
    page.close()


def test_source_page_has_line_anchors_and_documented_by(browser, site: Path) -> None:  # type: ignore[no-untyped-def]
    page, errors, remote = _open(browser, (site / "code/pkg/core.py.html").as_uri() + "#L3")
    assert page.locator("[id='L3']").count() == 1
    body = page.locator("body").inner_text()
    assert "run" in body
    assert errors == [] and remote == []
    page.close()


def test_graph_page_renders_offline(browser, site: Path) -> None:  # type: ignore[no-untyped-def]
    graph = site / "graph.html"
    if not graph.exists():
        pytest.fail("graph.html was not published")
    page, errors, remote = _open(browser, graph.as_uri())
    page.wait_for_timeout(500)
    assert page.locator("canvas").count() >= 1
    assert remote == [], remote
    assert errors == [], errors
    page.close()
