"""Raw HTML of a MkDocs site with directory URLs (issue 30, point 6): MkDocs rewrites the
links of markdown and publishes raw HTML as written, so a browser reads ``<img src>`` and
``<a href>`` of ``docs/a/b.md`` from the page's URL ``a/b/``, and ``..`` stops at the site
root (content/guides/linking.md#raw-html-read-from-the-pages-url). The expected targets are
what a browser on the MkDocs site opens, worked out by hand in each comment."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from sitegen.addresses import UrlStyle
from sitegen.config import Config
from sitegen.docs.markdown import extract_page
from sitegen.generators import mkdocs_generator
from sitegen.link.page_addresses import page_addresses
from sitegen.link.rules import Rule, SiteIndex
from sitegen.link.step import link_all, trace_link
from sitegen.records.linked import Outcome, Resolved

#: Two images of one name: the one a browser opens on ``a/b/`` and the one the file's
#: folder would name, so a test tells the two rules apart.
ASSETS = {"content/a/img/x.png", "content/img/x.png"}
B = (
    "# B\n\n"
    '<img src="../img/x.png" alt="url">\n\n'  # a/b/ + ../img/x.png = a/img/x.png
    "![file](../img/x.png)\n\n"  # markdown: MkDocs rewrites it from the file, img/x.png
    '<p><a href="../c/">C</a> <a href="../../../../c.md">top</a> '  # a/c/; clamped: c.md
    '<a href="../b/#b">me</a> <a href="./">here</a> '  # a/b/ itself, twice
    '<a href="https://example.org/x">out</a> <a href="#b">frag</a> <a href="/c.md">abs</a> '
    '<a href="{{ x.url }}">tpl</a></p>\n'
)
PAGES = {
    "content/c.md": "# Top C\n",
    "content/a/index.md": '# A\n\n<img src="img/x.png" alt="index">\n',  # a/ + img/x.png
    "content/a/b.md": B,
    "content/a/c.md": "# C\n",
}


def _resolved(
    mkdocs_yml: str, urls: str = "", pages: Mapping[str, str] = PAGES
) -> dict[str, list[tuple[str, Outcome, str]]]:
    """Each page's links as (label, outcome, target node) after the link step of a project
    with this ``mkdocs.yml`` (docs_dir: content) and the ``urls`` option."""
    generator = mkdocs_generator("docs_dir: content\n" + mkdocs_yml, "content")
    assert generator is not None
    config = Config(root=Path("."), content="content", urls=urls, generator=generator)
    records = [extract_page(p, t.encode()) for p, t in pages.items()]
    texts = {p: t.encode() for p, t in pages.items()}
    addresses, _ = page_addresses(config, records, {"mkdocs.yml": mkdocs_yml}, texts)
    index = SiteIndex(
        content="content",
        pages=set(pages),
        assets=set(ASSETS),
        sources=set(),
        dirs={"content", "content/a", "content/a/img", "content/img"},
        addresses=addresses,
        raw_html_from_url=generator.raw_html_from_url,
    )
    linked = link_all(index, records, [], {})
    out = {}
    for rec in records:
        node = index.node_for(rec.path)
        assert node is not None
        found: list[Resolved] = linked.resolutions[node]
        out[rec.path] = [
            (link.label, r.outcome, r.node or "") for link, r in zip(rec.links, found, strict=True)
        ]
    return out


def test_mkdocs_reads_raw_html_from_the_page_url_with_directory_urls_only() -> None:
    on = mkdocs_generator("docs_dir: content\n", "content")
    off = mkdocs_generator("docs_dir: content\nuse_directory_urls: false\n", "content")
    assert on is not None and on.raw_html_from_url
    assert off is not None and not off.raw_html_from_url


@pytest.mark.parametrize("urls", ["", "html"])  # sitegen's own layout does not change it
def test_raw_html_is_read_from_the_page_url_and_markdown_from_the_file(urls: str) -> None:
    got = _resolved("site_name: X\n", urls)
    assert got["content/a/b.md"] == [
        ("url", Outcome.INTERNAL, "/a/img/x.png"),
        ("file", Outcome.INTERNAL, "/img/x.png"),
        ("C", Outcome.INTERNAL, "/a/c.md"),
        ("top", Outcome.INTERNAL, "/c.md"),  # four levels up from a/b/: the root, not outside
        ("me", Outcome.SELF, ""),
        ("here", Outcome.SELF, ""),
        ("out", Outcome.EXTERNAL, "https://example.org/x"),
        ("frag", Outcome.SELF, ""),
        ("abs", Outcome.INTERNAL, "/c.md"),
        ("tpl", Outcome.TEMPLATE, ""),
    ]
    # an index page's URL is its folder: the same as its file's
    assert got["content/a/index.md"] == [("index", Outcome.INTERNAL, "/a/img/x.png")]


def test_without_directory_urls_raw_html_is_read_from_the_file() -> None:
    got = _resolved("use_directory_urls: false\n")
    url, file, _, top = got["content/a/b.md"][:4]
    assert url == ("url", Outcome.INTERNAL, "/img/x.png")  # a/b.html: its URL's folder is a/
    assert file == ("file", Outcome.INTERNAL, "/img/x.png")
    assert top == ("top", Outcome.OUTSIDE, "../../../../c.md")


def test_a_link_that_climbs_above_the_root_stays_at_the_root() -> None:
    pages = {"content/a/b.md": '<img src="../../../../../img/x.png" alt="deep">\n'}
    got = _resolved("site_name: X\n", pages=pages)
    assert got["content/a/b.md"] == [("deep", Outcome.INTERNAL, "/img/x.png")]


def test_explain_names_the_page_url_rule() -> None:
    generator = mkdocs_generator("docs_dir: content\n", "content")
    assert generator is not None
    config = Config(root=Path("."), content="content", generator=generator)
    records = [extract_page(p, t.encode()) for p, t in PAGES.items()]
    texts = {p: t.encode() for p, t in PAGES.items()}
    addresses, _ = page_addresses(config, records, {}, texts)
    index = SiteIndex(
        content="content",
        pages=set(PAGES),
        assets=set(ASSETS),
        sources=set(),
        dirs={"content", "content/a", "content/a/img", "content/img"},
        addresses=addresses,
        raw_html_from_url=True,
    )
    rec = next(r for r in records if r.path == "content/a/b.md")
    traced = trace_link(index, records, [], {}, None, rec, rec.links[0])
    step = next(s for s in traced.steps if s.rule is Rule.PAGE_URL)
    assert "'/a/b/'" in step.says and step.found == "/a/img/x.png"
    assert traced.resolved.node == "/a/img/x.png"
    assert addresses.style is UrlStyle.DIRECTORY
