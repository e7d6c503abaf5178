"""Cross-references to code symbols as MkDocs-autorefs writes them, ``[Model][pkg.mod.Model]``
and ``[pkg.Model][]``, in pages and docstrings, resolved to the symbol's line on its source
page (content/syntax/autorefs.md).

The inline rule makes ordinary link tokens (kind "autoref"); resolution works on the code
graph's symbols only. Never reads files; a name the code graph lacks is not a link.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from sitegen.code.records import CodeRecord
from sitegen.docs.positions import ENV_SOURCE, POS, SOURCE, SourceText
from sitegen.docs.positions import KIND as KIND_META

KIND = "autoref"
#: The href a docstring's ``[text][pkg.name]`` gets from the comment-link extraction.
CODE_PREFIX = "autoref:"
_DOTTED = r"[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)+"
_IN_PAGE = re.compile(rf"\[([^\[\]\n]+)\]\[({_DOTTED})?\]")
_IDENTIFIER = re.compile(rf"`?({_DOTTED})`?")
#: mkdocstrings' ``::: pkg.mod.Name`` (its indented options follow on the next lines).
_DIRECTIVE = re.compile(r":::[ \t]+([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)[ \t]*(?:\n|$)")


def autoref(state: StateInline, silent: bool) -> bool:
    """``[text][a.b]``, or ``[a.b][]`` / ``[`a.b`][]``, when no reference definition took it."""
    if state.src[state.pos] != "[":
        return False
    found = _IN_PAGE.match(state.src, state.pos)
    if found is None:
        return False
    label, target = found.group(1), found.group(2)
    if target is None:
        named = _IDENTIFIER.fullmatch(label.strip())
        if named is None:
            return False
        target = named.group(1)
    if not silent:
        opener = state.push("link_open", "a", 1)
        opener.attrs = {"href": target, "class": "autoref"}
        if label.startswith("`") and label.endswith("`") and len(label) > 1:
            code = state.push("code_inline", "code", 0)
            code.content, code.markup = label.strip("`"), "`"
        else:
            state.push("text", "", 0).content = label
        state.push("link_close", "a", -1)
    state.pos = found.end()
    return True


def directive_links(state: StateCore) -> None:
    """Core rule after ``inline``: mkdocstrings' ``::: pkg.Name`` paragraph becomes a link to
    the symbol's source (sitegen writes no API pages); its options are not shown. The link
    is placed where the ``:::`` is written."""
    source = state.env.get(ENV_SOURCE)
    tokens = state.tokens
    for i, token in enumerate(tokens):
        if token.type != "inline" or not token.content.startswith(":::") or i == 0:
            continue
        found = _DIRECTIVE.match(token.content)
        if found is None or tokens[i - 1].type != "paragraph_open" or not token.map:
            continue
        opener = Token("link_open", "a", 1)
        opener.attrs = {"href": found.group(1), "class": "autoref"}
        opener.meta[POS], opener.meta[KIND_META] = 0, KIND
        if isinstance(source, SourceText):
            line_start = source.line_starts[token.map[0]]
            opener.meta[SOURCE] = source.text.find(":::", line_start, source.line_end(token.map[0]))
        code = Token("code_inline", "code", 0)
        code.content, code.markup = found.group(1), "`"
        token.children = [opener, code, Token("link_close", "a", -1)]
        tokens[i - 1].attrs["class"] = "api-ref"


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
