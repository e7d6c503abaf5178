"""Code link step: records into one CodeGraph, and projections (content/reference/code-graph.md).

Runs only after every file is extracted, since a name may resolve into any file. Never parses
source, and reads no project file itself (go.mod comes through ``read_text``); the only file
it reads and writes is its own cache in the shard folder (``sitegen/code/linkcache.py``),
which saves resolving again what is unchanged.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any, NamedTuple

from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.base.languages import LangId
from sitegen.code.dataflow import add_data_flow
from sitegen.code.linkcache import LinkCache, Resolution
from sitegen.code.memory import long_lived_objects
from sitegen.code.names import NameTable
from sitegen.code.resolve import ProjectIndex, ReadText, ResolvedImport, resolve_imports
from sitegen.config import Config
from sitegen.graph.dependencies import IMPORT_CONTEXTS, RUNTIME
from sitegen.records.code import CodeRecord, Symbol
from sitegen.records.code_graph import (
    CROSS_LANGUAGE,
    DIRECT_IMPORT,
    SAME_FILE,
    CodeEdge,
    CodeGraph,
    EdgeKind,
    ExternalNode,
    FileNode,
    SymbolNode,
    confidence_in_context,
    external_endpoint,
    file_endpoint,
    normalize_edges,
    symbol_ids,
)


class FileDependency(NamedTuple):
    """One file-level dependency for cycle analysis: ``src`` uses ``dst`` (repository paths)."""

    src: str
    dst: str
    kind: str  # "import" | "reference"
    confidence: float
    line: int


class SymbolDependency(NamedTuple):
    """One symbol → symbol reference, with both symbols' files."""

    src: str
    dst: str
    kind: str
    confidence: float
    line: int
    src_file: str
    dst_file: str


def build_code_graph(
    records: list[CodeRecord],
    config: Config,
    all_paths: set[str],
    read_text: ReadText | None = None,
) -> tuple[CodeGraph, list[Diagnostic]]:
    """The code graph of ``records`` and the diagnostics of linking them (sorted).

    ``all_paths`` is every repository file (imports may name files that are not source);
    ``read_text(path)`` returns a repository file's text or None (``go.mod``, ``Cargo.toml``,
    ``tsconfig.json`` …). Def-use flow comes from the records (extraction computes it for
    Python and Rust). The records' own extraction diagnostics are not repeated here.
    """
    with long_lived_objects():
        return _build(records, config, all_paths, read_text)


def _build(
    records: list[CodeRecord], config: Config, all_paths: set[str], read_text: ReadText | None
) -> tuple[CodeGraph, list[Diagnostic]]:
    diagnostics: list[Diagnostic] = []
    records = _unique(records, diagnostics)
    graph = CodeGraph(snapshot_id=snapshot_id(records, config))
    for record in records:
        _add_file(graph, record)
    # What crosses files comes from the link cache when none of its inputs changed.
    cache = LinkCache.of(records, config, all_paths)
    found = cache.load(graph, read_text or _no_text) if cache is not None else None
    if found is None:
        reads: dict[str, str | None] = {}

        def recorded(path: str) -> str | None:
            reads[path] = (read_text or _no_text)(path)
            return reads[path]

        found = _resolve(graph, records, config, all_paths, recorded)
        if cache is not None:
            cache.save(found, reads)
    found.apply(graph)
    for record in records:
        add_data_flow(graph, record)
    if cache is not None:  # a link cache that did not check was set aside (sitegen/state/files.py)
        diagnostics += cache.diagnostics
    return graph, sorted(set(diagnostics + found.diagnostics))


def _no_text(_path: str) -> str | None:
    return None


def _resolve(
    graph: CodeGraph,
    records: list[CodeRecord],
    config: Config,
    all_paths: set[str],
    read_text: ReadText,
) -> Resolution:
    """Imports and names resolved across files, against the files and symbols in ``graph``
    (which this leaves as it is)."""
    out = Resolution()
    index = ProjectIndex.build(records, config, all_paths, read_text)
    languages = {r.path: r.language for r in records}
    imports: dict[str, list[ResolvedImport]] = {}
    for record in records:
        resolved, found = resolve_imports(record, index)
        imports[record.path] = resolved
        out.diagnostics += found
        _add_import_edges(out, record, resolved, languages)
    names = NameTable(graph, imports, {r.path: r.references for r in records}, index)
    contexts = ImportContexts(out.edges.values())
    for record in records:
        _add_reference_edges(out, names, record, contexts)
        out.diagnostics += _add_metacall_edges(out, names, record)
    return out


def snapshot_id(records: Iterable[CodeRecord], config: Config) -> str:
    """A hash of the inputs (paths, languages, content hashes, resolution options)."""
    doc = {
        "files": sorted([r.path, str(r.language), r.content_hash] for r in records),
        "source": list(config.source),
        "include_dirs": list(config.include_dirs),
        "ruby_load_paths": list(config.ruby_load_paths),
    }
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:16]


def _unique(records: list[CodeRecord], diagnostics: list[Diagnostic]) -> list[CodeRecord]:
    out: dict[str, CodeRecord] = {}
    for record in sorted(records, key=lambda r: (r.path, str(r.language), r.content_hash)):
        if record.path in out:
            diagnostics.append(
                Diagnostic(
                    record.path,
                    1,
                    1,
                    Level.WARNING,
                    "file extracted twice; the second record is ignored",
                    "duplicate-record",
                )
            )
            continue
        out[record.path] = record
    return list(out.values())


# ---------------------------------------------------------------- files, symbols, ownership


def _add_file(graph: CodeGraph, record: CodeRecord) -> None:
    file_id = file_endpoint(record.language, record.path)
    graph.add_file(FileNode(file_id, record.path, record.language, graph.snapshot_id))
    ids = symbol_ids(file_id, record.symbols)
    for sym, sym_id in zip(record.symbols, ids, strict=True):
        graph.add_symbol(
            SymbolNode(
                sym_id,
                sym.name,
                sym.qualified_name,
                sym.kind,
                file_id,
                sym.visibility,
                sym.source_range,
                sym.name_range,
            )
        )
    owners = _owners(record.symbols)
    for sym, sym_id, owner_index in zip(record.symbols, ids, owners, strict=True):
        owner = ids[owner_index] if owner_index is not None else file_id
        graph.add_edge(
            CodeEdge(owner, sym_id, EdgeKind.OWNERSHIP, SAME_FILE, sym.source_range.start_line)
        )


def _owners(symbols: list[Symbol]) -> list[int | None]:
    """Index of each symbol's owner (None: the file). Among symbols named by ``parent``, the
    one whose range holds the child; a choice that would close a cycle falls back to the file."""
    by_qn: dict[str, list[int]] = {}
    for i, sym in enumerate(symbols):
        by_qn.setdefault(sym.qualified_name, []).append(i)
    owners: list[int | None] = []
    for i, sym in enumerate(symbols):
        options = [j for j in by_qn.get(sym.parent, []) if j != i] if sym.parent else []
        holding = [j for j in options if _holds(symbols[j], sym)]
        chosen = holding or options
        owners.append(chosen[0] if chosen else None)
    for i in range(len(symbols)):
        seen, node = {i}, owners[i]
        while node is not None and node not in seen:
            seen.add(node)
            node = owners[node]
        if node is not None:  # a cycle through i
            owners[i] = None
    return owners


def _holds(outer: Symbol, inner: Symbol) -> bool:
    o, n = outer.source_range, inner.source_range
    return o.start_byte <= n.start_byte and n.end_byte <= o.end_byte


# ---------------------------------------------------------------- imports, references, metacall


def _add_import_edges(
    out: Resolution,
    record: CodeRecord,
    resolved: list[ResolvedImport],
    languages: dict[str, LangId],
) -> None:
    """Same-language imports carry DIRECT_IMPORT, imports between languages CROSS_LANGUAGE;
    an import that runs later or never (``ri.context``) carries no more than its ceiling."""
    src = file_endpoint(record.language, record.path)
    for ri in resolved:
        for target in ri.targets:
            if target.path is not None:
                lang = languages[target.path]
                dst = file_endpoint(lang, target.path)
                if ri.form == "mod":
                    # Rust ``mod x;`` is containment in the crate's module tree, not a use:
                    # an ownership edge, which cycle analysis never sees (content/guides/cycles.md).
                    out.add_edge(CodeEdge(src, dst, EdgeKind.OWNERSHIP, SAME_FILE, ri.line))
                    continue
                confidence = DIRECT_IMPORT if lang == record.language else CROSS_LANGUAGE
            else:
                name = target.external or ""
                dst = external_endpoint(record.language, name)
                out.add_external(ExternalNode(dst, name, record.language))
                confidence = DIRECT_IMPORT
            confidence = confidence_in_context(confidence, ri.context)
            out.add_edge(
                CodeEdge(src, dst, EdgeKind.IMPORT, confidence, ri.line, context=ri.context)
            )


def _add_reference_edges(
    out: Resolution, names: NameTable, record: CodeRecord, contexts: ImportContexts
) -> None:
    """References inside symbols; none at module level (content/reference/code-graph.md).
    A reference into another file takes the context of the imports that reach it."""
    file_id = file_endpoint(record.language, record.path)
    for ref in record.references:
        if ref.enclosing is None:
            continue
        src = names.enclosing_symbol(record.path, ref.enclosing, ref.line)
        if src is None:
            continue
        for cand in names.resolve(record.path, ref.name, ref.kind, ref.enclosing):
            context = contexts.between(file_id, cand.symbol.file_id)
            confidence = confidence_in_context(cand.confidence, context)
            out.add_edge(
                CodeEdge(
                    src.id,
                    cand.symbol.id,
                    EdgeKind.REFERENCE,
                    confidence,
                    ref.line,
                    context=context,
                )
            )


_RANK = {context: rank for rank, context in enumerate(IMPORT_CONTEXTS)}


class ImportContexts:
    """When one file's use of another runs, read off the import edges between files: the
    context of a direct import, else the strongest over the chains of imports that reach it
    (a chain is as weak as its weakest import), else at load time (a Go package's files, a
    name found outside the imports). Computed once per file asked about, breadth first."""

    def __init__(self, edges: Iterable[CodeEdge]) -> None:
        self._out: dict[str, list[tuple[str, str]]] = {}
        for edge in edges:
            if edge.kind == EdgeKind.IMPORT and edge.src != edge.dst:
                self._out.setdefault(edge.src, []).append((edge.dst, edge.context))
        for targets in self._out.values():
            targets.sort()
        self._direct = {
            (src, dst): context for src, targets in self._out.items() for dst, context in targets
        }
        self._reached: dict[str, dict[str, str]] = {}

    def between(self, src: str, dst: str) -> str:
        if src == dst:
            return RUNTIME
        direct = self._direct.get((src, dst))
        if direct is not None:
            return direct
        if src not in self._reached:
            self._reached[src] = self._reach(src)
        return self._reached[src].get(dst, RUNTIME)

    def _reach(self, start: str) -> dict[str, str]:
        """The strongest context each file is reached in, a chain being as strong as its
        weakest import: one pass over the imports, a queue per context, strongest first, so
        each file is settled once at its best (Dial's shortest paths, with max for sum)."""
        best: dict[str, int] = {start: 0}
        queues: list[list[str]] = [[start]] + [[] for _ in IMPORT_CONTEXTS[1:]]
        for rank, queue in enumerate(queues):
            while queue:
                node = queue.pop()
                if best[node] != rank:
                    continue  # settled earlier at a stronger context
                for dst, via in self._out.get(node, ()):
                    weakest = max(rank, _RANK.get(via, len(IMPORT_CONTEXTS) - 1))
                    if weakest < best.get(dst, len(IMPORT_CONTEXTS)):
                        best[dst] = weakest
                        queues[weakest].append(dst)
        del best[start]
        return {node: IMPORT_CONTEXTS[rank] for node, rank in best.items()}


def _add_metacall_edges(out: Resolution, names: NameTable, record: CodeRecord) -> list[Diagnostic]:
    """File → symbol always, symbol → symbol inside a symbol: one resolution, one confidence."""
    file_id = file_endpoint(record.language, record.path)
    diagnostics = []
    for call in record.metacalls:
        found = names.resolve_metacall(record.path, call.function)
        if not found:
            diagnostics.append(
                Diagnostic(
                    record.path,
                    max(call.line, 1),
                    1,
                    Level.INFO,
                    f"cannot resolve metacall '{call.function}'",
                    "unresolved-metacall",
                )
            )
        src = (
            names.enclosing_symbol(record.path, call.enclosing, call.line)
            if call.enclosing
            else None
        )
        for cand in found:
            out.add_edge(
                CodeEdge(file_id, cand.symbol.id, EdgeKind.REFERENCE, cand.confidence, call.line)
            )
            if src is not None:
                out.add_edge(
                    CodeEdge(src.id, cand.symbol.id, EdgeKind.REFERENCE, cand.confidence, call.line)
                )
    return diagnostics


# ---------------------------------------------------------------- projections for analysis


def file_dependency_edges(graph: CodeGraph) -> list[FileDependency]:
    """Import edges between project files plus reference edges projected onto their files.

    A reference between two symbols of one file projects to nothing; a file importing itself
    stays a self-loop. Imports of externals are left out (an external is never in a cycle).
    Duplicates merge by ``(src, dst, kind)`` with the graph's merge rule; sorted.
    """
    projected = []
    for edge in graph.edges():
        if edge.kind not in (EdgeKind.IMPORT, EdgeKind.REFERENCE):
            continue
        src, dst = graph.file_of(edge.src), graph.file_of(edge.dst)
        if src is None or dst is None:
            continue
        if edge.kind == EdgeKind.REFERENCE and src.id == dst.id:
            continue
        projected.append(CodeEdge(src.path, dst.path, edge.kind, edge.confidence, edge.line))
    return [
        FileDependency(e.src, e.dst, str(e.kind), e.confidence, e.line)
        for e in normalize_edges(projected)
    ]


def symbol_dependency_edges(graph: CodeGraph) -> list[SymbolDependency]:
    """Symbol → symbol reference edges (recursion is a self-loop), sorted, with their files."""
    out = []
    for edge in graph.edges(EdgeKind.REFERENCE):
        if edge.src in graph.symbols:
            src, dst = graph.file_of(edge.src), graph.file_of(edge.dst)
            assert src is not None and dst is not None
            out.append(
                SymbolDependency(
                    edge.src,
                    edge.dst,
                    str(edge.kind),
                    edge.confidence,
                    edge.line,
                    src.path,
                    dst.path,
                )
            )
    return out


def dependency_edges(graph: CodeGraph) -> tuple[list[Any], list[Any]]:
    """``(file_edges, symbol_edges)`` as ``sitegen.graph.dependencies.DepEdge`` lists.

    File edges: imports between project files and metacall file → symbol references projected
    onto the symbol's file (same-file ones dropped). Symbol edges: symbol → symbol references
    with both files named, which the cycle analysis projects onto files itself — so no
    reference is passed twice.
    """
    from sitegen.graph.dependencies import DepEdge

    # A metacall inside a symbol has both projections; the symbol one already carries it.
    in_symbols = {
        (graph.file_of(e.src).path, e.dst, e.line)  # type: ignore[union-attr]
        for e in graph.edges(EdgeKind.REFERENCE)
        if e.src in graph.symbols and graph.file_of(e.src) is not None
    }
    file_edges = []
    for edge in graph.edges():
        src, dst = graph.file_of(edge.src), graph.file_of(edge.dst)
        if src is None or dst is None or edge.src in graph.symbols:
            continue
        if edge.kind == EdgeKind.REFERENCE and (src.path, edge.dst, edge.line) in in_symbols:
            continue
        if edge.kind == EdgeKind.IMPORT or (edge.kind == EdgeKind.REFERENCE and src.id != dst.id):
            file_edges.append(
                CodeEdge(
                    src.path, dst.path, edge.kind, edge.confidence, edge.line, context=edge.context
                )
            )
    files = [
        DepEdge(e.src, e.dst, str(e.kind), e.confidence, e.line, context=e.context)
        for e in normalize_edges(file_edges)
    ]
    symbols = [
        DepEdge(
            d.src,
            d.dst,
            d.kind,
            d.confidence,
            d.line,
            src_file=d.src_file,
            dst_file=d.dst_file,
            context=graph.edge_map[(d.src, d.dst, EdgeKind.REFERENCE)].context,
        )
        for d in symbol_dependency_edges(graph)
    ]
    return files, symbols
