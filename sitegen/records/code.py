"""What extraction knows about one source file, as a plain record (content/reference/code-graph.md).

Produced by ``sitegen.code.extract.extract_source`` from one file's bytes alone, consumed by
``sitegen.code.resolve``; stored as a shard. Never holds tree-sitter objects or numeric ids.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from sitegen.base.diagnostics import Diagnostic
from sitegen.base.languages import LangId


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
    """A span of a source file: UTF-8 byte offsets and the lines they fall on."""

    start_byte: int
    end_byte: int
    start_line: int  # 1-based
    end_line: int  # 1-based


def range_json(r: Range | None) -> dict[str, int] | None:
    """How shards and ``/code-graph.json`` write a range (``null`` for none)."""
    if r is None:
        return None
    return {
        "start_byte": r.start_byte,
        "end_byte": r.end_byte,
        "start_line": r.start_line,
        "end_line": r.end_line,
    }


def range_from_json(obj: Any) -> Range:
    """The range ``range_json`` wrote; a malformed (or missing) object raises KeyError,
    TypeError or ValueError for the reader to report."""
    return Range(
        int(obj["start_byte"]), int(obj["end_byte"]), int(obj["start_line"]), int(obj["end_line"])
    )


def optional_range_from_json(obj: Any) -> Range | None:
    """``range_from_json`` for a range that may be absent (a symbol's name range)."""
    return None if obj is None else range_from_json(obj)


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
    #: When the statement runs (Python): "" at import time, "deferred" inside a function
    #: body, "type-only" under ``if TYPE_CHECKING:`` (content/guides/cycles.md).
    context: str = ""


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
    #: The digest of the shard this record was read from or written to, None for a record
    #: made any other way: what the link step's cache knows the record by
    #: (sitegen/code/linkcache.py). Not part of the record's value.
    shard_digest: str | None = field(default=None, compare=False, repr=False)
