"""Sharded search in headless Chromium from file:// (issue 19, "Search that scales"): a typed
query shows the expected result and loads only the index scripts it needs, and search.js
answers every query with the results and ranking of the one-script index
(content/guides/site.md#search; tests/site/search_model.py is the reference)."""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

import pytest

from sitegen.build import build
from sitegen.config import load_config
from sitegen.records.result import BuildOptions
from sitegen.site.emit import publishable_pages
from sitegen.site.search import SearchData, search_data
from sitegen.site.search_shards import INDEX_FILE, SHARD_FOLDER, bucket
from tests.e2e.browser import require_chromium
from tests.e2e.conftest import write_project
from tests.site.search_model import COMMON, Shards, invented_word, parse, sharded, unsharded

require_chromium()

WORDS = [
    *COMMON,  # the sample index's words, then scripts and marks it lacks
    "日本語の見出し",
    "Ελληνικά",
    "café",
    "crème",
    "a.b.c",
    "x_y_z",
]
CODE = (
    "class Overview:\n    def start(self):\n        return 1\n\n\n"
    "def moor_airship(name):\n    return name\n"
)
QUERIES = [
    "token",
    "stream token",
    "to",
    "e",
    "ka",
    "kari",
    "日本",
    "ελλην",
    "café crème",
    "a.b",
    "overview",
    "start",
    "moor_airship",
    "zeppelinhangar",
    "nothing here",
    "start",
    "rigid frame gas cells",
]


def _pages(count: int = 150) -> dict[str, str | bytes]:
    """Pages from a seed, enough for several shards of each kind; one word in one page."""
    rng = random.Random(19)
    files: dict[str, str | bytes] = {
        "sitegen.toml": 'title = "Search"\nsource = ["pkg"]\n',
        "pkg/hangar.py": CODE,
        "content/index.md": "# Search test\n\nThe pages below.\n",
        # Ties that only the exact bonuses keep in order (search.js's scores: a word in the
        # title 10, heading 4, text 1; the title is the query 20, the heading 8). "start":
        # 10 + 4 + 8 = 22 ties with the symbol Overview.start (its last name is the query,
        # 22), and the page's title sorts first. "rigid frame gas cells": 4 x 10 + 20 = 60
        # ties with 4 x (10 + 4 + 1) = 60, and the shorter title sorts first.
        "content/tie/started.md": "---\ntitle: Getting started\n---\n# Start\n\nFirst steps.\n",
        "content/tie/equal.md": "---\ntitle: Rigid frame gas cells\n---\n# Intro\n\nAbout.\n",
        "content/tie/holds.md": (
            "---\ntitle: Rigid frame gas cells explained\n---\n"
            "# The rigid frame gas cells\n\nThe rigid frame holds gas cells.\n"
        ),
    }
    for p in range(count):
        title = rng.choice(
            ["Overview", "Café crème", f"{rng.choice(WORDS).title()} {invented_word(rng)}"]
        )
        parts = [f"# {title}\n"]
        for _ in range(rng.randint(1, 4)):
            pool = WORDS + [invented_word(rng) for _ in range(8)]
            parts.append(f"## {rng.choice(['Usage', rng.choice(WORDS)])} {invented_word(rng)}\n")
            parts.append(" ".join(rng.choice(pool) for _ in range(rng.randint(5, 60))) + "\n")
        if p == 37:
            parts.append("## Zeppelinhangar doors\n\nThe doors of the zeppelinhangar open.\n")
        files[f"content/d{p % 6}/page-{p}.md"] = "\n".join(parts)
    return files


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, SearchData]:
    root = write_project(tmp_path_factory.mktemp("search") / "proj", _pages())
    result = build(load_config(root), BuildOptions(jobs=1, quiet=True))
    return result.config.out_dir, search_data(publishable_pages(result), result.code_records)


def _index_files(site: Path) -> dict[str, str]:
    files = {INDEX_FILE: (site / INDEX_FILE).read_text(encoding="utf-8")}
    for path in (site / SHARD_FOLDER).iterdir():
        files[f"{SHARD_FOLDER}/{path.name}"] = path.read_text(encoding="utf-8")
    return files


def _loaded(page: Any) -> set[str]:
    """The index scripts the page has loaded, by name (manifest, k3, t0, p12, symbols)."""
    srcs = page.eval_on_selector_all(
        'script[src*="search-index"]', "els => els.map(e => e.getAttribute('src'))"
    )
    return {"manifest" if s == INDEX_FILE else s.rsplit("/", 1)[1][: -len(".js")] for s in srcs}


def _drawn(page: Any, query: str) -> None:
    page.wait_for_selector(f'#search-results[data-query="{query}"]', state="attached")


def _open(browser: Any, site: Path) -> tuple[Any, list[str]]:
    page = browser.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((site / "index.html").as_uri())
    return page, errors


def test_a_typed_query_shows_its_page_and_loads_only_the_shards_it_needs(
    browser: Any, built: tuple[Path, SearchData]
) -> None:
    site, _ = built
    page, errors = _open(browser, site)
    query = "zeppelinhangar"
    page.keyboard.press("/")
    page.keyboard.type(query)
    _drawn(page, query)
    first = page.locator(".search-results a").first
    assert first.get_attribute("href") == "d1/page-37.html#zeppelinhangar-doors"
    assert first.locator(".result-heading").inner_text() == "Zeppelinhangar doors"
    assert first.locator(".result-snippet mark").first.inner_text() == "zeppelinhangar"
    assert page.inner_text("#search-status") == "1 results"
    loaded = _loaded(page)
    files = _index_files(site)
    # Every letter typed was a query: what it loaded is at most what its letters need, and
    # at least what the whole word needs (tests/site/search_model.py tells both).
    needs = [Shards(files) for _ in query]
    for n, shards in enumerate(needs):
        sharded(shards, query[: n + 1])
    assert needs[-1].loaded <= loaded <= set().union(*(s.loaded for s in needs))
    assert {"manifest", "symbols"} <= loaded
    assert not errors


def test_a_query_loads_exactly_the_scripts_it_needs(
    browser: Any, built: tuple[Path, SearchData]
) -> None:
    site, _ = built
    page, errors = _open(browser, site)
    query = "stream kalos"  # "kalos" is inside a few of the many tokens that hold "kal"
    page.fill("#search-input", query)
    _drawn(page, query)
    files = _index_files(site)
    shards = Shards(files)
    assert sharded(shards, query).total > 0
    assert _loaded(page) == shards.loaded
    assert {n[0] for n in shards.loaded} == {"m", "s", "k", "t", "p"}
    assert len(shards.loaded) < len(files) / 4
    # The key entry of "kal" names more token shards than "kalos" needs; only those load.
    manifest = parse(files[INDEX_FILE])[1]
    entry = parse(files[f"{SHARD_FOLDER}/k{bucket('kal', manifest['keys'])}.js"])[1]["g"]["kal"]
    named = {f"t{bucket(f, manifest['tokens'])}" for f in entry["t"]}
    needed = _token_shards(files, "kalos")
    assert needed < named
    assert not errors


def test_results_in_one_page_script_load_it_once(
    browser: Any, built: tuple[Path, SearchData]
) -> None:
    """A page script holds the chunks of the manifest's "group" pages, numbered by title:
    the pages titled "Café crème" sit side by side, and their results share scripts."""
    site, _ = built
    page, errors = _open(browser, site)
    query = "café crème"
    page.fill("#search-input", query)
    _drawn(page, query)
    files = _index_files(site)
    manifest = parse(files[INDEX_FILE])[1]
    scripts = [n for n in files if n.startswith(f"{SHARD_FOLDER}/p")]
    pages = len(manifest["sections"])
    assert manifest["group"] > 1 and len(scripts) == math.ceil(pages / manifest["group"])
    shards = Shards(files)
    found = sharded(shards, query)
    assert _loaded(page) == shards.loaded
    assert len([n for n in shards.loaded if n.startswith("p")]) < len(found.hits)
    assert not errors


def _token_shards(files: dict[str, str], query: str) -> set[str]:
    shards = Shards(files)
    sharded(shards, query)
    return {n for n in shards.loaded if n.startswith("t")}


def _shown(page: Any) -> list[tuple[str, str, str]]:
    return [
        tuple(row)
        for row in page.eval_on_selector_all(
            ".search-results a",
            """els => els.map(a => [a.getAttribute('href'),
                 a.querySelector('.result-title').textContent,
                 (a.querySelector('.result-heading') || {textContent: ''}).textContent])""",
        )
    ]


def test_search_js_answers_as_the_one_script_index_did(
    browser: Any, built: tuple[Path, SearchData]
) -> None:
    site, data = built
    page, errors = _open(browser, site)
    differ = {}
    for query in QUERIES:
        page.fill("#search-input", query)
        _drawn(page, query)
        want = unsharded(data, query)
        status = f"{want.total} results" if want.total else f"No results for {query}"
        rows = [(h.href, h.title, h.heading if h.heading != h.title else "") for h in want.hits]
        got = (page.inner_text("#search-status"), _shown(page))
        if got != (status, rows):
            differ[query] = (got, (status, rows))
    assert not differ, differ
    assert not errors
    totals = {q: unsharded(data, q).total for q in QUERIES}
    assert totals["nothing here"] == 0 and totals["e"] > 20 and totals["zeppelinhangar"] == 1
    tie = [h.href for h in unsharded(data, "start").hits[:2]]
    assert tie == ["tie/started.html", "code/pkg/hangar.py.html#L2"]
    tie = [h.href for h in unsharded(data, "rigid frame gas cells").hits[:2]]
    assert tie == ["tie/equal.html", "tie/holds.html"]
