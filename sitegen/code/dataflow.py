"""Def-use flow inside functions (content/guides/code-graph.md#data-flow), for Python and Rust.

A pure function of one file's bytes and its record; other languages give empty lists, never
an error. Never reads files and never resolves names across files.

The model is deliberately simple: statements are taken in source order and the last binding
of a name before a use is the one that flows (no branch merging). A binding is a DataNode —
a parameter, an assignment / ``let`` / loop / ``with`` / walrus target, a closure parameter —
and every name read on its right-hand side adds an ``assign`` edge from the binding it reads;
a ``return`` (or a Rust tail expression) is a ``temporary`` node fed by ``use`` edges. Python
comprehensions and Rust blocks and closures are scopes: their bindings end with them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from tree_sitter import Node, Query, QueryCursor

from sitegen.code.graph import (
    SAME_FILE,
    CodeEdge,
    CodeGraph,
    DataNode,
    DataScope,
    EdgeKind,
    data_endpoint,
    file_endpoint,
    symbol_ids,
)
from sitegen.code.records import CodeRecord, DataValue, Flow, SymbolKind
from sitegen.languages import LangId

FLOW_LANGUAGES = (LangId.PYTHON, LangId.RUST)


@dataclass
class _Event:
    """Something that happens at byte ``pos`` of a function, processed in order."""

    pos: int
    kind: str  # "def" | "return" | "push" | "pop"
    name: str = ""
    node: Node | None = None
    scope: DataScope = DataScope.LOCAL
    type_hint: str | None = None
    reads: list[Node] = field(default_factory=list)
    #: False for an assignment to an existing name (Rust ``x = …``, Python ``:=``): it updates
    #: that binding, so the innermost scope does not end it.
    scoped: bool = True
    #: Tie-break at one position: scopes open first, then uses, then scopes close, and a
    #: binding (placed at the end of its statement) takes effect last.
    order: int = 0


def data_flow(
    record: CodeRecord, data: bytes, root: Node | None = None
) -> tuple[list[DataNode], list[CodeEdge]]:
    """The data nodes and flow edges of every function in the file (empty for most languages).
    ``root``: the file's parse tree when the caller has it (extraction does), else it is parsed."""
    walker = _WALKERS.get(record.language)
    if walker is None:
        return [], []
    if root is None:
        from sitegen.code.grammars import get_parser

        root = get_parser(record.language).parse(data).root_node
    file_id = file_endpoint(record.language, record.path)
    ids = symbol_ids(file_id, record.symbols)
    functions = [
        (s, i)
        for s, i in zip(record.symbols, ids, strict=True)
        if s.kind in (SymbolKind.FUNCTION, SymbolKind.METHOD)
    ]
    nodes: list[DataNode] = []
    edges: list[CodeEdge] = []
    seen: set[str] = set()  # node ids already made, over all the file's functions
    by_range = {(s.source_range.start_byte, s.source_range.end_byte): i for s, i in functions}
    for unit in _units(root, record.language, walker.unit_types):
        owner = by_range.get((unit.start_byte, unit.end_byte)) or _owner(unit, functions)
        events = sorted(walker.events(unit, data), key=lambda e: (e.pos, e.order))
        _run(events, data, file_id, owner, nodes, edges, seen)
    return nodes, edges


def record_flow(record: CodeRecord, data: bytes, root: Node | None = None) -> None:
    """Store the file's flow in its record (plain values a shard keeps), at extraction."""
    nodes, edges = data_flow(record, data, root)
    record.data = [
        DataValue(n.id, n.symbol_id, str(n.scope), n.type_hint, n.name, n.line) for n in nodes
    ]
    record.flows = [Flow(e.src, e.dst, e.line, e.flow_kind or "use") for e in edges]


def add_data_flow(graph: CodeGraph, record: CodeRecord) -> None:
    """Add the record's data nodes and flow edges to a graph that holds its file and symbols."""
    file_id = file_endpoint(record.language, record.path)
    for value in record.data:
        graph.add_data(
            DataNode(
                value.id,
                value.symbol_id,
                DataScope(value.scope),
                value.type_hint,
                file_id,
                value.name,
                value.line,
            )
        )
    for flow in record.flows:
        graph.add_edge(CodeEdge(flow.src, flow.dst, EdgeKind.FLOW, SAME_FILE, flow.line, flow.kind))


def _units(root: Node, lang: LangId, types: frozenset[str]) -> list[Node]:
    """The function nodes of the tree in source order, found by a query (a walk in Python
    over every node of the file cost more than the flow analysis itself)."""
    found = QueryCursor(_unit_query(lang, types)).captures(root).get("unit", [])
    return sorted(found, key=lambda n: (n.start_byte, -n.end_byte))


@cache
def _unit_query(lang: LangId, types: frozenset[str]) -> Query:
    from sitegen.code.grammars import get_language

    return Query(get_language(lang), "\n".join(f"({t}) @unit" for t in sorted(types)))


def _owner(unit: Node, functions: list) -> str | None:  # type: ignore[type-arg]
    """The innermost function symbol whose range holds the unit's start."""
    holding = [
        (s.source_range.end_byte - s.source_range.start_byte, i)
        for s, i in functions
        if s.source_range.start_byte <= unit.start_byte < s.source_range.end_byte
    ]
    return min(holding)[1] if holding else None


def _run(
    events: list[_Event],
    data: bytes,
    file_id: str,
    owner: str | None,
    nodes: list[DataNode],
    edges: list[CodeEdge],
    seen: set[str],
) -> None:
    """Replay the events: each binding shadows the last one of its name until its scope ends."""
    current: dict[str, str] = {}
    frames: list[dict[str, str | None]] = []
    for event in events:
        if event.kind == "push":
            frames.append({})
        elif event.kind == "pop" and frames:
            for name, old in frames.pop().items():
                if old is None:
                    current.pop(name, None)
                else:
                    current[name] = old
        elif event.node is not None:
            node_id = _add_node(event, file_id, owner, nodes, seen)
            flow = "assign" if event.kind == "def" else "use"
            for read in event.reads:
                source = current.get(_text(read, data))
                if source is not None:
                    edges.append(
                        CodeEdge(
                            source,
                            node_id,
                            EdgeKind.FLOW,
                            SAME_FILE,
                            read.start_point.row + 1,
                            flow,
                        )
                    )
            if event.kind == "def":
                if event.scoped and frames and event.name not in frames[-1]:
                    frames[-1][event.name] = current.get(event.name)
                current[event.name] = node_id


def _add_node(
    event: _Event, file_id: str, owner: str | None, nodes: list[DataNode], seen: set[str]
) -> str:
    assert event.node is not None
    line, col = event.node.start_point.row + 1, event.node.start_point.column + 1
    name = event.name if event.kind == "def" else "return"
    node_id = data_endpoint(owner or file_id, name, line, col)
    scope = event.scope if event.kind == "def" else DataScope.TEMPORARY
    if node_id not in seen:
        seen.add(node_id)
        nodes.append(DataNode(node_id, owner, scope, event.type_hint, file_id, name, line))
    return node_id


def _text(node: Node, data: bytes) -> str:
    return data[node.start_byte : node.end_byte].decode("utf-8", errors="replace")


def _identifiers(node: Node | None, skip: frozenset[str] = frozenset()) -> list[Node]:
    """Identifier nodes of a binding pattern, in order."""
    if node is None or node.type in skip:
        return []
    if node.type == "identifier":
        return [node]
    out = []
    for i, child in enumerate(node.children):
        if node.field_name_for_child(i) in ("type", "attribute"):
            continue
        out += _identifiers(child, skip)
    return out


def _scope_events(node: Node, order_pop: int = 9) -> list[_Event]:
    return [
        _Event(node.start_byte, "push", order=-1),
        _Event(node.end_byte, "pop", order=order_pop),
    ]


_Handler = Callable[[Node, bytes], list[_Event]]
_HANDLERS: dict[type, dict[str, _Handler]] = {}


def _handlers(walker: type) -> dict[str, _Handler]:
    """A walker's ``_on_<node type>`` handlers by node type, looked up once per class."""
    table = _HANDLERS.get(walker)
    if table is None:
        table = _HANDLERS[walker] = {
            name[4:]: getattr(walker, name) for name in dir(walker) if name.startswith("_on_")
        }
    return table


# ---------------------------------------------------------------- Python


class _Walker:
    """What the per-language walkers share: skip nested definitions, dispatch a node to its
    ``_on_<type>`` handler, open a scope where the language does, bind a target's names."""

    _nested: frozenset[str] = frozenset()
    _scopes: frozenset[str] = frozenset()

    @classmethod
    def events(cls, unit: Node, data: bytes) -> list[_Event]:
        """The events of one function: its parameters, its body's, and its tail value where
        the language has one."""
        out = cls._parameters(unit.child_by_field_name("parameters"), DataScope.PARAMETER, data)
        body = unit.child_by_field_name("body")
        if body is not None:
            out += cls._walk(body, data) + cls._tail(body)
        return out

    @classmethod
    def _parameters(cls, params: Node | None, scope: DataScope, data: bytes) -> list[_Event]:
        """The bindings of a parameter list, none when the function has no list."""
        return [] if params is None else cls._parameter_list(params, scope, data)

    @classmethod
    def _parameter_list(cls, params: Node, scope: DataScope, data: bytes) -> list[_Event]:
        """One binding per name each parameter binds, typed by the parameter's hint."""
        return [
            _parameter(params, name, scope, param.child_by_field_name("type"), data)
            for param in params.named_children
            for name in cls._parameter_names(param)
        ]

    @classmethod
    def _parameter_names(cls, param: Node) -> list[Node]:
        raise NotImplementedError

    @classmethod
    def _tail(cls, body: Node) -> list[_Event]:
        """The events of a function body's value: none, unless the language has one."""
        return []

    @classmethod
    def reads(cls, node: Node | None) -> list[Node]:
        raise NotImplementedError

    @classmethod
    def _names(cls, target: Node | None) -> list[Node]:
        raise NotImplementedError

    @classmethod
    def _bind_value(
        cls, node: Node, data: bytes, target_field: str, value_field: str
    ) -> list[_Event]:
        """``target = value`` (a type annotation optional): the value's own events, then the
        target's names bound to what the value reads."""
        value = node.child_by_field_name(value_field)
        inner = cls._walk(value, data) if value is not None else []
        return inner + cls._binds(
            node.child_by_field_name(target_field),
            cls.reads(value),
            node.end_byte,
            data,
            node.child_by_field_name("type"),
        )

    @classmethod
    def _walk(cls, node: Node, data: bytes) -> list[_Event]:
        """Events of ``node``'s subtree. Order does not matter (the caller sorts them by
        position), so one loop with a stack visits each node once, with no recursion."""
        handlers = _handlers(cls)
        out: list[_Event] = []
        stack = [node]
        while stack:
            current = stack.pop()
            kind = current.type
            if kind in cls._nested:
                continue
            handler = handlers.get(kind)
            if handler is not None:
                out += handler(current, data)
                continue
            if kind in cls._scopes:
                out += _scope_events(current)
            if current.child_count:
                stack += current.children
        return out

    @classmethod
    def _binds(
        cls, target: Node | None, reads: list[Node], at: int, data: bytes, hint: Node | None = None
    ) -> list[_Event]:
        return [
            _Event(
                at,
                "def",
                _text(n, data),
                n,
                DataScope.LOCAL,
                _text(hint, data) if hint is not None else None,
                reads,
                order=10,
            )
            for n in cls._names(target)
        ]


def _parameter(
    params: Node, name: Node, scope: DataScope, hint: Node | None, data: bytes
) -> _Event:
    """A parameter's binding, placed at its parameter list, with its type hint's text."""
    return _Event(
        params.start_byte,
        "def",
        _text(name, data),
        name,
        scope,
        _text(hint, data) if hint else None,
    )


class _Python(_Walker):
    unit_types = frozenset({"function_definition"})
    _nested = frozenset({"function_definition", "class_definition", "lambda"})
    _scopes = frozenset(
        {
            "list_comprehension",
            "set_comprehension",
            "dictionary_comprehension",
            "generator_expression",
        }
    )
    #: Assignment targets that bind no name: ``a.b = 1`` and ``a[0] = 1`` write into an object.
    _not_bindings = frozenset({"attribute", "subscript"})

    @classmethod
    def _parameter_names(cls, param: Node) -> list[Node]:
        """The name a parameter binds (``a``, ``b=1``, ``*args``, ``c: int``), if any."""
        name = (
            param.child_by_field_name("name")
            if param.type.endswith("default_parameter")
            else next(iter(_identifiers(param)), None)
        )
        return [name] if name is not None and name.type == "identifier" else []

    @classmethod
    def _names(cls, target: Node | None) -> list[Node]:
        return list(_identifiers(target, cls._not_bindings))

    @classmethod
    def _on_assignment(cls, node: Node, data: bytes) -> list[_Event]:
        return cls._bind_value(node, data, "left", "right")

    @classmethod
    def _on_augmented_assignment(cls, node: Node, data: bytes) -> list[_Event]:
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        reads = cls.reads(left) + cls.reads(right)
        return cls._binds(left, reads, node.end_byte, data)

    @classmethod
    def _on_for_statement(cls, node: Node, data: bytes) -> list[_Event]:
        right = node.child_by_field_name("right")
        out = cls._binds(
            node.child_by_field_name("left"),
            cls.reads(right),
            right.end_byte if right else node.start_byte,
            data,
        )
        for child in (node.child_by_field_name("body"), node.child_by_field_name("alternative")):
            out += cls._walk(child, data) if child is not None else []
        return out

    @classmethod
    def _on_for_in_clause(cls, node: Node, data: bytes) -> list[_Event]:
        right = node.child_by_field_name("right")
        return cls._binds(node.child_by_field_name("left"), cls.reads(right), node.end_byte, data)

    @classmethod
    def _on_as_pattern(cls, node: Node, data: bytes) -> list[_Event]:
        alias = node.child_by_field_name("alias")
        value = node.named_children[0] if node.named_children else None
        return cls._binds(alias, cls.reads(value), node.end_byte, data)

    @classmethod
    def _on_named_expression(cls, node: Node, data: bytes) -> list[_Event]:
        events = cls._binds(
            node.child_by_field_name("name"),
            cls.reads(node.child_by_field_name("value")),
            node.end_byte,
            data,
        )
        for event in events:
            event.scoped = False  # binds in the function, even inside a comprehension
        return events

    @classmethod
    def _on_return_statement(cls, node: Node, data: bytes) -> list[_Event]:
        return [_Event(node.start_byte, "return", node=node, reads=cls.reads(node))]

    @classmethod
    def reads(cls, node: Node | None) -> list[Node]:
        """Identifiers the expression reads (not attribute names, keywords, inner scopes)."""
        if node is None or node.type in cls._nested:
            return []
        if node.type == "identifier":
            return [node]
        # Only these two node types have a child that names rather than reads.
        skip = _PYTHON_NOT_READ.get(node.type)
        out = []
        for i, child in enumerate(node.children):
            if child.child_count == 0 and child.type != "identifier":
                continue  # punctuation, keywords, literals: most leaves read nothing
            if skip is not None and node.field_name_for_child(i) == skip:
                continue
            out += cls.reads(child)
        return out


#: ``obj.attr`` reads obj, not attr; ``f(name=v)`` reads v, not name.
_PYTHON_NOT_READ = {"attribute": "attribute", "keyword_argument": "name"}


# ---------------------------------------------------------------- Rust


class _Rust(_Walker):
    unit_types = frozenset({"function_item"})
    _scopes = frozenset({"block"})
    _nested = frozenset(
        {"function_item", "impl_item", "mod_item", "trait_item", "struct_item", "enum_item"}
    )
    _no_reads = frozenset(
        {
            "scoped_identifier",
            "type_arguments",
            "field_identifier",
            "type_identifier",
            "primitive_type",
        }
    )
    #: Pattern parts that name a type or a path (``Some(x)``, ``Point { x, y }``), not a binding.
    _pattern_skip = frozenset({"scoped_identifier", "type_identifier"})

    @classmethod
    def _parameter_list(cls, params: Node, scope: DataScope, data: bytes) -> list[_Event]:
        """``self`` (written ``&mut self`` or ``self: Box<Self>``, always bound as ``self``),
        then the other parameters' names."""
        selves = [
            _Event(params.start_byte, "def", "self", param, scope)
            for param in params.named_children
            if param.type == "self_parameter"
        ]
        return selves + super()._parameter_list(params, scope, data)

    @classmethod
    def _parameter_names(cls, param: Node) -> list[Node]:
        """Every name a parameter's pattern binds: ``(a, b): (u8, u8)`` binds two."""
        if param.type == "self_parameter":
            return []
        return cls._pattern_names(param.child_by_field_name("pattern") or param)

    @classmethod
    def _pattern_names(cls, pattern: Node | None) -> list[Node]:
        return _identifiers(pattern, cls._pattern_skip)

    @classmethod
    def _names(cls, target: Node | None) -> list[Node]:
        return list(cls._pattern_names(target))

    @classmethod
    def _on_let_declaration(cls, node: Node, data: bytes) -> list[_Event]:
        return cls._bind_value(node, data, "pattern", "value")

    @classmethod
    def _on_let_condition(cls, node: Node, data: bytes) -> list[_Event]:
        value = node.child_by_field_name("value")
        return cls._binds(
            node.child_by_field_name("pattern"), cls.reads(value), node.end_byte, data
        )

    @classmethod
    def _on_assignment_expression(cls, node: Node, data: bytes) -> list[_Event]:
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        inner = cls._walk(right, data) if right is not None else []
        target = left if left is not None and left.type == "identifier" else None
        extra = cls.reads(left) if node.type == "compound_assignment_expr" else []
        events = cls._binds(target, extra + cls.reads(right), node.end_byte, data)
        for event in events:
            event.scoped = False  # `x = …` updates the x in scope; only `let` shadows
        return inner + events

    _on_compound_assignment_expr = _on_assignment_expression

    @classmethod
    def _on_for_expression(cls, node: Node, data: bytes) -> list[_Event]:
        value, body = node.child_by_field_name("value"), node.child_by_field_name("body")
        out = _scope_events(node)
        out += cls._binds(
            node.child_by_field_name("pattern"),
            cls.reads(value),
            value.end_byte if value else node.start_byte,
            data,
        )
        return out + (cls._walk(body, data) if body is not None else [])

    @classmethod
    def _on_closure_expression(cls, node: Node, data: bytes) -> list[_Event]:
        body = node.child_by_field_name("body")
        out = _scope_events(node)
        out += cls._parameters(node.child_by_field_name("parameters"), DataScope.CLOSURE, data)
        return out + (cls._walk(body, data) if body is not None else [])

    @classmethod
    def _on_return_expression(cls, node: Node, data: bytes) -> list[_Event]:
        return [_Event(node.start_byte, "return", node=node, reads=cls.reads(node))]

    @classmethod
    def _tail(cls, body: Node) -> list[_Event]:
        """The block's final expression (no semicolon) is the function's value."""
        last = body.named_children[-1] if body.named_children else None
        if (
            last is None
            or last.type.endswith(("_statement", "_declaration", "_item"))
            or last.type in ("line_comment", "block_comment", "return_expression")
        ):
            return []
        return [_Event(last.start_byte, "return", node=last, reads=cls.reads(last), order=5)]

    @classmethod
    def reads(cls, node: Node | None) -> list[Node]:
        if node is None or node.type in cls._nested or node.type in cls._no_reads:
            return []
        if node.type == "identifier":
            return [node]
        out = []
        for i, child in enumerate(node.children):
            if child.child_count == 0 and child.type != "identifier":
                continue
            if node.field_name_for_child(i) in ("macro", "type", "name", "field"):
                continue
            out += cls.reads(child)
        return out


_WALKERS: dict[LangId, type[_Python | _Rust]] = {LangId.PYTHON: _Python, LangId.RUST: _Rust}
