"""Source pages (``/code/<path>.html``) and the code reports (code-graph.json, cycles).

Emits from the finished code graph and cycle analysis; never resolves or analyses anything.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any

from sitegen.code.records import CodeRecord
from sitegen.graph.model import annotate
from sitegen.incremental import digest
from sitegen.parallel import run_forked
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
from sitegen.site.related_view import related_items, related_key
from sitegen.site.render import highlight_source
from sitegen.site.state import edge_source_href
from sitegen.site.views import (
    BacklinkEntry,
    Crumb,
    FunctionFlow,
    LinkItem,
    SourceView,
    SymbolEntry,
    ValueOrigin,
    ValueSource,
)

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


def source_view(
    rec: CodeRecord, text: str, site: SiteState, index: _CodeIndex, cycles_of: dict[str, list[int]]
) -> SourceView:
    out = _source_out(rec.path)
    node = source_node_id(RepoPath(rec.path))
    code_html, _ = highlight_source(text, rec.path)
    symbols = tuple(
        SymbolEntry(
            kind=str(s.kind),
            name=s.qualified_name,
            visibility=str(s.visibility) if s.visibility else "",
            line=s.source_range.start_line,
            href=f"#L{s.source_range.start_line}",
            depth=s.qualified_name.count("."),
        )
        for s in sorted(rec.symbols, key=lambda s: (s.source_range.start_byte, s.qualified_name))
    )
    imports = tuple(
        LinkItem(
            title=path or name,
            href=href_between(out, _source_out(path)) if path else "",
            note=f"line {line}",
        )
        for path, name, line in sorted(
            index.imports.get(rec.path, []), key=lambda t: (t[2], t[0], t[1])
        )
    )
    imported_by = tuple(
        LinkItem(
            title=path, href=href_between(out, _source_out(path), f"L{line}"), note=f"line {line}"
        )
        for path, line in sorted(index.imported_by.get(rec.path, []))
    )
    refs_out = tuple(
        LinkItem(title=f"{name} ({path})", href=href_between(out, _source_out(path)))
        for path, name in sorted(index.refs_out.get(rec.path, set()))
    )
    refs_in = tuple(
        LinkItem(title=f"{name} ({path})", href=href_between(out, _source_out(path)))
        for path, name in sorted(index.refs_in.get(rec.path, set()))
    )
    incoming = site.graph.backlinks_of(node)
    documented = tuple(
        BacklinkEntry(
            title=site.titles.get(e.src, e.src),
            href=edge_source_href(e, out, site.graph),
            annotation=annotate(e),
            rel=e.rel,
            source=e.src,
        )
        for e in sorted(incoming, key=lambda e: (site.titles.get(e.src, e.src), e.src))
        if not is_source_node(e.src)
    )
    from_code = [e for e in incoming if is_source_node(e.src)]
    groups = backlink_groups(from_code, site.titles, lambda e: edge_source_href(e, out, site.graph))
    cycles = tuple(
        LinkItem(
            title=f"Cycle {i + 1}", href=href_between(out, OutPath("cycles.html"), f"cycle-{i + 1}")
        )
        for i in cycles_of.get(rec.path, [])
    )
    crumbs = (
        Crumb("Home", href_between(out, OutPath("index.html"))),
        Crumb("Code", href_between(out, OutPath("code/index.html"))),
        Crumb(rec.path, ""),
    )
    return SourceView(
        title=rec.path,
        path=rec.path,
        language=str(rec.language),
        code_html=code_html,
        symbols=symbols,
        imports=imports,
        imported_by=imported_by,
        references_out=refs_out,
        references_in=refs_in,
        documented_by=documented,
        cycles=cycles,
        crumbs=crumbs,
        backlinks=groups,
        node_id=node,
        related=related_items(site, node, out),
        line_count=text.count("\n") + 1,
        data_flow=flow_view(rec),
    )


def flow_view(rec: CodeRecord) -> tuple[FunctionFlow, ...]:
    """Per function (in source order), each value and the values it is computed from."""
    from sitegen.code.graph import file_endpoint, symbol_ids

    ids = symbol_ids(file_endpoint(rec.language, rec.path), rec.symbols)
    functions = {i: s for s, i in zip(rec.symbols, ids, strict=True)}
    values = {v.id: v for v in rec.data}
    sources: dict[str, list[str]] = defaultdict(list)
    for flow in rec.flows:
        if flow.src in values and flow.src not in sources[flow.dst]:
            sources[flow.dst].append(flow.src)
    by_function: dict[str, list[ValueOrigin]] = defaultdict(list)
    for v in rec.data:
        if v.symbol_id not in functions:
            continue
        came = [values[src] for src in sources.get(v.id, [])]  # in the order they are read
        by_function[v.symbol_id].append(
            ValueOrigin(
                name=v.name,
                scope=v.scope,
                type_hint=v.type_hint or "",
                line=v.line,
                href=f"#L{v.line}",
                sources=tuple(ValueSource(u.name, u.scope, u.line, f"#L{u.line}") for u in came),
            )
        )
    ordered = sorted(by_function, key=lambda i: (functions[i].source_range.start_byte, i))
    return tuple(
        FunctionFlow(
            functions[i].qualified_name,
            functions[i].source_range.start_line,
            f"#L{functions[i].source_range.start_line}",
            tuple(by_function[i]),
        )
        for i in ordered
    )


class _SourceJob:
    """What the forked page workers share (inherited, never pickled)."""

    def __init__(self, site: SiteState, writer: SiteWriter) -> None:
        from sitegen.analyse.reports import membership

        result = site.result
        self.site, self.writer = site, writer
        self.index = _CodeIndex(result.code)
        self.cycles_of = membership(result.cycles) if result.cycles is not None else {}
        self.data: dict[str, bytes] = {f.path: f.data for f in result.crawl.code}
        self.records = result.code_records
        # A source page shows the whole code graph around it (imports, references, cycles).
        self.code_key = digest(
            site.site_key, [(r.path, r.content_hash) for r in self.records], result.cycles
        )


def emit_source_pages(
    site: SiteState, writer: SiteWriter, progress: Progress, jobs: int = 1
) -> None:
    """Every source page; highlighting and rendering run in forked workers on a large site
    (the outputs are claimed here first, so a clash is reported the same way for any --jobs)."""
    if not site.result.code_records:
        return
    job = _SourceJob(site, writer)
    task = progress.task("Writing source pages", len(job.records))
    todo: list[int] = []
    for i, rec in enumerate(job.records):
        if writer.claim(_source_out(rec.path), rec.path):
            todo.append(i)
        raw = OutPath("code/" + rec.path)
        if writer.claim(raw, rec.path) and not writer.reuse(raw, rec.content_hash):
            writer.write(raw, job.data[rec.path])
    task.advance(len(job.records) - len(todo))
    for keys in run_forked(_write_sources, job, todo, jobs):
        writer.keys.update(keys)
        task.advance(len(keys))
    emit_code_index(site, writer)


def _write_sources(job: _SourceJob, indexes: list[int]) -> dict[str, str]:
    """Highlight and render the source pages of ``indexes``; returns each output's key."""
    keys: dict[str, str] = {}
    for i in indexes:
        rec = job.records[i]
        out = _source_out(rec.path)
        keys[out] = _source_key(rec, job.site, job.code_key)
        if not job.writer.reuse(out, keys[out]):
            text = job.data[rec.path].decode("utf-8", errors="replace")
            view = source_view(rec, text, job.site, job.index, job.cycles_of)
            job.writer.write(out, job.site.renderer.render_source(job.site.context(out), view))
    return keys


def _source_key(rec: CodeRecord, site: SiteState, code_key: str) -> str:
    node = source_node_id(RepoPath(rec.path))
    incoming = [
        (e.src, e.rel, e.label, e.anchor, e.count, e.occurrences[:1], site.titles.get(e.src, ""))
        for e in site.graph.backlinks_of(node)
    ]
    return digest(code_key, rec.content_hash, incoming, related_key(site, node))


def emit_code_index(site: SiteState, writer: SiteWriter) -> None:
    from sitegen.site.views import IndexEntry, IndexSection, IndexView

    out = OutPath("code/index.html")
    by_folder: dict[str, list[IndexEntry]] = defaultdict(list)
    for rec in site.result.code_records:
        folder = rec.path.rsplit("/", 1)[0] if "/" in rec.path else "."
        by_folder[folder].append(
            IndexEntry(
                title=rec.path,
                href=href_between(out, _source_out(rec.path)),
                note=str(rec.language),
            )
        )
    sections = tuple(
        IndexSection(folder, tuple(sorted(entries, key=lambda e: e.title)))
        for folder, entries in sorted(by_folder.items())
    )
    view = IndexView(
        title="Source files",
        sections=sections,
        intro=f"{counted(len(site.result.code_records), 'source file')} analysed.",
    )
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
        lambda node: href_between(out, html_out_path(NodeId(node))),
    )
    writer.write(
        out,
        site.renderer.render("cycles.html", site=site.context(out), cycles=view, title="Cycles"),
    )
