"""The page tree in the author's order: front-matter order keys, a folder's index front
matter, mkdocs.yml's nav; titles from front matter, then the first heading, then the file."""

from __future__ import annotations

from sitegen.base.diagnostics import Diagnostic
from sitegen.base.paths import NodeId
from sitegen.docs.markdown import extract_page
from sitegen.generators import mkdocs_nav_spec
from sitegen.records.pages import PageRecord
from sitegen.site.navigation import build_nav, mkdocs_nav
from sitegen.site.views import NavItem


def _pages(files: dict[str, str]) -> dict[NodeId, PageRecord]:
    return {
        NodeId("/" + path): extract_page("docs/" + path, text.encode())
        for path, text in sorted(files.items())
    }


def _titles(items: tuple[NavItem, ...]) -> list[object]:
    return [(i.title, _titles(i.children)) if i.is_folder else i.title for i in items]


def test_order_keys_and_folder_index_front_matter() -> None:
    pages = _pages(
        {
            "index.md": "# Home\n",
            "zeta.md": "---\norder: 1\n---\n# Zeta first\n",
            "alpha.md": "# Alpha\n",
            "beta.md": "---\nnav_order: 2\n---\n# Beta second\n",
            "ssl.md": "---\nweight: 3\ntitle: SSL and TLS\n---\n# ignored heading\n",
            "api.md": "Text only, no heading.\n",
            "guide/index.md": "---\ntitle: The guide\norder: 0\n---\n# Guide heading\n",
            "guide/b.md": "# B\n",
            "guide/a.md": "---\norder: 5\n---\n# A\n",
            "more/x.md": "# X\n",
        }
    )
    nav, _ = build_nav(pages)
    assert _titles(nav) == [
        "Home",
        ("The guide", ["A", "B"]),
        "Zeta first",
        "Beta second",
        "SSL and TLS",
        ("More", ["X"]),
        "Alpha",
        "Api",
    ]


def test_without_order_folders_come_first_then_pages_by_file_name() -> None:
    nav, _ = build_nav(_pages({"b.md": "# Bee\n", "a.md": "# Zed\n", "f/c.md": "# C\n"}))
    assert _titles(nav) == [("F", ["C"]), "Zed", "Bee"]


MKDOCS = """site_name: X
docs_dir: docs
markdown_extensions:
  - pymdownx.emoji:
      emoji_index: !!python/name:material.extensions.emoji.twemoji
nav:
  - Introduction: index.md
  - QuickStart: quickstart.md
  - Advanced:
      - Clients: advanced/clients.md
      - advanced/ssl.md
  - External: https://example.org/
  - Gone: nowhere.md
"""


def test_mkdocs_nav_is_followed() -> None:
    pages = _pages(
        {
            "index.md": "# Home\n",
            "quickstart.md": "# Quick\n",
            "advanced/clients.md": "# Clients page\n",
            "advanced/ssl.md": "# Ssl page\n",
            "extra.md": "# Not in the nav\n",
        }
    )
    problems: list[Diagnostic] = []
    nav = mkdocs_nav(mkdocs_nav_spec(MKDOCS), "docs", pages, problems)
    assert nav is not None
    assert _titles(nav) == ["Introduction", "QuickStart", ("Advanced", ["Clients", "Ssl page"])]
    assert nav[2].children[0].href == "advanced/clients.html"
    assert [(p.path, p.line, p.code) for p in problems] == [("mkdocs.yml", 13, "mkdocs-nav")]


def test_mkdocs_nav_of_another_folder_or_none_is_not_used() -> None:
    pages = _pages({"index.md": "# Home\n"})
    assert mkdocs_nav(mkdocs_nav_spec(MKDOCS), "content", pages, []) is None
    assert mkdocs_nav(mkdocs_nav_spec("site_name: X\n"), "docs", pages, []) is None
    problems: list[Diagnostic] = []
    assert mkdocs_nav(mkdocs_nav_spec("nav: [\n"), "docs", pages, problems) is None
    assert [p.code for p in problems] == ["mkdocs-nav"]
