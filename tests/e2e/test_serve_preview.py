"""`sitegen serve` shows a saved page before its build has finished, and reloads only the open
pages a build changed (issue 19, point 3; content/guides/site.md, "Serve").

In process: the preview of a saved page is the very HTML its build then writes, it is served
from memory while the site folder still holds the previous build, and the build that follows
retires it without telling that page again. In a browser: the page being edited shows the
edit, and another open page is not reloaded by a build that did not change it.
"""

from __future__ import annotations

import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sitegen.config import load_config
from sitegen.serve.http import open_server
from sitegen.serve.reload import HISTORY, BuildStatus
from sitegen.serve.schedule import Builder
from tests.e2e.conftest import write_project
from tests.e2e.test_safety_serve import free_port, serving, wait_for

PAGES: dict[str, str | bytes] = {
    "content/index.md": "# Home\n\nSee [A](a.md) and [B](b.md#beta).\n",
    "content/a.md": "# Page A\n\nAlpha text, see [B](b.md).\n\n## Details\n\nMore.\n",
    "content/b.md": "# Page B\n\n## Beta\n\nBeta text.\n",
    "content/inc.md": '# Included\n\n--8<-- "part.txt"\n',
    "content/part.txt": "A part.\n",
    "content/far.md": "# Faraway\n\nZebra quokka.\n",  # shares nothing with the others
    "sitegen.toml": 'title = "Preview"\n',
}


@pytest.fixture
def builder(tmp_path: Path) -> Builder:
    project = write_project(tmp_path / "proj", PAGES)
    built = Builder(lambda: load_config(project, jobs=1), load_config(project, jobs=1), quiet=True)
    assert built.rebuild()
    assert built.preview is not None
    return built


def _save(builder: Builder, rel: str, text: str) -> Path:
    path = builder.config.root / rel
    path.write_text(text)
    return path


# ---------------------------------------------------------------------------- in process


def test_a_preview_is_the_page_its_build_writes(builder: Builder) -> None:
    site = builder.config.out_dir
    before = (site / "a.html").read_bytes()
    # The edit keeps the words A shares with B: its related pages read the same.
    path = _save(builder, "content/a.md", "# Page A\n\nAlpha text, edited. See [B](b.md#beta).\n")
    generation = builder.status.generation
    assert builder.show_saved([str(path)])
    shown = builder.shown("a.html")
    assert shown is not None and b"Alpha text, edited." in shown
    assert b'href="b.html#beta"' in shown  # its links resolved against the site
    # its table of contents is the new one (no heading or entry links to #details); the
    # section's old anchor lands on the notice the build writes too (content/syntax/anchors.md)
    assert b'href="#details"' not in shown
    assert "The section “Details” was removed".encode() in shown
    assert (site / "a.html").read_bytes() == before  # nothing written: the site is a build's
    assert builder.status.generation == generation + 1
    assert builder.status.changed_since(generation) == ["a.html"]

    assert builder.rebuild()
    assert builder.shown("a.html") is None  # retired by the build
    assert (site / "a.html").read_bytes() == shown  # the build wrote what the preview showed
    changed = builder.status.changed_since(generation + 1)
    assert changed is not None and "a.md" in changed  # the raw markdown was written anew
    assert "a.html" not in changed  # ... but the page already shows these bytes


def test_what_only_the_build_knows_reloads_the_page_again(builder: Builder) -> None:
    """The preview shows the last build's related pages; when the edit changes them (A no
    longer shares the word 'text' with B), the build's page differs and the page reloads."""
    path = _save(builder, "content/a.md", "# Page A\n\nAlpha, edited. See [B](b.md).\n")
    assert builder.show_saved([str(path)])
    shown = builder.shown("a.html")
    generation = builder.status.generation
    assert builder.rebuild()
    final = (builder.config.out_dir / "a.html").read_bytes()
    assert shown is not None and final != shown
    assert b"Alpha, edited." in final
    changed = builder.status.changed_since(generation)
    assert changed is not None and "a.html" in changed


def test_a_preview_is_served_while_the_site_holds_the_last_build(builder: Builder) -> None:
    server = open_server(free_port(), builder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        path = _save(builder, "content/b.md", "# Page B\n\n## Beta\n\nBeta, saved just now.\n")
        assert builder.show_saved([str(path)])
        url = f"http://127.0.0.1:{server.port}/b.html"
        with urllib.request.urlopen(url, timeout=10) as answer:
            body = answer.read().decode("utf-8")
        assert "Beta, saved just now." in body
        assert "Beta, saved just now." not in (builder.config.out_dir / "b.html").read_text()
        assert 'src="/__sitegen/live.js"' in body  # served like any page
    finally:
        server.shutdown()
        server.server_close()


def test_what_a_preview_leaves_to_the_build(builder: Builder) -> None:
    generation = builder.status.generation
    new = _save(builder, "content/new.md", "# New\n")  # not published yet: its build decides
    inc = _save(builder, "content/inc.md", '# Included\n\n--8<-- "part.txt"\n\nMore.\n')
    part = _save(builder, "content/part.txt", "Another part.\n")  # snippet lines: not read here
    outside = builder.config.root.parent / "elsewhere.md"
    outside.write_text("# Elsewhere\n")
    assert not builder.show_saved([str(new), str(inc), str(part), str(outside)])
    assert builder.status.generation == generation
    assert builder.shown("new.html") is None and builder.shown("inc.html") is None


def test_a_save_during_a_build_keeps_its_preview_until_its_own_build(builder: Builder) -> None:
    path = _save(builder, "content/a.md", "# Page A\n\nFirst save.\n")
    builder.show_saved([str(path)])
    first = builder.saves
    # A save after a build started (so after its crawl, perhaps): that build keeps it.
    builder.overlay["a.html"] = (first + 1, b"<p>a later save</p>")
    builder.saves = first + 1
    started = first
    assert builder._settle(started, {"a.html"}) == frozenset({"a.html"})
    assert builder.shown("a.html") == b"<p>a later save</p>"
    assert builder._settle(first + 1, set()) == frozenset()
    assert builder.shown("a.html") is None


def test_a_failing_preview_waits_for_the_build(
    builder: Builder, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError("a template error, say")

    assert builder.preview is not None
    monkeypatch.setattr(type(builder.preview), "render", broken)
    path = _save(builder, "content/a.md", "# Page A\n\nEdited.\n")
    assert not builder.show_saved([str(path)])
    assert builder.rebuild()  # the build reports whatever is wrong; serving goes on


# ---------------------------------------------------------------------------- reload rules


def test_an_open_page_hears_what_changed_since_it_was_served() -> None:
    status = BuildStatus()
    assert status.publish(False, [], "s1")  # the first build: every page is new
    assert status.changed_since(0) is None
    assert status.publish(False, [], "s2", frozenset({"a.html", "search-index.js"}))
    assert status.publish_preview(frozenset({"b.html"}))
    assert status.changed_since(1) == ["a.html", "b.html", "search-index.js"]
    assert status.changed_since(2) == ["b.html"]
    assert status.changed_since(3) == []
    assert status.changed_since(99) is None  # a page from another serve process: reload
    assert status.publish(True, ["error: x"], "")
    assert status.changed_since(3) is None  # the banner comes on every page
    assert not status.publish_preview(frozenset({"a.html"}))  # no preview over a failure
    assert status.publish(False, [], "s3", frozenset({"a.html"}))
    assert status.changed_since(4) is None  # ... and goes from every page


def test_a_page_that_missed_many_builds_reloads() -> None:
    status = BuildStatus()
    status.publish(False, [], "s0")
    for n in range(HISTORY + 1):
        status.publish(False, [], f"s{n + 1}", frozenset({"other.html"}))
    assert status.changed_since(1) is None  # its builds are no longer all known
    assert status.changed_since(status.generation - 1) == ["other.html"]


# ---------------------------------------------------------------------------- in a browser


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Any]:
    with serving(write_project(tmp_path / "proj", PAGES)) as server:
        yield server


def test_only_the_pages_a_build_changed_reload(browser: Any, served: Any) -> None:
    base = f"http://127.0.0.1:{served.port}"
    editing, reading = browser.new_page(), browser.new_page()
    editing.goto(f"{base}/a.html")
    reading.goto(f"{base}/far.html")
    for page in (editing, reading):
        page.evaluate("window.__sitegen_test_mark = 'not reloaded'")
    builds = sum("sitegen: " in line and " page" in line for line in served.lines)
    (served.root / "content" / "a.md").write_text("# Page A\n\nAlpha, edited in the test.\n")
    # The page reloads while this waits: between documents `document.body` is null, so the
    # predicate must treat that as "not yet" rather than throw (CI failed here at 174634a).
    editing.wait_for_function(
        "() => (document.body?.innerText ?? '').includes('Alpha, edited in the test.')",
        timeout=60_000,
    )
    wait_for(
        lambda: sum("sitegen: " in line and " page" in line for line in served.lines) > builds,
        "the build's summary",
    )
    time.sleep(1.0)  # any reload the build caused would have started by now
    assert reading.evaluate("window.__sitegen_test_mark") == "not reloaded"
    assert editing.evaluate("window.__sitegen_test_mark || ''") == ""  # it did reload
    # A title change moves the nav of every page: the reading page reloads too.
    assert "Page B renamed" not in reading.inner_text("body")
    (served.root / "content" / "b.md").write_text("# Page B renamed\n\n## Beta\n\nBeta.\n")
    reading.wait_for_function(
        "() => (document.body?.innerText ?? '').includes('Page B renamed')", timeout=60_000
    )


def test_a_save_with_the_same_bytes_shows_nothing(builder: Builder) -> None:
    path = builder.config.root / "content" / "a.md"
    path.write_bytes(path.read_bytes())
    generation = builder.status.generation
    assert not builder.show_saved([str(path)])
    assert builder.status.generation == generation and builder.shown("a.html") is None
