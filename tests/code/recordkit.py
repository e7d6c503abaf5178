"""Hand-written CodeRecords for the graph, resolution and serialization tests.

Ranges are derived from line numbers (100 bytes a line) so a test states only what it checks.
"""

from __future__ import annotations

from sitegen.base.diagnostics import Diagnostic
from sitegen.base.languages import LangId
from sitegen.code.link import build_code_graph
from sitegen.config import Config
from sitegen.records.code import (
    Binding,
    CodeRecord,
    Import,
    MetacallCall,
    MetacallLoad,
    Range,
    Reference,
    Symbol,
    SymbolKind,
    Visibility,
)
from sitegen.records.code_graph import CodeGraph, EdgeKind

LANG_OF = {
    ".py": LangId.PYTHON,
    ".js": LangId.JAVASCRIPT,
    ".mjs": LangId.JAVASCRIPT,
    ".jsx": LangId.JAVASCRIPT,
    ".ts": LangId.TYPESCRIPT,
    ".tsx": LangId.TSX,
    ".mts": LangId.TYPESCRIPT,
    ".cts": LangId.TYPESCRIPT,
    ".c": LangId.C,
    ".h": LangId.C,
    ".cpp": LangId.CPP,
    ".hpp": LangId.CPP,
    ".rs": LangId.RUST,
    ".go": LangId.GO,
    ".rb": LangId.RUBY,
}


def rng(start_line: int, end_line: int | None = None) -> Range:
    end_line = end_line or start_line
    return Range(start_line * 100, end_line * 100 + 99, start_line, end_line)


def sym(
    qualified: str,
    kind: str = "function",
    lines: tuple[int, int] = (1, 1),
    visibility: str | None = "public",
) -> Symbol:
    name = qualified.rpartition(".")[2]
    parent = qualified.rpartition(".")[0] or None
    return Symbol(
        name,
        qualified,
        SymbolKind(kind),
        Visibility(visibility) if visibility else None,
        rng(*lines),
        Range(lines[0] * 100 + 4, lines[0] * 100 + 4 + len(name), lines[0], lines[0]),
        parent,
    )


def imp(
    specifier: str,
    form: str = "import",
    line: int = 1,
    names: tuple[str, ...] = (),
    star: bool = False,
    level: int = 0,
    alias: str | None = None,
) -> Import:
    """``names`` entries are ``"a"`` or ``"a as b"``."""
    bindings = tuple(Binding(*n.split(" as ")) if " as " in n else Binding(n) for n in names)
    return Import(specifier, form, line, bindings, star, level, alias)


def ref(name: str, enclosing: str | None, line: int = 1, kind: str = "call") -> Reference:
    return Reference(name, kind, line, enclosing)


def rec(
    path: str,
    symbols: list[Symbol] = (),
    imports: list[Import] = (),  # type: ignore[assignment]
    refs: list[Reference] = (),
    metacalls: list[MetacallCall] = (),  # type: ignore[assignment]
    loads: list[MetacallLoad] = (),
    language: LangId | None = None,
) -> CodeRecord:  # type: ignore[assignment]
    lang = language or LANG_OF["." + path.rpartition(".")[2]]
    return CodeRecord(
        path,
        lang,
        "hash-" + path,
        list(symbols),
        list(imports),
        list(refs),
        list(metacalls),
        list(loads),
    )


def build(
    records: list[CodeRecord],
    extra_paths: tuple[str, ...] = (),
    read_text: dict[str, str] | None = None,
    **config: object,
) -> tuple[CodeGraph, list[Diagnostic]]:
    paths = {r.path for r in records} | set(extra_paths)
    texts = read_text or {}
    return build_code_graph(records, Config(**config), paths, texts.get)  # type: ignore[arg-type]


def imports_of(graph: CodeGraph) -> set[tuple[str, str, float]]:
    """``(src path, dst path or "external:<name>", confidence)`` of every import edge."""
    out = set()
    for e in graph.edges(EdgeKind.IMPORT):
        src = graph.files[e.src].path
        dst = (
            graph.files[e.dst].path
            if e.dst in graph.files
            else "external:" + graph.externals[e.dst].name
        )
        out.add((src, dst, e.confidence))
    return out


def modules_of(graph: CodeGraph) -> set[tuple[str, str]]:
    """``(src path, dst path)`` of every file -> file ownership edge (a Rust ``mod x;``)."""
    return {
        (graph.files[e.src].path, graph.files[e.dst].path)
        for e in graph.edges(EdgeKind.OWNERSHIP)
        if e.src in graph.files and e.dst in graph.files
    }


def refs_of(graph: CodeGraph) -> set[tuple[str, str, float]]:
    """``(src, dst, confidence)`` of reference edges as ``path::qualified`` (a file: its path)."""

    def name(node_id: str) -> str:
        if node_id in graph.files:
            return graph.files[node_id].path
        s = graph.symbols[node_id]
        return f"{graph.files[s.file_id].path}::{s.qualified_name}"

    return {(name(e.src), name(e.dst), e.confidence) for e in graph.edges(EdgeKind.REFERENCE)}


def symbol_rows(record: CodeRecord) -> list[tuple[object, ...]]:
    """Each symbol of an extracted record as the extraction tests compare it: name, kind,
    visibility, qualified name, parent, first and last line."""
    return [
        (
            s.name,
            s.kind,
            s.visibility,
            s.qualified_name,
            s.parent,
            s.source_range.start_line,
            s.source_range.end_line,
        )
        for s in record.symbols
    ]
