"""The nine languages sitegen parses and which file extension is in which: the base table.

Every layer may import it (ARCHITECTURE.md#layers); it never loads a grammar (that is
``sitegen.code.grammars``) and never touches the file system.
"""

from __future__ import annotations

import posixpath
from enum import StrEnum


class LangId(StrEnum):
    """The nine languages, in this order, named so everywhere (content/reference/code-graph.md)."""

    PYTHON = "python"
    JAVASCRIPT = "javascript"
    TYPESCRIPT = "typescript"
    TSX = "tsx"
    C = "c"
    CPP = "cpp"
    RUST = "rust"
    GO = "go"
    RUBY = "ruby"


#: File extensions (content/reference/code-graph.md#languages), case-sensitive: ``.H`` is not C.
EXTENSIONS: dict[str, LangId] = {
    ".py": LangId.PYTHON,
    ".pyi": LangId.PYTHON,
    ".js": LangId.JAVASCRIPT,
    ".mjs": LangId.JAVASCRIPT,
    ".cjs": LangId.JAVASCRIPT,
    ".jsx": LangId.JAVASCRIPT,
    ".ts": LangId.TYPESCRIPT,
    ".mts": LangId.TYPESCRIPT,
    ".cts": LangId.TYPESCRIPT,
    ".tsx": LangId.TSX,
    ".c": LangId.C,
    ".h": LangId.C,
    ".cc": LangId.CPP,
    ".cpp": LangId.CPP,
    ".cxx": LangId.CPP,
    ".hpp": LangId.CPP,
    ".hh": LangId.CPP,
    ".hxx": LangId.CPP,
    ".rs": LangId.RUST,
    ".go": LangId.GO,
    ".rb": LangId.RUBY,
}


def language_for_path(path: str) -> LangId | None:
    """``pkg/mod.py`` -> ``LangId.PYTHON``; None for a file sitegen does not parse."""
    return EXTENSIONS.get(posixpath.splitext(path)[1])
