"""The search index as scripts loaded on demand: a small manifest, key shards, token shards,
the pages' chunks (PAGE_GROUP pages a script) and the symbols, so that a first query at 5,000
pages downloads a few hundred KB instead of the whole index, still from ``file://``
(content/guides/site.md#search).

A query word matches where it occurs anywhere in a title, heading or text (a substring, as
it always did), so the shards are keyed by what a word starts with and answer for every token
that contains it. What a page alone decides (its words, its chunk) is kept between the
builds of one process, keyed by the page's rows, so a rebuild after an edit redoes that
page's share and the index-wide steps, which run over arrays. Never reads files and never
emits markup; the same index gives the same bytes, whatever the hash seed or the memos.
"""

from __future__ import annotations

import base64
import bisect
import functools
import json
import math
import re
import sys
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain, pairwise
from operator import add

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp

from sitegen.site.search import SECTIONS, SearchData

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
#: How many bytes the sets drawn as bitmaps at once may take (a byte per id, then packed).
BITMAP_BYTES = 1 << 22
#: The size a shard aims at; the number of key and token shards is a power of two.
SHARD_BYTES = 8192
#: How many consecutive pages' chunks one script holds: page n is chunk n % PAGE_GROUP of
#: p<n // PAGE_GROUP>. Creating a file costs 0.35-0.8 ms of kernel time where writing into
#: one costs 0.02 ms, so a script a page cost 2-4 s of a 5,000-page build; but each result
#: shown loads its page's whole script. Why 4 (bench/search.py --group, 5,000 pages, the
#: issue's limit 1 MB for a first query): its queries download 307-383 KB set at once and
#: 395-420 KB typed, about 40 % of the limit, the margin a reader typing slowly needs (each
#: prefix's results are drawn: 788 KB for "caching" at 300 ms a key); 8 made it 574-733 KB
#: and 16 up to 1.34 MB; 1 was 103-156 KB (bench/README.md, "Page scripts of 4 pages").
PAGE_GROUP = 4

_TOKEN = re.compile(r"[\w.]+")  # \w is [\p{L}\p{N}_], the characters search.js splits on
#: Every ASCII character _TOKEN does not match, made a space: the words of an ASCII text are
#: then its ``split()``, twice as fast as the regular expression.
_ASCII_BREAKS = {c: " " for c in range(128) if not _TOKEN.fullmatch(chr(c))}
#: A string as JSON, as ``json.dumps(s, ensure_ascii=False)`` writes it (the same function,
#: without the encoder's setting up, which costs more than the work for a short string).
_string = json.encoder.encode_basestring
IntArray = npt.NDArray[np.int64]
SmallArray = npt.NDArray[np.int32]


def words(text: str) -> list[str]:
    """The words of a text, in order, as search.js splits a query: lower-cased runs of
    letters, digits, "_" and "."."""
    return _split(text.lower())


def _split(low: str) -> list[str]:
    """The words of a text already lower-cased."""
    if low.isascii():
        return low.translate(_ASCII_BREAKS).split()
    return _TOKEN.findall(low)


def bucket(key: str, count: int) -> int:
    """The shard of a key: 32-bit FNV-1a over its code points (search.js computes the same)."""
    h = 2166136261
    for ch in key:
        h = ((h ^ ord(ch)) * 16777619) & 0xFFFFFFFF
    return h % count


def buckets(keys: Sequence[str], count: int) -> IntArray:
    """bucket() of every key, one character position at a time for all of them."""
    lengths = np.array([len(k) for k in keys], dtype=np.int64)
    width = max(1, int(lengths.max(initial=0)))
    # UTF-32 code points, padded with zeros beyond each key's length.
    codes = np.array(keys, dtype=f"<U{width}").view(np.uint32).reshape(len(keys), width)
    h = np.full(len(keys), 2166136261, dtype=np.uint64)
    for j in range(width):
        step = ((h ^ codes[:, j]) * np.uint64(16777619)) & np.uint64(0xFFFFFFFF)
        h = np.where(lengths > j, step, h)
    return (h % np.uint64(count)).astype(np.int64)


def form(token: str) -> str:
    """How key entries list a token: itself, or its first FORM_LENGTH characters and CUT."""
    return token if len(token) <= FORM_LENGTH else token[:FORM_LENGTH] + CUT


def title_order(title: str) -> bytes:
    """JavaScript's order of strings (by UTF-16 code unit), which search.js sorts titles by."""
    return title.encode("utf-16-be", "surrogatepass")


def encode_set(ids: IntArray, size: int) -> str:
    """A sorted set of ids below ``size`` as JSON: the gaps between them (a list), or a
    bitmap in base64 (a string) when that is shorter."""
    row = sp.csr_array((np.ones(len(ids), np.int32), ids, [0, len(ids)]), shape=(1, size))
    return encoded_rows(row)[0]


def encoded_rows(m: sp.csr_array) -> list[str]:
    """encode_set of every row of ``m`` (its columns in order): the gaps of all rows found
    at once and written by table, the bitmaps drawn many rows at a time."""
    size = m.shape[1]
    room = 2 + 4 * math.ceil(math.ceil(size / 8) / 3)  # a bitmap's characters
    ids = np.asarray(m.indices, dtype=np.int64)
    counts = np.diff(m.indptr)
    gaps = np.diff(ids, prepend=0)
    firsts = m.indptr[:-1][counts > 0]
    gaps[firsts] = ids[firsts]  # a row's first gap is its first id
    listed = 2 * counts + 1 <= room
    digits = list(map(_decimals(size).__getitem__, gaps[np.repeat(listed, counts)].tolist()))
    out: list[str] = []
    drawn: list[int] = []
    at = 0
    for row, (n, short) in enumerate(zip(counts.tolist(), listed.tolist(), strict=True)):
        if short:
            text = "[" + ",".join(digits[at : at + n]) + "]"
            at += n
            if len(text) <= room:
                out.append(text)
                continue
        out.append("")
        drawn.append(row)
    step = max(1, BITMAP_BYTES // max(size, 1))
    for at in range(0, len(drawn), step):
        some = drawn[at : at + step]
        for row, text in zip(some, _bitmaps(m[some], size), strict=True):
            out[row] = text
    return out


@functools.lru_cache(maxsize=8)
def _decimals(size: int) -> list[str]:
    """Every number below ``size`` in decimal, which a gap always is: a lookup in this
    list costs a fraction of a str()."""
    return list(map(str, range(max(size, 1))))


def _bitmaps(m: sp.csr_array, size: int) -> list[str]:
    """Every row of ``m`` as a bitmap: bit i of byte i // 8 (least significant first) is
    set when the row holds i, in base64 as a JSON string."""
    bits = np.zeros(m.shape, dtype=bool)
    bits[np.repeat(np.arange(m.shape[0]), np.diff(m.indptr)), m.indices] = True
    packed = np.packbits(bits, axis=1, bitorder="little")
    return ['"' + base64.b64encode(row.tobytes()).decode("ascii") + '"' for row in packed]


@dataclass(frozen=True)
class Ordered:
    """The plain index numbered for the shards: pages in the order results are sorted by
    when scores tie (title, then node), sections page by page, symbols by name."""

    pages: list[tuple[str, str]]
    sections: list[list[tuple[str, str, str]]]
    #: (name, kind, href, path, how many pages sort before it).
    symbols: list[tuple[str, str, str, str, int]]
    #: What the index needs of each page's title and sections, page by page.
    terms: list[PageTerms]
    #: Each page's locale (its number), on a site with locales; else empty.
    locales: list[int] = field(default_factory=list)


def ordered(data: SearchData) -> Ordered:
    """Pages numbered by (title, node), so that search.js breaks a tie by page number."""
    keys = [title_order(title) for _, title in data.pages]
    order = sorted(range(len(data.pages)), key=keys.__getitem__)  # stable: ties by node
    by_page: list[list[tuple[str, str, str]]] = [[] for _ in data.pages]
    for page, heading, anchor, text in data.sections:
        by_page[page].append((heading, anchor, text))
    titles = [keys[i] for i in order]
    named = sorted(range(len(data.symbols)), key=lambda i: (title_order(data.symbols[i][0]), i))
    # A page comes before a symbol of the same score when its title sorts first or ties
    # (pages were listed first, and the sort is stable).
    symbols = [
        (*data.symbols[i], bisect.bisect_right(titles, title_order(data.symbols[i][0])))
        for i in named
    ]
    terms = [page_terms(data.pages[i][1], tuple(by_page[i])) for i in order]
    locales = [data.locales[i] for i in order] if data.locales else []
    return Ordered(
        [data.pages[i] for i in order], [by_page[i] for i in order], symbols, terms, locales
    )


@dataclass(frozen=True, eq=False)
class PageTerms:
    """What the index needs of one page's title and sections: the page's distinct words,
    where each title, heading and text uses them (positions in ``words``; each section's
    after the one before, with how many each has), the phrases a query can equal, and the
    sections as the page's chunk lists them."""

    words: tuple[str, ...]
    title: SmallArray
    headings: SmallArray
    heading_counts: SmallArray
    texts: SmallArray
    text_counts: SmallArray
    #: The lower-cased title when a query can equal it (phrase_entries), or "".
    title_phrase: str
    #: Each section's lower-cased heading when a query can equal it, or "".
    phrases: tuple[str, ...]
    #: The sections as JSON: [[heading, anchor, text], ...].
    chunk: str


@functools.lru_cache(maxsize=1 << 16)
def page_terms(title: str, sections: tuple[tuple[str, str, str], ...]) -> PageTerms:
    """A page's terms, kept across the rebuilds of one `sitegen serve` process: they are a
    function of its title and sections, so a page that did not change costs a lookup (its
    strings are those sitegen.site.search.SECTIONS keeps, their hashes already known)."""
    title_words, title_phrase = _terms(title)
    heads = [_terms(heading) for heading, _, _ in sections]
    heading_words = [found for found, _ in heads]
    texts = [set(_split(text.lower())) for _, _, text in sections]
    # In no particular order (postings sorts every word), and interned: a word many pages
    # share is one string in this memo, and numbering the words compares pointers.
    words = tuple(map(sys.intern, title_words.union(*heading_words, *texts)))
    local = dict(zip(words, range(len(words)), strict=True))

    def positions(groups: Sequence[Collection[str]]) -> tuple[SmallArray, SmallArray]:
        sizes = [len(found) for found in groups]
        at = map(local.__getitem__, chain.from_iterable(groups))
        return np.fromiter(at, np.int32, sum(sizes)), np.array(sizes, np.int32)

    rows = ",".join(f"[{_string(h)},{_string(a)},{_string(t)}]" for h, a, t in sections)
    headings, texts_at = positions(heading_words), positions(texts)
    return PageTerms(
        words=words,
        title=positions([title_words])[0],
        headings=headings[0],
        heading_counts=headings[1],
        texts=texts_at[0],
        text_counts=texts_at[1],
        title_phrase=title_phrase,
        phrases=tuple(phrase for _, phrase in heads),
        chunk=f"[{rows}]",
    )


def _terms(text: str) -> tuple[set[str], str]:
    """A title's or a heading's distinct words, and its phrase: the text lower-cased when
    that is its words joined by single spaces (search.js compares the query so), else ""."""
    low = text.lower()
    found = _split(low)
    return set(found), (low if found and low == " ".join(found) else "")


@dataclass(frozen=True)
class Postings:
    """Every distinct token, sorted, and where it occurs: pages by title, sections by
    heading and by text (row i is ``vocab[i]``'s)."""

    vocab: list[str]
    title: sp.csr_array
    heading: sp.csr_array
    text: sp.csr_array


def postings(index: Ordered) -> Postings:
    """Every page's words numbered, once per page (PageTerms.words), and the three matrices
    made from the positions the pages' titles, headings and texts use, vectorized."""
    terms = index.terms
    vocab = sorted(set(chain.from_iterable(t.words for t in terms)))
    ids = dict(zip(vocab, range(len(vocab)), strict=True))
    # The id of every page's every word, page after page, and where each page's begin.
    number = np.fromiter(
        map(ids.__getitem__, chain.from_iterable(t.words for t in terms)), np.int64
    )
    first = np.cumsum([0, *(len(t.words) for t in terms)])[:-1]

    def incidence(used: list[SmallArray], counts: IntArray) -> sp.csr_array:
        # The words each column uses, column after column: a CSC matrix as it stands, and
        # its CSR form has every row's columns in order.
        lengths = np.array([len(x) for x in used], np.int64)
        rows = number[_joined(used) + np.repeat(first, lengths)]
        return _by_column(rows, counts, (len(vocab), len(counts)))

    title = [t.title for t in terms]
    return Postings(
        vocab,
        incidence(title, np.array([len(x) for x in title], np.int64)),
        incidence([t.headings for t in terms], _joined([t.heading_counts for t in terms])),
        incidence([t.texts for t in terms], _joined([t.text_counts for t in terms])),
    )


def _joined(arrays: list[SmallArray]) -> IntArray:
    return np.concatenate([np.zeros(0, np.int64), *arrays])


def _by_column(rows: IntArray, counts: IntArray, shape: tuple[int, int]) -> sp.csr_array:
    """The 0/1 matrix whose column j holds the next ``counts[j]`` of ``rows`` (distinct
    within a column), as CSR with every row's columns in order."""
    starts = np.concatenate(([0], np.cumsum(counts)))
    m = sp.csc_array((np.ones(len(rows), np.int32), rows, starts), shape=shape).tocsr()
    m.sort_indices()  # nothing to do: SciPy converts column by column, and says so
    return m


def _triples(t: list[str], h: list[str], x: list[str]) -> list[str]:
    """Answers as JSON, '[titles,headings,texts]', from the encoded rows of three matrices."""
    return [f"[{a},{b},{c}]" for a, b, c in zip(t, h, x, strict=True)]


@dataclass(frozen=True)
class Keys:
    """Every key a word may have (the distinct substrings of 1 to KEY_LENGTH characters of
    every token), sorted, and the tokens that contain each: row k of ``tokens``."""

    names: list[str]
    tokens: sp.csr_array


@functools.lru_cache(maxsize=1)
def vocab_keys(vocab: tuple[str, ...]) -> tuple[Keys, list[str]]:
    """The keys of a vocabulary and, for each, the forms its entry lists: kept while the
    vocabulary stays the same, as it does for an edit that brings no new word in `sitegen
    serve` (the words are interned: comparing two vocabularies compares pointers)."""
    keys = grams(vocab)
    return keys, form_lists(vocab, keys.tokens)


def grams(vocab: Sequence[str]) -> Keys:
    """Every token's keys, numbered once and made a (key, token) matrix, token by token."""
    inside = [_inside(token) for token in vocab]
    names = sorted(set(chain.from_iterable(inside)))
    number = dict(zip(names, range(len(names)), strict=True))
    rows = np.fromiter(map(number.__getitem__, chain.from_iterable(inside)), np.int64)
    counts = np.array([len(keys) for keys in inside], np.int64)
    return Keys(names, _by_column(rows, counts, (len(names), len(vocab))))


def _inside(token: str) -> dict[str, None]:
    """A token's distinct substrings of 1 to KEY_LENGTH characters: those of n + 1 are
    those of n, each with the character after it."""
    level = list(token)
    found = dict.fromkeys(level)
    for n in range(1, KEY_LENGTH):
        level = list(map(add, level, token[n:]))
        found.update(dict.fromkeys(level))
    return found


def popular_sets(p: Postings, keys: Keys) -> dict[str, str]:
    """The answers of every popular key: the union of its tokens' sets, as sparse products
    of BLOCK keys at a time (a popular key may be in most sections: the block bounds the
    memory the products take)."""
    popular = np.flatnonzero(np.diff(keys.tokens.indptr) > POPULAR)
    answers: dict[str, str] = {}
    for at in range(0, len(popular), BLOCK):
        block = popular[at : at + BLOCK]
        pick = keys.tokens[block]
        # A product's rows come out unordered; by columns and back puts them in order, in
        # two linear passes instead of a sort of each row.
        t, h, x = (encoded_rows((pick @ m).tocsc().tocsr()) for m in (p.title, p.heading, p.text))
        answers.update(zip([keys.names[k] for k in block.tolist()], _triples(t, h, x), strict=True))
    return answers


def key_entries(p: Postings, keys: Keys, forms: list[str]) -> dict[str, str]:
    """Each key's entry as JSON: ``s``, its answers (a popular key), and ``t``, the forms of
    the tokens that contain it (``forms``: any 3-character key, and the short keys that are
    not popular), which name the token shards to load."""
    answers = popular_sets(p, keys)
    entries: dict[str, str] = {}
    for name, listed in zip(keys.names, forms, strict=True):
        popular = answers.get(name)
        if popular is None:
            entries[name] = '{"t":' + listed + "}"
        elif len(name) == KEY_LENGTH:
            entries[name] = '{"s":' + popular + ',"t":' + listed + "}"
        else:
            entries[name] = '{"s":' + popular + "}"
    return entries


def form_lists(vocab: Sequence[str], tokens: sp.csr_array) -> list[str]:
    """For each row of ``tokens``, the sorted distinct forms of its tokens as JSON. The
    vocabulary is sorted, and so are its forms (a cut form sorts where its tokens do, as
    CUT is never inside a token): a row's forms are in order, equal ones side by side."""
    forms = [form(token) for token in vocab]
    new = np.ones(len(forms), dtype=bool)  # where a form differs from the one before
    new[1:] = [a != b for a, b in pairwise(forms)]
    form_id = np.cumsum(new) - 1
    names = [_string(f) for f, first in zip(forms, new.tolist(), strict=True) if first]
    ids = form_id[tokens.indices]
    counts = np.diff(tokens.indptr)
    starts = np.zeros(len(ids), dtype=bool)
    starts[tokens.indptr[:-1][counts > 0]] = True
    keep = starts | np.concatenate(([True], ids[1:] != ids[:-1]))
    kept = list(map(names.__getitem__, ids[keep].tolist()))
    bounds = np.concatenate(([0], np.cumsum(keep)))[tokens.indptr].tolist()
    return ["[" + ",".join(kept[a:b]) + "]" for a, b in pairwise(bounds)]


def phrase_entries(index: Ordered) -> dict[str, str]:
    """Titles and headings that a query can equal (their lower-cased text is their words
    joined by single spaces), by that text: [pages, sections]. search.js adds 20 for a title
    and 8 for a heading that equals the query."""
    titles: dict[str, list[int]] = {}
    headings: dict[str, list[int]] = {}
    section = 0
    for page, terms in enumerate(index.terms):
        if terms.title_phrase:
            titles.setdefault(terms.title_phrase, []).append(page)
        for phrase in terms.phrases:
            if phrase:
                headings.setdefault(phrase, []).append(section)
            section += 1
    phrases = sorted(titles.keys() | headings.keys())
    t = encoded_rows(_lists([titles.get(x, []) for x in phrases], len(index.pages)))
    h = encoded_rows(_lists([headings.get(x, []) for x in phrases], section))
    return {x: f"[{a},{b}]" for x, a, b in zip(phrases, t, h, strict=True)}


def _lists(rows: list[list[int]], size: int) -> sp.csr_array:
    """Sorted lists of ids below ``size`` as the rows of a matrix."""
    starts = np.cumsum([0, *map(len, rows)])
    ids = np.fromiter(chain.from_iterable(rows), np.int64, int(starts[-1]))
    return sp.csr_array((np.ones(len(ids), np.int32), ids, starts), shape=(len(rows), size))


def shard_count(entries: Iterable[tuple[str, str]]) -> int:
    """How many shards hold these entries: a power of two, about SHARD_BYTES each."""
    total = sum(len(k) + len(v) + 4 for k, v in entries)
    return 1 << max(0, math.ceil(math.log2(max(1, total / SHARD_BYTES))))


def shards(entries: dict[str, str], place: dict[str, str], count: int) -> list[str]:
    """The entries cut into ``count`` JSON objects; an entry goes to the shard of
    ``place[name]`` (its key, or its token's form), sorted by name within each."""
    names = sorted(entries)
    cut: list[list[str]] = [[] for _ in range(count)]
    for name, n in zip(names, buckets([place[x] for x in names], count).tolist(), strict=True):
        cut[n].append(_string(name) + ":" + entries[name])
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
    answers = _triples(*(encoded_rows(m) for m in (p.title, p.heading, p.text)))
    entries = dict(zip(p.vocab, answers, strict=True))
    count = shard_count(entries.items())
    return shards(entries, {t: form(t) for t in entries}, count)


def page_chunk(index: Ordered, page: int) -> str:
    """What a result shows of one page: [href, title, [[heading, anchor, text], ...]]."""
    href, title = index.pages[page]
    return f"[{_string(href)},{_string(title)},{index.terms[page].chunk}]"


def page_groups(index: Ordered, group: int) -> Iterator[str]:
    """The chunks of ``group`` consecutive pages a script, as a JSON list (the last group
    may be shorter): script n holds pages n * group to n * group + group - 1. Made one at a
    time: a group is as wide a string as its widest chunk, and held only until it is a script."""
    count = len(index.pages)
    for at in range(0, count, group):
        chunks = [page_chunk(index, page) for page in range(at, min(at + group, count))]
        yield "[" + ",".join(chunks) + "]"


def manifest(index: Ordered, keys: int, tokens: int, group: int) -> str:
    """The manifest, loaded the first time the box is used: how many sections each page
    has (in result order), how many shards of each kind there are and how many pages'
    chunks a page script holds; on a site with locales, each page's locale, so that a query
    finds the pages of the reader's language only (content/guides/locales.md)."""
    data: dict[str, object] = {
        "version": 3,
        "key": KEY_LENGTH,
        "keys": keys,
        "tokens": tokens,
        "group": group,
        "sections": [len(s) for s in index.sections],
        "symbols": len(index.symbols),
    }
    if index.locales:
        data["locales"] = index.locales
    return _json(data)


def search_index_files(data: SearchData) -> dict[str, str]:
    """Every file of the index, by output path: ``search-index.js`` and the scripts of
    ``search-index/`` (k<n>, t<n>, p<page // PAGE_GROUP>, symbols), each a call of
    SITEGEN_SEARCH."""
    index = ordered(data)
    post = postings(index)
    keys = key_shards(key_entries(post, *vocab_keys(tuple(post.vocab))), phrase_entries(index))
    tokens = token_shards(post)
    group = PAGE_GROUP  # read here, so that bench/search.py --group can set it
    files = {INDEX_FILE: script("manifest", manifest(index, len(keys), len(tokens), group))}
    parts = chain(
        ((f"k{n}", text) for n, text in enumerate(keys)),
        ((f"t{n}", text) for n, text in enumerate(tokens)),
        ((f"p{n}", text) for n, text in enumerate(page_groups(index, group))),
        [("symbols", _json([list(s) for s in index.symbols]))] if index.symbols else [],
    )
    for name, text in parts:
        files[f"{SHARD_FOLDER}/{name}.js"] = script(name, text)
    return files


def forget() -> None:
    """Empty every memo of the index, as a new process starts (benchmarks and tests)."""
    SECTIONS.clear()
    page_terms.cache_clear()
    vocab_keys.cache_clear()
    _decimals.cache_clear()


def script(name: str, data: str) -> str:
    """One index script: a call of SITEGEN_SEARCH with its name and its JSON data."""
    text = f"window.{INDEX_GLOBAL}({_json(name)},{data});\n"
    # JSON is valid JS; "</" is escaped only so that the text can never close a script tag.
    return text.replace("</", "<\\/").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
