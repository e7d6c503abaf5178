#!/usr/bin/env python3
"""What a reader of a switched project's built site meets: dead links and fragments, and the
other tool's syntax left raw in the text (issue 29's figures, content/guides/docusaurus.md,
content/guides/obsidian.md).

    sitegen build --out /tmp/site          # in the project
    python bench/switch_report.py /tmp/site [--json] [--examples 5]

Walks every HTML file of the built site (the generated ``graph.md``/``graph.json`` and the
source pages' text are not prose, so source pages are skipped): each local ``href``/``src``
must name a file of the site (a folder's ``index.html`` counts) and each fragment an ``id`` or
``name`` in that file; a link to ``/`` and external links are not checked. Raw markers are
counted in the visible text of the pages' ``<main>`` (code blocks left out): MDX
``import``/``export`` lines, ``{/* */}``, JSX tags, ``:::`` fences, Obsidian ``%%``, ``==``,
``![[``, ``[[``, `` ^block-id``. Reads only the built files; never the network.
"""

from __future__ import annotations

import argparse
import json
import posixpath
import re
import sys
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

#: Markers of another tool's syntax, as they would show in text sitegen failed to read.
MARKERS = {
    "mdx import/export line": re.compile(
        r"(?m)^\s*(?:import|export)[ \t]+(?:[\w{*]|default\b)[^\n]*"
    ),
    "mdx comment {/*": re.compile(r"\{/\*"),
    "jsx tag": re.compile(r"</?[A-Z][A-Za-z0-9]*(?:\s[^<>]*)?/?>"),
    "::: fence": re.compile(r"(?m)^\s*:::"),
    "obsidian %% comment": re.compile(r"%%"),
    "obsidian ==highlight==": re.compile(r"==[^=\s][^=\n]*=="),
    "obsidian ![[embed": re.compile(r"!\[\["),
    "obsidian [[link": re.compile(r"\[\["),
    "obsidian ^block-id": re.compile(r"(?m)\s\^[A-Za-z0-9-]+\s*$"),
    # Material for MkDocs and the pymdownx family (issue 30, content/syntax/material.md)
    "emoji/icon :shortcode:": re.compile(r"(?<![\w:/]):[a-z][a-z0-9_+-]*:(?![\w/])"),
    "keys ++key++": re.compile(r"\+\+[^+\s][^\n]*?\+\+"),
    "caret ^^insert^^ or ^sup^": re.compile(r"\^\^[^^\n]+\^\^|(?<![\^\w])\^[^\s^]+\^(?!\^)"),
    "tilde ~sub~": re.compile(r"(?<![~\w])~[^\s~]+~(?!~)"),
    "attribute list { .class }": re.compile(r"\{:?[ \t]*[.#][\w-]+[^{}\n]*\}"),
    "include variant {* *}": re.compile(r"\{\*[^\n]*?\*\}"),
    "admonition !!!/??? line": re.compile(r"(?m)^\s*(?:!!!|\?\?\?\+?)\s"),
    'tab === "label"': re.compile(r'(?m)^\s*===\+?\s*"'),
}
#: Markers counted in code blocks' text: syntax that leaked into a block, or was not read in it.
CODE_MARKERS = {
    'tab === "label" in code': re.compile(r'(?m)^\s*===\+?\s*"'),
    "code annotation marker (1)": re.compile(r"\(\d+\)!?\s*$", re.MULTILINE),
}
_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
_SKIP_TEXT = {"pre", "code", "script", "style", "template"}


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.refs: list[str] = []
        self.text: list[str] = []
        self.code: list[str] = []
        self.empty_headings: list[str] = []
        self._main = 0
        self._skip = 0
        self._pre = 0
        self._heading: list[str] | None = None
        self._heading_id = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        given = dict(attrs)
        for key in ("id", "name") if tag != "meta" else ():
            if given.get(key):
                self.ids.add(str(given[key]))
        for key in ("href", "src"):
            if given.get(key) and tag in ("a", "img", "link", "script", "source", "iframe"):
                self.refs.append(str(given[key]))
        if tag == "main":
            self._main += 1
        if tag in _SKIP_TEXT:
            self._skip += 1
        if tag == "pre":
            self._pre += 1
        if tag in _HEADINGS and self._main > 0:
            self._heading, self._heading_id = [], str(given.get("id") or tag)
        if tag in ("img", "svg") and self._heading is not None:
            self._heading.append("[image]")
        if tag in ("p", "li", "div", "br", "h1", "h2", "h3", "h4", "td", "section"):
            self.text.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag == "main":
            self._main -= 1
        if tag in _SKIP_TEXT and self._skip:
            self._skip -= 1
        if tag == "pre" and self._pre:
            self._pre -= 1
            self.code.append("\n")
        if tag in _HEADINGS and self._heading is not None:
            # the permalink's "#" is the theme's, not the author's text
            if not "".join(self._heading).strip().strip("#¶").strip():
                self.empty_headings.append(self._heading_id)
            self._heading = None

    def handle_data(self, data: str) -> None:
        if self._main > 0 and not self._skip:
            self.text.append(data)
        if self._main > 0 and self._pre:
            self.code.append(data)
        if self._heading is not None:
            self._heading.append(data)


def _read(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8", errors="replace"))
    return page


def report(site: Path, examples: int) -> dict[str, object]:
    files = {p.relative_to(site).as_posix(): p for p in site.rglob("*") if p.is_file()}
    pages = {rel: p for rel, p in files.items() if rel.endswith(".html")}
    parsed = {rel: _read(p) for rel, p in sorted(pages.items())}
    dead: Counter[str] = Counter()
    dead_fragments: Counter[str] = Counter()
    markers: Counter[str] = Counter()
    shown: dict[str, list[str]] = {}
    empty: Counter[str] = Counter()
    empty_shown: list[str] = []
    for rel, page in parsed.items():
        prose = not rel.startswith(("src/", "source/", "code/"))
        for ref in page.refs:
            _check(rel, ref, files, parsed, dead, dead_fragments)
        if not prose:
            continue
        text, code = "".join(page.text), "".join(page.code)
        for name, pattern in [*MARKERS.items(), *CODE_MARKERS.items()]:
            for m in pattern.finditer(code if name in CODE_MARKERS else text):
                markers[name] += 1
                found = shown.setdefault(name, [])
                if len(found) < examples:
                    found.append(f"{rel}: {m.group(0).strip()[:80]}")
        for heading in page.empty_headings:
            empty[rel] += 1
            if len(empty_shown) < examples:
                empty_shown.append(f"{rel}#{heading}")
    return {
        "html_files": len(pages),
        "dead_hrefs": sum(dead.values()),
        "dead_fragments": sum(dead_fragments.values()),
        "dead_examples": [f"{k} x{v}" for k, v in dead.most_common(examples)],
        "dead_fragment_examples": [f"{k} x{v}" for k, v in dead_fragments.most_common(examples)],
        "raw_markers": dict(sorted(markers.items())),
        "empty_headings": sum(empty.values()),
        "pages_with_empty_headings": len(empty),
        "empty_heading_examples": empty_shown,
        "raw_marker_examples": shown,
    }


def _check(
    rel: str,
    ref: str,
    files: dict[str, Path],
    parsed: dict[str, _Page],
    dead: Counter[str],
    dead_fragments: Counter[str],
) -> None:
    parts = urlsplit(ref)
    if parts.scheme or parts.netloc or ref.startswith(("mailto:", "javascript:", "data:")):
        return
    path = unquote(parts.path)
    if not path:
        target = rel
    elif path.startswith("/"):
        target = path.lstrip("/")
    else:
        target = posixpath.normpath(posixpath.join(posixpath.dirname(rel), path))
    if target in ("", "."):
        target = "index.html"
    elif target not in files and (target + "/index.html") in files:
        target += "/index.html"
    elif target not in files and (target + ".html") in files:
        target += ".html"
    if target not in files:
        dead[f"{rel} -> {ref}"] += 1
        return
    if parts.fragment and target in parsed:
        frag = unquote(parts.fragment)
        if frag not in parsed[target].ids and frag != "top":
            dead_fragments[f"{rel} -> {ref}"] += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--examples", type=int, default=5)
    args = parser.parse_args()
    found = report(args.site, args.examples)
    if args.json:
        json.dump(found, sys.stdout, indent=2)
        print()
        return
    print(f"{found['html_files']} HTML files")
    print(f"dead hrefs: {found['dead_hrefs']}, dead fragments: {found['dead_fragments']}")
    for line in [*found["dead_examples"], *found["dead_fragment_examples"]]:  # type: ignore[misc]
        print(f"  {line}")
    print(f"raw markers: {found['raw_markers']}")
    print(
        f"empty headings: {found['empty_headings']} "
        f"in {found['pages_with_empty_headings']} pages {found['empty_heading_examples']}"
    )
    for name, lines in found["raw_marker_examples"].items():  # type: ignore[attr-defined]
        print(f"  {name}:")
        for line in lines:
            print(f"    {line}")


if __name__ == "__main__":
    main()
