"""The home page is the page published as ``index.html``: a content folder's ``index.md`` or
``README.md``, or any page whose front matter says ``permalink: /`` (Obsidian Publish's and
Jekyll's home page), instead of colliding with the list of all pages (sitegen/site/home.py).
Fixtures are written here."""

from __future__ import annotations

from pathlib import Path

from sitegen.build import build
from sitegen.config import load_config
from sitegen.link.page_addresses import DUPLICATE_OUTPUT
from sitegen.records.result import BuildOptions, BuildResult
from tests.e2e.conftest import write_project
from tests.e2e.sitewalk import walk_site

HOME = """---
aliases:
  - Start here
permalink: /
---
# Project Help

Welcome.

## Get started

1. [[Install]]
"""

VAULT: dict[str, str | bytes] = {
    "sitegen.toml": 'content = "notes"\n',
    "notes/Home.md": HOME,
    "notes/Guides/Install.md": "# Install\n\nBack to [[Home#Get started]] or [[Home|the start]].\n",
    "notes/Other.md": "# Other\n\nSee [the start](Home.md#get-started).\n",
}


def _build(root: Path) -> BuildResult:
    return build(load_config(root), BuildOptions(jobs=1, quiet=True))


def _title(html: str) -> str:
    return html.split("<title>", 1)[1].split("</title>", 1)[0]


def test_a_permalink_slash_page_is_the_home_page(tmp_path: Path) -> None:
    root = write_project(tmp_path / "vault", VAULT)
    result = _build(root)
    assert str(result.addresses.pages["/Home.md"]) == "index.html"
    assert [d for d in result.diagnostics if d.code == DUPLICATE_OUTPUT] == []
    front = (root / "site/index.html").read_text(encoding="utf-8")
    assert _title(front).startswith("Project Help")
    assert 'id="get-started"' in front
    # The list of all pages moves aside, as it does for an index.md.
    assert _title((root / "site/pages.html").read_text(encoding="utf-8")).startswith("All pages")
    assert result.linked.broken == []
    walk = walk_site(root / "site")
    assert walk.dead == [] and walk.bad_fragments == []
    install = (root / "site/Guides/Install.html").read_text(encoding="utf-8")
    assert 'href="../index.html#get-started"' in install


def test_the_home_page_leads_the_page_tree_and_ends_the_trail(tmp_path: Path) -> None:
    root = write_project(tmp_path / "vault", VAULT)
    _build(root)
    front = (root / "site/index.html").read_text(encoding="utf-8")
    nav = front.split('id="sidebar"', 1)[1].split("</nav>", 1)[0]
    assert nav.index(">Project Help<") < nav.index(">Guides<")
    assert nav.count(">Project Help<") == 1  # not listed again among the top-level pages
    install = (root / "site/Guides/Install.html").read_text(encoding="utf-8")
    assert '<a href="../index.html">Home</a>' in install


def test_two_pages_claiming_the_home_page_are_one_duplicate_output(tmp_path: Path) -> None:
    pages = dict(VAULT)
    pages["notes/index.md"] = "# Index\n"
    result = _build(write_project(tmp_path / "vault", pages))
    dups = [d for d in result.diagnostics if d.code == DUPLICATE_OUTPUT]
    assert len(dups) == 1
    assert "published as 'index.html'" in dups[0].message
    published = str(result.addresses.pages.get("/Home.md", "")) == "index.html"
    assert published != ("/index.md" in result.addresses.pages)  # exactly one of them


def test_a_jekyll_home_page_with_permalink_slash(tmp_path: Path) -> None:
    """Jekyll marks its home page the same way (``permalink: /`` on ``home.md``)."""
    pages: dict[str, str | bytes] = {
        "sitegen.toml": 'content = "docs"\n',
        "docs/home.md": "---\npermalink: /\n---\n# Welcome\n",
        "docs/about.md": "# About\n\n[Home](/)\n",
    }
    root = write_project(tmp_path / "jk", pages)
    result = _build(root)
    assert [d for d in result.diagnostics if d.level != "info"] == []
    assert _title((root / "site/index.html").read_text(encoding="utf-8")).startswith("Welcome")


DOCS_UNDER_ROUTE: dict[str, str | bytes] = {
    "website/docusaurus.config.js": (
        "module.exports = { presets: [['classic', { docs: { path: '../docs',"
        " routeBasePath: 'docs' } }]] };\n"
    ),
    "docs/index.md": "# Welcome\n\nSee [the guide](guide.md).\n",
    "docs/guide.md": "# Guide\n",
}


def test_a_content_index_published_elsewhere_leaves_the_front_page_to_the_list(
    tmp_path: Path,
) -> None:
    # Docusaurus with routeBasePath 'docs' publishes docs/index.md at docs/index.html: the
    # site root still needs its index.html, or every "Home" link is dead.
    root = write_project(tmp_path / "site-src", DOCS_UNDER_ROUTE)
    result = _build(root)
    assert str(result.addresses.pages["/index.md"]) == "docs/index.html"
    assert _title((root / "site/index.html").read_text(encoding="utf-8")).startswith("All pages")
    walk = walk_site(root / "site")
    assert walk.dead == []
