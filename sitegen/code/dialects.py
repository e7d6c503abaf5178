"""What the query files cannot say, per language: visibility rules and import structure.

Small functions in one table keyed by LangId, called by ``sitegen.code.extract``; each sees
one syntax node of one file and never looks at other files.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tree_sitter import Node

from sitegen.base.languages import LangId
from sitegen.code.source import CodeSource, line_of
from sitegen.graph.dependencies import DEFERRED, RUNTIME, TYPE_ONLY
from sitegen.records.code import Binding, Import, Symbol, SymbolKind, Visibility

PUBLIC, PRIVATE = Visibility.PUBLIC, Visibility.PRIVATE


@dataclass
class DefSite:
    """A definition as the visibility rule sees it."""

    node: Node
    name: str
    kind: SymbolKind
    parent: Symbol | None  # the owning symbol, if it is in this file
    src: CodeSource
    memo: dict[Any, Any]  # per-file cache a rule may fill (Ruby sections, JS export lists)


Captures = dict[str, list[Node]]
VisibilityRule = Callable[[DefSite], Visibility | None]
ImportRule = Callable[[Node, Captures, CodeSource], list[Import]]


@dataclass(frozen=True)
class Dialect:
    visibility: VisibilityRule
    #: Import builders by form, for statements whose bindings need structure; any other
    #: ``@import.<form>`` is read generically from ``@import.source`` / ``@import.alias``.
    imports: dict[str, ImportRule] = field(default_factory=dict)
    #: When an import statement runs ("" at load time; ``Import.context``), for languages
    #: where it can be later or never.
    import_context: Callable[[Node], str] | None = None


# ---------------------------------------------------------------- Python


def python_visibility(site: DefSite) -> Visibility:
    """``_x`` is private; dunders (``__init__``) are the public protocol, so public."""
    name = site.name
    dunder = name.startswith("__") and name.endswith("__") and len(name) > 4
    return PRIVATE if name.startswith("_") and not dunder else PUBLIC


def python_from_import(node: Node, caps: Captures, src: CodeSource) -> list[Import]:
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
            binding = src.binding(
                name.child_by_field_name("name"), name.child_by_field_name("alias")
            )
        else:
            binding = src.binding(name)
        if binding is not None:
            bindings.append(binding)
    star = any(child.type == "wildcard_import" for child in node.children)
    return [Import(module, "from", line_of(node), tuple(bindings), star=star, level=level)]


def python_import_context(node: Node) -> str:
    """``type-only`` under ``if TYPE_CHECKING:`` or ``if typing.TYPE_CHECKING:`` (its body,
    not its ``else``), as grimp reads it; else ``deferred`` inside a function (or lambda)
    body, which runs only when called; else "" (a class body runs at import time)."""
    deferred = False
    child, parent = node, node.parent
    while parent is not None:
        if parent.type in ("function_definition", "lambda"):
            deferred = True
        elif parent.type == "if_statement" and _is_type_checking_branch(parent, child):
            return TYPE_ONLY
        child, parent = parent, parent.parent
    return DEFERRED if deferred else RUNTIME


def _is_type_checking_branch(statement: Node, branch: Node) -> bool:
    consequence = statement.child_by_field_name("consequence")
    condition = statement.child_by_field_name("condition")
    if consequence is None or condition is None or branch.start_byte != consequence.start_byte:
        return False
    name: Node | None = None
    if condition.type == "identifier":
        name = condition
    elif condition.type == "attribute":
        name = condition.child_by_field_name("attribute")
    return name is not None and name.text == b"TYPE_CHECKING"


# ---------------------------------------------------------------- JavaScript, TypeScript


def ecmascript_visibility(site: DefSite) -> Visibility:
    """Exported top-level names are public. A member follows its class unless it is
    ``#private`` or TypeScript ``private``/``protected``; anything nested is private."""
    parent = site.parent
    if parent is None:
        return PUBLIC if _is_exported(site) else PRIVATE
    if parent.kind not in (SymbolKind.CLASS, SymbolKind.INTERFACE):
        return PRIVATE
    access = [site.src.text(c) for c in site.node.children if c.type == "accessibility_modifier"]
    if site.name.startswith("#") or access in (["private"], ["protected"]):
        return PRIVATE
    return parent.visibility or PRIVATE


def _is_exported(site: DefSite) -> bool:
    holder = site.node.parent
    if holder is not None and holder.type == "lexical_declaration":
        holder = holder.parent
    if holder is not None and holder.type == "export_statement":
        return True
    if "ecmascript-exports" not in site.memo:
        site.memo["ecmascript-exports"] = _local_exports(site.node, site.src)
    return site.name in site.memo["ecmascript-exports"]


def _local_exports(node: Node, src: CodeSource) -> frozenset[str]:
    """Names exported by ``export { a, b as c }`` and ``export default a`` (no ``from``)."""
    while node.parent is not None:
        node = node.parent
    names: set[str] = set()
    for statement in node.children:
        if statement.type != "export_statement" or statement.child_by_field_name("source"):
            continue
        for child in statement.named_children:
            if child.type == "export_clause":
                names.update(
                    src.text(name)
                    for spec in child.named_children
                    if spec.type == "export_specifier"
                    and (name := spec.child_by_field_name("name")) is not None
                )
            elif child.type == "identifier":
                names.add(src.text(child))
    return frozenset(names)


def ecmascript_default_export(root: Node, src: CodeSource, symbols: list[Symbol]) -> str | None:
    """The top-level symbol ``export default`` names: ``export default function f``,
    ``export default class C``, ``export default name``, ``export { name as default }``."""
    top = {s.name for s in symbols if s.parent is None}
    for statement in root.children:
        if statement.type != "export_statement" or statement.child_by_field_name("source"):
            continue
        declaration = statement.child_by_field_name("declaration")
        value = statement.child_by_field_name("value")
        if any(c.type == "default" for c in statement.children):
            named = declaration.child_by_field_name("name") if declaration is not None else value
            if (
                named is not None
                and named.type in ("identifier", "type_identifier")
                and src.text(named) in top
            ):
                return src.text(named)
        for clause in (c for c in statement.named_children if c.type == "export_clause"):
            for spec in clause.named_children:
                name, alias = spec.child_by_field_name("name"), spec.child_by_field_name("alias")
                if (
                    alias is not None
                    and src.text(alias) == "default"
                    and name is not None
                    and src.text(name) in top
                ):
                    return src.text(name)
    return None


def ecmascript_import(node: Node, caps: Captures, src: CodeSource) -> list[Import]:
    """``import x, {a as b} from``, ``import * as ns from``, TS ``import fs = require()``."""
    specifier = src.specifier(caps["import.source"][0])
    if specifier is None:
        return []
    bindings, alias, form = [], None, "import"
    for child in node.named_children:
        if child.type == "import_require_clause":
            form, alias = "require", src.text(child.named_children[0])
        elif child.type == "import_clause":
            for part in child.named_children:
                if part.type == "identifier":  # the default export, bound to a local name
                    bindings.append(Binding("default", src.text(part)))
                elif part.type == "namespace_import":
                    alias = src.text(part.named_children[0])
                elif part.type == "named_imports":
                    bindings.extend(_specifiers(part, "import_specifier", src))
    return [Import(specifier, form, line_of(node), tuple(bindings), alias=alias)]


#: The nodes whose body runs only when called: a ``require()`` inside one is deferred.
_ECMASCRIPT_FUNCTIONS = frozenset(
    {
        "function_declaration",
        "function_expression",
        "function",
        "arrow_function",
        "method_definition",
        "generator_function_declaration",
        "generator_function",
    }
)


def ecmascript_import_context(node: Node) -> str:
    """``type-only`` for TypeScript's ``import type``/``export type … from``, and for an
    import or re-export whose every name is written ``type X``: TypeScript erases them, so
    they never load the module (madge's ``skipTypeImports``). ``deferred`` for a
    ``require()`` inside a function body. Else "" (content/guides/cycles.md)."""
    if node.type in ("import_statement", "export_statement"):
        if any(child.type == "type" for child in node.children):
            return TYPE_ONLY
        return TYPE_ONLY if _only_type_names(node) else RUNTIME
    parent = node.parent
    while parent is not None:
        if parent.type in _ECMASCRIPT_FUNCTIONS:
            return DEFERRED
        parent = parent.parent
    return RUNTIME


def _only_type_names(statement: Node) -> bool:
    """``import { type A, type B } from``, ``export { type C } from``: names, all types."""
    specifiers: list[Node] = []
    for clause in statement.named_children:
        if clause.type == "export_clause":
            specifiers += clause.named_children
        elif clause.type == "import_clause":
            for part in clause.named_children:
                if part.type != "named_imports":
                    return False  # a default or namespace import binds a value
                specifiers += part.named_children
    names = [s for s in specifiers if s.type in ("import_specifier", "export_specifier")]
    return bool(names) and all(any(c.type == "type" for c in s.children) for s in names)


def ecmascript_export_from(node: Node, caps: Captures, src: CodeSource) -> list[Import]:
    """``export {a as b} from``, ``export * from``, ``export * as ns from``."""
    specifier = src.specifier(caps["import.source"][0])
    if specifier is None:
        return []
    clause = next((c for c in node.named_children if c.type == "export_clause"), None)
    namespace = next((c for c in node.named_children if c.type == "namespace_export"), None)
    bindings = tuple(_specifiers(clause, "export_specifier", src)) if clause else ()
    alias = _namespace_alias(namespace, src) if namespace else None
    star = clause is None and namespace is None
    return [Import(specifier, "export-from", line_of(node), bindings, star=star, alias=alias)]


def _namespace_alias(namespace: Node, src: CodeSource) -> str | None:
    """The name after ``as`` in ``export * as name from``: an identifier, the keyword
    ``default`` (no named child: prettier's sources write ``export * as default from``) or a
    string (``export * as "a b" from``, ES2022); None when the tree has none."""
    last = namespace.children[-1] if namespace.children else None
    if last is None or last.type in ("*", "as"):
        return None
    if last.type == "string":
        return src.raw_string(last).decode("utf-8", errors="replace")
    return src.text(last)


def ecmascript_require(node: Node, caps: Captures, src: CodeSource) -> list[Import]:
    """``require("x")``; ``const m = require()`` names it, ``const {a, b: c} =`` binds."""
    specifier = src.specifier(caps["import.source"][0])
    if specifier is None:
        return []
    target = (
        node.parent.child_by_field_name("name")
        if (node.parent is not None and node.parent.type == "variable_declarator")
        else None
    )
    alias, bindings = None, []
    member = _required_member(node, src)
    if member is not None:  # const load = require("m").load
        bindings.append(member)
    elif target is not None and target.type == "identifier":
        alias = src.text(target)
    elif target is not None and target.type == "object_pattern":
        for part in target.named_children:
            if part.type == "shorthand_property_identifier_pattern":
                bindings.append(Binding(src.text(part)))
            elif part.type == "pair_pattern":
                key, value = part.child_by_field_name("key"), part.child_by_field_name("value")
                if key is not None and value is not None and value.type == "identifier":
                    bindings.append(Binding(src.text(key), src.text(value)))
    return [Import(specifier, "require", line_of(node), tuple(bindings), alias=alias)]


def _required_member(call: Node, src: CodeSource) -> Binding | None:
    """``const x = require("m").y`` binds ``y`` as ``x``."""
    member = call.parent
    if (
        member is None
        or member.type != "member_expression"
        or member.child_by_field_name("object") != call
    ):
        return None
    holder, prop = member.parent, member.child_by_field_name("property")
    if holder is None or holder.type != "variable_declarator" or prop is None:
        return None
    name = holder.child_by_field_name("name")
    if name is None or name.type != "identifier":
        return None
    return Binding(src.text(prop), src.text(name) if src.text(name) != src.text(prop) else None)


def _specifiers(clause: Node, kind: str, src: CodeSource) -> list[Binding]:
    found = (
        src.binding(spec.child_by_field_name("name"), spec.child_by_field_name("alias"))
        for spec in clause.named_children
        if spec.type == kind
    )
    return [b for b in found if b is not None]


# ---------------------------------------------------------------- C, C++


def c_visibility(site: DefSite) -> Visibility:
    """``static`` (internal linkage) is private; everything else links, so public."""
    static = any(
        c.type == "storage_class_specifier" and site.src.text(c) == "static"
        for c in site.node.children
    )
    return PRIVATE if static else PUBLIC


def cpp_visibility(site: DefSite) -> Visibility:
    """A member's access specifier (``protected`` counts as private; a class starts
    private, a struct public); outside a class, the C rule."""
    member = site.node  # a nested `struct S {…};` is the type of a field declaration
    while member.parent is not None and member.parent.type in (
        "template_declaration",
        "field_declaration",
    ):
        member = member.parent
    body = member.parent
    if body is None or body.type != "field_declaration_list" or site.parent is None:
        return c_visibility(site)
    key = ("cpp-access", body.start_byte)
    if key not in site.memo:
        site.memo[key] = _member_access(body, site.src)
    access: dict[int, Visibility] = site.memo[key]
    return access.get(member.start_byte, PUBLIC)


def _member_access(body: Node, src: CodeSource) -> dict[int, Visibility]:
    owner = body.parent.type if body.parent is not None else ""
    current = PUBLIC if owner in ("struct_specifier", "union_specifier") else PRIVATE
    access = {}
    for child in body.named_children:
        if child.type == "access_specifier":
            current = PUBLIC if src.text(child) == "public" else PRIVATE
        else:
            access[child.start_byte] = current
    return access


# ---------------------------------------------------------------- Rust


def rust_visibility(site: DefSite) -> Visibility:
    """Any ``pub`` / ``pub(…)`` is public. Items of a trait, and methods of ``impl Trait for
    T``, are as visible as the trait itself, so they follow the trait or count as public."""
    if any(c.type == "visibility_modifier" for c in site.node.children):
        return PUBLIC
    holder = site.node.parent.parent if site.node.parent is not None else None
    if holder is not None and holder.type == "impl_item" and holder.child_by_field_name("trait"):
        return PUBLIC
    if site.parent is not None and site.parent.kind == SymbolKind.TRAIT:
        return site.parent.visibility or PRIVATE
    return PRIVATE


def rust_use(node: Node, caps: Captures, src: CodeSource) -> list[Import]:
    """``use crate::a::{b, c as d, e::*}`` -> one import per path prefix: "crate::a" binding
    b and c (as d), "crate::a::e" star. ``use std::io`` is "std" binding io; ``use serde``
    is "serde" with no binding; ``self`` in a list stays a binding named "self"."""
    argument = node.child_by_field_name("argument")
    if argument is None:
        return []
    grouped: dict[str, list[Binding | None]] = {}
    for prefix, binding in _use_tree(argument, "", src):
        grouped.setdefault(prefix, []).append(binding)
    level = _inline_mods(node)
    return [
        Import(
            prefix,
            "use",
            line_of(node),
            tuple(b for b in items if b is not None and b is not _STAR),
            star=_STAR in items,
            level=level,
        )
        for prefix, items in grouped.items()
    ]


def _inline_mods(node: Node) -> int:
    """How many inline ``mod m { … }`` blocks enclose a ``use``: ``super::`` inside
    ``mod tests { use super::*; }`` names the file's own module, not its parent."""
    count, parent = 0, node.parent
    while parent is not None:
        if parent.type == "mod_item" and parent.child_by_field_name("body") is not None:
            count += 1
        parent = parent.parent
    return count


#: Marks a ``*`` leaf of a use tree (None marks a bare module: ``use serde;``).
_STAR = Binding("*")


def _use_tree(node: Node, prefix: str, src: CodeSource) -> list[tuple[str, Binding | None]]:
    """(path prefix, binding) for each leaf of a use tree."""
    path = node.child_by_field_name("path")
    if node.type == "scoped_use_list":
        base = _join(prefix, src.text(path)) if path is not None else prefix
        items = node.child_by_field_name("list")
        children = items.named_children if items is not None else []
        return [leaf for child in children for leaf in _use_tree(child, base, src)]
    if node.type == "use_list":
        return [leaf for child in node.named_children for leaf in _use_tree(child, prefix, src)]
    if node.type == "use_wildcard":
        inner = node.named_children
        return [(_join(prefix, src.text(inner[0])) if inner else prefix, _STAR)]
    alias = None
    if node.type == "use_as_clause" and path is not None:
        alias, node = node.child_by_field_name("alias"), path
    head, _, last = _join(prefix, src.text(node)).rpartition("::")
    if not head:
        return [(last, None)]
    return [(head, Binding(last, src.text(alias) if alias is not None else None))]


def _join(prefix: str, path: str) -> str:
    return f"{prefix}::{path}" if prefix else path


# ---------------------------------------------------------------- Go


def go_visibility(site: DefSite) -> Visibility:
    """Go exports exactly the names that start with an upper-case letter."""
    return PUBLIC if site.name[:1].isupper() else PRIVATE


# ---------------------------------------------------------------- Ruby

_RUBY_ACCESS = {"public": PUBLIC, "private": PRIVATE, "protected": PRIVATE}


def ruby_visibility(site: DefSite) -> Visibility:
    """A method after a bare ``private`` / ``protected`` in its class body, wrapped in
    ``private def x``, or named by ``private :x`` is private; everything else is public."""
    if site.parent is None or site.kind != SymbolKind.METHOD or site.node.type != "method":
        return PUBLIC
    body = site.node.parent
    while body is not None and body.type in ("argument_list", "call"):
        body = body.parent
    if body is None:
        return PUBLIC
    key = ("ruby-access", body.start_byte)
    if key not in site.memo:
        site.memo[key] = _ruby_sections(body, site.src)
    sections: tuple[dict[int, Visibility], dict[str, Visibility]] = site.memo[key]
    by_start, by_name = sections
    return by_name.get(site.name, by_start.get(site.node.start_byte, PUBLIC))


def _ruby_access_call(node: Node, src: CodeSource) -> tuple[Visibility, list[Node]] | None:
    """``private :a, :b`` / ``public def x`` -> (the access, its arguments)."""
    if node.type != "call" or node.child_by_field_name("receiver") is not None:
        return None
    method, args = node.child_by_field_name("method"), node.child_by_field_name("arguments")
    if method is None or args is None or src.text(method) not in _RUBY_ACCESS:
        return None
    return _RUBY_ACCESS[src.text(method)], args.named_children


def _ruby_sections(
    body: Node, src: CodeSource
) -> tuple[dict[int, Visibility], dict[str, Visibility]]:
    """Visibility of each ``def`` in a class body by position, and of each named method."""
    current = PUBLIC
    by_start: dict[int, Visibility] = {}
    by_name: dict[str, Visibility] = {}
    for child in body.named_children:
        if child.type == "identifier" and src.text(child) in _RUBY_ACCESS:
            current = _RUBY_ACCESS[src.text(child)]
        elif child.type == "method":
            by_start[child.start_byte] = current
        elif (marked := _ruby_access_call(child, src)) is not None:
            access, args = marked
            for arg in args:
                if arg.type == "method":  # private def x … end
                    by_start[arg.start_byte] = access
                elif arg.type in ("simple_symbol", "string"):  # private :x, "y"
                    by_name[src.text(arg).lstrip(":").strip("'\"")] = access
    return by_start, by_name


_ECMASCRIPT = Dialect(
    ecmascript_visibility,
    {
        "import": ecmascript_import,
        "export-from": ecmascript_export_from,
        "require": ecmascript_require,
    },
    ecmascript_import_context,
)

DIALECTS: dict[LangId, Dialect] = {
    LangId.PYTHON: Dialect(python_visibility, {"from": python_from_import}, python_import_context),
    LangId.JAVASCRIPT: _ECMASCRIPT,
    LangId.TYPESCRIPT: _ECMASCRIPT,
    LangId.TSX: _ECMASCRIPT,
    LangId.C: Dialect(c_visibility),
    LangId.CPP: Dialect(cpp_visibility),
    LangId.RUST: Dialect(rust_visibility, {"use": rust_use}),
    LangId.GO: Dialect(go_visibility),
    LangId.RUBY: Dialect(ruby_visibility),
}
