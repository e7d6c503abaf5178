"""The search index's per-page memo and its faster parts (sitegen.site.search,
sitegen.site.search_shards): an index made with the memo warm, or after pages changed, is
byte for byte the index made from nothing; the index of the sample data is byte for byte
what the code before the memo wrote; and each rewritten part (plain text, words, buckets,
sets, the forms a key lists) gives what its plain version gives."""

from __future__ import annotations

import base64
import dataclasses
import html
import math
import random
import re

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from sitegen.base.paths import NodeId
from sitegen.docs.markdown import extract_page
from sitegen.docs.sanitize import RawHtml
from sitegen.records.pages import PageRecord
from sitegen.site import search, search_shards
from sitegen.site.search import plain_text, search_data
from sitegen.site.search_shards import (
    CUT,
    FORM_LENGTH,
    bucket,
    buckets,
    encode_set,
    forget,
    form,
    search_index_files,
    vocab_keys,
    words,
)
from tests.site.search_model import sample_data
from tests.site.test_search import _digest

#: Words of every kind the tokenizer meets: plain, capitalised, dotted, with "_", numbers,
#: not ASCII, one longer than a form, and two long ones that share their form.
VOCABULARY = [
    "airship", "Hangar", "mooring", "gas.cell", "rigid_frame", "3.14", "v2", "café", "crème",
    "日本語", "Σίσυφος", "İstanbul", "ﬁne", "Kelvin\u212a", "zeppelin_hangar_door_mechanism",
    "sitegen.site.search_shards.encode_set_with_a_very_long_name",
    "sitegen.site.search_shards.encode_set_with_a_very_long_other",
]  # fmt: skip
#: Markup the sections are cut from: entities, inline code, emphasis, odd spaces.
MARKS = ["&amp;", "&lt;b&gt;", "`code`", "**bold**", "_it_", "\u00a0", "\u2003", "a&#10;b"]


def _page(rng: random.Random, n: int, extra: str = "") -> bytes:
    parts = [f"# {rng.choice(VOCABULARY).title()} {n}\n"]
    for s in range(rng.randint(0, 4)):
        level = rng.choice(["##", "###"])
        parts.append(f"{level} {rng.choice(VOCABULARY)} {rng.choice(['Usage', ''])} {s}\n")
        pool = VOCABULARY + MARKS + [f"w{rng.randint(0, 400)}"]
        parts.append(" ".join(rng.choice(pool) for _ in range(rng.randint(0, 50))) + "\n")
    return ("\n".join(parts) + extra).encode()


def _sources(count: int = 60, seed: int = 3) -> dict[str, bytes]:
    rng = random.Random(seed)
    return {f"content/d{n % 4}/page-{n}.md": _page(rng, n) for n in range(count)}


def _site() -> dict[NodeId, PageRecord]:
    """The sample site's pages, and one with raw HTML in it."""
    pages = {
        NodeId(path[len("content") :]): extract_page(path, data)
        for path, data in _sources().items()
    }
    pages[NodeId("/raw.md")] = extract_page("content/raw.md", RAW)
    return pages


RAW = b"# A <b>bold</b> title\n\n<em>hi</em> there &amp; <span>here</span>\n"
EDITED = NodeId("/d1/page-5.md")


def _fresh(pages: dict[NodeId, PageRecord]) -> dict[str, str]:
    forget()  # as in a new process
    return search_index_files(search_data(pages, []))


def _warm(pages: dict[NodeId, PageRecord]) -> dict[str, str]:
    return search_index_files(search_data(pages, []))


def _changed(pages: dict[NodeId, PageRecord], edit: str) -> dict[NodeId, PageRecord]:
    """``pages`` after one edit of the kind ``edit`` names."""
    if edit == "a page removed":
        return {k: v for k, v in pages.items() if k != EDITED}
    if edit == "a page added":
        return {**pages, NodeId("/new.md"): extract_page("content/new.md", b"# New\n\nzeppelin\n")}
    if edit == "the raw_html mode":  # the same bytes (content_hash), other HTML
        return {**pages, NodeId("/raw.md"): extract_page("content/raw.md", RAW, RawHtml.ESCAPE)}
    path = pages[EDITED].path
    data = _sources()[path]
    data = {
        "a new word": data + b"\nquokka\n",
        "known words only": data + b"\nairship mooring hangar\n",
        "a heading more": data + b"\n## Usage\n\nairship\n",
        "another title": b"---\ntitle: Quite another title\n---\n" + data,
    }[edit]
    return {**pages, EDITED: extract_page(path, data)}


EDITS = [
    "a new word",
    "known words only",
    "a heading more",
    "another title",
    "a page removed",
    "a page added",
    "the raw_html mode",
]


@pytest.mark.parametrize("edit", EDITS)
def test_after_one_page_changed_a_warm_memo_gives_a_fresh_index(edit: str) -> None:
    pages = _site()
    before = _fresh(pages)
    _warm(pages)
    after = _changed(pages, edit)
    warm = _warm(after)
    assert warm == _fresh(after)
    assert warm != before


def test_a_rebuild_redoes_only_the_changed_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """`sitegen serve` rebuilds in one process: the pages that did not change are looked
    up, and an edit that brings no new word keeps the keys of the vocabulary too."""
    pages = _site()
    _fresh(pages)
    cut: list[str] = []
    real = search.page_sections

    def counted(body: str) -> list[search.Section]:
        cut.append(body)
        return real(body)

    monkeypatch.setattr(search, "page_sections", counted)
    terms, keys = search_shards.page_terms.cache_info(), search_shards.vocab_keys.cache_info()
    _warm(_changed(pages, "known words only"))
    assert len(cut) == 1
    assert search_shards.page_terms.cache_info().misses == terms.misses + 1
    assert search_shards.vocab_keys.cache_info().hits == keys.hits + 1
    _warm(_changed(pages, "a new word"))
    assert len(cut) == 2
    assert search_shards.vocab_keys.cache_info().misses == keys.misses + 1


def test_a_title_over_the_same_sections_is_its_own_entry() -> None:
    """The memo of a page's words is keyed by its title and sections together."""
    pages = _site()
    _warm(pages)
    node = NodeId("/d1/page-9.md")
    renamed = {**pages, node: dataclasses.replace(pages[node], title="Quite another title")}
    assert _warm(renamed) == _fresh(renamed)


#: sha256 of search_index_files(sample_data(*args)) (tests.site.test_search._digest), as the
#: code before the per-page memo wrote it: the same rows give the same bytes. A deliberate
#: change of the format (content/guides/site.md#search) changes these with it: last, the
#: manifest's version 3, pages' chunks PAGE_GROUP to a script (the key, token and symbol
#: scripts the same bytes as before, each page script its pages' chunks in a list).
BEFORE = {
    (): "4cbaaaec838a7cad79b84b1294784694ac27ef1fc2067ceb2909372578ff5c75",
    (600, 3): "3f845436db5816052ec409aca24b50b152f40890ab0b8acabb47e5770a959400",
    (2000, 11): "dd87fb1da9e7f475d3cfb845f2927bbc93b689ac522588e63b6ab868e25bc5f5",
}


@pytest.mark.parametrize("args", list(BEFORE))
def test_the_sample_index_is_byte_for_byte_what_it_was(args: tuple[int, ...]) -> None:
    forget()
    cold = search_index_files(sample_data(*args))
    assert _digest(cold) == BEFORE[args]
    assert _digest(search_index_files(sample_data(*args))) == BEFORE[args]  # memo warm


# ---------------------------------------------------------------- each part against its plain version

_TAG = re.compile(r"<[^>]*>")
_SPACE = re.compile(r"\s+")


def _plain_text_before(fragment: str) -> str:
    return _SPACE.sub(" ", html.unescape(_TAG.sub(" ", fragment))).strip()


def test_split_breaks_at_every_character_the_regex_calls_space() -> None:
    every = "".join(map(chr, range(0x110000))).replace("<", "").replace("&", "")
    assert plain_text(every) == _plain_text_before(every)
    spaces = [chr(c) for c in range(0x110000) if re.fullmatch(r"\s", chr(c))]
    assert spaces == [chr(c) for c in range(0x110000) if chr(c).isspace()]


#: Fragments of markup, entities and spaces of every kind.
PIECES = [*"ab <>&;#x1 \t\n\u00a0\u2003\u2028\x1cé日", "&amp;", "&#10;", "&nbsp;", "&lt;", "<b>"]
FRAGMENTS = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)


@given(FRAGMENTS)
@settings(max_examples=400, deadline=None)
def test_plain_text_is_what_it_was(fragment: str) -> None:
    assert plain_text(fragment) == _plain_text_before(fragment)


def test_words_of_every_ascii_character_are_the_regex_words() -> None:
    text = "".join(map(chr, range(128))) * 2 + " a.B_c9 ..x"
    assert words(text) == re.findall(r"[\w.]+", text.lower())


@given(
    st.text(alphabet=st.sampled_from(list("aZ_.9 -\u212aİéß日\t,") + ["\U0001f680"]), max_size=40)
)
@settings(max_examples=400, deadline=None)
def test_words_are_the_regex_words(text: str) -> None:
    assert words(text) == re.findall(r"[\w.]+", text.lower())


@given(st.lists(st.text(min_size=1, max_size=30), max_size=40), st.sampled_from([1, 2, 8, 1024]))
@settings(max_examples=200, deadline=None)
def test_buckets_are_bucket_of_each(keys: list[str], count: int) -> None:
    assert buckets(keys, count).tolist() == [bucket(k, count) for k in keys]


def _encode_set_before(ids: list[int], size: int) -> str:
    bitmap = 2 + 4 * math.ceil(math.ceil(size / 8) / 3)
    if 2 * len(ids) + 1 <= bitmap:
        gaps = [b - a for a, b in zip([0, *ids], ids, strict=False)]
        text = "[" + ",".join(map(str, gaps)) + "]"
        if len(text) <= bitmap:
            return text
    bits = np.zeros(size, dtype=np.uint8)
    bits[ids] = 1
    packed = np.packbits(bits, bitorder="little").tobytes()
    return '"' + base64.b64encode(packed).decode("ascii") + '"'


@given(
    st.integers(1, 3000).flatmap(lambda n: st.tuples(st.just(n), st.sets(st.integers(0, n - 1))))
)
@settings(max_examples=300, deadline=None)
def test_a_set_is_encoded_as_it_was(sized: tuple[int, set[int]]) -> None:
    size, ids = sized
    wanted = _encode_set_before(sorted(ids), size)
    assert encode_set(np.array(sorted(ids), dtype=np.int64), size) == wanted


def test_rows_on_both_sides_of_the_list_or_bitmap_line_are_encoded_as_they_were() -> None:
    rng = random.Random(5)
    for size in (1, 7, 8, 9, 100, 1000, 20000):
        for count in {0, 1, size // 13, size // 12, size // 11, size // 6, size}:
            ids = sorted(rng.sample(range(size), min(count, size)))
            assert encode_set(np.array(ids, np.int64), size) == _encode_set_before(ids, size)


TOKENS = st.text(
    alphabet=st.sampled_from(list("ab.") + ["\U0001f680", "é"]), min_size=1, max_size=30
)


@given(st.sets(TOKENS, min_size=1, max_size=60))
@example({"a" * 24, "a" * 24 + "b", "a" * 24 + "ab", "a" * 23 + "b" * 3, "a" * 25, "b" * 26})
@settings(max_examples=200, deadline=None)
def test_a_key_lists_the_sorted_distinct_forms_of_its_tokens(tokens: set[str]) -> None:
    """Long tokens that share their first FORM_LENGTH characters share one form (CUT)."""
    vocab = tuple(sorted(tokens))
    keys, forms = vocab_keys(vocab)
    for name, listed in zip(keys.names, forms, strict=True):
        inside = {form(t) for t in vocab if name in t}
        assert listed == "[" + ",".join(f'"{f}"' for f in sorted(inside)) + "]"
    assert keys.names == sorted(
        {t[i : i + n] for t in vocab for n in (1, 2, 3) for i in range(len(t) - n + 1)}
    )
    assert all(
        len(f) <= FORM_LENGTH + 1 and (len(f) <= FORM_LENGTH or f.endswith(CUT))
        for f in map(form, vocab)
    )
