"""The search index as scripts loaded on demand: a small manifest, key shards, token shards,
one chunk per page and the symbols, so that a first query at 5,000 pages downloads a few
hundred KB instead of the whole index, still from ``file://`` (content/guides/site.md#search).

A query word matches where it occurs anywhere in a title, heading or text (a substring, as
it always did), so the shards are keyed by what a word starts with and answer for every token
that contains it. Never reads files and never emits markup; the same index gives the same
bytes, whatever the hash seed.
"""

from __future__ import annotations

import base64
import bisect
import json
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp

from sitegen.site.search import SearchData

#: The manifest, at the site root; every other index script is in SHARD_FOLDER.
INDEX_FILE = "search-index.js"
SHARD_FOLDER = "search-index"
#: The function every index script calls with its name and data (templates/search.js).
INDEX_GLOBAL = "SITEGEN_SEARCH"
#: A word's key is its first KEY_LENGTH characters (code points): it names the key entry.
KEY_LENGTH = 3
#: A token longer than this is listed in key entries by its first FORM_LENGTH characters
#: and CUT, so a long token costs the same in each of its keys (linear in the text).
FORM_LENGTH = 24
CUT = "\u2026"
#: A key inside more tokens than this carries its own answers, so a short word typed on the
#: way to a longer one never needs the shards of every token that contains it.
POPULAR = 16
#: How many popular keys' answers are computed together.
BLOCK = 32
#: The size a shard aims at; the number of key and token shards is a power of two.
SHARD_BYTES = 8192

_TOKEN = re.compile(r"[\w.]+")  # \w is [\p{L}\p{N}_], the characters search.js splits on
IntArray = npt.NDArray[np.int64]


def words(text: str) -> list[str]:
    """The words of a text, in order, as search.js splits a query: lower-cased runs of
    letters, digits, "_" and "."."""
    return _TOKEN.findall(text.lower())


def bucket(key: str, count: int) -> int:
    """The shard of a key: 32-bit FNV-1a over its code points (search.js computes the same)."""
    h = 2166136261
    for ch in key:
        h = ((h ^ ord(ch)) * 16777619) & 0xFFFFFFFF
    return h % count


def form(token: str) -> str:
    """How key entries list a token: itself, or its first FORM_LENGTH characters and CUT."""
    return token if len(token) <= FORM_LENGTH else token[:FORM_LENGTH] + CUT


def title_order(title: str) -> bytes:
    """JavaScript's order of strings (by UTF-16 code unit), which search.js sorts titles by."""
    return title.encode("utf-16-be", "surrogatepass")


def encode_set(ids: IntArray, size: int) -> str:
    """A sorted set of ids below ``size`` as JSON: the gaps between them (a list), or a
    bitmap in base64 (a string) when that is shorter."""
    bitmap = 2 + 4 * math.ceil(math.ceil(size / 8) / 3)
    if 2 * len(ids) + 1 <= bitmap:
        gaps = ids.tolist() if len(ids) < 2 else np.diff(ids, prepend=0).tolist()
        text = "[" + ",".join(map(str, gaps)) + "]"
        if len(text) <= bitmap:
            return text
    bits = np.zeros(size, dtype=np.uint8)
    bits[ids] = 1
    packed = np.packbits(bits, bitorder="little").tobytes()
    return '"' + base64.b64encode(packed).decode("ascii") + '"'


@dataclass(frozen=True)
class Ordered:
    """The plain index numbered for the shards: pages in the order results are sorted by
    when scores tie (title, then node), sections page by page, symbols by name."""

    pages: list[tuple[str, str]]
    sections: list[list[tuple[str, str, str]]]
    #: (name, kind, href, path, how many pages sort before it).
    symbols: list[tuple[str, str, str, str, int]]


def ordered(data: SearchData) -> Ordered:
    """Pages numbered by (title, node), so that search.js breaks a tie by page number."""
    order = sorted(range(len(data.pages)), key=lambda i: (title_order(data.pages[i][1]), i))
    by_page: list[list[tuple[str, str, str]]] = [[] for _ in data.pages]
    for page, heading, anchor, text in data.sections:
        by_page[page].append((heading, anchor, text))
    titles = [title_order(data.pages[i][1]) for i in order]
    named = sorted(range(len(data.symbols)), key=lambda i: (title_order(data.symbols[i][0]), i))
    # A page comes before a symbol of the same score when its title sorts first or ties
    # (pages were listed first, and the sort is stable).
    symbols = [
        (*data.symbols[i], bisect.bisect_right(titles, title_order(data.symbols[i][0])))
        for i in named
    ]
    return Ordered([data.pages[i] for i in order], [by_page[i] for i in order], symbols)


@dataclass(frozen=True)
class Postings:
    """Every distinct token and where it occurs: pages by title, sections by heading and by
    text (a row per token; token ids follow no order and never reach the output)."""

    vocab: list[str]
    title: sp.csr_array
    heading: sp.csr_array
    text: sp.csr_array


@dataclass
class _Cells:
    """The (token, column) pairs of one postings matrix, gathered before it is made."""

    rows: list[int] = field(default_factory=list)
    cols: list[int] = field(default_factory=list)

    def add(self, ids: dict[str, int], tokens: Iterable[str], col: int) -> None:
        for token in set(tokens):
            self.rows.append(ids.setdefault(token, len(ids)))
            self.cols.append(col)


def postings(index: Ordered) -> Postings:
    """One pass over every title, heading and text (pages and sections in their order)."""
    ids: dict[str, int] = {}
    title, heading, text = _Cells(), _Cells(), _Cells()
    section = 0
    for page, (_, name) in enumerate(index.pages):
        title.add(ids, words(name), page)
        for head, _, body in index.sections[page]:
            heading.add(ids, words(head), section)
            text.add(ids, words(body), section)
            section += 1
    pages, sections = (len(ids), len(index.pages)), (len(ids), section)
    return Postings(
        list(ids),
        _matrix(title.rows, title.cols, pages),
        _matrix(heading.rows, heading.cols, sections),
        _matrix(text.rows, text.cols, sections),
    )


def _matrix(rows: list[int], cols: list[int], shape: tuple[int, int]) -> sp.csr_array:
    data = np.ones(len(rows), dtype=np.int32)
    m = sp.csr_array((data, (np.array(rows, np.int64), np.array(cols, np.int64))), shape=shape)
    m.sort_indices()
    return m


def _row(m: sp.csr_array, i: int) -> IntArray:
    return np.asarray(m.indices[m.indptr[i] : m.indptr[i + 1]], dtype=np.int64)


def token_sets(p: Postings, i: int) -> str:
    """One token's answers as JSON: [pages by title, sections by heading, by text]."""
    return _triple(p, p.title, p.heading, p.text, i)


def _triple(p: Postings, t: sp.csr_array, h: sp.csr_array, x: sp.csr_array, i: int) -> str:
    """Row ``i`` of a title, a heading and a text matrix, encoded: '[titles,headings,texts]'."""
    pages, sections = p.title.shape[1], p.text.shape[1]
    sets = (encode_set(_row(t, i), pages), encode_set(_row(h, i), sections))
    return "[" + ",".join((*sets, encode_set(_row(x, i), sections))) + "]"


def grams(vocab: Sequence[str]) -> dict[str, list[int]]:
    """Every key a word may have (the distinct substrings of 1 to KEY_LENGTH characters of
    every token) with the tokens that contain it."""
    found: dict[str, list[int]] = {}
    for i, token in enumerate(vocab):
        inside = {
            token[j : j + n] for n in range(1, KEY_LENGTH + 1) for j in range(len(token) - n + 1)
        }
        for gram in inside:
            found.setdefault(gram, []).append(i)
    return found


def popular_sets(p: Postings, found: dict[str, list[int]]) -> dict[str, str]:
    """The answers of every popular key: the union of its tokens' sets, as sparse products
    of BLOCK keys at a time (a popular key may be in most sections: the block bounds the
    memory the products take)."""
    popular = sorted(g for g, tokens in found.items() if len(tokens) > POPULAR)
    answers: dict[str, str] = {}
    for at in range(0, len(popular), BLOCK):
        block = popular[at : at + BLOCK]
        rows = [k for k, g in enumerate(block) for _ in found[g]]
        cols = [i for g in block for i in found[g]]
        pick = _matrix(rows, cols, (len(block), len(p.vocab)))
        t, h, x = (_sorted(pick @ m) for m in (p.title, p.heading, p.text))
        answers.update((g, _triple(p, t, h, x, k)) for k, g in enumerate(block))
    return answers


def _sorted(m: sp.csr_array) -> sp.csr_array:
    out = sp.csr_array(m)
    out.sort_indices()
    return out


def key_entries(p: Postings, found: dict[str, list[int]]) -> dict[str, str]:
    """Each key's entry as JSON: ``s``, its answers (a popular key), and ``t``, the forms of
    the tokens that contain it (any 3-character key, and the short keys that are not
    popular), which name the token shards to load."""
    answers = popular_sets(p, found)
    entries: dict[str, str] = {}
    for gram, tokens in found.items():
        parts = []
        if gram in answers:
            parts.append(f'"s":{answers[gram]}')
        if len(gram) == KEY_LENGTH or gram not in answers:
            forms = sorted({form(p.vocab[i]) for i in tokens})
            parts.append('"t":' + _json(forms))
        entries[gram] = "{" + ",".join(parts) + "}"
    return entries


def phrase_entries(index: Ordered) -> dict[str, str]:
    """Titles and headings that a query can equal (their lower-cased text is their words
    joined by single spaces), by that text: [pages, sections]. search.js adds 20 for a title
    and 8 for a heading that equals the query."""
    titles: dict[str, list[int]] = {}
    headings: dict[str, list[int]] = {}
    section = 0
    for page, (_, title) in enumerate(index.pages):
        if _phrase(title):
            titles.setdefault(title.lower(), []).append(page)
        for heading, _, _ in index.sections[page]:
            if _phrase(heading):
                headings.setdefault(heading.lower(), []).append(section)
            section += 1
    empty = np.zeros(0, dtype=np.int64)
    return {
        phrase: "["
        + encode_set(np.array(titles.get(phrase, empty), np.int64), len(index.pages))
        + ","
        + encode_set(np.array(headings.get(phrase, empty), np.int64), section)
        + "]"
        for phrase in titles.keys() | headings.keys()
    }


def _phrase(text: str) -> bool:
    found = words(text)
    return bool(found) and text.lower() == " ".join(found)


def shard_count(entries: Iterable[tuple[str, str]]) -> int:
    """How many shards hold these entries: a power of two, about SHARD_BYTES each."""
    total = sum(len(k) + len(v) + 4 for k, v in entries)
    return 1 << max(0, math.ceil(math.log2(max(1, total / SHARD_BYTES))))


def shards(entries: dict[str, str], place: dict[str, str], count: int) -> list[str]:
    """The entries cut into ``count`` JSON objects; an entry goes to the shard of
    ``place[name]`` (its key, or its token's form), sorted by name within each."""
    cut: list[list[str]] = [[] for _ in range(count)]
    for name in sorted(entries):
        cut[bucket(place[name], count)].append(_json(name) + ":" + entries[name])
    return ["{" + ",".join(parts) + "}" for parts in cut]


def key_shards(keys: dict[str, str], phrases: dict[str, str]) -> list[str]:
    """Key shards: each holds ``g``, the entries of its keys, and ``p``, the phrases whose
    first word has one of its keys."""
    count = shard_count([*keys.items(), *phrases.items()])
    g = shards(keys, {k: k for k in keys}, count)
    first = {phrase: phrase.split(" ", 1)[0][:KEY_LENGTH] for phrase in phrases}
    p = shards(phrases, first, count)
    return [f'{{"g":{a},"p":{b}}}' for a, b in zip(g, p, strict=True)]


def token_shards(p: Postings) -> list[str]:
    """Token shards: each token's answers, in the shard of its form."""
    entries = {token: token_sets(p, i) for i, token in enumerate(p.vocab)}
    count = shard_count(entries.items())
    return shards(entries, {t: form(t) for t in entries}, count)


def page_chunk(index: Ordered, page: int) -> str:
    """What a result shows of one page: [href, title, [[heading, anchor, text], ...]]."""
    href, title = index.pages[page]
    return _json([href, title, [list(s) for s in index.sections[page]]])


def manifest(index: Ordered, keys: int, tokens: int) -> str:
    """The manifest, loaded the first time the box is used: how many sections each page
    has (in result order) and how many shards of each kind there are."""
    return _json(
        {
            "version": 2,
            "key": KEY_LENGTH,
            "keys": keys,
            "tokens": tokens,
            "sections": [len(s) for s in index.sections],
            "symbols": len(index.symbols),
        }
    )


def search_index_files(data: SearchData) -> dict[str, str]:
    """Every file of the index, by output path: ``search-index.js`` and the scripts of
    ``search-index/`` (k<n>, t<n>, p<page>, symbols), each a call of SITEGEN_SEARCH."""
    index = ordered(data)
    post = postings(index)
    keys = key_shards(key_entries(post, grams(post.vocab)), phrase_entries(index))
    tokens = token_shards(post)
    files = {INDEX_FILE: script("manifest", manifest(index, len(keys), len(tokens)))}
    parts = [(f"k{n}", text) for n, text in enumerate(keys)]
    parts += [(f"t{n}", text) for n, text in enumerate(tokens)]
    parts += [(f"p{n}", page_chunk(index, n)) for n in range(len(index.pages))]
    if index.symbols:
        parts.append(("symbols", _json([list(s) for s in index.symbols])))
    for name, text in parts:
        files[f"{SHARD_FOLDER}/{name}.js"] = script(name, text)
    return files


def script(name: str, data: str) -> str:
    """One index script: a call of SITEGEN_SEARCH with its name and its JSON data."""
    text = f"window.{INDEX_GLOBAL}({_json(name)},{data});\n"
    # JSON is valid JS; "</" is escaped only so that the text can never close a script tag.
    return text.replace("</", "<\\/").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
