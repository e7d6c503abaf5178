"""What the query files cannot say, per language: visibility rules and import structure.

Small functions in one table keyed by LangId, called by ``sitegen.code.extract``; each sees
one syntax node of one file and never looks at other files.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from tree_sitter import Node

from sitegen.code.records import Import, LangId, Symbol, SymbolKind, Visibility
from sitegen.code.source import SourceText, line_of

PUBLIC, PRIVATE = Visibility.PUBLIC, Visibility.PRIVATE


@dataclass
class DefSite:
    """A definition as the visibility rule sees it."""

    node: Node
    name: str
    kind: SymbolKind
    parent: Symbol | None  # the owning symbol, if it is in this file
    src: SourceText
    memo: dict[Any, Any]  # per-file cache a rule may fill (Ruby sections, JS export lists)


Captures = dict[str, list[Node]]
VisibilityRule = Callable[[DefSite], Visibility | None]
ImportRule = Callable[[Node, Captures, SourceText], list[Import]]


@dataclass(frozen=True)
class Dialect:
    visibility: VisibilityRule
    #: Import builders by form, for statements whose bindings need structure; any other
    #: ``@import.<form>`` is read generically from ``@import.source`` / ``@import.alias``.
    imports: dict[str, ImportRule] = field(default_factory=dict)


# ---------------------------------------------------------------- Python

def python_visibility(site: DefSite) -> Visibility:
    """``_x`` is private; dunders (``__init__``) are the public protocol, so public."""
    name = site.name
    dunder = name.startswith("__") and name.endswith("__") and len(name) > 4
    return PRIVATE if name.startswith("_") and not dunder else PUBLIC


def python_from_import(node: Node, caps: Captures, src: SourceText) -> list[Import]:
    """``from ..m import a as b, c`` -> specifier "..m" (as written), level 2, bindings."""
    if node.type == "future_import_statement":
        module, level = "__future__", 0
    else:
        module_node = node.child_by_field_name("module_name")
        if module_node is None:
            return []
        specifier = src.specifier(module_node)
        if specifier is None:
            return []
        module = specifier
        level = len(module) - len(module.lstrip("."))
    bindings = []
    for name in node.children_by_field_name("name"):
        if name.type == "aliased_import":
            binding = src.binding(name.child_by_field_name("name"),
                                  name.child_by_field_name("alias"))
        else:
            binding = src.binding(name)
        if binding is not None:
            bindings.append(binding)
    star = any(child.type == "wildcard_import" for child in node.children)
    return [Import(module, "from", line_of(node), tuple(bindings), star=star, level=level)]


DIALECTS: dict[LangId, Dialect] = {
    LangId.PYTHON: Dialect(python_visibility, {"from": python_from_import}),
}
