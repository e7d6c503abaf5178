"""Where Docusaurus publishes a doc (sitegen/link/docusaurus.py, sitegen/link/page_addresses.py):
``routeBasePath`` + the slug from front matter ``slug`` or ``id``, the folders without their
number prefixes, a folder's index, directory URLs; what Docusaurus would refuse is reported
(content/guides/urls.md#docusaurus-addresses-and-links)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from sitegen.addresses import Addresses, UrlStyle
from sitegen.base.paths import NodeId
from sitegen.config import Config
from sitegen.docs.markdown import extract_page
from sitegen.generators import Dialect, Generator, SlugStyle
from sitegen.link.docusaurus import doc_route
from sitegen.link.page_addresses import page_addresses, url_style, url_style_reason


def _generator(route_base: str = "docs", doc_routes: bool = True) -> Generator:
    return Generator(
        name="Docusaurus",
        config_file="website/docusaurus.config.ts",
        slugs=SlugStyle.GITHUB,
        docs_dir="docs",
        dialect=Dialect.MDX,
        route_base=route_base,
        doc_routes=doc_routes,
    )


def _config(route_base: str = "docs", doc_routes: bool = True, urls: str = "") -> Config:
    return Config(
        root=Path("."),
        content="docs",
        urls=urls,
        generator=_generator(route_base, doc_routes),
    )


def _published(
    pages: Mapping[str, str], route_base: str = "docs", doc_routes: bool = True
) -> tuple[Addresses, list[tuple[str, int, str]]]:
    records = [extract_page(p, t.encode()) for p, t in pages.items()]
    texts = {p: t.encode() for p, t in pages.items()}
    config = _config(route_base, doc_routes)
    addresses, diags = page_addresses(config, records, {}, texts)
    return addresses, [(d.path, d.line, d.message) for d in diags]


@pytest.mark.parametrize(
    ("rel", "front", "url"),
    [
        ("faq/OrganizingState.md", {"id": "organizing-state"}, "/faq/organizing-state"),
        ("guides/01-intro.md", {}, "/guides/intro"),
        ("01-guides/02-deep/03-x.mdx", {}, "/guides/deep/x"),
        ("guides/index.md", {"id": "whatever"}, "/guides/"),  # a folder's index
        ("guides/README.md", {}, "/guides/"),
        ("guides/Guides.md", {}, "/guides/"),  # named like its folder
        ("index.md", {}, "/"),
        ("FAQ.md", {"id": "faq"}, "/faq"),
        ("tutorials/tutorials-index.md", {"slug": "index"}, "/tutorials/index"),
        ("a/b.md", {"slug": "/x/y"}, "/x/y"),  # from the route base
        ("a/b.md", {"slug": "../c"}, "/c"),  # from the doc's folder
        ("a/b.md", {"slug": "../../../c"}, "/c"),  # never above the route base
        ("a/b.md", {"slug": "sub/"}, "/a/sub/"),
        ("a/b.md", {"slug": "/"}, "/"),
        ("2021-01-31-post.md", {}, "/2021-01-31-post"),  # a date is no number prefix
    ],
)
def test_a_doc_s_route_is_docusaurus_s(rel: str, front: dict[str, str], url: str) -> None:
    assert doc_route(rel, front, "").url == url


def test_the_route_base_comes_first() -> None:
    assert doc_route("a/b.md", {}, "docs").url == "/docs/a/b"
    assert doc_route("index.md", {}, "docs").url == "/docs/"
    assert doc_route("a/b.md", {"slug": "/x"}, "/docs/").url == "/docs/x"


def test_what_docusaurus_refuses_is_a_problem_and_ignored() -> None:
    route = doc_route("a/b.md", {"id": "x/y", "slug": 3}, "")
    assert route.url == "/a/b"
    assert [key for key, _ in route.problems] == ["slug", "id"]


def test_docs_are_published_at_their_routes_as_folders() -> None:
    pages = {
        "docs/faq/OrganizingState.md": "---\nid: organizing-state\n---\n# Organizing\n",
        "docs/usage/index.md": "---\nid: index\n---\n# Usage\n",
        "docs/01-start.md": "# Start\n",
    }
    addresses, diags = _published(pages, route_base="")
    assert diags == []
    assert addresses.out(NodeId("/faq/OrganizingState.md")) == "faq/organizing-state/index.html"
    assert addresses.out(NodeId("/usage/index.md")) == "usage/index.html"
    assert addresses.out(NodeId("/01-start.md")) == "start/index.html"
    assert addresses.find("/faq/organizing-state") is not None
    under, _ = _published(pages, route_base="docs")
    assert under.out(NodeId("/01-start.md")) == "docs/start/index.html"


def test_without_docusaurus_routes_the_file_names_the_page() -> None:
    pages = {"docs/faq/OrganizingState.md": "---\nid: organizing-state\n---\n# Organizing\n"}
    addresses, _ = _published(pages, doc_routes=False)
    assert addresses.out(NodeId("/faq/OrganizingState.md")) == "faq/OrganizingState.html"


def test_docusaurus_chooses_directory_urls_unless_urls_is_set() -> None:
    assert url_style(_config(), {}) is UrlStyle.DIRECTORY
    assert "docusaurus.config.ts" in url_style_reason(_config(), {})
    assert url_style(_config(urls="html"), {}) is UrlStyle.HTML
    assert url_style(_config(doc_routes=False), {}) is UrlStyle.HTML


def test_a_bad_id_or_slug_is_reported_at_its_line_and_the_path_decides() -> None:
    pages = {"docs/a/b.md": "---\ntitle: B\nid: x/y\n---\n# B\n"}
    addresses, diags = _published(pages, route_base="")
    assert addresses.out(NodeId("/a/b.md")) == "a/b/index.html"
    assert [(p, line) for p, line, _ in diags] == [("docs/a/b.md", 3)]
    assert "refuses" in diags[0][2]


def test_two_docs_at_one_route_are_reported() -> None:
    pages = {
        "docs/a.md": "---\nid: same\n---\n# A\n",
        "docs/b.md": "---\nslug: same\n---\n# B\n",
    }
    addresses, diags = _published(pages, route_base="")
    assert len(addresses.pages) == 1
    assert len(diags) == 1 and "both published" in diags[0][2]


def test_a_page_outside_the_docs_folder_keeps_its_file() -> None:
    pages = {"docs/a.md": "# A\n", "notes/x.md": "---\nid: other\n---\n# X\n"}
    records = [extract_page(p, t.encode()) for p, t in pages.items()]
    config = Config(root=Path("."), content="", generator=_generator(""))
    addresses, _ = page_addresses(config, records, {}, {p: t.encode() for p, t in pages.items()})
    assert addresses.out(NodeId("/notes/x.md")) == "notes/x/index.html"  # its id is not read
    assert addresses.out(NodeId("/docs/a.md")) == "a/index.html"


def test_a_draft_is_left_out_of_the_site_with_an_info_line() -> None:
    pages = {"docs/a.md": "---\ntitle: A\ndraft: true\n---\n# A\n", "docs/b.md": "# B\n"}
    addresses, diags = _published(pages, route_base="")
    assert NodeId("/a.md") not in addresses.pages and NodeId("/b.md") in addresses.pages
    assert [(p, line) for p, line, _ in diags] == [("docs/a.md", 3)]
    assert "left out of the site" in diags[0][2]
    kept, _ = _published(pages, doc_routes=False)  # another family's 'draft' is not read
    assert NodeId("/a.md") in kept.pages
