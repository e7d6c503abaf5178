"""Go: the declared type of receivers and local variables, so ``c.Total()`` and ``c.items``
name ``Cart.Total`` and ``Cart.items`` (content/guides/code-graph.md, name resolution).

A type is known for a method's receiver, a parameter, ``var x T``, and ``x := T{…}``,
``&T{…}``, ``new(T)`` or ``NewT(…)`` / ``pkg.NewT(…)`` (Go's constructor convention) in the
same function. Pure: one file's parse tree in, renamed selectors out; never resolves a name.
"""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from sitegen.code.source import CodeSource

_FUNCTIONS = ("function_declaration", "method_declaration", "func_literal")


def typed_selectors(root: Node, src: CodeSource) -> dict[tuple[int, int], tuple[Node, str]]:
    """Each selector ``x.f`` (or chain ``x.f.g``) whose root ``x`` has a known type ``T``, by
    its byte span: the node and ``T.f`` (``pkg.T.f`` for a type of another package)."""
    out: dict[tuple[int, int], tuple[Node, str]] = {}
    for function in _nodes(root, _FUNCTIONS, into_functions=True):
        types = _variable_types(function, src)
        if not types:
            continue
        for selector in _nodes(function, ("selector_expression",), into_functions=False):
            name = _renamed(selector, types, src)
            if name is not None:
                out[(selector.start_byte, selector.end_byte)] = (selector, name)
    return out


def _nodes(root: Node, types: tuple[str, ...], into_functions: bool) -> Iterator[Node]:
    """Nodes of ``types`` below ``root`` in source order; a nested function is entered only
    when ``into_functions`` (it has its own variables, found on its own turn)."""
    stack = list(reversed(root.children))
    while stack:
        node = stack.pop()
        if node.type in types:
            yield node
        if into_functions or node.type not in _FUNCTIONS:
            stack.extend(reversed(node.children))


def _renamed(selector: Node, types: dict[str, str], src: CodeSource) -> str | None:
    first = selector
    operand = selector.child_by_field_name("operand")
    while operand is not None and operand.type == "selector_expression":
        first, operand = operand, operand.child_by_field_name("operand")
    field = first.child_by_field_name("field")
    if operand is None or operand.type != "identifier" or field is None:
        return None
    owner = types.get(src.text(operand))
    return f"{owner}.{src.text(field)}" if owner else None


def _variable_types(function: Node, src: CodeSource) -> dict[str, str]:
    """Name -> type of the receiver, parameters and typed locals of one function (the first
    declaration of a name wins: shadowing by another type is rare)."""
    types: dict[str, str] = {}
    for field in ("receiver", "parameters"):
        params = function.child_by_field_name(field)
        for param in params.named_children if params is not None else []:
            _declare(
                types,
                param.children_by_field_name("name"),
                _type_name(param.child_by_field_name("type"), src),
                src,
            )
    body = function.child_by_field_name("body")
    if body is None:
        return types
    for node in _nodes(body, ("var_spec", "short_var_declaration"), into_functions=False):
        if node.type == "var_spec":
            names = node.children_by_field_name("name")
            declared = _type_name(node.child_by_field_name("type"), src)
            if declared is not None:
                _declare(types, names, declared, src)
                continue
            values = node.child_by_field_name("value")
        else:
            left = node.child_by_field_name("left")
            names = left.named_children if left is not None else []
            values = node.child_by_field_name("right")
        # `a, b := f()`: one value for two names, so the names past the values stay untyped.
        right = values.named_children if values is not None else []
        for name, value in zip(names, right, strict=False):
            _declare(types, [name], _value_type(value, src), src)
    return types


def _declare(
    types: dict[str, str], names: list[Node], type_name: str | None, src: CodeSource
) -> None:
    if type_name is None:
        return
    for name in names:
        if name.type == "identifier":
            types.setdefault(src.text(name), type_name)


def _type_name(node: Node | None, src: CodeSource) -> str | None:
    """``T``, ``*T``, ``pkg.T``, ``T[int]`` -> the named type; None for ``int``-like or
    composite types (a slice or map has no methods to resolve)."""
    while node is not None and node.type in ("pointer_type", "generic_type", "parenthesized_type"):
        inner = node.child_by_field_name("type")
        node = inner if inner is not None else next(iter(node.named_children), None)
    if node is None:
        return None
    if node.type == "type_identifier":
        return src.text(node)
    if node.type == "qualified_type":
        package, name = node.child_by_field_name("package"), node.child_by_field_name("name")
        if package is not None and name is not None:
            return f"{src.text(package)}.{src.text(name)}"
    return None


def _value_type(value: Node, src: CodeSource) -> str | None:
    """The type of ``T{…}``, ``&T{…}``, ``new(T)``, ``NewT(…)``, ``pkg.NewT(…)``."""
    if value.type == "unary_expression":
        operand = value.child_by_field_name("operand")
        return _value_type(operand, src) if operand is not None else None
    if value.type == "composite_literal":
        return _type_name(value.child_by_field_name("type"), src)
    if value.type != "call_expression":
        return None
    function, args = value.child_by_field_name("function"), value.child_by_field_name("arguments")
    if function is None:
        return None
    if function.type == "identifier" and src.text(function) == "new" and args is not None:
        return _type_name(args.named_children[0], src) if args.named_children else None
    package: Node | None = None
    name: Node | None = function
    if function.type == "selector_expression":
        package, name = (
            function.child_by_field_name("operand"),
            function.child_by_field_name("field"),
        )
        if package is None or package.type != "identifier":
            return None
    if name is None:
        return None
    called = src.text(name)
    if not (called.startswith("New") and called[3:4].isupper()):
        return None
    return f"{src.text(package)}.{called[3:]}" if package is not None else called[3:]
