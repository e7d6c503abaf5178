"""Issue 8, point 9: every href the theme writes is percent-encoded, so a page file named
with ``#``, ``?``, ``%`` or a space is reachable from the nav, the breadcrumbs, the index and
the reports; following every href of the site from the disk finds a file."""

from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from tests.safety.conftest import make_project, sitegen

NAMES = ["a#b", "c?d", "e%f", "g h", "ü", "sub/x#y", "sub/50% off"]


def _hrefs(page: Path) -> list[str]:
    # 404.html's <base href> is where its links are read from, not a link (and from disk the
    # page has none: tests/e2e/test_browser_urls.py)
    text = re.sub(r"<base [^>]*>", "", page.read_text())
    return [html.unescape(h) for h in re.findall(r'\bhref="([^"]*)"', text)]


@pytest.mark.parametrize("style", ["html", "directory"])
def test_pages_named_with_url_characters_are_reachable_from_every_page(
    tmp_path: Path, style: str
) -> None:
    files = {f"content/{name}.md": f"# Title {name}\n\n[home](/index.md)\n" for name in NAMES}
    files["content/index.md"] = "# Home\n"
    files["content/sub/index.md"] = "# Sub\n\n[up](../index.md)\n"
    files["sitegen.toml"] = f'urls = "{style}"\n'
    root = make_project(tmp_path, files)
    proc = sitegen(root, "build", "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    site = root / "site"
    pages = sorted(site.rglob("*.html"))
    assert len(pages) >= len(NAMES) + 2
    reached: set[Path] = set()
    for page in pages:
        for href in _hrefs(page):
            parts = urlsplit(href)
            if parts.scheme or parts.netloc or not parts.path:
                continue  # external, or a fragment of this page
            assert not parts.query, f"{page}: {href!r} has a query: a raw '?' in a file name"
            target = (page.parent / unquote(parts.path)).resolve()
            assert target.is_file(), f"{page.relative_to(site)}: {href!r} leads nowhere"
            reached.add(target)
    for name in NAMES:
        page = f"{name}.html" if style == "html" else f"{name}/index.html"
        assert (site / page).resolve() in reached, f"{page} is linked from nowhere"


def test_the_nav_marks_the_current_page_with_an_encoded_href(tmp_path: Path) -> None:
    root = make_project(tmp_path, {"content/index.md": "# Home\n", "content/a#b.md": "# A\n"})
    assert sitegen(root, "build", "--jobs", "1").returncode == 0
    text = (root / "site/a#b.html").read_text()
    assert '<a href="a%23b.html" aria-current="page">' in text
