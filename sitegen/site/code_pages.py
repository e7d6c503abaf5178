"""What a source page (``/code/<path>.html``) shows: the highlighted code, its symbols, its
imports and importers, references, the docs that document it and its cycles.

Views built from the finished code graph and cycle analysis; never resolves, analyses or
writes anything (sitegen.site.outputs.source_pages writes the pages).
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any

from sitegen.base.paths import (
    OutPath,
    SitePath,
    href_between,
    is_source_node,
)
from sitegen.graph.model import Edge, annotate
from sitegen.records.code import CodeRecord
from sitegen.site.backlinks import backlink_groups
from sitegen.site.cycles_view import CYCLES_PAGE, cycle_anchor
from sitegen.site.navigation import home_crumb
from sitegen.site.related_view import related_items
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


def source_out(path: str) -> OutPath:
    """The source page of the file at repository path ``path``: ``code/<path>.html``."""
    return SitePath.source(path).out


class _CodeIndex:
    """The code graph seen per file: imports, imported by, references in and out."""

    def __init__(self, code: Any) -> None:
        #: (target path or "", external name or "", line, context) by importing file.
        self.imports: dict[str, list[tuple[str, str, int, str]]] = defaultdict(list)
        #: (importing path, line, context) by imported file.
        self.imported_by: dict[str, list[tuple[str, int, str]]] = defaultdict(list)
        self.refs_out: dict[str, set[tuple[str, str]]] = defaultdict(set)
        self.refs_in: dict[str, set[tuple[str, str]]] = defaultdict(set)
        if code is None:
            return
        from sitegen.records.code_graph import EdgeKind

        for e in code.edges(EdgeKind.IMPORT):
            src = code.file_of(e.src)
            if src is None:
                continue
            dst = code.file_of(e.dst)
            if dst is not None:
                self.imports[src.path].append((dst.path, "", e.line, e.context))
                self.imported_by[dst.path].append((src.path, e.line, e.context))
            elif e.dst in code.externals:
                self.imports[src.path].append(("", code.externals[e.dst].name, e.line, e.context))
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
    out = source_out(rec.path)
    node = SitePath.source(rec.path).node
    code_html, _ = highlight_source(text, rec.path)
    incoming = site.graph.backlinks_of(node)
    from_code = [e for e in incoming if is_source_node(e.src)]
    crumbs = (
        home_crumb(out),
        Crumb("Code", href_between(out, OutPath("code/index.html"))),
        Crumb(rec.path, ""),
    )
    return SourceView(
        title=rec.path,
        path=rec.path,
        language=str(rec.language),
        code_html=code_html,
        symbols=_symbols(rec),
        imports=_imports(rec.path, index, out),
        imported_by=tuple(
            LinkItem(
                title=p,
                href=href_between(out, source_out(p), f"L{line}"),
                note=import_note(line, context),
            )
            for p, line, context in sorted(index.imported_by.get(rec.path, []))
        ),
        references_out=_references(index.refs_out.get(rec.path, set()), out),
        references_in=_references(index.refs_in.get(rec.path, set()), out),
        documented_by=_documented_by(incoming, site, out),
        cycles=tuple(
            LinkItem(title=f"Cycle {i + 1}", href=href_between(out, CYCLES_PAGE, cycle_anchor(i)))
            for i in cycles_of.get(rec.path, [])
        ),
        crumbs=crumbs,
        backlinks=backlink_groups(
            from_code, site.titles, lambda e: edge_source_href(e, out, site.graph, site.addresses)
        ),
        node_id=node,
        related=related_items(site, node, out),
        line_count=text.count("\n") + 1,
        data_flow=flow_view(rec),
    )


def _symbols(rec: CodeRecord) -> tuple[SymbolEntry, ...]:
    """The outline: every symbol in source order, linked to its first line."""
    return tuple(
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


def _imports(path: str, index: _CodeIndex, out: OutPath) -> tuple[LinkItem, ...]:
    """What the file imports, by line; an import outside the project is named, not linked."""
    return tuple(
        LinkItem(
            title=target or name,
            href=href_between(out, source_out(target)) if target else "",
            note=import_note(line, context),
        )
        for target, name, line, context in sorted(
            index.imports.get(path, []), key=lambda t: (t[2], t[0], t[1])
        )
    )


def import_note(line: int, context: str) -> str:
    """``line 3``; ``line 3, deferred`` (inside a function) or ``line 3, type-only`` (under
    ``if TYPE_CHECKING:``), the imports that cycles leave out (content/guides/cycles.md)."""
    return f"line {line}, {context}" if context else f"line {line}"


def _references(found: set[tuple[str, str]], out: OutPath) -> tuple[LinkItem, ...]:
    return tuple(
        LinkItem(title=f"{name} ({path})", href=href_between(out, source_out(path)))
        for path, name in sorted(found)
    )


def _documented_by(
    incoming: list[Edge], site: SiteState, out: OutPath
) -> tuple[BacklinkEntry, ...]:
    """The pages that link to the file, by title."""
    return tuple(
        BacklinkEntry(
            title=site.titles.get(e.src, e.src),
            href=edge_source_href(e, out, site.graph, site.addresses),
            annotation=annotate(e),
            rel=e.rel,
            source=e.src,
        )
        for e in sorted(incoming, key=lambda e: (site.titles.get(e.src, e.src), e.src))
        if not is_source_node(e.src)
    )


def flow_view(rec: CodeRecord) -> tuple[FunctionFlow, ...]:
    """Per function (in source order), each value and the values it is computed from."""
    from sitegen.records.code_graph import file_endpoint, symbol_ids

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
