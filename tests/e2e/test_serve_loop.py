"""`sitegen serve` as a writer's loop (issue 10, point 2), black-box: a page edit is rebuilt
incrementally (the other pages' files are the previous build's, not rewritten), a change
of the config file rebuilds everything with the configuration read anew."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.conftest import write_project
from tests.e2e.test_safety_serve import Served, serving, wait_for

PAGES: dict[str, str | bytes] = {
    "content/index.md": "# Home\n\nWelcome.\n",
    "content/a.md": "# Page A\n\nAlpha text.\n",
    "content/b.md": "# Page B\n\nBeta text.\n",
    "sitegen.toml": 'title = "Before"\n',
}


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    with serving(write_project(tmp_path / "proj", PAGES)) as server:
        yield server


def summaries(served: Served) -> list[str]:
    """The build summaries printed so far (one per build, written after its site is in
    place, so a test that saw the new site waits for the line as well)."""
    return [line for line in served.lines if line.startswith("sitegen: ") and " page" in line]


def test_a_page_edit_is_rebuilt_incrementally(served: Served) -> None:
    b_html = served.root / "site" / "b.html"
    before = b_html.stat().st_ino
    builds = len(summaries(served))
    (served.root / "content" / "a.md").write_text("# Page A\n\nAlpha, edited.\n")
    wait_for(lambda: "Alpha, edited." in served.get("/a.html")[1], "the edited page")
    wait_for(lambda: len(summaries(served)) > builds, "the rebuild's summary")
    # b.html was not rendered again: the new site links the previous build's file
    assert b_html.stat().st_ino == before
    assert not any(line.startswith("sitegen: full rebuild") for line in summaries(served))


def test_a_config_change_rebuilds_everything(served: Served) -> None:
    (served.root / "sitegen.toml").write_text('title = "After"\n')
    wait_for(lambda: "After" in served.get("/b.html")[1], "the new title")
    for path in ("/index.html", "/a.html", "/b.html", "/404.html", "/broken-links.html"):
        body = served.get(path)[1]
        assert '<a class="site-title" href' in body and ">After</a>" in body, path
        assert ">Before</a>" not in body, path
    wait_for(
        lambda: any(line.startswith("sitegen: full rebuild") for line in served.lines),
        "the full rebuild's summary",
    )
