"""Name resolution: a reference to its nearest definitions (content/reference/code-graph.md).

Works on finished symbol tables and resolved imports only, after every file is in the graph
(a name may live in any file). Never reads files and never adds edges (``analyse`` does).

The rules, in order, for a reference ``name`` inside the symbol ``enclosing`` of a file:

1. ``self.x`` / ``this.x`` / ``cls.x`` / ``Self::x``: members ``x`` of the innermost enclosing
   class-like symbol (SAME_FILE), else of its base classes, resolved like any name (each base
   passes on its own confidence). ``self.a.b`` and other unknown receivers (``obj.method()``,
   ``super().m()``) make no edge: the receiver's type is unknown, and a guess by method name
   alone would link every ``run()`` to every ``run``.
2. ``m.x`` where ``m`` names an imported module (``import m``, ``import * as m``, a Go package,
   Rust ``mod m;`` / ``use crate::m``): ``x`` in that module (DIRECT_IMPORT, or CROSS_LANGUAGE
   for a module in another language), else in files reached from it (TRANSITIVE_IMPORT).
   The longest matching module prefix wins; an external module ends the search (no edge).
3. ``T.x`` where ``T`` resolves (rule 4) to a class-like symbol: its member ``T.x`` with ``T``'s
   confidence, or ``T`` itself when it has no such member (the use still depends on ``T``).
4. A bare name climbs the ladder and stops at the first rank with candidates: the own file
   (innermost lexical scope first; class bodies count as scopes only in Ruby and C++, where a
   method calls its siblings unqualified), then the direct same-language imports through
   their bindings (Go: the other files of the package, too; Ruby and C++: ``Price`` inside
   ``module Shop`` also finds ``Shop.Price``), then files reached transitively
   from those imports, then direct imports in another language. Type and base references
   find only class-like symbols. Equal candidates all stay, ordered by path.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

from sitegen.base.languages import LangId
from sitegen.code.resolve import (
    C_FAMILY,
    ImportTarget,
    ProjectIndex,
    ResolvedImport,
    go_package_files,
)
from sitegen.records.code import Reference, SymbolKind, Visibility
from sitegen.records.code_graph import (
    CROSS_LANGUAGE,
    DIRECT_IMPORT,
    SAME_FILE,
    TRANSITIVE_IMPORT,
    CodeGraph,
    SymbolNode,
)

TYPE_KINDS = frozenset(
    {
        SymbolKind.CLASS,
        SymbolKind.INTERFACE,
        SymbolKind.TRAIT,
        SymbolKind.STRUCT,
        SymbolKind.ENUM,
        SymbolKind.OBJECT,
    }
)
RECEIVERS = frozenset({"self", "this", "cls", "Self"})
#: Languages whose methods see their class's members without a receiver.
_CLASS_SCOPED = frozenset({LangId.RUBY, LangId.CPP})
#: How deep ``self.x`` searches base classes of base classes.
_MAX_BASE_DEPTH = 8


@dataclass(frozen=True)
class Candidate:
    symbol: SymbolNode
    confidence: float


@dataclass(frozen=True)
class _Entry:
    """A place a bare name may come from: ``original`` in ``path``."""

    path: str
    original: str
    explicit: bool  # named by a binding (any visibility) rather than a star (public names only)


@lru_cache(maxsize=1 << 16)
def normalize_reference(name: str) -> str | None:
    """``a::b`` and ``p->f`` as ``a.b`` / ``p.f``; generics cut; None for call chains.
    (Memoized: the same names recur in every file.)"""
    name = name.strip().removeprefix("::").split("<")[0]
    if not name or _NOT_A_NAME.search(name):
        return None
    return name.replace("::", ".").replace("->", ".")


_NOT_A_NAME = re.compile(r"[()\[\]{} \t\n]")


class NameTable:
    """Every file's symbols and imports, and the ladder over them."""

    def __init__(
        self,
        graph: CodeGraph,
        imports: dict[str, list[ResolvedImport]],
        references: dict[str, list[Reference]],
        index: ProjectIndex,
    ) -> None:
        self._lang = {f.path: f.language for f in graph.files.values()}
        self._path_of = {f.id: f.path for f in graph.files.values()}
        self._defs: dict[str, dict[str, list[SymbolNode]]] = {}
        for sym in sorted(graph.symbols.values(), key=lambda s: (s.source_range.start_byte, s.id)):
            path = self._path_of[sym.file_id]
            self._defs.setdefault(path, {}).setdefault(sym.qualified_name, []).append(sym)
        self._imports = imports
        self._bases_refs = {
            p: [r for r in refs if r.kind == "base"] for p, refs in references.items()
        }
        self._index = index
        #: Qualified name -> the files defining it: transitive searches visit only those of
        #: the reached files (django reaches hundreds of files from one import).
        self._definers: dict[str, set[str]] = {}
        for path, defs in self._defs.items():
            for qualified in defs:
                self._definers.setdefault(qualified, set()).add(path)
        self._reach: dict[str, list[str]] = {}
        self._reach_sets: dict[str, frozenset[str]] = {}
        self._ladder_memo: dict[tuple[str, str, str], list[Candidate]] = {}
        self._base_memo: dict[str, list[Candidate]] = {}
        self._target_memo: dict[tuple[str, bool], list[ImportTarget]] = {}
        self._memo: dict[tuple[str, str, str, str | None], list[Candidate]] = {}

    def path_of(self, sym: SymbolNode) -> str:
        return self._path_of[sym.file_id]

    # ---------------------------------------------------------------- entry points

    def resolve(self, path: str, name: str, kind: str, enclosing: str | None) -> list[Candidate]:
        """The nearest definitions of the reference ``name`` (rules 1-4 of the module doc)."""
        key = (path, name, kind, enclosing)
        if key not in self._memo:
            self._memo[key] = self._resolve(path, name, kind, enclosing)
        return self._memo[key]

    def _resolve(self, path: str, name: str, kind: str, enclosing: str | None) -> list[Candidate]:
        norm = normalize_reference(name)
        if norm is None:
            return []
        if kind == "base" and enclosing and self._is_type(path, enclosing):
            # A class's bases are evaluated around it: ``class G(self.Graph)`` in a method
            # means the method's ``self``, and the class being defined is not a scope yet.
            enclosing = enclosing.rpartition(".")[0] or None
        head, _, rest = norm.partition(".")
        if not rest:
            return self._ladder(path, norm, kind, enclosing)
        if head in RECEIVERS:
            return self._self_member(path, rest, kind, enclosing)
        via_module = self._via_module(path, norm, kind)
        if via_module is not None:
            return via_module
        if self._lang[path] in _CLASS_SCOPED:
            # Ruby modules and C++ namespaces reopen in many files: ``Shop::Cart`` is the
            # qualified name ``Shop.Cart`` wherever it is defined, found by the ladder.
            # ``Shop::Cart.new`` uses ``Shop.Cart`` when ``new`` is not defined: the longest
            # prefix that names something (a shorter one must name a type).
            parts = norm.split(".")
            for n in range(len(parts), 1, -1):
                qualified = self._ladder(
                    path, ".".join(parts[:n]), kind if n == len(parts) else "type", enclosing
                )
                if qualified:
                    return qualified
        return self._via_type(path, head, rest, kind, enclosing)

    def resolve_metacall(self, path: str, function: str) -> list[Candidate]:
        """``metacall('function')``: top-level functions of the files this file loads, else
        best-effort among public functions of every other language's files (CROSS_LANGUAGE)."""
        lang = self._lang[path]
        loaded = sorted(
            {
                t.path
                for ri in self._imports.get(path, [])
                if ri.metacall
                for t in ri.targets
                if t.path
            }
        )
        found = [
            Candidate(s, DIRECT_IMPORT if self._lang[p] == lang else CROSS_LANGUAGE)
            for p in loaded
            for s in self._functions(p, function, public_only=False)
        ]
        if found:
            best = max(c.confidence for c in found)
            return _ordered(c for c in found if c.confidence == best)
        others = [p for p in sorted(self._defs) if self._lang[p] != lang]
        return _ordered(
            Candidate(s, CROSS_LANGUAGE)
            for p in others
            for s in self._functions(p, function, public_only=True)
        )

    def enclosing_symbol(self, path: str, enclosing: str, line: int) -> SymbolNode | None:
        """The symbol a reference sits in: by qualified name, the one whose lines hold it."""
        own = self._defs.get(path, {})
        defs = own.get(enclosing)
        if defs is not None and len(defs) == 1:  # nearly always: one definition of the name
            return defs[0]
        for scope in _scopes(enclosing):
            defs = own.get(scope, [])
            holding = [
                s for s in defs if s.source_range.start_line <= line <= s.source_range.end_line
            ]
            if holding or defs:
                return (holding or defs)[0]
        return None

    # ---------------------------------------------------------------- rule 4: the ladder

    def _ladder(self, path: str, name: str, kind: str, enclosing: str | None) -> list[Candidate]:
        own = self._lexical(path, name, kind, enclosing)
        if own:
            return _ordered(Candidate(s, SAME_FILE) for s in own)
        if self._lang[path] in _CLASS_SCOPED:  # the imported names depend on the scope
            return self._imported(path, name, kind, enclosing)
        key = (path, name, kind)
        found = self._ladder_memo.get(key)
        if found is None:
            found = self._ladder_memo[key] = self._imported(path, name, kind, enclosing)
        return found

    def _imported(self, path: str, name: str, kind: str, enclosing: str | None) -> list[Candidate]:
        """The ladder's ranks after the own file: direct imports, transitive, other languages."""
        entries = self._entries(path, name, enclosing)
        lang = self._lang[path]
        same = [e for e in entries if self._lang[e.path] == lang]
        cross = [e for e in entries if self._lang[e.path] != lang]
        steps: list[tuple[Callable[[], list[SymbolNode]], float]] = [
            (lambda: self._lookup(same, kind), DIRECT_IMPORT),
            (lambda: self._transitive(path, same, kind), TRANSITIVE_IMPORT),
            (lambda: self._lookup(cross, kind), CROSS_LANGUAGE),
        ]
        for step, confidence in steps:
            found = step()
            if found:
                return _ordered(Candidate(s, confidence) for s in found)
        return []

    def _lexical(self, path: str, name: str, kind: str, enclosing: str | None) -> list[SymbolNode]:
        class_scoped = self._lang[path] in _CLASS_SCOPED
        for scope in _scopes(enclosing):
            if not class_scoped and self._is_type(path, scope):
                continue
            found = self._find(path, f"{scope}.{name}", kind)
            if found:
                return found
        return self._find(path, name, kind)

    def _entries(self, path: str, name: str, enclosing: str | None) -> list[_Entry]:
        # Ruby and C++ name ``Price`` inside ``module Shop`` finds ``Shop::Price`` elsewhere too.
        nested = (
            [f"{scope}.{name}" for scope in _scopes(enclosing)]
            if self._lang[path] in _CLASS_SCOPED
            else []
        )
        out = []
        for target in self._targets(path):
            for local, original in target.exposure.names:
                if local == name:
                    exported = original
                    if original == "default":  # `import X from './m'`: m's default export
                        exported = self._index.default_exports.get(target.path or "", original)
                    out.append(_Entry(target.path, exported, True))  # type: ignore[arg-type]
            if target.exposure.star:
                out += [_Entry(target.path, q, False) for q in (*nested, name)]  # type: ignore[arg-type]
        if self._lang[path] == LangId.GO:
            # One Go package is one namespace: its other files' names, private ones too.
            siblings = go_package_files(
                posixpath.dirname(path), self._index, include_tests=path.endswith("_test.go")
            )
            out += [_Entry(p, name, True) for p in siblings if p != path]
        return out

    def _lookup(self, entries: list[_Entry], kind: str) -> list[SymbolNode]:
        return [
            s
            for e in entries
            for s in self._find(e.path, e.original, kind, self._public_only(e.path, e.explicit))
        ]

    def _transitive(self, path: str, entries: list[_Entry], kind: str) -> list[SymbolNode]:
        found: list[SymbolNode] = []
        for entry in entries:
            for reached in self._reached_defining(entry.path, (entry.original,)):
                if reached not in (path, entry.path):
                    found += self._find(
                        reached, entry.original, kind, self._public_only(reached, False)
                    )
        return found

    def _reached_defining(self, start: str, names: Iterable[str]) -> list[str]:
        """The files reached from ``start`` that define one of ``names`` (in no particular
        order: every caller sorts its candidates)."""
        reach = self._reach_sets.get(start)
        if reach is None:
            reach = self._reach_sets[start] = frozenset(self._reachable(start))
        out: set[str] = set()
        for name in names:
            out.update(p for p in self._definers.get(name, ()) if p in reach)
        return list(out)

    # ---------------------------------------------------------------- rules 1-3: dotted names

    def _self_member(
        self, path: str, member: str, kind: str, enclosing: str | None
    ) -> list[Candidate]:
        if "." in member:
            return []
        cls = next((s for scope in _scopes(enclosing) for s in self._types(path, scope)), None)
        if cls is None:
            return []
        return self._class_member(cls, member, kind, SAME_FILE, set(), 0)

    def _class_member(
        self, cls: SymbolNode, member: str, kind: str, confidence: float, seen: set[str], depth: int
    ) -> list[Candidate]:
        path = self.path_of(cls)
        found = self._find(path, f"{cls.qualified_name}.{member}", kind)
        if found:
            return _ordered(Candidate(s, confidence) for s in found)
        seen.add(cls.id)
        best: list[Candidate] = []
        for base in self._bases(cls) if depth < _MAX_BASE_DEPTH else []:
            if base.symbol.id in seen:
                continue
            got = self._class_member(
                base.symbol, member, kind, min(confidence, base.confidence), seen, depth + 1
            )
            if got and (not best or got[0].confidence > best[0].confidence):
                best = got
            elif got and got[0].confidence == best[0].confidence:
                best += got
        return _ordered(best)

    def _bases(self, cls: SymbolNode) -> list[Candidate]:
        """The resolved base classes written in ``cls``'s header (memoized; a base that leads
        back to ``cls`` while it is being resolved sees no bases, so recursion ends)."""
        if cls.id not in self._base_memo:
            self._base_memo[cls.id] = []
            self._base_memo[cls.id] = self._resolve_bases(cls)
        return self._base_memo[cls.id]

    def _resolve_bases(self, cls: SymbolNode) -> list[Candidate]:
        path = self.path_of(cls)
        parent = cls.qualified_name.rpartition(".")[0] or None
        lines = (cls.source_range.start_line, cls.source_range.end_line)
        inner = [
            s
            for defs in self._defs.get(path, {}).values()
            for s in defs
            if s.qualified_name.startswith(cls.qualified_name + ".") and s.kind in TYPE_KINDS
        ]
        out: list[Candidate] = []
        for ref in self._bases_refs.get(path, []):
            if (
                ref.enclosing not in (cls.qualified_name, parent)
                or not lines[0] <= ref.line <= lines[1]
            ):
                continue
            if any(s.source_range.start_line <= ref.line <= s.source_range.end_line for s in inner):
                continue
            out += [
                c
                for c in self.resolve(path, ref.name, "base", ref.enclosing)
                if c.symbol.id != cls.id
            ]
        return out

    def _via_module(self, path: str, name: str, kind: str) -> list[Candidate] | None:
        """Rule 2; None when no imported module name is a prefix of ``name``."""
        matches = [
            (len(m), t)
            for t in self._targets(path, with_external=True)
            for m in t.exposure.module_names
            if name.startswith(m + ".")
        ]
        if not matches:
            return None
        longest = max(n for n, _ in matches)
        rest = name[longest + 1 :]
        modules = sorted({t.path for n, t in matches if n == longest and t.path})
        lang = self._lang[path]
        # A member defined in one of the modules beats the type it belongs to in another
        # (a Go package's method and its struct often sit in two files).
        exact = [(m, s) for m in modules for s in self._find(m, rest, kind)]
        pairs = exact or [(m, s) for m in modules for s in self._member(m, rest, kind, False)]
        found = [
            Candidate(s, DIRECT_IMPORT if self._lang[m] == lang else CROSS_LANGUAGE)
            for m, s in pairs
        ]
        if found:
            best = max(c.confidence for c in found)
            return _ordered(c for c in found if c.confidence == best)
        same = [m for m in modules if self._lang[m] == lang]
        # _member finds something in a file only if it defines ``rest`` or a prefix of it.
        names = (rest, *_scopes(rest.rpartition(".")[0] or None))
        return _ordered(
            Candidate(s, TRANSITIVE_IMPORT)
            for m in same
            for r in self._reached_defining(m, names)
            if r not in (path, m)
            for s in self._member(r, rest, kind, self._public_only(r, False))
        )

    def _via_type(
        self, path: str, head: str, rest: str, kind: str, enclosing: str | None
    ) -> list[Candidate]:
        """Rule 3: ``T.x`` through the class-like symbols ``T`` resolves to."""
        out: list[Candidate] = []
        for head_candidate in self._ladder(path, head, "type", enclosing):
            sym = head_candidate.symbol
            dotted = f"{sym.qualified_name}.{rest}"
            # A Go type's methods may sit in any file of its package.
            members = [
                m for f in self._package_of(self.path_of(sym)) for m in self._find(f, dotted, kind)
            ]
            members = members or self._member(self.path_of(sym), dotted, kind, False)
            out += [Candidate(m, head_candidate.confidence) for m in members]
        return _ordered(out)

    def _package_of(self, path: str) -> list[str]:
        """The files that share ``path``'s namespace: its Go package, else the file alone."""
        if self._lang[path] != LangId.GO:
            return [path]
        return go_package_files(posixpath.dirname(path), self._index, include_tests=True) or [path]

    # ---------------------------------------------------------------- symbol tables

    def _member(self, path: str, dotted: str, kind: str, public_only: bool) -> list[SymbolNode]:
        """Symbols named ``dotted``; else the innermost class-like prefix of it (``T`` of
        ``T.unknown``), since using a member of a type still uses the type."""
        found = self._find(path, dotted, kind, public_only)
        if found:
            return found
        for scope in _scopes(dotted.rpartition(".")[0] or None):
            types = [
                s
                for s in self._types(path, scope)
                if not (public_only and s.visibility == Visibility.PRIVATE)
            ]
            if types:
                return types
        return []

    def _find(
        self, path: str, qualified: str, kind: str, public_only: bool = False
    ) -> list[SymbolNode]:
        defs = self._defs.get(path)
        found = defs.get(qualified) if defs is not None else None
        if not found:  # most lookups: the name is not defined there
            return []
        out = []
        for sym in found:
            if kind in ("type", "base") and sym.kind not in TYPE_KINDS:
                continue
            if public_only and sym.visibility == Visibility.PRIVATE:
                continue
            out.append(sym)
        return out

    def _functions(self, path: str, name: str, public_only: bool) -> list[SymbolNode]:
        return [
            s for s in self._find(path, name, "call", public_only) if s.kind == SymbolKind.FUNCTION
        ]

    def _types(self, path: str, qualified: str) -> list[SymbolNode]:
        return [s for s in self._defs.get(path, {}).get(qualified, []) if s.kind in TYPE_KINDS]

    def _is_type(self, path: str, qualified: str) -> bool:
        return bool(self._types(path, qualified))

    def _public_only(self, path: str, explicit: bool) -> bool:
        """Star and transitive exposure show public names; ``#include`` is textual: all."""
        return not explicit and self._lang[path] not in C_FAMILY

    def _targets(self, path: str, with_external: bool = False) -> list[ImportTarget]:
        """The file's plain (not metacall) import targets, project files only unless asked."""
        key = (path, with_external)
        if key not in self._target_memo:
            self._target_memo[key] = [
                t
                for ri in self._imports.get(path, [])
                if not ri.metacall
                for t in ri.targets
                if with_external or t.path
            ]
        return self._target_memo[key]

    def _reachable(self, start: str) -> list[str]:
        """Files reached from ``start`` through same-language imports, breadth first."""
        if start not in self._reach:
            lang = self._lang[start]
            seen, order, queue = {start}, [], [start]  # type: set[str], list[str], list[str]
            while queue:
                nxt = []
                for path in queue:
                    for target in sorted({t.path for t in self._targets(path) if t.path}):
                        if target not in seen and self._lang[target] == lang:
                            seen.add(target)
                            order.append(target)
                            nxt.append(target)
                queue = nxt
            self._reach[start] = order
        return self._reach[start]


@lru_cache(maxsize=1 << 16)
def _scopes(enclosing: str | None) -> tuple[str, ...]:
    """``A.B.c`` -> ``("A.B.c", "A.B", "A")``: innermost first (memoized: the link step asks
    for the same few thousand enclosing names hundreds of thousands of times)."""
    if not enclosing:
        return ()
    parts = enclosing.split(".")
    return tuple(".".join(parts[:i]) for i in range(len(parts), 0, -1))


def _ordered(candidates: Iterable[Candidate]) -> list[Candidate]:
    """Deduplicated, ordered by path (then position): equally ranked candidates all stay."""
    best: dict[str, Candidate] = {}
    for c in candidates:
        if c.symbol.id not in best or c.confidence > best[c.symbol.id].confidence:
            best[c.symbol.id] = c
    return sorted(
        best.values(),
        key=lambda c: (
            c.symbol.file_id.partition(":")[2],
            c.symbol.source_range.start_byte,
            c.symbol.id,
        ),
    )
