"""The literal values of a JavaScript or TypeScript module (a VitePress ``config.ts``), read with
the TypeScript grammar sitegen ships (content/guides/navigation.md#vitepress).

Object, array, string, number, boolean and null literals become Python values; a name bound
in the same module to a literal (``const items = [...]``), or a call without arguments of a
function of the module whose body only returns a literal (``sidebar: sidebarGuide()``), is
followed. Anything else (an import, an expression, a call with arguments) becomes a
``NotLiteral`` with its place. Nothing is ever run: this module only reads the syntax tree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tree_sitter import Node

from sitegen.code.grammars import get_parser
from sitegen.languages import LangId

#: How deep names and functions are followed: a chain longer than this is no simple literal.
MAX_FOLLOW = 16
#: The key under which an object keeps a spread (``...other``) that is no literal object.
SPREAD = "..."


@dataclass(frozen=True)
class NotLiteral:
    """A value that is not a literal: its text (cut short) and its place (1-based)."""

    text: str
    line: int
    column: int


@dataclass(frozen=True)
class ModuleLiterals:
    """What a module exports by default, and the literal values of its top-level bindings."""

    #: The default export (the object given to ``defineConfig(...)`` or any such call).
    default: Any


def read_module(source: bytes, lang: LangId = LangId.TYPESCRIPT) -> ModuleLiterals:
    """The literal values of the module ``source``; a module with no default export gives
    ``NotLiteral`` as its default."""
    tree = get_parser(lang).parse(source)
    reader = _Reader(source, tree.root_node)
    return ModuleLiterals(reader.default_export())


class _Reader:
    def __init__(self, source: bytes, root: Node) -> None:
        self.source = source
        self.root = root
        self.bindings: dict[str, Node] = {}  # const name -> its value's node
        self.functions: dict[str, Node] = {}  # function name -> the expression it returns
        self.default: Node | None = None
        for node in root.named_children:
            self._top_level(node)

    def _top_level(self, node: Node) -> None:
        if node.type == "export_statement":
            value = node.child_by_field_name("value")
            declaration = node.child_by_field_name("declaration")
            if value is not None and any(c.type == "default" for c in node.children):
                self.default = value
            elif declaration is not None:
                self._top_level(declaration)
            return
        if node.type in ("lexical_declaration", "variable_declaration"):
            for decl in node.named_children:
                name, value = decl.child_by_field_name("name"), decl.child_by_field_name("value")
                if decl.type == "variable_declarator" and name is not None and value is not None:
                    self.bindings.setdefault(self.text(name), value)
        elif node.type == "function_declaration":
            name, body = node.child_by_field_name("name"), node.child_by_field_name("body")
            returned = _only_return(body) if body is not None else None
            if name is not None and returned is not None:
                self.functions.setdefault(self.text(name), returned)
        elif node.type == "expression_statement":
            self._module_exports(node)

    def _module_exports(self, node: Node) -> None:
        """``module.exports = {...}``, the CommonJS default export."""
        expr = node.named_children[0] if node.named_children else None
        if expr is not None and expr.type == "assignment_expression":
            left = expr.child_by_field_name("left")
            if left is not None and self.text(left) == "module.exports":
                self.default = expr.child_by_field_name("right")

    def text(self, node: Node) -> str:
        return self.source[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def not_literal(self, node: Node) -> NotLiteral:
        text = " ".join(self.text(node).split())
        shown = text if len(text) <= 60 else text[:57] + "..."
        return NotLiteral(shown, node.start_point[0] + 1, node.start_point[1] + 1)

    def default_export(self) -> Any:
        """The default export, unwrapped from ``defineConfig(...)`` and names."""
        node = self.default
        for _ in range(MAX_FOLLOW):
            if node is None:
                return NotLiteral("no default export", 1, 1)
            node = _unwrapped(node)
            if node.type == "identifier" and self.text(node) in self.bindings:
                node = self.bindings[self.text(node)]
            elif node.type == "call_expression":
                args = node.child_by_field_name("arguments")
                given = args.named_children if args is not None else []
                if len(given) != 1:
                    return self.not_literal(node)
                node = given[0]
            else:
                return self.value(node, 0)
        return self.not_literal(node) if node is not None else None

    def value(self, node: Node, depth: int) -> Any:
        """The Python value of the expression ``node``, or a NotLiteral."""
        node = _unwrapped(node)
        kind = node.type
        if kind == "object":
            return self._object(node, depth)
        if kind == "array":
            return [self.value(c, depth) for c in node.named_children if c.type != "comment"]
        if kind in ("string", "template_string"):
            return self._string(node)
        if kind == "number":
            return _number(self.text(node))
        if kind in ("true", "false"):
            return kind == "true"
        if kind in ("null", "undefined"):
            return None
        if depth < MAX_FOLLOW:
            if kind == "identifier" and self.text(node) in self.bindings:
                return self.value(self.bindings[self.text(node)], depth + 1)
            if kind == "call_expression":
                called = self._local_call(node)
                if called is not None:
                    return self.value(called, depth + 1)
        return self.not_literal(node)

    def _local_call(self, node: Node) -> Node | None:
        """What ``f()`` returns when ``f`` is a function of this module that only returns."""
        function, args = node.child_by_field_name("function"), node.child_by_field_name("arguments")
        if function is None or function.type != "identifier" or args is None:
            return None
        if args.named_children:
            return None
        return self.functions.get(self.text(function))

    def _object(self, node: Node, depth: int) -> Any:
        out: dict[str, Any] = {}
        for member in node.named_children:
            if member.type == "comment":
                continue
            if member.type == "shorthand_property_identifier":
                name = self.text(member)
                bound = self.bindings.get(name)
                out[name] = (
                    self.value(bound, depth + 1) if bound is not None else self.not_literal(member)
                )
                continue
            if member.type == "spread_element":
                self._spread(member, depth, out)
                continue
            if member.type == "method_definition":
                method = member.child_by_field_name("name")
                if method is not None and self._key(method) is not None:
                    out[str(self._key(method))] = self.not_literal(member)
                    continue
            key, value = member.child_by_field_name("key"), member.child_by_field_name("value")
            if member.type != "pair" or key is None or value is None:
                return self.not_literal(member)  # a computed key, a getter
            named = self._key(key)
            if named is None:
                return self.not_literal(key)
            out[named] = self.value(value, depth)
        return out

    def _spread(self, member: Node, depth: int, out: dict[str, Any]) -> None:
        """``...name`` of an object literal merges it; any other spread is kept under the key
        ``SPREAD``, so a reader can tell that keys may come from elsewhere."""
        inner = member.named_children[0] if member.named_children else member
        given = self.value(inner, depth + 1) if depth < MAX_FOLLOW else None
        if isinstance(given, dict):
            out.update(given)
        else:
            out.setdefault(SPREAD, self.not_literal(member))

    def _key(self, key: Node) -> str | None:
        if key.type in ("property_identifier", "number"):
            return self.text(key)
        if key.type == "string":
            found = self._string(key)
            return found if isinstance(found, str) else None
        return None

    def _string(self, node: Node) -> str | NotLiteral:
        parts: list[str] = []
        for child in node.named_children:
            if child.type == "string_fragment":
                parts.append(self.text(child))
            elif child.type == "escape_sequence":
                parts.append(_unescape(self.text(child)))
            else:  # a template substitution
                return self.not_literal(node)
        if node.type == "template_string" and not node.named_children:
            inner = self.text(node)[1:-1]
            return inner
        return "".join(parts)


def _unwrapped(node: Node) -> Node:
    """The expression inside ``(x)``, ``x as T``, ``x satisfies T`` and ``x!``."""
    while node.type in (
        "parenthesized_expression",
        "as_expression",
        "satisfies_expression",
        "non_null_expression",
    ):
        inner = next((c for c in node.named_children if c.type != "comment"), None)
        if inner is None:
            break
        node = inner
    return node


def _only_return(body: Node) -> Node | None:
    """The expression of a function body that is one ``return`` statement (comments aside)."""
    statements = [c for c in body.named_children if c.type != "comment"]
    if len(statements) != 1 or statements[0].type != "return_statement":
        return None
    returned = [c for c in statements[0].named_children if c.type != "comment"]
    return returned[0] if len(returned) == 1 else None


def _number(text: str) -> int | float | NotLiteral:
    try:
        return int(text.replace("_", ""), 0)
    except ValueError:
        try:
            return float(text.replace("_", ""))
        except ValueError:
            return NotLiteral(text, 1, 1)


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


def _unescape(escape: str) -> str:
    """One escape sequence of a string literal (``\\n``, ``\\'``, ``\\u00e9``)."""
    body = escape[1:]
    if body[:1] == "u":
        digits = body[1:].strip("{}")
        try:
            return chr(int(digits, 16))
        except ValueError:
            return escape
    if body[:1] == "x":
        try:
            return chr(int(body[1:], 16))
        except ValueError:
            return escape
    return _ESCAPES.get(body, body)
