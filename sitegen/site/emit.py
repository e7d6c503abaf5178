"""Emit: turn the finished graphs and records into the site's files, written into a new
folder that is swapped in whole (content/guides/builds.md, "Crash safety").

Runs only after link, merge and analyse, since every page shows backlinks from the whole
graph. Builds the state every output shares and runs the outputs of sitegen.site.outputs
in their order; never resolves links or changes the graph, and declares no output itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from sitegen.analyse.locale_folders import site_locales
from sitegen.base.diagnostics import Diagnostic, Sink
from sitegen.base.parallel import run_in_background
from sitegen.base.paths import NodeId, OutPath, SitePath, url_path
from sitegen.base.progress import Progress
from sitegen.link.blog import is_unlisted
from sitegen.records.pages import PageRecord
from sitegen.site.blog import blog_site, with_blog_sections
from sitegen.site.emitter import EmitRun, Emitter
from sitegen.site.locale_view import locale_navs, page_langs, switchers
from sitegen.site.navigation import build_nav, project_nav
from sitegen.site.outputs import OUTPUTS
from sitegen.site.outputs.all_pages import index_out
from sitegen.site.outputs.stale_docs import STALE_DOCS, stale_report
from sitegen.site.pagemeta import git_dates
from sitegen.site.render import Renderer, template_files
from sitegen.site.state import SiteState
from sitegen.site.views import NavItem
from sitegen.site.vitepress import site_routes
from sitegen.site.writer import SiteWriter
from sitegen.state.remembered import SiteRecord, code_version, digest, digest_each

if TYPE_CHECKING:
    from sitegen.records.result import BuildResult

#: What each output claimed: the emitter and the files it won, in the registry's order.
Claimed = list[tuple[Emitter, list[OutPath]]]


def emit_site(
    result: BuildResult,
    progress: Progress,
    jobs: int = 1,
    fingerprint: str = "",
    reuse: bool = True,
    extra: Sequence[Emitter] = (),
    *,
    sink: Sink,
) -> int:
    """Write every file of the site; returns how many files it has.

    Every output claims its files first, in the registry's order, so a clash is decided
    the same way every build; then each writes what it won. An output whose key is the
    previous build's is linked from the previous site; the graph-wide reports are written
    in a forked process while the pages render, since neither needs the other's output.
    ``extra`` are the plugins' outputs: they claim after sitegen's own, through the same
    steps (content/guides/plugins.md). What the site's making reports goes into ``sink``
    (the build's); the site marker keeps the diagnostics of the whole build so far, sorted,
    and the counts they make. The result is not changed.
    """
    site = site_state(result, sink)
    with SiteWriter(result.config.out_dir, reuse=reuse) as writer:
        run = EmitRun(site, writer, progress, jobs, sink)
        claimed: Claimed = [(emitter, emitter.claim(run)) for emitter in (*OUTPUTS, *extra)]
        # The outputs before the first background one are written first; the background
        # ones then start together, and the rest are written while they run.
        start = next((i for i, (e, _) in enumerate(claimed) if e.background), len(claimed))
        together = [(e, outs) for e, outs in claimed if e.background]
        for emitter, outs in claimed[:start]:
            emitter.emit(run, outs)
        assert result.insight is not None, "the analysis runs before the site"
        key = digest(site.site_key, graph_key(result), result.insight.relatedness.missing)
        fresh = [out for _, outs in together for out in outs if not writer.reuse(out, key)]
        # Own templates render here, so an error in one is a ThemeError line, not a crash.
        writer.settle()  # no process is forked with writer threads in it
        with run_in_background(
            _emit_each,
            (run, together),
            jobs > 1 and bool(fresh) and not site.renderer.has_theme_templates,
            skip=not fresh,
        ):
            for emitter, outs in claimed[start:]:
                if not emitter.background:
                    emitter.emit(run, outs)
        said = sink.sorted()  # what a build of the same input replays (sitegen/build.py)
        counts = replace(result, diagnostics=said).counts()
        writer.record = SiteRecord(fingerprint, {}, said, counts)
    return len(writer.outputs)


def _emit_each(state: tuple[EmitRun, Claimed]) -> None:
    run, claimed = state
    for emitter, outs in claimed:
        emitter.emit(run, outs)
    run.writer.settle(in_worker=True)  # a forked process: its files exist before it ends


def site_state(result: BuildResult, sink: Sink | None = None) -> SiteState:
    """What every output shares: the published pages, the page tree, the renderer, and the
    key of all that (the site around every page, so part of every page's key). What reading
    the page tree, the theme and the blog reports goes into ``sink`` (none: not wanted, as
    in serve's preview of one page)."""
    sink = Sink() if sink is None else sink
    config = result.config
    pages = publishable_pages(result)
    addresses = result.addresses
    nav, folder_index = build_nav(pages, addresses)
    said: list[Diagnostic] = []  # the readers of a project's page tree append to a list
    given, page_navs = project_nav(config, pages, said, addresses)
    sink.extend(said)
    nav = given or nav
    locales = site_locales(config, pages)
    if locales and given is None:  # the folders' tree: each locale shows its own
        page_navs = locale_navs(pages, locales, addresses)
    # Unlisted pages are published but in no page tree (content/guides/docusaurus.md).
    unlisted = frozenset(n for n, rec in pages.items() if is_unlisted(rec.front_matter))
    hidden = {url_path(addresses.out(n)) for n in unlisted}
    # Blog posts are listed by the blog's pages, never in the tree (Material's are in the
    # docs folder: content/guides/mkdocs.md#blog).
    blog = config.generator.blog if config.generator is not None else None
    hidden |= {
        url_path(addresses.out(n))
        for n, rec in pages.items()
        if blog is not None and blog.post_path(rec.path) is not None
    }
    nav = without_pages(nav, hidden)
    page_navs = {n: without_pages(tree, hidden) for n, tree in page_navs.items()}
    titles: dict[str, str] = {n: node.title or n for n, node in result.graph.nodes.items()}
    renderer = Renderer(config.root, config.theme_dir)
    sink.extend(renderer.theme.diagnostics)
    site = SiteState(
        result,
        renderer,
        nav,
        titles,
        pages,
        folder_index,
        page_navs={addresses.out(n): tree for n, tree in page_navs.items()},
    )
    site.routes = site_routes(config.generator, config.content_rel, pages)
    site.page_langs = page_langs(pages, locales, config.lang, addresses)
    site.page_languages = switchers(pages, locales, addresses)
    site.locales = locales
    site.unlisted = unlisted
    site.blog = blog_site(config.generator, pages, addresses, site.page_bytes)
    if site.blog is not None:  # Material's archive and categories, beside the blog's index
        site.nav = with_blog_sections(site.nav, site.blog)
        site.page_navs = {o: with_blog_sections(t, site.blog) for o, t in site.page_navs.items()}
    sink.extend(site.blog.diagnostics if site.blog is not None else ())
    site.reports = header_reports(site)
    site.dates = git_dates(config.root, config.content)
    site.frame_key = digest(
        code_version(),
        template_files(config.root, config.theme_dir),
        config.site_title,
        config.base_url,
        site.reports,
        config.lang,
        config.repo_url,
        config.edit_uri,
        addresses.style,
        addresses.declared,  # every href to a page whose front matter gives its address
        site.stylesheets,  # the content's own, linked from every page (publish.css)
    )
    site.site_key = digest(
        site.frame_key,
        nav,
        folder_index,
        sorted(site.page_navs.items()),
        sorted(site.page_langs.items()),
        sorted(site.page_languages.items()),
    )
    return site


def without_pages(tree: tuple[NavItem, ...], hrefs: set[str]) -> tuple[NavItem, ...]:
    """The page tree without the pages at ``hrefs`` (a folder keeps its own link; one left
    with neither a link nor an entry goes too, as Material's ``blog/posts/`` would)."""
    if not hrefs:
        return tree
    kept = (
        replace(item, children=without_pages(item.children, hrefs)) if item.is_folder else item
        for item in tree
        if item.is_folder or item.href not in hrefs
    )
    return tuple(i for i in kept if not (i.is_folder and not i.href and not i.children))


def graph_key(result: BuildResult) -> str:
    """Everything the graph-wide reports show: nodes, edges with occurrences, cycles, code."""
    edges = (
        (e.src, e.dst, e.rel, e.label, e.anchor, e.count, e.occurrences)
        for e in result.graph.edges()
    )
    code = ((r.path, r.content_hash) for r in result.code_records)
    nodes = (result.graph.nodes[n] for n in sorted(result.graph.nodes))
    # a piece at a time: the repr of every edge at once held 70 MB at 5,000 pages
    return digest_each(nodes, edges, result.linked.broken, code, [result.cycles])


def header_reports(site: SiteState) -> tuple[tuple[str, str], ...]:
    """The reports the header links to, by title, with hrefs relative to the site root; only
    "All pages" when the ``header_reports`` option is off."""
    if not site.result.config.header_reports:
        return (*_blog_link(site), ("All pages", str(index_out(site))))
    reports = [("All pages", str(index_out(site))), ("Broken links", "broken-links.html")]
    if site.result.cycles is not None:
        reports.append(("Cycles", "cycles.html"))
    if stale_report(site) is not None:
        reports.append(("Stale docs", str(STALE_DOCS)))
    reports += [("Missing links", "missing-links.html"), ("Graph", "graph.html")]
    if site.result.config.peers:
        reports.append(("Peers", "peers.html"))
    return (*_blog_link(site), *reports)


def _blog_link(site: SiteState) -> tuple[tuple[str, str], ...]:
    """The blog's index first in the header, as Docusaurus's navbar links it; none without."""
    blog = site.blog
    return ((blog.title, str(blog.index_outs[0])),) if blog and blog.index_outs else ()


def publishable_pages(result: BuildResult) -> dict[NodeId, PageRecord]:
    """Pages by node: those published at an address of their own. When two claim one HTML
    file (a.md and a.markdown, two permalinks), sitegen/link/page_addresses.py chose one and
    reported the other."""
    content = result.config.content_rel
    published = result.addresses.pages
    pages = {SitePath.page(rec.path, content).node: rec for rec in result.pages}
    return {node: rec for node, rec in sorted(pages.items()) if node in published}
