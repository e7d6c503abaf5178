"""The search index (sitegen.site.search, sitegen.site.search_shards): sections split at
headings, plain text only; the index cut into shards that give every query the results and
ranking of the one-script index, load only what a query needs, come out byte for byte the
same, and that no content can break out of."""

from __future__ import annotations

import hashlib
import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sitegen.site import search_shards
from sitegen.site.search import SearchData, Section, page_sections
from sitegen.site.search_shards import (
    CUT,
    FORM_LENGTH,
    INDEX_FILE,
    KEY_LENGTH,
    PAGE_GROUP,
    SHARD_FOLDER,
    bucket,
    form,
    ordered,
    page_chunk,
    search_index_files,
)
from tests.site.search_model import Found, Shards, parse, sample_data, sharded, unsharded

REPO = Path(__file__).resolve().parents[2]

#: Queries of every kind: common, rare, two words, one and two letters, a popular key, inside
#: a word, not ASCII, a dotted name, a word longer than a form, a title, a heading, symbols,
#: case, punctuation only, nothing found.
QUERIES = [
    "token", "render", "stream token", "token stream", "t", "to", "e", "ka", "kar", "karito",
    "oken", "日本", "の見", "ünï", "Café", "café crème", "σίσυφος", "ΣΊΣΥΦΟΣ", "a.b", ".", "x_y",
    "search_shards.encode_set_with_a_very_long", "with_a_very_long_name", "overview", "usage",
    "Guide 3", "moor", "moor_airship", "engine.start", "start", "zzz", "!!!", "🚀",
    "ελληνικά και emoji", "INDEX   parser",
]  # fmt: skip


@pytest.fixture(scope="module")
def data() -> SearchData:
    return sample_data()


@pytest.fixture(scope="module")
def files(data: SearchData) -> dict[str, str]:
    return search_index_files(data)


def test_sections_split_at_headings_without_permalinks_or_tags() -> None:
    html = (
        "<p>Before &amp; <b>intro</b></p>\n"
        '<h1 id="title">Title<a class="permalink" href="#title" aria-label="Permalink">#</a></h1>\n'
        '<p>Lead.</p>\n<h2 id="a-b">A &lt;b&gt;<a class="permalink" href="#a-b">#</a></h2>\n'
        '<ul><li>one</li>\n<li>two</li></ul>\n<h3 id="empty">Empty</h3>\n'
    )
    assert page_sections(html) == [
        Section("", "", "Before & intro"),
        Section("Title", "", "Lead."),  # the h1 is the page's top: no fragment
        Section("A <b>", "a-b", "one two"),
        Section("Empty", "empty", ""),
    ]


@pytest.mark.parametrize("query", QUERIES)
def test_a_query_gets_the_results_and_ranking_of_the_unsharded_index(
    data: SearchData, files: dict[str, str], query: str
) -> None:
    before = unsharded(data, query)
    assert sharded(Shards(files), query) == before


def test_the_queries_reach_every_kind_of_answer(data: SearchData, files: dict[str, str]) -> None:
    """The equality above is worth something only if the queries find pages, symbols, pages
    and symbols together, many results, and nothing."""
    found = {q: unsharded(data, q) for q in QUERIES}
    assert found["zzz"].total == 0 and found["!!!"].total == 0
    assert found["e"].total > 20  # more results than are shown
    assert found["moor_airship"].hits[0].href == "code/a.py.html#L1"
    kinds = {h.href.startswith("code/") for h in found["overview"].hits}
    assert kinds == {True, False}  # a symbol and pages of the same name
    keys = [parse(files[p])[1] for p in files if p.startswith(f"{SHARD_FOLDER}/k")]
    entries = [e for k in keys for e in k["g"].values()]
    assert any("s" in e and "t" in e for e in entries)  # a popular 3-character key
    assert any("s" in e and "t" not in e for e in entries)  # a popular short key
    assert any(f.endswith(CUT) for e in entries for f in e.get("t", []))  # a cut form


def test_every_token_is_in_exactly_one_token_shard_and_every_key_in_one_key_shard(
    files: dict[str, str],
) -> None:
    manifest = parse(files[INDEX_FILE])[1]
    tokens: dict[str, list[int]] = {}
    keys: dict[str, list[int]] = {}
    for n in range(manifest["tokens"]):
        for token in parse(files[f"{SHARD_FOLDER}/t{n}.js"])[1]:
            tokens.setdefault(token, []).append(n)
            assert bucket(form(token), manifest["tokens"]) == n
    for n in range(manifest["keys"]):
        for key in parse(files[f"{SHARD_FOLDER}/k{n}.js"])[1]["g"]:
            keys.setdefault(key, []).append(n)
            assert bucket(key, manifest["keys"]) == n
    assert manifest["tokens"] > 1 and manifest["keys"] > 1
    assert all(len(places) == 1 for places in tokens.values())
    assert all(len(places) == 1 for places in keys.values())
    # Every substring of up to KEY_LENGTH characters of every token has its key entry.
    wanted = {t[i : i + n] for t in tokens for n in range(1, KEY_LENGTH + 1) for i in range(len(t))}
    assert {k for k in wanted if len(k) > 0} <= set(keys)


def _page_scripts(files: dict[str, str]) -> list[list[Any]]:
    """The data of p0, p1, ...: each a list of pages' chunks."""
    count = len([p for p in files if p.startswith(f"{SHARD_FOLDER}/p")])
    return [parse(files[f"{SHARD_FOLDER}/p{n}.js"])[1] for n in range(count)]


def _scripts_of_shown(files: dict[str, str], found: Found) -> set[str]:
    """The page scripts that hold the pages of the results shown: p<page // group>."""
    group = parse(files[INDEX_FILE])[1]["group"]
    hrefs = [chunk[0] for script in _page_scripts(files) for chunk in script]
    pages = [h.href.split("#")[0] for h in found.hits if not h.href.startswith("code/")]
    shown = [hrefs.index(href) for href in pages]
    assert len(set(shown)) == len(shown)  # a page is listed once
    return {f"p{page // group}" for page in shown}


def test_a_query_loads_only_the_shards_it_needs(files: dict[str, str]) -> None:
    shards = Shards(files)
    found = sharded(shards, "karito")
    assert 0 < found.total <= 20
    assert {n for n in shards.loaded if n.startswith("p")} == _scripts_of_shown(files, found)
    assert len([n for n in shards.loaded if n.startswith("k")]) == 1
    assert len([n for n in shards.loaded if n.startswith("t")]) <= 2
    assert "symbols" in shards.loaded and "manifest" in shards.loaded
    assert len(shards.loaded) < len(files) / 4


def test_results_load_each_page_script_they_are_in_once(files: dict[str, str]) -> None:
    """Pages of the same title are numbered side by side, so their results share scripts."""
    shards = Shards(files)
    found = sharded(shards, "café crème")
    chunks = {n for n in shards.loaded if n.startswith("p")}
    assert chunks == _scripts_of_shown(files, found)
    assert len(chunks) < len(found.hits) <= 20


@pytest.mark.parametrize("group", [1, 3, PAGE_GROUP, 1000])
def test_a_page_script_holds_the_chunks_of_group_consecutive_pages(
    data: SearchData, files: dict[str, str], group: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Page n's chunk is chunk n % group of p<n // group> (the last script may hold fewer),
    the manifest says the group, and the other scripts are the same bytes whatever it is."""
    monkeypatch.setattr(search_shards, "PAGE_GROUP", group)
    grouped = search_index_files(data)
    manifest = parse(grouped[INDEX_FILE])[1]
    assert manifest["version"] == 3 and manifest["group"] == group
    scripts = _page_scripts(grouped)
    count = math.ceil(len(data.pages) / group)
    sizes = [len(script) for script in scripts]
    assert len(sizes) == count and sizes[:-1] == [group] * (count - 1) and sizes[-1] <= group
    index = ordered(data)
    chunks = [json.loads(page_chunk(index, page)) for page in range(len(data.pages))]
    assert [chunk for script in scripts for chunk in script] == chunks
    pages = {p for p in grouped if p.startswith(f"{SHARD_FOLDER}/p")}
    rest = {p: t for p, t in grouped.items() if p not in pages and p != INDEX_FILE}
    assert len(rest) + count + 1 == len(grouped)
    assert rest == {p: t for p, t in files.items() if p in rest}
    assert {**manifest, "group": PAGE_GROUP} == parse(files[INDEX_FILE])[1]
    for query in QUERIES:
        assert sharded(Shards(grouped), query) == unsharded(data, query), query


def test_a_long_token_is_listed_by_its_cut_form(files: dict[str, str]) -> None:
    long = "sitegen.site.search_shards.encode_set_with_a_very_long_name"
    assert form(long) == long[:FORM_LENGTH] + CUT
    manifest = parse(files[INDEX_FILE])[1]
    own = parse(files[f"{SHARD_FOLDER}/t{bucket(form(long), manifest['tokens'])}.js"])[1]
    assert long.lower() in own


def _digest(files: dict[str, str]) -> str:
    return hashlib.sha256(repr(sorted(files.items())).encode()).hexdigest()


def test_the_same_index_gives_the_same_bytes_whatever_the_hash_seed(
    files: dict[str, str],
) -> None:
    code = (
        "from tests.site.search_model import sample_data\n"
        "from tests.site.test_search import _digest\n"
        "from sitegen.site.search_shards import search_index_files\n"
        "print(_digest(search_index_files(sample_data())))\n"
    )
    seen = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        proc = subprocess.run(
            [sys.executable, "-c", code],
            check=False,  # the assertion shows stderr
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
        )
        assert proc.returncode == 0, proc.stderr
        seen.add(proc.stdout.strip())
    assert seen == {_digest(files)}


def test_an_edit_rewrites_only_the_shards_of_what_changed(
    data: SearchData, files: dict[str, str]
) -> None:
    page, heading, anchor, text = data.sections[5]
    edited = list(data.sections)
    edited[5] = (page, heading, anchor, text + " quokka")
    after = search_index_files(SearchData(data.pages, edited, data.symbols))
    changed = {p for p in files if files[p] != after.get(p)}
    assert set(after) == set(files)  # same shard counts: the same files
    chunks = {p for p in changed if p.startswith(f"{SHARD_FOLDER}/p")}
    assert len(chunks) == 1  # the page's own script; every other page's is the same bytes
    manifest = parse(after[INDEX_FILE])[1]
    # "quokka"'s token shard, and the key shards of its keys (at most one per key).
    keys = {"quokka"[i : i + n] for n in range(1, KEY_LENGTH + 1) for i in range(6)}
    assert len(changed - chunks) <= 1 + len(keys)
    assert f"{SHARD_FOLDER}/t{bucket('quokka', manifest['tokens'])}.js" in changed
    assert INDEX_FILE not in changed
    assert sharded(Shards(after), "quokk").total == 1


def test_no_script_can_be_closed_by_content() -> None:
    data = SearchData(
        [("x.html", "X </script><script>alert(1)</script>")],
        [(0, "H </script>", "", "A </script><script>alert(1)</script> \u2028 line \u2029")],
        [("</script>", "function", "code/x.html#L1", "x</script>.py")],
    )
    files = search_index_files(data)
    for text in files.values():
        assert "</script" not in text.lower() and "\u2028" not in text and "\u2029" not in text
    chunks = parse(files[f"{SHARD_FOLDER}/p0.js"])[1]
    assert chunks == [["x.html", data.pages[0][1], [["H </script>", "", data.sections[0][3]]]]]
    assert sharded(Shards(files), "alert").hits[0].title == data.pages[0][1]


def test_ranking_by_hand_title_heading_text_and_ties() -> None:
    """Scores worked out by hand: a title that is the query 10+20, a heading that is the
    query 4+8, a title that holds it 10, a text 1; a symbol whose last name is the query 22,
    which ties with a page holding it in its title and heading, and a page of the same name
    goes first, as pages were listed before symbols."""
    data = SearchData(
        [
            ("text.html", "Notes"),
            ("holds.html", "A usage guide"),
            ("heading.html", "Notes"),
            ("is.html", "Usage"),
            ("tie.html", "pkg.Usage"),
        ],
        [
            (0, "", "", "see usage here"),
            (1, "Intro", "", "nothing"),
            (2, "Intro", "", "nothing"),
            (2, "Usage", "usage", "nothing"),
            (3, "Start", "", "nothing"),
            (4, "Usage", "u", "nothing"),
        ],
        [("pkg.Usage", "class", "code/pkg.py.html#L1", "pkg.py")],
    )
    expected = [
        ("is.html", 30),
        ("tie.html#u", 22),  # 10 (title) + 4 (heading) + 8 (the heading is the query)
        ("code/pkg.py.html#L1", 22),  # its last name is the query; same name, after the page
        ("heading.html#usage", 12),
        ("holds.html", 10),
        ("text.html", 1),
    ]
    found = sharded(Shards(search_index_files(data)), "Usage")
    assert [h.href for h in found.hits] == [href for href, _ in expected]
    assert found == unsharded(data, "Usage")


def test_a_dense_set_is_a_bitmap_and_a_sparse_one_a_list_of_gaps() -> None:
    import numpy as np

    from sitegen.site.search_shards import encode_set
    from tests.site.search_model import decode_set

    dense = np.arange(0, 1000, 2, dtype=np.int64)
    sparse = np.array([3, 700, 701], dtype=np.int64)
    assert encode_set(sparse, 1000) == "[3,697,1]"
    text = encode_set(dense, 1000)
    assert text.startswith('"') and len(text) < 2 * len(dense)
    assert decode_set(text.strip('"'), 1000) == set(dense.tolist())
    assert encode_set(np.array([], dtype=np.int64), 10) == "[]"
