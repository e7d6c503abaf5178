"""Which code symbol a dotted name means, for MkDocs-autorefs cross-references
``[Model][pkg.mod.Model]`` (content/syntax/autorefs.md).

Built from the code records' symbols and imports; never reads files. The syntax lives in
sitegen/docs/autorefs.py.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from dataclasses import dataclass, field

from sitegen.records.code import CodeRecord


@dataclass(frozen=True)
class SymbolPlace:
    path: str  # repository path of the source file
    line: int


@dataclass
class SymbolIndex:
    """Every symbol by its dotted name: the module path (from the file path, any leading
    folders dropped) then its qualified name; and by qualified name alone."""

    by_dotted: dict[str, SymbolPlace] = field(default_factory=dict)
    by_qualified: dict[str, list[tuple[str, SymbolPlace]]] = field(default_factory=dict)
    packages: set[str] = field(default_factory=set)  # first components of every module
    #: Names a module imports from elsewhere (``pkg.ValidationInfo`` from a dependency).
    imported: set[str] = field(default_factory=set)

    def is_imported(self, dotted: str) -> bool:
        parts = dotted.split(".")
        return any(".".join(parts[: k + 1]) in self.imported for k in range(1, len(parts)))

    def find(self, dotted: str) -> SymbolPlace | None:
        """The exact name, else a symbol re-exported higher up (``pkg.Model`` for
        ``pkg/main.py``'s ``Model``): the longest qualified-name tail whose module lies
        under the given package prefix, the one nearest the package's top when several do;
        else the same for the name's owner (an attribute the graph has no symbol for)."""
        parts = dotted.split(".")
        while parts:  # an attribute (or variable) the graph has no symbol for: its owner
            found = self._find(parts)
            if found is not None:
                return found
            parts = parts[:-1]
        return None

    def _find(self, parts: list[str]) -> SymbolPlace | None:
        exact = self.by_dotted.get(".".join(parts))
        if exact is not None:
            return exact
        for k in range(1, len(parts)):
            prefix, tail = ".".join(parts[:k]), ".".join(parts[k:])
            under: dict[str, tuple[int, SymbolPlace]] = {}  # by file: overloads are one
            for module, place in self.by_qualified.get(tail, ()):
                if module == prefix or module.startswith(prefix + "."):
                    under.setdefault(place.path, (module.count("."), place))
            if under:  # the public one sits highest (pkg/main.py, not pkg/v1/main.py)
                depth = min(d for d, _ in under.values())
                highest = [place for d, place in under.values() if d == depth]
                return highest[0] if len(highest) == 1 else None  # ambiguous: no guess
        return None


def symbol_index(records: Iterable[CodeRecord]) -> SymbolIndex:
    index = SymbolIndex()
    for rec in sorted(records, key=lambda r: r.path):
        index.packages.add(_module_names(rec.path)[0].split(".")[0])
        for module in _module_names(rec.path):
            index.by_dotted.setdefault(module, SymbolPlace(rec.path, 1))
            for symbol in rec.symbols:
                place = SymbolPlace(rec.path, symbol.source_range.start_line)
                index.by_dotted.setdefault(f"{module}.{symbol.qualified_name}", place)
        full = _module_names(rec.path)[0]
        for imp in rec.imports:
            index.imported.update(f"{full}.{b.alias or b.name}" for b in imp.bindings)
        for symbol in rec.symbols:
            place = SymbolPlace(rec.path, symbol.source_range.start_line)
            index.by_qualified.setdefault(symbol.qualified_name, []).append((full, place))
    return index


def _module_names(path: str) -> list[str]:
    """``src/pkg/mod.py`` -> ``src.pkg.mod``, ``pkg.mod``, ``mod``; ``pkg/__init__.py`` -> ``pkg``."""
    stem = posixpath.splitext(path)[0]
    parts = [p for p in stem.split("/") if p]
    if len(parts) > 1 and parts[-1] in ("__init__", "index"):
        parts = parts[:-1]
    return [".".join(parts[i:]) for i in range(len(parts))]
