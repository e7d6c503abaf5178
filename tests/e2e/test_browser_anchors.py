"""Anchors that last in Chromium (issue 20, point 5): opening ``page.html#old-id`` after the
heading was renamed scrolls to the heading that replaced it, and after it was removed to the
notice that says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.browser import require_chromium
from tests.e2e.conftest import run_cli, write_project

require_chromium()

FILLER = "".join(f"Paragraph {i} of text that takes room on the page.\n\n" for i in range(40))


def _page(*headings: str) -> str:
    return "# Guide\n\n" + "".join(f"## {h}\n\n{FILLER}" for h in headings)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = write_project(
        tmp_path_factory.mktemp("anchors") / "proj",
        {"content/index.md": _page("Intro", "Install it", "Old stuff", "Usage")},
    )
    for _ in range(2):  # the first build stores the anchors the second one keeps
        proc = run_cli("build", "--root", str(project), "--jobs", "1")
        assert proc.returncode == 0, proc.stderr
        write_project(project, {"content/index.md": _page("Intro", "Installing", "Usage")})
    assert "anchor '#install-it' (\"Install it\") is now '#installing'" in proc.stderr
    return project / "site"


def _landing(browser, site: Path, fragment: str) -> dict[str, object]:  # type: ignore[no-untyped-def]
    page = browser.new_page(viewport={"width": 1000, "height": 700})
    page.goto((site / "index.html").as_uri() + "#" + fragment)
    page.wait_for_function("() => window.scrollY > 0")
    seen = page.evaluate(
        """(id) => {
            const target = document.getElementById(id);
            const box = target.getBoundingClientRect();
            const heading = target.closest('h1, h2, h3, h4, h5, h6');
            return {top: box.top, heading: heading ? heading.id : '',
                    text: target.textContent, targeted: target.matches(':target')};
        }""",
        fragment,
    )
    page.close()
    return seen  # type: ignore[no-any-return]


def test_an_old_id_scrolls_to_the_heading_that_replaced_it(browser, site: Path) -> None:  # type: ignore[no-untyped-def]
    seen = _landing(browser, site, "install-it")
    assert seen["heading"] == "installing" and seen["targeted"] is True
    assert 0 <= float(seen["top"]) < 80  # type: ignore[arg-type]  # at the top of the window


def test_a_removed_sections_id_scrolls_to_its_notice(browser, site: Path) -> None:  # type: ignore[no-untyped-def]
    seen = _landing(browser, site, "old-stuff")
    assert seen["text"] == "The section “Old stuff” was removed from this page."
    assert seen["targeted"] is True and -1 <= float(seen["top"]) < 700  # type: ignore[arg-type]
