"""Links as Docusaurus reads them (sitegen/link/docusaurus.py, sitegen/link/rules.py): a
file path from the page, then from the docs folder; ``/x.md`` from the docs folder; files of
the static folders at the site root; ``@site/``; ``pathname://``; a relative URL from the
page's URL, which ends without ``/`` (content/guides/urls.md#docusaurus-addresses-and-links)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from sitegen.addresses import Addresses, UrlStyle
from sitegen.base.paths import NodeId, OutPath
from sitegen.config import Config
from sitegen.docs.markdown import extract_page
from sitegen.generators import Dialect, Generator, SlugStyle
from sitegen.link.docusaurus import DocsLinks
from sitegen.link.explain import explanation, explanation_text
from sitegen.link.rules import Rule, SiteIndex, Trace, resolve
from sitegen.link.step import crawl_index, link_all, trace_link
from sitegen.records.crawl import Crawl
from sitegen.records.linked import Outcome

PAGES = {
    "docs/faq/General.md",
    "docs/faq/OrganizingState.md",
    "docs/api/Store.md",
    "docs/usage/ReducingBoilerplate.md",
    "docs/usage/structuring-reducers/Refactoring.md",
}
ASSETS = {"website/static/img/flow.png", "website/static/pdf/a.pdf", "docs/faq/local.png"}
DIRS = {"docs", "docs/faq", "docs/api", "docs/usage", "docs/usage/structuring-reducers"}
#: Where Docusaurus publishes them (routeBasePath '/', ids in kebab case).
OUTS = {
    NodeId("/faq/General.md"): OutPath("faq/general/index.html"),
    NodeId("/faq/OrganizingState.md"): OutPath("faq/organizing-state/index.html"),
    NodeId("/api/Store.md"): OutPath("api/store/index.html"),
    NodeId("/usage/ReducingBoilerplate.md"): OutPath("usage/reducing-boilerplate/index.html"),
    NodeId("/usage/structuring-reducers/Refactoring.md"): OutPath(
        "usage/structuring-reducers/refactoring-reducer-example/index.html"
    ),
}


def _index(docusaurus: bool = True) -> SiteIndex:
    return SiteIndex(
        content="docs",
        pages=set(PAGES),
        assets=set(ASSETS),
        sources=set(),
        dirs=set(DIRS) | {"website", "website/static", "website/static/img"},
        addresses=Addresses(UrlStyle.DIRECTORY, OUTS),
        static=("website/static",) if docusaurus else (),
        docusaurus=DocsLinks("docs", "website") if docusaurus else None,
    )


def test_a_file_path_not_found_from_the_page_is_read_from_the_docs_folder() -> None:
    res = resolve("api/Store.md#dispatchaction", "docs/faq/General.md", _index())
    assert (res.outcome, res.node, res.fragment) == (
        Outcome.INTERNAL,
        "/api/Store.md",
        "dispatchaction",
    )
    without = resolve("api/Store.md", "docs/faq/General.md", _index(docusaurus=False))
    assert without.outcome == Outcome.MISSING


def test_the_page_s_own_folder_comes_first() -> None:
    index = _index()
    index.pages.add("docs/faq/api/Store.md")
    res = resolve("api/Store.md", "docs/faq/General.md", index)
    assert res.node == "/faq/api/Store.md"


def test_only_md_and_mdx_paths_are_read_from_the_docs_folder() -> None:
    # 'api/Store' without extension is a URL, read from the page's URL (/faq/), not a file
    res = resolve("api/Store", "docs/faq/General.md", _index())
    assert res.outcome == Outcome.MISSING


def test_an_absolute_file_path_is_read_from_the_docs_folder() -> None:
    index = _index()
    index.content = ""  # the docs folder is not the content folder
    index.pages = {"docs/api/Store.md", "docs/faq/General.md"}
    res = resolve("/api/Store.md", "docs/faq/General.md", index)
    assert (res.outcome, res.node) == (Outcome.INTERNAL, "/docs/api/Store.md")


def test_a_file_of_a_static_folder_is_published_at_the_site_root() -> None:
    index = _index()
    res = resolve("/img/flow.png", "docs/faq/General.md", index)
    assert (res.outcome, res.node) == (Outcome.INTERNAL, "/img/flow.png")
    site = resolve("@site/static/img/flow.png", "docs/faq/General.md", index)
    assert (site.outcome, site.node) == (Outcome.INTERNAL, "/img/flow.png")
    assert resolve("/img/none.png", "docs/faq/General.md", index).outcome == Outcome.MISSING
    assert index.public_asset("/../../docs/faq/local.png") is None  # never climbed out of
    assert resolve("/img/flow.png", "docs/faq/General.md", _index(False)).outcome == (
        Outcome.MISSING
    )


def test_site_alias_cannot_climb_out_of_the_root() -> None:
    res = resolve("@site/../../etc/passwd", "docs/faq/General.md", _index())
    assert res.outcome == Outcome.OUTSIDE


def test_a_pathname_link_is_published_as_its_url_unchecked() -> None:
    res = resolve("pathname:///pdf/missing.pdf", "docs/faq/General.md", _index())
    assert (res.outcome, res.url) == (Outcome.IGNORED, "/pdf/missing.pdf")
    other = resolve("pathname:///x", "docs/faq/General.md", _index(docusaurus=False))
    assert other.url == ""


def test_a_relative_url_is_read_from_the_page_url_without_its_slash() -> None:
    # /usage/structuring-reducers/refactoring-reducer-example + ../reducing-boilerplate
    page = "docs/usage/structuring-reducers/Refactoring.md"
    res = resolve("../reducing-boilerplate", page, _index())
    assert (res.outcome, res.node) == (Outcome.INTERNAL, "/usage/ReducingBoilerplate.md")
    without = resolve("../reducing-boilerplate", page, _index(docusaurus=False))
    assert without.outcome == Outcome.MISSING


def test_an_absolute_url_is_a_published_route() -> None:
    res = resolve("/faq/organizing-state#x", "docs/faq/General.md", _index())
    assert (res.outcome, res.node, res.fragment) == (
        Outcome.INTERNAL,
        "/faq/OrganizingState.md",
        "x",
    )


def test_the_trace_names_the_docs_folder_and_site_folder_steps() -> None:
    trace = Trace()
    resolve("api/Store.md", "docs/faq/General.md", _index(), trace)
    steps = [(s.rule, s.found) for s in trace.steps]
    assert (Rule.DOCS_ROOT, "docs/api/Store.md") in steps
    trace = Trace()
    resolve("api/Nothing.md", "docs/faq/General.md", _index(), trace)
    docs_root = [s for s in trace.steps if s.rule is Rule.DOCS_ROOT]
    assert docs_root and docs_root[0].rejected[0].candidate == "docs/api/Nothing.md"
    trace = Trace()
    resolve("@site/static/img/flow.png", "docs/faq/General.md", _index(), trace)
    assert trace.steps[1].rule is Rule.SITE_FOLDER


def test_the_link_step_reports_no_false_broken_links() -> None:
    text = (
        "# General\n\n[store](api/Store.md) ![flow](/img/flow.png) "
        "[pdf](pathname:///pdf/a.pdf) [gone](api/Gone.md)\n"
    )
    records = [extract_page("docs/faq/General.md", text.encode())]
    linked = link_all(_index(), records, [], {})
    assert [b.target for b in linked.broken] == ["api/Gone.md"]
    assert not [d for d in linked.diagnostics if d.code == "unsafe-url"]


def test_sitegen_explain_shows_the_docs_folder_step() -> None:
    text = "# Glossary\n\nSee [the store](api/Store.md#dispatchaction).\n"
    rec = extract_page("docs/faq/General.md", text.encode())
    others = [extract_page(p, b"# X\n\n## dispatch(action)\n") for p in sorted(PAGES - {rec.path})]
    traced = trace_link(_index(), [rec, *others], [], {}, None, rec, rec.links[0])
    shown = explanation_text(explanation(rec.path, rec.links[0], traced))
    assert "docs-root: a file path not found from the page, read from the docs folder" in shown
    assert "-> docs/api/Store.md" in shown
    assert "result: internal /api/Store.md #dispatchaction" in shown


def test_the_build_s_index_reads_links_the_record_s_way() -> None:
    generator = Generator(
        name="Docusaurus",
        config_file="website/docusaurus.config.ts",
        slugs=SlugStyle.GITHUB,
        docs_dir="docs",
        dialect=Dialect.MDX,
        static=("website/static",),
        route_base="",
        doc_routes=True,
    )
    config = Config(root=Path("."), content="docs", generator=generator)
    index = crawl_index(config, Crawl())
    assert index.docusaurus == DocsLinks("docs", "website")
    assert index.static == ("website/static",)
    other = replace(generator, doc_routes=False)
    assert crawl_index(replace(config, generator=other), Crawl()).docusaurus is None


def test_an_mdx_page_is_named_like_a_markdown_page() -> None:
    # A page file .mdx (Docusaurus) is looked up for x.html and x as .md is, and a wikilink
    # names it without its extension.
    index = replace(_index(), pages=set(PAGES) | {"docs/faq/Intro.mdx"})
    for href in ("Intro.html", "Intro"):
        res = resolve(href, "docs/faq/General.md", index)
        assert (res.outcome, res.node) == (Outcome.INTERNAL, "/faq/Intro.mdx"), href
