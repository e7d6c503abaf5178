"""Two sites, federated (content/guides/federation.md), end to end: site A is built and
served on 127.0.0.1; site B names it as a peer by URL. In headless Chromium, B's page shows
A's link in "Linked from other sites" and the link lands on A's page; B's peers.html lists
A; ``sitegen backlinks`` prints the same entries; --offline rebuilds from the stored copy."""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import require_chromium
from tests.e2e.conftest import run_cli, write_project

require_chromium()

SITE_A: dict[str, str | bytes] = {
    "sitegen.toml": 'title = "Docs A"\nbase_url = "https://docs.a.example/"\n',
    "content/index.md": "# Home A\n\nSee [the intro of B](https://docs.b.example/guides/intro.html#setup).\n",
    "content/old.md": "---\nrel-supersedes: https://docs.b.example/guides/intro.md\n---\n"
    "# Old notes & co\n\nGone.\n",
}


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    """Site A built and served; site B's project naming A's URL as its peer."""
    base = tmp_path_factory.mktemp("fed")
    a = write_project(base / "a", SITE_A)
    proc = run_cli("build", "--root", str(a), "--jobs", "1", "--quiet")
    assert proc.returncode == 0, proc.stderr
    handler = functools.partial(_Quiet, directory=str(a / "site"))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{httpd.server_address[1]}/"
    b = write_project(
        base / "b",
        {
            "sitegen.toml": 'title = "Docs B"\nbase_url = "https://docs.b.example/"\n'
            f'peers = ["{url}"]\nheader_reports = true\n',
            "content/index.md": "# B home\n\n[Intro](guides/intro.md)\n",
            "content/guides/intro.md": "# Intro\n\n## Setup\n\nHi.\n",
        },
    )
    proc = run_cli("build", "--root", str(b), "--jobs", "1", "--strict")
    assert proc.returncode == 0, proc.stderr
    assert "2 backlinks from 1 peer" in proc.stderr
    yield b, url
    httpd.shutdown()
    httpd.server_close()


def test_the_cross_site_backlink_is_on_the_page_and_leads_there(
    browser: Any, sites: tuple[Path, str]
) -> None:
    b, url = sites
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((b / "site/guides/intro.html").as_uri())
    group = page.locator("#backlinks-peers")
    assert group.inner_text().startswith("Linked from other sites (2)")
    items = page.locator("#backlinks-peers + ul li")
    texts = [items.nth(i).inner_text() for i in range(items.count())]
    assert texts == [
        'Home A ("the intro of B", #home-a) on Docs A',
        "Old notes & co [supersedes] on Docs A",
    ]
    link = page.locator("#sitegen-backlinks a", has_text="Home A")
    assert link.get_attribute("href") == url + "index.md"
    page.goto(url + "index.md")  # the link's target is A's page (its markdown)
    assert "See [the intro of B]" in page.inner_text("body")
    assert errors == []
    page.close()


def test_the_peers_page_lists_the_peer(browser: Any, sites: tuple[Path, str]) -> None:
    b, url = sites
    page = browser.new_page()
    page.goto((b / "site/peers.html").as_uri())
    row = page.locator("main table tbody tr").first
    text = row.inner_text()
    assert "Docs A" in text and url + "graph.md" in text and "2 (of 2 edges)" in text
    assert " UTC" in text
    page.goto((b / "site/index.html").as_uri())
    assert page.locator("header a", has_text="Peers").count() == 1
    page.close()


def test_sitegen_backlinks_prints_the_same_group(sites: tuple[Path, str]) -> None:
    b, url = sites
    proc = run_cli("backlinks", "guides/intro.md", "--root", str(b), "--jobs", "1", "--offline")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-3:] == [
        "Linked from other sites (2)",
        f'  Home A ("the intro of B", #home-a) on Docs A -> {url}index.md',
        f"  Old notes & co [supersedes] on Docs A -> {url}old.md",
    ]


def test_an_unchanged_rebuild_writes_the_same_peers_page(sites: tuple[Path, str]) -> None:
    b, _ = sites
    before = (b / "site/peers.html").read_bytes()
    proc = run_cli("build", "--root", str(b), "--jobs", "1", "--clean")
    assert proc.returncode == 0, proc.stderr
    assert (b / "site/peers.html").read_bytes() == before
