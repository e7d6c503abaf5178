"""One source file's bytes during extraction: node text, string literals, diagnostics.

Shared by the extraction driver and the per-language rules; never reads files, never parses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tree_sitter import Node

from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.records.code import Binding, Range

#: A string literal's prefix (Python r/b/f/u, C++ u8/L/R) and its quotes, stripped by
#: ``string_value``: the grammars disagree on content nodes, the quoting rules do not.
_STRING_PREFIX = re.compile(rb"^[A-Za-z0-9]{0,3}(?=['\"`<])")
_QUOTES = (b'"""', b"'''", b'"', b"'", b"`")


@dataclass
class CodeSource:
    """The source file being extracted: its path, its bytes and the diagnostics found so far."""

    path: str
    data: bytes
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def text(self, node: Node) -> str:
        """A node's text; identifiers are almost always ASCII, so decoding never fails."""
        return self.data[node.start_byte : node.end_byte].decode("utf-8", errors="replace")

    def raw_string(self, node: Node) -> bytes:
        """The bytes between a string literal's quotes (or a ``<system.h>`` path's brackets)."""
        raw = _STRING_PREFIX.sub(b"", self.data[node.start_byte : node.end_byte], count=1)
        if raw.startswith(b"<") and raw.endswith(b">"):
            return raw[1:-1]
        for quote in _QUOTES:
            if len(raw) >= 2 * len(quote) and raw.startswith(quote) and raw.endswith(quote):
                return raw[len(quote) : -len(quote)]
        return raw

    def string_value(self, node: Node) -> str:
        """A string literal's contents, with invalid UTF-8 replaced (for labels, names)."""
        return self.raw_string(node).decode("utf-8", errors="replace")

    def specifier(self, node: Node) -> str | None:
        """An import specifier without quotes, or None (and a warning) if it is not UTF-8."""
        raw = self.raw_string(node)
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            line, col = node.start_point.row + 1, node.start_point.column + 1
            self.diagnostics.append(
                Diagnostic(
                    self.path,
                    line,
                    col,
                    Level.WARNING,
                    f"Import specifier {raw!r} is not valid UTF-8; the import is ignored.",
                    "utf8",
                )
            )
            return None

    def binding(self, name: Node | None, alias: Node | None = None) -> Binding | None:
        if name is None:
            return None
        return Binding(self.text(name), self.text(alias) if alias is not None else None)


def line_of(node: Node) -> int:
    return node.start_point.row + 1


def node_range(node: Node) -> Range:
    return Range(node.start_byte, node.end_byte, node.start_point.row + 1, node.end_point.row + 1)
