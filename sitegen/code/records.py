"""What extraction knows about one source file, as a plain record (content/reference/code-graph.md).

Produced by ``sitegen.code.extract.extract_source`` from one file's bytes alone, consumed by
``sitegen.code.resolve``; stored as a shard. Never holds tree-sitter objects or numeric ids.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from sitegen.diagnostics import Diagnostic


class LangId(StrEnum):
    """The nine languages, in this order, with these names everywhere (SPEC §7)."""

    PYTHON = "python"
    JAVASCRIPT = "javascript"
    TYPESCRIPT = "typescript"
    TSX = "tsx"
    C = "c"
    CPP = "cpp"
    RUST = "rust"
    GO = "go"
    RUBY = "ruby"


class SymbolKind(StrEnum):
    FUNCTION = "function"
    CLASS = "class"
    OBJECT = "object"
    INTERFACE = "interface"
    TRAIT = "trait"
    STRUCT = "struct"
    ENUM = "enum"
    METHOD = "method"


class Visibility(StrEnum):
    PUBLIC = "public"
    PRIVATE = "private"


@dataclass(frozen=True)
class Range:
    start_byte: int
    end_byte: int
    start_line: int  # 1-based
    end_line: int  # 1-based


@dataclass(frozen=True)
class Symbol:
    name: str
    qualified_name: str  # dotted nesting inside the file: "Engine.run"
    kind: SymbolKind
    visibility: Visibility | None
    source_range: Range
    name_range: Range | None = None
    parent: str | None = None  # qualified_name of the owning symbol, None at top level


@dataclass(frozen=True)
class Binding:
    name: str  # the name in the imported module ("a" in `from m import a as b`)
    alias: str | None = None  # the local name when renamed ("b")


@dataclass(frozen=True)
class Import:
    """One import statement (or one module of a multi-module statement)."""

    specifier: str  # as written, without quotes: "a.b.c", "./m", "stdio.h", "crate::x::y"
    form: str  # "import" | "from" | "require" | "dynamic" | "export-from" | "include-local"
    #            | "include-system" | "mod" | "use" | "go" | "require_relative" | "autoload"
    #            | "metacall-load"
    line: int
    bindings: tuple[Binding, ...] = ()
    star: bool = False
    level: int = 0  # Python relative-import level (number of leading dots); for a Rust
    #              `use`: how many inline `mod m { … }` blocks enclose it (`super` stays in the file)
    alias: str | None = None  # `import a.b as c`, `import * as ns from`, Go's named import


@dataclass(frozen=True)
class Reference:
    """A use of a name: a call, a type use or a base class."""

    name: str  # possibly dotted: "m.x", "self.helper" is recorded as "helper" with via_self
    kind: str  # "call" | "type" | "base"
    line: int
    enclosing: str | None  # qualified_name of the innermost enclosing symbol, None at top level


@dataclass(frozen=True)
class MetacallCall:
    """``metacall('name', ...)``: a polyglot call resolved among loaded files."""

    function: str
    line: int
    enclosing: str | None


@dataclass(frozen=True)
class MetacallLoad:
    """``metacall_load_from_file(tag, [paths])``."""

    tag: str
    paths: tuple[str, ...]
    line: int


@dataclass(frozen=True)
class CommentLink:
    """A markdown link or bare URL inside a comment or docstring."""

    href: str
    label: str
    offset: int
    line: int
    column: int


@dataclass(frozen=True)
class DataValue:
    """One value inside a function (a parameter, a binding, a returned value): a DataNode."""

    id: str  # stable endpoint name: "python:pkg/mod.py::run$x@3:5"
    symbol_id: str | None  # endpoint of the function it lives in
    scope: str  # "local" | "parameter" | "closure" | "member" | "temporary"
    type_hint: str | None
    name: str
    line: int


@dataclass(frozen=True)
class Flow:
    """A def-use edge between two values of the file: ``src`` flows into ``dst``."""

    src: str
    dst: str
    line: int  # where the use is written
    kind: str  # "assign" | "use"


@dataclass
class CodeRecord:
    path: str  # repository path, "/" separated
    language: LangId
    content_hash: str
    symbols: list[Symbol] = field(default_factory=list)
    imports: list[Import] = field(default_factory=list)
    references: list[Reference] = field(default_factory=list)
    metacalls: list[MetacallCall] = field(default_factory=list)
    metacall_loads: list[MetacallLoad] = field(default_factory=list)
    links: list[CommentLink] = field(default_factory=list)
    #: JavaScript / TypeScript: the qualified name of the symbol ``export default`` names.
    default_export: str | None = None
    #: Def-use flow inside functions (Python and Rust; empty elsewhere).
    data: list[DataValue] = field(default_factory=list)
    flows: list[Flow] = field(default_factory=list)
    has_error: bool = False
    diagnostics: list[Diagnostic] = field(default_factory=list)
