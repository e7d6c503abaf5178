"""Source pages (``/code/<path>.html``) and the code reports (code-graph.json, cycles).

Emits from the finished code graph and cycle analysis; never resolves or analyses anything.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any

from sitegen.code.records import CodeRecord
from sitegen.graph.model import annotate
from sitegen.incremental import digest
from sitegen.paths import (
    NodeId,
    OutPath,
    RepoPath,
    href_between,
    html_out_path,
    is_source_node,
    source_node_id,
)
from sitegen.plural import counted
from sitegen.progress import Progress
from sitegen.site.backlinks import backlink_groups
from sitegen.site.render import highlight_source
from sitegen.site.state import edge_source_href
from sitegen.site.views import BacklinkEntry, Crumb, LinkItem, SourceView, SymbolEntry

if TYPE_CHECKING:
    from sitegen.site.state import SiteState
    from sitegen.site.writer import SiteWriter


def _source_out(path: str) -> OutPath:
    return html_out_path(source_node_id(RepoPath(path)))


class _CodeIndex:
    """The code graph seen per file: imports, imported by, references in and out."""

    def __init__(self, code: Any) -> None:
        self.imports: dict[str, list[tuple[str, str, int]]] = defaultdict(list)
        self.imported_by: dict[str, list[tuple[str, int]]] = defaultdict(list)
        self.refs_out: dict[str, set[tuple[str, str]]] = defaultdict(set)
        self.refs_in: dict[str, set[tuple[str, str]]] = defaultdict(set)
        if code is None:
            return
        from sitegen.code.graph import EdgeKind
        for e in code.edges(EdgeKind.IMPORT):
            src = code.file_of(e.src)
            if src is None:
                continue
            dst = code.file_of(e.dst)
            if dst is not None:
                self.imports[src.path].append((dst.path, "", e.line))
                self.imported_by[dst.path].append((src.path, e.line))
            elif e.dst in code.externals:
                self.imports[src.path].append(("", code.externals[e.dst].name, e.line))
        for e in code.edges(EdgeKind.REFERENCE):
            src, dst = code.file_of(e.src), code.file_of(e.dst)
            if src is None or dst is None:
                continue
            dst_name = code.symbols[e.dst].qualified_name if e.dst in code.symbols else dst.path
            src_name = code.symbols[e.src].qualified_name if e.src in code.symbols else "(module)"
            if src.path != dst.path:
                self.refs_out[src.path].add((dst.path, dst_name))
                self.refs_in[dst.path].add((src.path, src_name))


def code_index_of(code: Any) -> _CodeIndex:
    """The code graph seen per file (imports, importers, references), for ``sitegen backlinks``."""
    return _CodeIndex(code)


def source_view(rec: CodeRecord, text: str, site: SiteState, index: _CodeIndex,
                cycles_of: dict[str, list[int]]) -> SourceView:
    out = _source_out(rec.path)
    node = source_node_id(RepoPath(rec.path))
    code_html, _ = highlight_source(text, rec.path)
    symbols = tuple(SymbolEntry(kind=str(s.kind), name=s.qualified_name,
                                visibility=str(s.visibility) if s.visibility else "",
                                line=s.source_range.start_line,
                                href=f"#L{s.source_range.start_line}",
                                depth=s.qualified_name.count("."))
                    for s in sorted(rec.symbols, key=lambda s: (s.source_range.start_byte, s.qualified_name)))
    imports = tuple(
        LinkItem(title=path or name, href=href_between(out, _source_out(path)) if path else "",
                 note=f"line {line}")
        for path, name, line in sorted(index.imports.get(rec.path, []), key=lambda t: (t[2], t[0], t[1])))
    imported_by = tuple(
        LinkItem(title=path, href=href_between(out, _source_out(path), f"L{line}"), note=f"line {line}")
        for path, line in sorted(index.imported_by.get(rec.path, [])))
    refs_out = tuple(LinkItem(title=f"{name} ({path})", href=href_between(out, _source_out(path)))
                     for path, name in sorted(index.refs_out.get(rec.path, set())))
    refs_in = tuple(LinkItem(title=f"{name} ({path})", href=href_between(out, _source_out(path)))
                    for path, name in sorted(index.refs_in.get(rec.path, set())))
    incoming = site.graph.backlinks_of(node)
    documented = tuple(
        BacklinkEntry(title=site.titles.get(e.src, e.src), href=edge_source_href(e, out, site.graph),
                      annotation=annotate(e), rel=e.rel, source=e.src)
        for e in sorted(incoming, key=lambda e: (site.titles.get(e.src, e.src), e.src))
        if not is_source_node(e.src))
    from_code = [e for e in incoming if is_source_node(e.src)]
    groups = backlink_groups(from_code, site.titles, lambda e: edge_source_href(e, out, site.graph))
    cycles = tuple(LinkItem(title=f"Cycle {i + 1}", href=href_between(out, OutPath("cycles.html"), f"cycle-{i + 1}"))
                   for i in cycles_of.get(rec.path, []))
    crumbs = (Crumb("Home", href_between(out, OutPath("index.html"))),
              Crumb("Code", href_between(out, OutPath("code/index.html"))), Crumb(rec.path, ""))
    return SourceView(title=rec.path, path=rec.path, language=str(rec.language), code_html=code_html,
                      symbols=symbols, imports=imports, imported_by=imported_by,
                      references_out=refs_out, references_in=refs_in, documented_by=documented,
                      cycles=cycles, crumbs=crumbs, backlinks=groups, node_id=node,
                      line_count=text.count("\n") + 1)


def emit_source_pages(site: SiteState, writer: SiteWriter, progress: Progress) -> None:
    result = site.result
    if not result.code_records:
        return
    from sitegen.analyse.reports import membership
    index = _CodeIndex(result.code)
    cycles_of = membership(result.cycles) if result.cycles is not None else {}
    data: dict[str, bytes] = {f.path: f.data for f in result.crawl.code}
    task = progress.task("Writing source pages", len(result.code_records))
    # A source page shows the whole code graph around it (imports, references, cycles).
    code_key = digest(site.site_key, [(r.path, r.content_hash) for r in result.code_records],
                      result.cycles)
    for rec in result.code_records:
        out = _source_out(rec.path)
        if writer.claim(out, rec.path) and not writer.reuse(out, _source_key(rec, site, code_key)):
            text = data[rec.path].decode("utf-8", errors="replace")
            view = source_view(rec, text, site, index, cycles_of)
            writer.write(out, site.renderer.render_source(site.context(out), view))
        raw = OutPath("code/" + rec.path)
        if writer.claim(raw, rec.path) and not writer.reuse(raw, rec.content_hash):
            writer.write(raw, data[rec.path])
        task.advance()
    emit_code_index(site, writer)


def _source_key(rec: CodeRecord, site: SiteState, code_key: str) -> str:
    node = source_node_id(RepoPath(rec.path))
    incoming = [(e.src, e.rel, e.label, e.anchor, e.count, e.occurrences[:1], site.titles.get(e.src, ""))
                for e in site.graph.backlinks_of(node)]
    return digest(code_key, rec.content_hash, incoming)


def emit_code_index(site: SiteState, writer: SiteWriter) -> None:
    from sitegen.site.views import IndexEntry, IndexSection, IndexView
    out = OutPath("code/index.html")
    by_folder: dict[str, list[IndexEntry]] = defaultdict(list)
    for rec in site.result.code_records:
        folder = rec.path.rsplit("/", 1)[0] if "/" in rec.path else "."
        by_folder[folder].append(IndexEntry(title=rec.path, href=href_between(out, _source_out(rec.path)),
                                            note=str(rec.language)))
    sections = tuple(IndexSection(folder, tuple(sorted(entries, key=lambda e: e.title)))
                     for folder, entries in sorted(by_folder.items()))
    view = IndexView(title="Source files", sections=sections,
                     intro=f"{counted(len(site.result.code_records), 'source file')} analysed.")
    writer.write(out, site.renderer.render_index(site.context(out), view))


def emit_code_reports(site: SiteState, writer: SiteWriter) -> None:
    result = site.result
    if result.code is not None:
        from sitegen.code.serialize import dump_code_graph_json
        writer.write(OutPath("code-graph.json"), dump_code_graph_json(result.code))
    if result.cycles is None:
        return
    from sitegen.analyse.reports import cycles_view, render_cycles_md
    out = OutPath("cycles.html")
    writer.write(OutPath("cycles.md"), render_cycles_md(result.cycles))
    view = cycles_view(
        result.cycles,
        lambda path, line: href_between(out, _source_out(path), f"L{line}" if line > 0 else ""),
        lambda node: href_between(out, html_out_path(NodeId(node))))
    writer.write(out, site.renderer.render("cycles.html", site=site.context(out),
                                           cycles=view, title="Cycles"))
