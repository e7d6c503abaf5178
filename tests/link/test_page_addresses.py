"""Addresses as the link step decides them (sitegen/link/page_addresses.py, content/guides/urls.md):
the URL style an mkdocs.yml chooses, the front matter's url/permalink/slug, redirects from
aliases, redirect_from and redirect_maps, clashes, and links written to any of them."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from sitegen.addresses import Addresses, UrlStyle
from sitegen.base.diagnostics import Level
from sitegen.config import Config
from sitegen.docs.markdown import extract_page
from sitegen.generators import mkdocs_generator
from sitegen.link.page_addresses import page_addresses, url_style
from sitegen.link.rules import SiteIndex
from sitegen.link.step import link_all
from sitegen.records.linked import Linked, Outcome


def _config(urls: str = "", manifests: Mapping[str, str] = {}) -> Config:
    """The configuration, with the generator the ``mkdocs.yml`` of ``manifests`` is found as
    (sitegen/generators/mkdocs.py reads it once; the link step asks the record)."""
    text = manifests.get("mkdocs.yml")
    found = mkdocs_generator(text, "content") if text is not None else None
    return Config(root=Path("."), content="content", urls=urls, generator=found)


def _style(urls: str, manifests: Mapping[str, str]) -> UrlStyle:
    return url_style(_config(urls, manifests), manifests)


def _mkdocs(text: str) -> dict[str, str]:
    return {"mkdocs.yml": "docs_dir: content\n" + text}


def test_mkdocs_yml_chooses_directory_urls_unless_it_says_false() -> None:
    assert _style("", {}) is UrlStyle.HTML
    assert _style("", _mkdocs("site_name: X\n")) is UrlStyle.DIRECTORY
    assert _style("", _mkdocs("use_directory_urls: false\n")) is UrlStyle.HTML
    assert _style("", _mkdocs("use_directory_urls: true\n")) is UrlStyle.DIRECTORY
    # the urls option wins over mkdocs.yml; an mkdocs.yml about another folder decides nothing
    assert _style("html", _mkdocs("site_name: X\n")) is UrlStyle.HTML
    assert _style("", {"mkdocs.yml": "docs_dir: other\n"}) is UrlStyle.HTML
    # tags are data, never run; a file that is not YAML keeps MkDocs' default
    tagged = _mkdocs("x: !!python/name:os.system\nuse_directory_urls: false\n")
    assert _style("", tagged) is UrlStyle.HTML
    # (MkDocs' defaults: its docs_dir is docs/, which cannot be read from a broken file)
    broken = mkdocs_generator("docs_dir: content\nnav: [\n", "docs")
    assert url_style(Config(root=Path("."), content="docs", generator=broken), {}) is (
        UrlStyle.DIRECTORY
    )


def _addresses(
    pages: Mapping[str, str], urls: str = "directory", manifests: Mapping[str, str] = {}
) -> tuple[Addresses, list[tuple[str, int, str, str]], Linked]:
    records = [extract_page(p, t.encode()) for p, t in pages.items()]
    texts = {p: t.encode() for p, t in pages.items()}
    addresses, diags = page_addresses(_config(urls, manifests), records, manifests, texts)
    index = SiteIndex(
        content="content",
        pages=set(pages),
        assets=set(),
        sources=set(),
        dirs={"content", *(p.rsplit("/", 1)[0] for p in pages)},
        addresses=addresses,
    )
    linked = link_all(index, records, [], {})
    shown = [(d.path, d.line, str(d.level), d.code) for d in diags + linked.diagnostics]
    return addresses, shown, linked


def test_url_permalink_and_slug_set_a_pages_file() -> None:
    addresses, diags, _ = _addresses(
        {
            "content/a.md": "---\npermalink: /docs/a/\n---\n# A\n",
            "content/b.md": "---\nurl: /b-page\n---\n# B\n",
            "content/posts/c.md": "---\nslug: see\n---\n# C\n",
            "content/d.md": "---\nurl: /d-url/\npermalink: /d-permalink/\nslug: d\n---\n# D\n",
            "content/e.md": "# E\n",
        }
    )
    assert diags == []
    assert dict(addresses.pages) == {
        "/a.md": "docs/a/index.html",
        "/b.md": "b-page/index.html",
        "/posts/c.md": "posts/see/index.html",
        "/d.md": "d-url/index.html",  # url, then permalink, then slug
        "/e.md": "e/index.html",
    }


def test_a_value_that_is_no_address_is_reported_and_the_page_keeps_its_file() -> None:
    addresses, diags, _ = _addresses(
        {
            "content/a.md": "---\ntitle: A\npermalink: javascript:alert(1)\n---\n# A\n",
            "content/b.md": "---\nslug: a/b\n---\n# B\n",
            "content/c.md": "---\npermalink: /:categories/:title/\n---\n# C\n",
            "content/d.md": "---\nurl: [1, 2]\n---\n# D\n",
        },
        urls="html",
    )
    assert dict(addresses.pages) == {
        "/a.md": "a.html",
        "/b.md": "b.html",
        "/c.md": "c.html",
        "/d.md": "d.html",
    }
    assert diags == [
        ("content/a.md", 3, "warning", "bad-address"),
        ("content/b.md", 2, "warning", "bad-address"),
        ("content/c.md", 2, "warning", "bad-address"),
        ("content/d.md", 2, "warning", "bad-address"),
    ]


def test_two_pages_at_one_address_publish_one_and_report_an_error() -> None:
    addresses, diags, _ = _addresses(
        {
            "content/a.md": "# A\n",
            "content/a/index.md": "# A folder\n",  # a/index.html in the directory style
            "content/x.md": "---\npermalink: /y/\n---\n# X\n",
            "content/y.md": "# Y\n",
            "content/z/README.md": "# Z readme\n",
            "content/z/index.md": "# Z\n",  # beside a README: the rule it always was, a warning
        }
    )
    pages = dict(addresses.pages)
    assert pages["/a.md"] == "a/index.html" and "/a/index.md" not in pages
    assert pages["/x.md"] == "y/index.html" and "/y.md" not in pages
    assert "/z/README.md" not in pages
    assert diags == [
        ("content/a/index.md", 1, "error", "duplicate-output"),
        ("content/y.md", 1, "error", "duplicate-output"),
        ("content/z/README.md", 1, "warning", "duplicate-output"),
    ]


def test_aliases_and_redirect_from_are_redirects_to_the_page() -> None:
    addresses, diags, _ = _addresses(
        {
            "content/posts/p.md": "---\naliases: [/old/p/, p.html, /posts/p/]\n---\n# P\n",
            "content/q.md": "---\nredirect_from: /q-old\n---\n# Q\n",
            "content/r.md": "---\nredirect_from:\n  - /old/p/\n---\n# R\n",
            "content/s.md": "---\naliases: {a: 1}\n---\n# S\n",
        }
    )
    redirects = {out: (r.target, r.source) for out, r in addresses.redirects.items()}
    assert redirects == {
        "old/p/index.html": ("/posts/p.md", "content/posts/p.md"),  # the first by path wins
        "posts/p.html": ("/posts/p.md", "content/posts/p.md"),  # relative: the page's folder
        "q-old/index.html": ("/q.md", "content/q.md"),
    }  # /posts/p/ is the page itself: no redirect
    assert diags == [
        ("content/r.md", 2, "warning", "duplicate-output"),
        ("content/s.md", 2, "warning", "bad-address"),
    ]


def test_redirect_maps_of_mkdocs_yml() -> None:
    yml = (
        "plugins:\n  - search\n  - redirects:\n      redirect_maps:\n"
        "        old.md: new.md\n        'x/gone.md': 'new.md#part'\n"
        "        ext.md: https://example.com/\n        bad.md: nowhere.md\n"
    )
    addresses, diags, _ = _addresses({"content/new.md": "# New\n\n## Part\n"}, "", _mkdocs(yml))
    redirects = {out: (r.target, r.fragment) for out, r in addresses.redirects.items()}
    assert redirects == {
        "old/index.html": ("/new.md", ""),
        "x/gone/index.html": ("/new.md", "part"),
        "ext/index.html": ("https://example.com/", ""),
    }
    assert diags == [("mkdocs.yml", 9, "warning", "bad-address")]


def test_a_link_to_an_address_is_an_edge_to_the_page() -> None:
    _, diags, linked = _addresses(
        {
            "content/index.md": "# Home\n\n[a](/docs/a/) [b](/docs/a) [c](docs/a/#part) "
            "[d](/docs/a/index.html)\n",
            "content/guide/a.md": "---\npermalink: /docs/a/\n---\n# A\n\n## Part\n\n"
            "[b](../b/) [home](/)\n",
            "content/guide/b.md": "---\npermalink: /docs/b/\n---\n# B\n",
        }
    )
    assert diags == []
    (edge,) = linked.graph.edges_from("/index.md")
    assert (edge.dst, edge.count) == ("/guide/a.md", 4)
    assert {e.dst for e in linked.graph.edges_from("/guide/a.md")} == {"/guide/b.md", "/index.md"}
    assert [e.src for e in linked.graph.backlinks_of("/guide/a.md")] == ["/index.md"]


def test_a_link_to_an_old_address_resolves_with_an_info_line() -> None:
    _, diags, linked = _addresses(
        {
            "content/index.md": "# Home\n\n[old](/old/) and [old too](/old#x)\n",
            "content/new.md": "---\nredirect_from: /old/\n---\n# New\n\n## X\n",
        }
    )
    assert diags == [
        ("content/index.md", 3, "info", "redirect-link"),
        ("content/index.md", 3, "info", "redirect-link"),
    ]
    resolved = linked.resolutions["/index.md"]
    assert [(r.outcome, r.node, r.fragment) for r in resolved] == [
        (Outcome.INTERNAL, "/new.md", ""),
        (Outcome.INTERNAL, "/new.md", "x"),
    ]
    message = next(d.message for d in linked.diagnostics if d.level is Level.INFO)
    assert message == (
        "link '/old/' reaches 'content/new.md' through the redirect at '/old/'; "
        "the page's address is '/new/'"
    )


def test_a_link_written_for_the_other_style_still_resolves() -> None:
    for urls in ("html", "directory"):
        _, diags, linked = _addresses(
            {
                "content/guide/a.md": "# A\n\n[b](../b/) [b](b.html) [b](/guide/b/)\n",
                "content/guide/b.md": "# B\n",
            },
            urls=urls,
        )
        assert diags == []
        (edge,) = linked.graph.edges_from("/guide/a.md")
        assert (edge.dst, edge.count) == ("/guide/b.md", 3)
