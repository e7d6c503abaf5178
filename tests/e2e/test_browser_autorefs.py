"""An autoref that resolves nowhere reads as the author's text in Chromium (issue 20, point 6):
its label, no brackets, not a link and not styled as one; one an inventory knows is a link."""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest

from tests.e2e.browser import require_chromium
from tests.e2e.conftest import run_cli, write_project

require_chromium()

INVENTORY = (
    b"# Sphinx inventory version 2\n# Project: Python\n# Version: 3\n"
    b"# The remainder of this file is compressed using zlib.\n"
    + zlib.compress(b"json py:module 0 library/json.html#module-$ -\n")
)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pages: dict[str, str | bytes] = {
        "sitegen.toml": '[inventories]\n"https://docs.python.org/3/" = "python.inv"\n',
        "python.inv": INVENTORY,
        "content/index.md": (
            "# Home\n\nPlain words, then [dataclasses][dataclasses] and [the json module][json].\n"
        ),
    }
    project = write_project(tmp_path_factory.mktemp("autorefs") / "proj", pages)
    proc = run_cli("build", "--root", str(project), "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    assert "cross-reference 'dataclasses' names nothing" in proc.stderr
    return project / "site"


def test_an_unresolved_autoref_reads_as_text(browser, site: Path) -> None:  # type: ignore[no-untyped-def]
    page = browser.new_page()
    page.goto((site / "index.html").as_uri())
    paragraph = page.locator("main p", has_text="Plain words")
    assert paragraph.inner_text() == "Plain words, then dataclasses and the json module."
    looks = page.evaluate("""() => {
        const p = [...document.querySelectorAll('main p')].find(e => e.textContent.startsWith('Plain'));
        const [text, link] = p.querySelectorAll('a');
        const s = e => [getComputedStyle(e).color, getComputedStyle(e).textDecorationLine];
        return {text: s(text), link: s(link), para: getComputedStyle(p).color,
                href: link.getAttribute('href'), none: text.hasAttribute('href')};
    }""")
    assert looks["text"] == [looks["para"], "none"]
    assert looks["link"][0] != looks["para"] and looks["link"][1] == "underline"
    assert looks["href"] == "https://docs.python.org/3/library/json.html#module-json"
    assert looks["none"] is False
    page.close()
