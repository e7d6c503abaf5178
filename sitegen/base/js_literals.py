"""The literal values of a JavaScript or TypeScript module (a VitePress ``config.ts``), read with
the TypeScript grammar sitegen ships (content/guides/navigation.md#vitepress).

Object, array, string, number, boolean and null literals become Python values; a name bound
in the same module to a literal (``const items = [...]``), or a call without arguments of a
function of the module whose body only returns a literal (``sidebar: sidebarGuide()``), is
followed. A call that only names a path is read as that path (``require.resolve('./x')``,
``path.resolve(__dirname, 'x')``: a Docusaurus ``sidebarPath``), and ``require('./x')`` as a
``Required`` naming the module, which is never read. Anything else (an import, an
expression, a call with other arguments) becomes a ``NotLiteral`` with its place. Nothing is ever run: this module only reads the syntax tree.

Bounded by construction (content/guides/safety.md): the file, the nesting and the value it
expands to have caps, each name is read once and shared, and a literal that no page could
hold (an escape beyond U+10FFFF, a lone surrogate, a number beyond a double) is a
``NotLiteral`` with a reason, never an exception.
"""

from __future__ import annotations

import functools
import math
import posixpath
import re
import string
from dataclasses import dataclass, field
from typing import Any

from tree_sitter import Node, Parser, Tree

from sitegen.base.diagnostics import cut
from sitegen.base.grammars import get_language, parse_within
from sitegen.base.languages import LangId

#: A configuration file of this many bytes or more is not read (the generator keeps the first
#: 1,000,000 characters of a script, so a cut file is caught here too).
MAX_SOURCE_BYTES = 1_000_000
#: How deep a value may nest, names and calls followed included: deeper, it is a NotLiteral.
MAX_DEPTH = 64
#: How many values (objects, arrays, strings, numbers...) the default export may expand to,
#: each use of a name counting its whole value: a name is read once and shared, but whoever
#: walks the result (the page tree, JSON) walks every use.
MAX_VALUES = 100_000
#: How many characters the strings of the expanded default export may hold, each use counted.
MAX_CHARS = 10_000_000
#: A number written with more characters is not read (a double has at most 309 digits).
MAX_NUMBER_CHARS = 400
#: CPU seconds tree-sitter may spend reading one file. Its error recovery is quadratic on some
#: shapes ("/*" 32,000 times took 1.6 s, and 1 MB would take minutes): it is stopped after
#: this, and a file not read by then is not used. A 1 MB configuration takes 0.25 s.
MAX_PARSE_SECONDS = 1.0
#: How many names of ``export default name`` or calls of ``defineConfig(...)`` are unwrapped.
MAX_FOLLOW = 16
#: The key under which an object keeps a spread (``...other``) that is no literal object.
SPREAD = "..."
#: How much of a value a NotLiteral shows.
_SHOWN = 60


@dataclass(frozen=True)
class NotLiteral:
    """A value that is not a literal: its text (cut short) and its place (1-based); ``reason``
    says why sitegen could not read a literal ("" for an expression, which is never run)."""

    text: str
    line: int
    column: int
    reason: str = ""


@dataclass(frozen=True)
class Required:
    """``require('./x')``: another module's value, which is never read or run here; ``path``
    is the name written."""

    path: str


#: The calls that join a path onto the module's own folder: ``path.resolve(__dirname, 'x')``.
_DIR_CALLS = frozenset({"path.resolve", "path.join", "resolve", "join"})
#: The module's own folder, as a CommonJS or an ES module names it.
_MODULE_DIRS = frozenset({"__dirname", "import.meta.dirname"})


@dataclass(frozen=True)
class ModuleLiterals:
    """What a module exports by default, and the first literal sitegen could not read."""

    #: The default export (the object given to ``defineConfig(...)`` or any such call).
    default: Any
    #: The first NotLiteral with a reason (a cap, an escape, a syntax error), for one warning;
    #: it is ``default`` itself when the whole file could not be read.
    problem: NotLiteral | None = None


def read_module(source: bytes, lang: LangId = LangId.TYPESCRIPT) -> ModuleLiterals:
    """The literal values of the module ``source``; a module with no default export gives
    ``NotLiteral`` as its default. Never raises on any input."""
    if len(source) >= MAX_SOURCE_BYTES:
        whole = NotLiteral(
            "",
            1,
            1,
            f"the file is {len(source):,} bytes, and sitegen reads configuration "
            f"files under {MAX_SOURCE_BYTES:,} bytes",
        )
        return ModuleLiterals(whole, whole)
    tree = _parse(source, lang)
    if tree is None:
        slow = NotLiteral(
            "", 1, 1, f"tree-sitter did not read the file in {MAX_PARSE_SECONDS:g} s of CPU"
        )
        return ModuleLiterals(slow, slow)
    reader = _Reader(source, tree.root_node)
    try:
        default = reader.default_export()
    except _TooLarge as large:
        return ModuleLiterals(large.where, large.where)
    return ModuleLiterals(default, reader.problem)


def _parse(source: bytes, lang: LangId) -> Tree | None:
    """The syntax tree of ``source``, or None when tree-sitter takes more than
    ``MAX_PARSE_SECONDS`` of this thread's CPU time to read it (after the last byte it may take
    some more: 2.8 s at most on 1 MB here)."""
    return parse_within(_parser(lang), source, MAX_PARSE_SECONDS)


@functools.cache
def _parser(lang: LangId) -> Parser:
    """A parser of this module's own: one that was stopped is reset, and the code extractor's
    (sitegen/code/grammars.py) is never left halfway."""
    return Parser(get_language(lang))


class _TooLarge(Exception):
    """The default export expands past ``MAX_VALUES`` or ``MAX_CHARS``: nothing of it is kept."""

    def __init__(self, where: NotLiteral) -> None:
        super().__init__(where.reason)
        self.where = where


@dataclass
class _Known:
    """A name's value, read once, with what each further use of it costs."""

    value: Any
    values: int
    chars: int
    height: int


@dataclass
class _Budget:
    """What the value read so far expands to, and how deep the reading is."""

    values: int = 0
    chars: int = 0
    depth: int = 0
    deepest: int = 0
    known: dict[str, _Known] = field(default_factory=dict)
    reading: set[str] = field(default_factory=set)  # names being read: a use is a cycle


class _Reader:
    def __init__(self, source: bytes, root: Node) -> None:
        self.source = source
        self.root = root
        self.bindings: dict[str, Node] = {}  # const name -> its value's node
        self.functions: dict[str, Node] = {}  # function name -> the expression it returns
        self.default: Node | None = None
        self.problem: NotLiteral | None = None
        self.budget = _Budget()
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

    def not_literal(self, node: Node, reason: str = "") -> NotLiteral:
        """The NotLiteral of ``node``; one with a reason is remembered as the module's
        problem when it is the first."""
        # Only the start of the node is decoded: a NotLiteral of a whole 1 MB array costs
        # no more than one of a name.
        end = min(node.end_byte, node.start_byte + 4 * _SHOWN)
        text = " ".join(self.source[node.start_byte : end].decode("utf-8", "replace").split())
        shown = text if len(text) <= _SHOWN and end == node.end_byte else text[: _SHOWN - 1] + "…"
        found = NotLiteral(shown, node.start_point[0] + 1, node.start_point[1] + 1, reason)
        if reason and self.problem is None:
            self.problem = found
        return found

    def default_export(self) -> Any:
        """The default export, unwrapped from ``defineConfig(...)`` and names."""
        node = self.default
        if node is None:
            return self._no_default()
        for _ in range(MAX_FOLLOW):
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
                return self.value(node)
        return self.not_literal(node)

    def _no_default(self) -> NotLiteral:
        """No default export: a plain NotLiteral, or the first syntax error when the file
        has one (a cut or mistyped file), so that it is reported."""
        error = _first_error(self.root)
        if error is None:
            return NotLiteral("no default export", 1, 1)
        return self.not_literal(error, "the file has a syntax error here, and no default export")

    def value(self, node: Node) -> Any:
        """The Python value of the expression ``node``, or a NotLiteral; each level of
        nesting (an array, an object, a name followed) is one level of ``MAX_DEPTH``."""
        node = _unwrapped(node)
        budget = self.budget
        if budget.depth >= MAX_DEPTH:
            return self.not_literal(node, f"it nests more than {MAX_DEPTH} levels deep")
        budget.depth += 1
        budget.deepest = max(budget.deepest, budget.depth)
        try:
            self._count(node, 1, 0)
            return self._value(node)
        finally:
            budget.depth -= 1

    def _value(self, node: Node) -> Any:
        kind = node.type
        if kind == "object":
            return self._object(node)
        if kind == "array":
            return [self.value(c) for c in node.named_children if c.type != "comment"]
        if kind in ("string", "template_string"):
            found = self._string(node)
            if isinstance(found, str):
                self._count(node, 0, len(found))
            return found
        if kind == "number":
            return self._number(node)
        if kind in ("true", "false"):
            return kind == "true"
        if kind in ("null", "undefined"):
            return None
        if kind == "identifier" and self.text(node) in self.bindings:
            name = self.text(node)
            return self._follow(name, node, self.bindings[name])
        if kind == "call_expression":
            named = self._path_call(node)
            if named is not None:
                return named
            called = self._local_call(node)
            if called is not None:
                return self._follow(called[0] + "()", node, called[1])
        return self.not_literal(node)

    def _count(self, node: Node, values: int, chars: int) -> None:
        """Adds to what the value expands to; past a cap, the whole default export is
        unreadable (one diagnostic at the place that went past it)."""
        budget = self.budget
        budget.values += values
        budget.chars += chars
        if budget.values > MAX_VALUES:
            what = f"more than {MAX_VALUES:,} values"
        elif budget.chars > MAX_CHARS:
            what = f"strings of more than {MAX_CHARS:,} characters"
        else:
            return
        reason = (
            f"the configuration expands to {what} (each use of a name counted), "
            "more than sitegen reads"
        )
        raise _TooLarge(self.not_literal(node, reason))

    def _follow(self, name: str, node: Node, target: Node) -> Any:
        """The value of a name (or ``name()``) of the module: read once, its value shared by
        every use, each use counted in full by ``_count`` and ``MAX_DEPTH``."""
        budget = self.budget
        known = budget.known.get(name)
        if known is not None:
            if budget.depth + known.height > MAX_DEPTH:
                return self.not_literal(node, f"it nests more than {MAX_DEPTH} levels deep")
            budget.deepest = max(budget.deepest, budget.depth + known.height)
            self._count(node, known.values, known.chars)
            return known.value
        if name in budget.reading:
            return self.not_literal(node, f"'{cut(name, _SHOWN)}' refers to itself")
        budget.reading.add(name)
        values, chars, deepest = budget.values, budget.chars, budget.deepest
        budget.deepest = budget.depth
        found = self.value(target)
        height = budget.deepest - budget.depth
        budget.known[name] = _Known(found, budget.values - values, budget.chars - chars, height)
        budget.deepest = max(deepest, budget.deepest)
        budget.reading.discard(name)
        return found

    def _path_call(self, node: Node) -> str | Required | None:
        """The path a call only names: ``require.resolve('./x')`` -> ``./x``,
        ``path.resolve(__dirname, 'a', 'b')`` (or ``join``) -> ``a/b``, relative to the
        module's folder, and ``require('./x')`` -> ``Required('./x')`` (the module itself,
        never read here); None for any other call, or one with arguments that are not string
        literals."""
        function, args = node.child_by_field_name("function"), node.child_by_field_name("arguments")
        if function is None or args is None:
            return None
        called = self.text(function)
        given = [c for c in args.named_children if c.type != "comment"]
        if called in _DIR_CALLS and given and self.text(given[0]) in _MODULE_DIRS:
            given = given[1:]
        elif called not in ("require", "require.resolve") or len(given) != 1:
            return None
        parts = [self._string(c) if c.type == "string" else None for c in given]
        if not parts or not all(isinstance(p, str) for p in parts):
            return None
        path = posixpath.join(*(str(p) for p in parts))
        self._count(node, 0, len(path))
        return Required(path) if called == "require" else path

    def _local_call(self, node: Node) -> tuple[str, Node] | None:
        """The name and returned expression of ``f()`` when ``f`` is a function of this
        module that only returns."""
        function, args = node.child_by_field_name("function"), node.child_by_field_name("arguments")
        if function is None or function.type != "identifier" or args is None:
            return None
        if args.named_children:
            return None
        name = self.text(function)
        returned = self.functions.get(name)
        return (name, returned) if returned is not None else None

    def _object(self, node: Node) -> Any:
        out: dict[str, Any] = {}
        for member in node.named_children:
            if member.type == "comment":
                continue
            if member.type == "shorthand_property_identifier":
                name = self.text(member)
                bound = self.bindings.get(name)
                out[name] = (
                    self._follow(name, member, bound)
                    if bound is not None
                    else self.not_literal(member)
                )
                continue
            if member.type == "spread_element":
                self._spread(member, out)
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
            out[named] = self.value(value)
        return out

    def _spread(self, member: Node, out: dict[str, Any]) -> None:
        """``...name`` of an object literal merges it; any other spread is kept under the key
        ``SPREAD``, so a reader can tell that keys may come from elsewhere."""
        inner = member.named_children[0] if member.named_children else member
        given = self.value(inner)
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
                char = _unescape(self.text(child))
                if char is None:
                    return self.not_literal(child, "the escape names no Unicode character")
                parts.append(char)
            else:  # a template substitution, or text the grammar could not read
                return self.not_literal(node)
        if node.type == "template_string" and not node.named_children:
            return self.text(node)[1:-1]
        text = "".join(parts)
        if _SURROGATE.search(text) is None:
            return text
        # JavaScript strings are UTF-16: "\uD83D\uDE00" is one character; a surrogate
        # without its pair is no character, and no page (UTF-8) can hold it.
        try:
            return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
        except UnicodeDecodeError:
            return self.not_literal(node, "it holds a lone surrogate (\\uD800-\\uDFFF)")

    def _number(self, node: Node) -> int | float | NotLiteral:
        text = self.text(node).replace("_", "")
        if len(text) > MAX_NUMBER_CHARS:
            return self.not_literal(
                node, f"it is a number of more than {MAX_NUMBER_CHARS} characters"
            )
        try:
            return int(text, 0)
        except ValueError:
            pass
        try:
            number = float(text)
        except ValueError:
            return self.not_literal(node)  # a BigInt (1n), a legacy octal
        if not math.isfinite(number):
            return self.not_literal(node, "it is a number beyond what JavaScript holds")
        return number


_SURROGATE = re.compile("[\ud800-\udfff]")


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


def _first_error(root: Node) -> Node | None:
    """The first ERROR or MISSING node of the tree, found without recursion (a tree can be
    thousands of levels deep), by descending into the first child that holds an error."""
    if not root.has_error:
        return None
    node = root
    while True:
        if node.type == "ERROR" or node.is_missing:
            return node
        inner = next((c for c in node.children if c.has_error or c.is_missing), None)
        if inner is None:
            return node
        node = inner


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
#: A backslash before a line end continues the string: the line end is not part of it.
_CONTINUATIONS = ("\n", "\r\n", "\r", "\u2028", "\u2029")


def _unescape(escape: str) -> str | None:
    """One escape sequence of a string literal (``\\n``, ``\\'``, ``\\u00e9``, ``\\u{1F600}``),
    or None when it names no character (beyond U+10FFFF, no hexadecimal digits)."""
    body = escape[1:]
    if body[:1] in ("u", "x"):
        digits = body[1:].removeprefix("{").removesuffix("}").lstrip("0") or "0"
        if len(digits) > 6 or not all(c in string.hexdigits for c in digits):
            return None
        code = int(digits, 16)
        return chr(code) if code <= 0x10FFFF else None
    if body in _CONTINUATIONS:
        return ""
    return _ESCAPES.get(body, body)
