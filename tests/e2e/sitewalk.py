"""Walk a built site: every relative href and src of every HTML file, and its fragment.

Test support (and the real-repository measurement in the note): reads the built files only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

_LINE_RANGE = re.compile(r"^(L\d+)-L\d+$")


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.refs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name == "id" or (name == "name" and tag == "a"):
                self.ids.add(value)
            elif (name == "href" and tag in ("a", "link")) or (
                name == "src" and tag in ("img", "script")
            ):
                self.refs.append(value)


@dataclass
class Walk:
    pages: int = 0
    hrefs: int = 0
    dead: list[tuple[str, str]] = field(default_factory=list)  # (file, href)
    bad_fragments: list[tuple[str, str]] = field(default_factory=list)


def _parse(path: Path, cache: dict[Path, _Page]) -> _Page:
    if path not in cache:
        page = _Page()
        page.feed(path.read_text(encoding="utf-8", errors="replace"))
        cache[path] = page
    return cache[path]


def walk_site(site: Path) -> Walk:
    """Follow every relative link of every page; a link written by the author to a file that
    does not exist counts as dead like any other (fixtures have none)."""
    out = Walk()
    cache: dict[Path, _Page] = {}
    for html in sorted(site.rglob("*.html")):
        out.pages += 1
        for ref in _parse(html, cache).refs:
            parts = urlsplit(ref)
            if parts.scheme or ref.startswith("//"):
                continue
            out.hrefs += 1
            target = (html.parent / unquote(parts.path)).resolve() if parts.path else html
            if target.is_dir():
                target = target / "index.html"
            if not target.is_file():
                out.dead.append((str(html.relative_to(site)), ref))
                continue
            # GitHub's line range "#L3-L5" lands on its first line.
            fragment = _LINE_RANGE.sub(r"\1", unquote(parts.fragment))
            if fragment and target.suffix == ".html" and fragment not in _parse(target, cache).ids:
                out.bad_fragments.append((str(html.relative_to(site)), ref))
    return out
