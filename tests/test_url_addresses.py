"""Where a page is published (sitegen/addresses.py, content/guides/urls.md): a node's file in
each URL style, the file an address names, the address of a file, and the page a URL finds."""

from __future__ import annotations

import pytest

from sitegen.addresses import (
    Addresses,
    Redirect,
    UrlStyle,
    address_out,
    public_url,
    style_out_path,
)
from sitegen.base.paths import NodeId, OutPath

HTML, DIRECTORY = UrlStyle.HTML, UrlStyle.DIRECTORY


@pytest.mark.parametrize(
    ("node", "html", "directory"),
    [
        ("/guides/a.md", "guides/a.html", "guides/a/index.html"),
        ("/guides/index.md", "guides/index.html", "guides/index.html"),
        ("/guides/README.md", "guides/index.html", "guides/index.html"),
        ("/index.md", "index.html", "index.html"),
        ("/notes.markdown", "notes.html", "notes/index.html"),
        ("/sp ace.md", "sp ace.html", "sp ace/index.html"),
        ("/code/pkg/mod.py", "code/pkg/mod.py.html", "code/pkg/mod.py.html"),
        ("/img/logo.png", "img/logo.png", "img/logo.png"),
    ],
)
def test_a_node_is_one_file_in_each_style(node: str, html: str, directory: str) -> None:
    assert style_out_path(NodeId(node), HTML) == html
    assert style_out_path(NodeId(node), DIRECTORY) == directory


@pytest.mark.parametrize(
    ("address", "html", "directory"),
    [
        ("/docs/history/", "docs/history/index.html", "docs/history/index.html"),
        ("docs/history/", "docs/history/index.html", "docs/history/index.html"),
        ("/about", "about.html", "about/index.html"),
        ("/about.html", "about.html", "about.html"),
        ("/", "index.html", "index.html"),
        ("/caf%C3%A9/", "café/index.html", "café/index.html"),
        ("/a/./b/../c/", "a/c/index.html", "a/c/index.html"),
    ],
)
def test_an_address_names_one_file(address: str, html: str, directory: str) -> None:
    assert address_out(address, HTML) == html
    assert address_out(address, DIRECTORY) == directory


@pytest.mark.parametrize(
    "address",
    [
        "javascript:alert(1)",
        " JavaScript:alert(1)",
        "https://evil.example/",
        "//evil.example/x",
        "/../../etc/passwd",
        "../outside",
        "/a?b=1",
        "/a#b",
        "/a\\b",
        "/a\nb",
        "/.git/config",
        "/%2e%2e/%2e%2e/x",
    ],
)
def test_an_address_that_is_no_path_of_the_site_names_no_file(address: str) -> None:
    assert address_out(address, DIRECTORY) is None


def test_a_file_is_written_as_its_address() -> None:
    assert public_url(OutPath("guides/a/index.html")) == "guides/a/"
    assert public_url(OutPath("index.html")) == ""
    assert public_url(OutPath("guides/a.html")) == "guides/a.html"
    assert public_url(OutPath("sp ace/index.html")) == "sp%20ace/"
    # the html style names every file, as its sitemap always did
    assert public_url(OutPath("guides/index.html"), HTML) == "guides/index.html"


def _addresses(style: UrlStyle) -> Addresses:
    pages = {
        NodeId("/a.md"): style_out_path(NodeId("/a.md"), style),
        NodeId("/docs/h.md"): OutPath("docs/history/index.html"),
        NodeId("/index.md"): OutPath("index.html"),
    }
    moved = Redirect(OutPath("old/index.html"), NodeId("/a.md"), "top", "content/a.md", 3, "/old/")
    return Addresses(style, pages, {moved.out: moved})


@pytest.mark.parametrize("style", [HTML, DIRECTORY])
@pytest.mark.parametrize(
    ("url", "node"),
    [
        ("/docs/history/", "/docs/h.md"),
        ("/docs/history", "/docs/h.md"),
        ("/docs/history/index.html", "/docs/h.md"),
        ("/docs/x/../history/", "/docs/h.md"),
        ("/", "/index.md"),
        ("/a/", "/a.md"),  # written for either style, found in both
        ("/a", "/a.md"),
        ("/a.html", "/a.md"),
        ("/nothing/", None),
        ("/../x", None),
    ],
)
def test_a_url_finds_the_page_published_there(style: UrlStyle, url: str, node: str | None) -> None:
    found = _addresses(style).find(url)
    assert (found.node if found else None) == node
    assert found is None or found.via == ""


def test_an_old_address_finds_the_page_through_its_redirect() -> None:
    addresses = _addresses(DIRECTORY)
    for url in ("/old/", "/old", "/old/index.html"):
        found = addresses.find(url)
        assert found is not None
        assert (found.node, found.fragment, found.via) == ("/a.md", "top", "/old/")


def test_a_page_reads_relative_urls_from_its_folder_in_both_styles() -> None:
    addresses = _addresses(DIRECTORY)
    assert addresses.folder_urls(NodeId("/a.md")) == ("/a/", "/")
    assert addresses.folder_urls(NodeId("/docs/h.md")) == ("/docs/history/",)
    assert _addresses(HTML).folder_urls(NodeId("/a.md")) == ("/", "/a/")


def test_declared_lists_only_the_pages_with_an_address_of_their_own() -> None:
    declared = _addresses(DIRECTORY).declared
    assert declared == ((NodeId("/docs/h.md"), OutPath("docs/history/index.html")),)
