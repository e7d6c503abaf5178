"""search.js's ranking in Python, for the search tests: a query answered from the unsharded
index exactly as search.js answered it when the index was one script, and the same query
answered from the shards (with the scripts that answer had to load), so a test can hold the
shards to giving the same results. Also a sample index, made from a seed."""

from __future__ import annotations

import base64
import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

from sitegen.site.search import SearchData
from sitegen.site.search_shards import (
    CUT,
    INDEX_FILE,
    INDEX_GLOBAL,
    SHARD_FOLDER,
    bucket,
    title_order,
)

LIMIT = 20


def words(query: str) -> list[str]:
    return [w for w in re.split(r"[^\w.]+", query.lower()) if w]


@dataclass(frozen=True)
class Hit:
    title: str
    heading: str
    text: str
    href: str


@dataclass(frozen=True)
class Found:
    total: int
    hits: list[Hit]


def _symbol_score(low: str, terms: list[str], phrase: str) -> int:
    if low == phrase:
        return 25
    last = low[low.rfind(".") + 1 :]
    if last == phrase:
        return 22
    if any(t not in low for t in terms):
        return 0
    return 9 if last.startswith(phrase) else 3


def _section_score(title: str, heading: str, text: str, terms: list[str], phrase: str) -> int:
    score = 0
    for w in terms:
        hit = (10 if w in title else 0) + (4 if w in heading else 0) + (1 if w in text else 0)
        if not hit:
            return 0
        score += hit
    return score + (20 if title == phrase else 0) + (8 if heading == phrase else 0)


def unsharded(data: SearchData, query: str) -> Found:
    """The answer of the one-script index (search.js before the shards), step by step."""
    terms = words(query)
    phrase = " ".join(terms)
    if not terms:
        return Found(0, [])
    best: dict[int, tuple[int, Hit]] = {}
    for page, heading, anchor, text in data.sections:
        href, title = data.pages[page]
        score = _section_score(title.lower(), heading.lower(), text.lower(), terms, phrase)
        if score and (page not in best or score > best[page][0]):
            best[page] = (score, Hit(title, heading, text, href + (f"#{anchor}" if anchor else "")))
    results = list(best.values())
    for name, kind, href, path in data.symbols:
        score = _symbol_score(name.lower(), terms, phrase)
        if score:
            results.append((score, Hit(name, f"{kind} in {path}", "", href)))
    results.sort(key=lambda r: (-r[0], title_order(r[1].title)))
    return Found(len(results), [hit for _, hit in results[:LIMIT]])


def parse(script: str) -> tuple[str, Any]:
    """An index script's name and data."""
    head = f"window.{INDEX_GLOBAL}("
    assert script.startswith(head) and script.endswith(");\n"), script[:80]
    decoder = json.JSONDecoder()
    name, at = decoder.raw_decode(script, len(head))
    assert script[at] == ","
    data, end = decoder.raw_decode(script, at + 1)
    assert script[end:] == ");\n"
    return str(name), data


def decode_set(value: Any, size: int) -> set[int]:
    if isinstance(value, str):
        raw = base64.b64decode(value)
        return {i * 8 + b for i, byte in enumerate(raw) for b in range(8) if byte >> b & 1}
    out, at = set(), 0
    for gap in value:
        at += gap
        out.add(at)
    assert all(i < size for i in out)
    return out


@dataclass
class Shards:
    """The index scripts of a site, read as search.js reads them, noting what it loads."""

    files: dict[str, str]
    loaded: set[str] = field(default_factory=set)

    def need(self, name: str) -> Any:
        self.loaded.add(name)
        path = INDEX_FILE if name == "manifest" else f"{SHARD_FOLDER}/{name}.js"
        got, data = parse(self.files[path])
        assert got == name
        return data


def sharded(shards: Shards, query: str) -> Found:
    """The answer search.js gives from the shards (the same steps, in Python)."""
    terms = words(query)
    phrase = " ".join(terms)
    if not terms:
        return Found(0, [])
    m = shards.need("manifest")
    symbols = shards.need("symbols") if m["symbols"] else []
    first = [0]
    for n in m["sections"]:
        first.append(first[-1] + n)
    found = [_term_sets(shards, m, w) for w in terms]
    key = terms[0][: m["key"]]
    equal = shards.need(f"k{bucket(key, m['keys'])}")["p"].get(phrase)
    results = _page_results(first, found, equal)
    for j, (name, _, _, _, before) in enumerate(symbols):
        score = _symbol_score(name.lower(), terms, phrase)
        if score:
            results.append((score, (1, j, before)))
    results.sort(key=lambda r: (-r[0], _Order(r[1])))
    shown = [_shown(shards, m["group"], symbols, r) for _, r in results[:LIMIT]]
    return Found(len(results), shown)


def _term_sets(shards: Shards, m: dict[str, Any], word: str) -> list[Any]:
    key = word[: m["key"]]
    entry = shards.need(f"k{bucket(key, m['keys'])}")["g"].get(key)
    if entry is None:
        return []
    if "s" in entry and key == word:
        return [entry["s"]]
    names = {f"t{bucket(f, m['tokens'])}" for f in entry["t"] if f.endswith(CUT) or word in f}
    return [sets for n in sorted(names) for t, sets in shards.need(n).items() if word in t]


def _page_results(
    first: list[int], found: list[list[Any]], equal: Any
) -> list[tuple[int, tuple[int, int, int]]]:
    pages, sections = len(first) - 1, first[-1]
    hits = []
    for sets in found:
        title, heading, text = set(), set(), set()
        for t, h, x in sets:
            title |= decode_set(t, pages)
            heading |= decode_set(h, sections)
            text |= decode_set(x, sections)
        hits.append((title, heading, text))
    same = (
        (decode_set(equal[0], pages), decode_set(equal[1], sections)) if equal else (set(), set())
    )
    results = []
    for p in range(pages):
        best, at = 0, 0
        for s in range(first[p], first[p + 1]):
            score = 0
            for title, heading, text in hits:
                hit = (10 if p in title else 0) + (4 if s in heading else 0) + (s in text)
                if not hit:
                    score = 0
                    break
                score += hit
            if score:
                score += (20 if p in same[0] else 0) + (8 if s in same[1] else 0)
            if score > best:
                best, at = score, s - first[p]
        if best:
            results.append((best, (0, p, at)))
    return results


class _Order:
    """search.js's order(): pages by number, symbols by number, a page before a symbol when
    fewer pages than its number sort before the symbol."""

    def __init__(self, r: tuple[int, int, int]) -> None:
        self.r = r

    def __lt__(self, other: _Order) -> bool:
        (ka, a, ba), (kb, b, bb) = self.r, other.r
        if ka == kb:
            return a < b
        return a < bb if ka == 0 else not (b < ba)


def _shown(shards: Shards, group: int, symbols: list[Any], r: tuple[int, int, int]) -> Hit:
    """A result as search.js shows it: page n's chunk is chunk n % group of p<n // group>."""
    kind, n, section = r
    if kind == 1:
        name, sym_kind, href, path, _ = symbols[n]
        return Hit(name, f"{sym_kind} in {path}", "", href)
    href, title, sections = shards.need(f"p{n // group}")[n % group]
    heading, anchor, text = sections[section]
    return Hit(title, heading, text, href + (f"#{anchor}" if anchor else ""))


# ---------------------------------------------------------------- a sample index

COMMON = [
    "graph",
    "node",
    "edge",
    "page",
    "link",
    "anchor",
    "build",
    "cache",
    "render",
    "template",
    "index",
    "parser",
    "token",
    "stream",
    "plugin",
    "config",
    "section",
    "module",
    "reference",
    "guide",
    "release",
    "deploy",
    "server",
    "client",
    "request",
]
ODD = [
    "Café & Ünïcode: what's new?",
    "日本語の見出し",
    "Ελληνικά και emoji 🚀",
    "a.b.c / x_y_z",
    "İstanbul ΣΊΣΥΦΟΣ",
    "sitegen.site.search_shards.encode_set_with_a_very_long_name",
]


def invented_word(rng: random.Random) -> str:
    """A word made of syllables, so that many words share short keys (popular keys)."""
    return "".join(rng.choice(["ka", "ri", "to", "ne", "su", "ma", "lo", "pe"]) for _ in range(3))


def sample_data(pages: int = 120, seed: int = 7) -> SearchData:
    """An index of ``pages`` pages from a seed: common and invented words, odd headings (not
    ASCII, dotted, a word longer than a form), repeated titles, and symbols."""
    rng = random.Random(seed)
    rows: list[tuple[str, str]] = []
    sections: list[tuple[int, str, str, str]] = []
    for p in range(pages):
        title = rng.choice(["Overview", "Token stream", f"Guide {p % 7}", "Café crème"])
        title = (
            title if rng.random() < 0.3 else f"{rng.choice(COMMON).title()} {invented_word(rng)}"
        )
        rows.append((f"d{p % 5}/page-{p}.html", title))
        for s in range(rng.randint(0, 4)):
            heading = rng.choice([title, "", "Usage", rng.choice(ODD), f"{rng.choice(COMMON)} x"])
            pool = COMMON + ODD + [invented_word(rng) for _ in range(6)]
            text = " ".join(rng.choice(pool) for _ in range(rng.randint(0, 40)))
            sections.append((p, heading, f"s{s}" if s else "", text.replace(" x ", ". ")))
    symbols = [
        ("moor_airship", "function", "code/a.py.html#L1", "a.py"),
        ("Engine.start", "method", "code/b.py.html#L2", "b.py"),
        ("token", "variable", "code/b.py.html#L9", "b.py"),
        ("Overview", "class", "code/c.py.html#L3", "c.py"),
    ]
    return SearchData(rows, sections, symbols)
