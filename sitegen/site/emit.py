"""Emit: turn the finished graphs and records into the site's files, written atomically.

Runs only after link, merge and analyse, since every page shows backlinks from the whole
graph. Builds view objects for the templates; never resolves links or changes the graph.
"""

from __future__ import annotations

import html as htmlmod
import posixpath
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from sitegen.analyse.figures import Figures
from sitegen.defaults import no_sitemap
from sitegen.docs.records import PageRecord
from sitegen.graph.export import export_graph_md
from sitegen.graph.graphjson import dump_graph_json
from sitegen.graph.model import Edge, Graph, annotate
from sitegen.incremental import SiteRecord, code_version, digest
from sitegen.link.rules import Outcome, Resolved
from sitegen.parallel import run_forked, run_in_background
from sitegen.paths import (
    NodeId,
    OutPath,
    RepoPath,
    href_between,
    html_out_path,
    is_local_node,
    is_source_node,
    page_node_of,
    raw_out_path,
    source_node_id,
    source_repo_path,
    url_path,
)
from sitegen.plural import counted
from sitegen.progress import Progress
from sitegen.site.backlinks import backlink_groups
from sitegen.site.code_pages import emit_code_reports, emit_source_pages
from sitegen.site.navigation import MKDOCS_FILE, mkdocs_nav, page_order, sort_key
from sitegen.site.pagemeta import edit_href, git_dates
from sitegen.site.related_view import missing_links_view, related_items, related_key
from sitegen.site.render import Renderer, template_files
from sitegen.site.sitepages import emit_not_found, emit_tag_pages, tag_links
from sitegen.site.state import SiteState, duplicate_output, edge_source_href, href_for_node
from sitegen.site.views import (
    CodeRef,
    Crumb,
    IndexEntry,
    IndexSection,
    IndexView,
    NavItem,
    PageView,
    ReportCell,
    ReportView,
    TocEntry,
)
from sitegen.site.writer import SiteWriter

if TYPE_CHECKING:
    from sitegen.result import BuildResult

#: Headings deeper than this are left out of the table of contents.
TOC_MAX_LEVEL = 4


# ---------------------------------------------------------------------------- hrefs


def _link_href(res: Resolved, written: str, from_out: OutPath, graph: Graph) -> str:
    """The URL a link points at on the published site."""
    if res.outcome is Outcome.INTERNAL and res.node is not None:
        node = graph.nodes.get(res.node)
        return href_for_node(res.node, res.fragment, from_out, node.kind if node else None)
    if res.outcome is Outcome.SELF:
        return "#" + res.fragment if res.fragment else "#"
    return written


def substitute_links(
    rec: PageRecord, resolutions: list[Resolved], from_out: OutPath, graph: Graph
) -> str:
    """The page's HTML with every link placeholder replaced by its published URL."""
    mark = rec.link_mark

    def repl(m: re.Match[str]) -> str:
        i = int(m.group(2))
        if m.group(1) != mark or i >= len(resolutions):
            return m.group(0)
        res = resolutions[i]
        url = htmlmod.escape(_link_href(res, rec.links[i].href, from_out, graph), quote=True)
        if res.outcome in (Outcome.MISSING, Outcome.OUTSIDE) and m.group(3):
            # The mark is a whole double-quoted href: close it and mark the link as broken.
            return f'{url}" class="broken-link" title="Broken link: the target does not exist"'
        return url + m.group(3)

    return _LINK_MARK.sub(repl, rec.html)


def scrollable_boxes(body: str) -> str:
    """Each table in a box that scrolls sideways, and each code block, focusable so a
    keyboard can scroll them too; each table box is a region with a label of its own."""
    count = iter(range(1, body.count("<table>") + 1))
    body = _TABLE.sub(
        lambda _: (
            f'<div class="table-scroll" tabindex="0" role="region" '
            f'aria-label="Table {next(count)}"><table>'
        ),
        body,
    )
    return body.replace("</table>", "</table></div>").replace("<pre>", '<pre tabindex="0">')


_TABLE = re.compile(r"<table>")


# Every page's marks share one shape (``sglink-<16 hex>-<i>``): one compiled pattern for all.
_LINK_MARK = re.compile(r"(sglink-[0-9a-f]{16}-)(\d+)(\"?)")


# ---------------------------------------------------------------------------- navigation


def _humanize(name: str) -> str:
    stem = posixpath.splitext(name)[0].replace("-", " ").replace("_", " ").strip()
    return stem[:1].upper() + stem[1:] if stem else name


def _is_readme(rel: str) -> bool:
    return posixpath.splitext(posixpath.basename(rel))[0].lower() == "readme"


def _is_index(rel: str) -> bool:
    return posixpath.basename(rel).lower() in ("index.md", "readme.md")


def build_nav(pages: dict[NodeId, PageRecord]) -> tuple[tuple[NavItem, ...], dict[str, NodeId]]:
    """The page tree (the home page first, then pages and folders by their front-matter
    ``order``, then folders by name, then pages by file name; a folder's index page is the
    folder's link), and each folder's index node."""
    folder_index: dict[str, NodeId] = {}
    in_folder: dict[str, list[NodeId]] = {}
    subfolders: dict[str, set[str]] = {}
    for node in sorted(pages):
        rel = node.lstrip("/")
        folder = posixpath.dirname(rel)
        in_folder.setdefault(folder, []).append(node)
        if _is_index(rel) and (folder not in folder_index or rel.lower().endswith("index.md")):
            folder_index[folder] = node
        while folder:  # every ancestor folder lists the next one down
            parent = posixpath.dirname(folder)
            subfolders.setdefault(parent, set()).add(folder)
            folder = parent

    def page(node: NodeId) -> NavItem:
        return NavItem(title=pages[node].title, href=url_path(html_out_path(node)))

    def items(folder: str) -> tuple[NavItem, ...]:
        home = [page(folder_index[""])] if not folder and "" in folder_index else []
        keyed = []  # in the order the author gives (content/guides/site.md), else by name
        for sub in sorted(subfolders.get(folder, ())):
            idx = folder_index.get(sub)
            title = pages[idx].title if idx else _humanize(posixpath.basename(sub))
            keyed.append(
                (
                    sort_key(
                        page_order(pages.get(idx) if idx else None), True, posixpath.basename(sub)
                    ),
                    NavItem(
                        title=title,
                        href=url_path(html_out_path(idx)) if idx else "",
                        children=items(sub),
                        is_folder=True,
                    ),
                )
            )
        keyed += [
            (sort_key(page_order(pages[n]), False, posixpath.basename(n)), page(n))
            for n in in_folder.get(folder, [])
            if folder_index.get(folder) != n
        ]
        return tuple(home + [item for _, item in sorted(keyed, key=lambda k: k[0])])

    return items(""), folder_index


def crumbs_for(node: NodeId, site: SiteState, out: OutPath) -> tuple[Crumb, ...]:
    rel = node.lstrip("/")
    parts = rel.split("/")[:-1]
    crumbs = []
    home = site.folder_index.get("")
    crumbs.append(
        Crumb("Home", href_between(out, html_out_path(home)) if home and home != node else "")
    )
    for i in range(len(parts)):
        folder = "/".join(parts[: i + 1])
        idx = site.folder_index.get(folder)
        title = site.pages_by_node[idx].title if idx else _humanize(parts[i])
        href = href_between(out, html_out_path(idx)) if idx and idx != node else ""
        crumbs.append(Crumb(title, href))
    if (not _is_index(rel) or parts == []) and node != home:
        crumbs.append(
            Crumb(site.pages_by_node[node].title if node in site.pages_by_node else rel, "")
        )
    return tuple(crumbs)


# ---------------------------------------------------------------------------- pages


def page_view(node: NodeId, rec: PageRecord, site: SiteState) -> PageView:
    out = html_out_path(node)
    graph = site.graph
    body = scrollable_boxes(
        substitute_links(rec, site.result.linked.resolutions.get(node, []), out, graph)
    )
    incoming = graph.backlinks_of(node)
    doc_edges = [e for e in incoming if not is_source_node(e.src)]
    code_edges = [e for e in incoming if is_source_node(e.src)]
    groups = backlink_groups(doc_edges, site.titles, lambda e: edge_source_href(e, out, graph))
    code_refs = tuple(
        CodeRef(
            path=source_repo_path(e.src),
            line=e.occurrences[0].line if e.occurrences else 0,
            href=edge_source_href(e, out, graph),
            annotation=annotate(e),
        )
        for e in code_edges
    )
    toc = tuple(
        TocEntry(h.level, h.text, h.id) for h in rec.headings if 2 <= h.level <= TOC_MAX_LEVEL
    )
    return PageView(
        title=rec.title,
        body_html=body,
        toc=toc,
        crumbs=crumbs_for(node, site, out),
        backlinks=groups,
        code_refs=code_refs,
        related=related_items(site, node, out),
        raw_href=href_between(out, raw_out_path(node)),
        node_id=node,
        edit_href=edit_href(site.result.config, rec.path),
        modified=site.dates.get(rec.path, ""),
        tags=tag_links(node, site, out),
    )


def emit_pages(site: SiteState, writer: SiteWriter, progress: Progress, jobs: int) -> None:
    """Every page's HTML and raw markdown; in forked workers on a large site. A page whose
    inputs are all unchanged is taken from the previous site. Outputs are claimed here, so a
    clash is reported deterministically; the workers compute keys and write."""
    task = progress.task("Writing pages", len(site.pages_by_node))
    todo: list[NodeId] = []
    for node, rec in sorted(site.pages_by_node.items()):
        out = html_out_path(node)
        if not writer.claim(out, rec.path):
            site.result.diagnostics.append(duplicate_output(rec.path, out, writer.outputs[out]))
            continue
        writer.claim(raw_out_path(node), rec.path)
        todo.append(node)
    for keys in run_forked(_write_pages, (site, writer), todo, jobs):
        writer.keys.update(keys)
        task.advance(len(keys) // 2)


def page_key(node: NodeId, rec: PageRecord, site: SiteState) -> str:
    """Everything a page shows: its own content, where its links point, its backlinks (and
    their sources' titles and kinds), and the site around it (nav, templates, titles)."""
    graph = site.graph
    links = [
        (r.outcome, r.node, r.fragment, graph.nodes[r.node].kind if r.node in graph.nodes else "")
        for r in site.result.linked.resolutions.get(node, [])
    ]
    incoming = [
        (
            e.src,
            e.rel,
            e.label,
            e.anchor,
            e.count,
            e.occurrences[0].line if e.occurrences else 0,
            site.titles.get(e.src, ""),
        )
        for e in graph.backlinks_of(node)
    ]
    # the HTML is of the page's bytes and the raw_html mode it was rendered under
    return digest(
        site.site_key,
        rec.content_hash,
        rec.raw_html,
        links,
        incoming,
        site.dates.get(rec.path, ""),
        related_key(site, node),
    )


def _write_pages(state: tuple[SiteState, SiteWriter], nodes: list[NodeId]) -> dict[str, str]:
    """Raw markdown and HTML of ``nodes``; returns the key of each output for the parent."""
    site, writer = state
    data = site.page_bytes
    keys: dict[str, str] = {}
    for node in nodes:
        rec = site.pages_by_node[node]
        out, raw = html_out_path(node), raw_out_path(node)
        keys[raw] = rec.content_hash
        if not writer.reuse(raw, rec.content_hash):
            writer.write(raw, data[rec.path])
        keys[out] = page_key(node, rec, site)
        if not writer.reuse(out, keys[out]):
            writer.write(
                out, site.renderer.render_page(site.context(out), page_view(node, rec, site))
            )
    return keys


def emit_assets(site: SiteState, writer: SiteWriter) -> None:
    config = site.result.config
    for asset in site.result.crawl.assets:
        rel = asset[len(config.content_rel) + 1 :] if config.content_rel else asset
        out = OutPath(rel)
        if not writer.claim(out, asset):
            site.result.diagnostics.append(duplicate_output(asset, out, writer.outputs[out]))
            continue
        key = site.result.crawl.asset_hashes.get(asset, "")
        if not (key and writer.reuse(out, key)):
            writer.copy(out, config.root / asset)


# ---------------------------------------------------------------------------- index, reports


def index_view(site: SiteState, out: OutPath) -> IndexView:
    """The site's sections (top-level folders) with their pages, most-linked first."""
    inbound = {
        n: len([e for e in site.graph.backlinks_of(n) if e.src != n]) for n in site.pages_by_node
    }
    sections: dict[str, list[IndexEntry]] = {}
    for node, rec in site.pages_by_node.items():
        rel = node.lstrip("/")
        top = rel.split("/")[0] if "/" in rel else ""
        sections.setdefault(top, []).append(
            IndexEntry(
                title=rec.title, href=href_between(out, html_out_path(node)), inbound=inbound[node]
            )
        )
    ordered = []
    for top in sorted(sections):
        idx = site.folder_index.get(top) if top else None
        title = (site.pages_by_node[idx].title if idx else _humanize(top)) if top else "Top level"
        entries = sorted(sections[top], key=lambda e: (-e.inbound, e.title, e.href))
        ordered.append(IndexSection(title, tuple(entries)))
    return IndexView(
        title="All pages",
        sections=tuple(ordered),
        intro=f"{counted(len(site.pages_by_node), 'page')}, most-linked first in each section.",
    )


def broken_links_view(site: SiteState, out: OutPath) -> ReportView:
    rows = []
    node_of = {rec.path: node for node, rec in site.pages_by_node.items()}
    for path, line, col, check, target, message in sorted(site.result.linked.broken):
        href = _source_href(site, node_of.get(path), line, out)
        rows.append(
            (
                ReportCell(f"{path}:{line}:{col}", href, code=True),
                check,
                ReportCell(target, code=True),
                message,
            )
        )
    return ReportView(
        title="Broken links",
        columns=("Where", "Check", "Target", "Fix"),
        rows=tuple(rows),
        intro="Links, anchors and relation targets that do not resolve, with their exact place.",
        empty_text="No broken links.",
    )


def _source_href(site: SiteState, node: NodeId | None, line: int, out: OutPath) -> str:
    """A link to the section of a page that holds ``line``."""
    if node is None:
        return ""
    heading = ""
    for h in site.pages_by_node[node].headings:
        if h.line <= line:
            heading = h.id
    return href_between(out, html_out_path(node), heading)


def sitemap_xml(site: SiteState, outs: Iterable[str]) -> str:
    base = site.result.config.base_url.rstrip("/") + "/" if site.result.config.base_url else ""
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ]
    for out in sorted(outs):
        lines.append(f"  <url><loc>{htmlmod.escape(base + out)}</loc></url>")
    lines.append("</urlset>")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- the whole site


def emit_site(
    result: BuildResult,
    progress: Progress,
    jobs: int = 1,
    fingerprint: str = "",
    reuse: bool = True,
) -> int:
    """Write every file of the site; returns how many files it has.

    Outputs are claimed first (sitegen's own reports, then pages, assets and source pages),
    so a clash is reported deterministically; an output whose key is the previous build's is
    linked from the previous site; the reports are written in a forked process while the
    pages render, since neither needs the other's output.
    """
    config = result.config
    pages = publishable_pages(result)
    nav, folder_index = build_nav(pages)
    given = result.crawl.manifests.get(MKDOCS_FILE)
    if given is not None:
        nav = mkdocs_nav(given, config.content, pages, result.diagnostics) or nav
    titles: dict[str, str] = {n: node.title or n for n, node in result.graph.nodes.items()}
    renderer = Renderer(config.root, config.theme_dir)
    result.diagnostics += renderer.theme.diagnostics
    site = SiteState(
        result,
        renderer,
        nav,
        titles,
        pages,
        folder_index,
        site_key=digest(
            code_version(),
            template_files(config.root, config.theme_dir),
            nav,
            folder_index,
            config.site_title,
            config.base_url,
        ),
    )
    site.reports = header_reports(site)
    site.dates = git_dates(config.root, config.content)
    site.site_key = digest(
        site.site_key, site.reports, config.lang, config.repo_url, config.edit_uri
    )
    with SiteWriter(config.out_dir, reuse=reuse) as writer:
        for name, data in site.renderer.static_files().items():
            writer.claim(OutPath(name), "sitegen")
            writer.write(OutPath(name), data)
        emit_search_index(site, writer)
        emit_not_found(site, writer)
        emit_tag_pages(site, writer)
        reports = report_outputs(site)
        for out in reports:
            writer.claim(out, "sitegen")
        reports_key = digest(site.site_key, graph_key(result), result.insight.relatedness.missing)
        fresh = [out for out in reports if not writer.reuse(out, reports_key)]
        # Own templates render here, so an error in one is a ThemeError line, not a crash.
        with run_in_background(
            emit_reports,
            (site, writer),
            jobs > 1 and bool(fresh) and not renderer.has_theme_templates,
            skip=not fresh,
        ):
            emit_pages(site, writer, progress, jobs)
            emit_assets(site, writer)
            emit_code(site, writer, progress, jobs)
        html_outs = [o for o in writer.outputs if o.endswith(".html")]
        if config.base_url:
            writer.write(OutPath("sitemap.xml"), sitemap_xml(site, html_outs))
        else:
            result.diagnostics.append(no_sitemap(config))
        result.diagnostics = sorted(set(result.diagnostics))
        writer.record = SiteRecord(fingerprint, {}, result.diagnostics, result.counts())
    return len(writer.outputs)


def graph_key(result: BuildResult) -> str:
    """Everything the graph-wide reports show: nodes, edges with occurrences, cycles, code."""
    edges = [
        (e.src, e.dst, e.rel, e.label, e.anchor, e.count, e.occurrences)
        for e in result.graph.edges()
    ]
    code = [(r.path, r.content_hash) for r in result.code_records]
    return digest(
        sorted(result.graph.nodes.items()), edges, result.linked.broken, code, result.cycles
    )


def header_reports(site: SiteState) -> tuple[tuple[str, str], ...]:
    """The reports the header links to, by title, with hrefs relative to the site root."""
    reports = [("All pages", str(_index_out(site))), ("Broken links", "broken-links.html")]
    if site.result.cycles is not None:
        reports.append(("Cycles", "cycles.html"))
    return (*reports, ("Missing links", "missing-links.html"), ("Graph", "graph.html"))


def _index_out(site: SiteState) -> OutPath:
    return OutPath("index.html") if "" not in site.folder_index else OutPath("pages.html")


def report_outputs(site: SiteState) -> list[OutPath]:
    """The files sitegen itself publishes beside the pages; they win any clash with content."""
    outs = [
        _index_out(site),
        OutPath("broken-links.html"),
        OutPath("missing-links.html"),
        OutPath("graph.md"),
        OutPath("graph.json"),
        OutPath("graph.html"),
    ]
    if site.result.config.base_url:  # the sitemap protocol wants absolute URLs
        outs.append(OutPath("sitemap.xml"))
    if site.result.code is not None:
        outs += [OutPath("code-graph.json"), OutPath("code/index.html")]
    if site.result.cycles is not None:
        outs += [OutPath("cycles.md"), OutPath("cycles.html")]
    return outs


def emit_reports(state: tuple[SiteState, SiteWriter]) -> None:
    """The index, the broken-links report, the graph exports and page, the code reports."""
    site, writer = state
    result = site.result
    index_out = _index_out(site)
    writer.write(
        index_out, site.renderer.render_index(site.context(index_out), index_view(site, index_out))
    )
    out = OutPath("broken-links.html")
    writer.write(out, site.renderer.render_report(site.context(out), broken_links_view(site, out)))
    out = OutPath("missing-links.html")
    writer.write(out, site.renderer.render_report(site.context(out), missing_links_view(site, out)))
    writer.write(
        OutPath("graph.md"),
        export_graph_md(result.graph, title=f"{result.config.site_title} graph"),
    )
    whole = result.insight.whole
    figures = result.insight.figures
    writer.write(OutPath("graph.json"), dump_graph_json(result.graph, _figure_table(figures)))
    emit_graph_page(site, whole, writer, figures)
    emit_code_reports(site, writer)


def _figure_table(figures: Figures) -> dict[str, dict[str, float | int]]:
    table: dict[str, dict[str, float | int]] = {
        n: {"pagerank": round(r, 6), "community": figures.communities.get(n, -1)}
        for n, r in figures.pagerank.items()
    }
    for node, spread in figures.bridges:
        table[node]["bridge"] = spread
    return table


def whole_graph(result: BuildResult) -> Graph:
    """The document graph plus the code's file imports (as ``imports`` edges between source
    nodes): the one graph of docs and code that the graph page draws and ranks."""
    if result.code is None:
        return result.graph
    from sitegen.code.link import file_dependency_edges

    whole = Graph.from_edges(result.graph.edges(), result.graph.nodes.values())
    for dep in file_dependency_edges(result.code):
        if dep.kind == "import" and dep.src != dep.dst:
            whole.add_edge(
                Edge(
                    source_node_id(RepoPath(dep.src)), source_node_id(RepoPath(dep.dst)), "imports"
                )
            )
    return whole


def emit_graph_page(site: SiteState, whole: Graph, writer: SiteWriter, figures: Figures) -> None:
    """``/graph.html``: pages and source files, colour = community, size = PageRank."""
    from sitegen.site.graphview import render_graph_page

    out = OutPath("graph.html")
    nodes = [n for _, n in sorted(whole.nodes.items()) if n.id in figures.pagerank]
    edges = [e for e in whole.edges() if e.src in figures.pagerank and e.dst in figures.pagerank]
    hrefs: dict[str, str] = {n.id: href_between(out, html_out_path(n.id)) for n in nodes}
    writer.write(
        out,
        render_graph_page(
            nodes,
            edges,
            figures.communities,
            figures.pagerank,
            hrefs,
            site=site.context(out),
            renderer=site.renderer,
            title="Graph",
            figures_note=figures_note(figures, whole),
        ),
    )


def figures_note(figures: Figures, whole: Graph) -> str:
    """How the communities were found (never silent about a cap) and the bridge pages."""
    count = len(set(figures.communities.values()))
    state = (
        f"converged in {figures.community_passes} passes"
        if figures.communities_converged
        else f"stopped at its cap of {figures.community_passes} passes, not converged"
    )
    note = f"{count} communities (Louvain, {state}; modularity {figures.modularity:.2f})."
    if figures.bridges:
        names = ", ".join(whole.title_of(NodeId(n)) for n, _ in figures.bridges[:5])
        note += f" Bridge pages, whose links span communities: {names}."
    return note


def emit_search_index(site: SiteState, writer: SiteWriter) -> None:
    """``search-index.js``: the pages' sections and the code's symbols (sitegen.site.search)."""
    from sitegen.site.search import INDEX_FILE, search_index_script

    writer.claim(OutPath(INDEX_FILE), "sitegen")
    writer.write(
        OutPath(INDEX_FILE), search_index_script(site.pages_by_node, site.result.code_records)
    )


def emit_code(site: SiteState, writer: SiteWriter, progress: Progress, jobs: int = 1) -> None:
    emit_source_pages(site, writer, progress, jobs)


def publishable_pages(result: BuildResult) -> dict[NodeId, PageRecord]:
    """Pages by node; when two map to one HTML file (a.md, a.markdown) the .md one wins,
    whatever the listing order, and the other is reported and not published."""
    by_out: dict[OutPath, list[tuple[NodeId, PageRecord]]] = {}
    for rec in result.pages:
        node = _page_node(result, rec)
        if node is not None:
            by_out.setdefault(html_out_path(node), []).append((node, rec))
    pages: dict[NodeId, PageRecord] = {}
    for out, claimants in sorted(by_out.items()):
        claimants.sort(key=lambda c: (not c[0].endswith(".md"), _is_readme(c[0]), c[0]))
        winner, rec = claimants[0]
        pages[winner] = rec
        for _, loser in claimants[1:]:
            result.diagnostics.append(duplicate_output(loser.path, out, rec.path))
    return dict(sorted(pages.items()))


def _page_node(result: BuildResult, rec: PageRecord) -> NodeId | None:
    node = page_node_of(result.config.content_rel, rec.path)
    return node if node is not None and is_local_node(node) else None
