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

from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from tree_sitter import Node, Query, QueryCursor

from sitegen.base.languages import LangId
from sitegen.records.code import CodeRecord, DataValue, Flow, SymbolKind
from sitegen.records.code_graph import (
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

FLOW_LANGUAGES = (LangId.PYTHON, LangId.RUST)
#: The CPU seconds a second parse may take (extraction bounds the first the same way).
_PARSE_SECONDS = 10.0


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
    record: CodeRecord, data: bytes, root: Node | None = None, stops: list[Node] | None = None
) -> tuple[list[DataNode], list[CodeEdge]]:
    """The data nodes and flow edges of every function in the file (empty for most languages).
    ``root``: the file's parse tree when the caller has it (extraction does), else it is parsed;
    ``stops``: the nodes of ``flow_pattern`` in it, when the caller's query found them."""
    file_id = file_endpoint(record.language, record.path)
    values, flows = _flow(record, data, root, stops)
    return (
        [
            DataNode(i, owner, scope, hint, file_id, name, line)
            for i, owner, scope, hint, name, line in values
        ],
        [
            CodeEdge(src, dst, EdgeKind.FLOW, SAME_FILE, line, kind)
            for src, dst, line, kind in flows
        ],
    )


def record_flow(
    record: CodeRecord, data: bytes, root: Node | None = None, stops: list[Node] | None = None
) -> None:
    """Store the file's flow in its record (plain values a shard keeps), at extraction."""
    values, flows = _flow(record, data, root, stops)
    record.data = [DataValue(i, o, str(scope), h, n, line) for i, o, scope, h, n, line in values]
    record.flows = [Flow(*flow) for flow in flows]


#: A value as ``_run`` makes it: id, owner, scope, type hint, name, line (a ``DataNode`` less
#: its file); and a flow: source, destination, line, kind. Tuples, since each caller builds
#: its own record of them (``DataNode`` and ``CodeEdge``, or ``DataValue`` and ``Flow``).
_Value = tuple[str, "str | None", DataScope, "str | None", str, int]
_FlowRow = tuple[str, str, int, str]


def _flow(
    record: CodeRecord, data: bytes, root: Node | None, stops: list[Node] | None
) -> tuple[list[_Value], list[_FlowRow]]:
    walker = _WALKERS.get(record.language)
    if walker is None:
        return [], []
    if root is None:
        from sitegen.code.grammars import get_parser, parse_within

        tree = parse_within(get_parser(record.language), data, _PARSE_SECONDS)
        if tree is None:
            return [], []
        root = tree.root_node
    file_id = file_endpoint(record.language, record.path)
    ids = symbol_ids(file_id, record.symbols)
    functions = [
        (s, i)
        for s, i in zip(record.symbols, ids, strict=True)
        if s.kind in (SymbolKind.FUNCTION, SymbolKind.METHOD)
    ]
    values: list[_Value] = []
    flows: list[_FlowRow] = []
    seen: set[str] = set()  # value ids already made, over all the file's functions
    by_range = {(s.source_range.start_byte, s.source_range.end_byte): i for s, i in functions}
    found = walker(record.language, root, stops)
    for unit in found.units:
        owner = by_range.get((unit.start_byte, unit.end_byte)) or _owner(unit, functions)
        events = sorted(found.events(unit, data), key=lambda e: (e.pos, e.order))
        _run(events, data, owner or file_id, owner, values, flows, seen)
    return values, flows


def add_data_flow(graph: CodeGraph, record: CodeRecord) -> None:
    """Add the record's data nodes and flow edges to a graph that holds its file and symbols."""
    file_id = file_endpoint(record.language, record.path)
    scopes = _SCOPE_NAMES
    graph.add_flows(
        [
            DataNode(
                value.id,
                value.symbol_id,
                scopes.get(value.scope) or DataScope(value.scope),
                value.type_hint,
                file_id,
                value.name,
                value.line,
            )
            for value in record.data
        ],
        [
            CodeEdge(flow.src, flow.dst, EdgeKind.FLOW, SAME_FILE, flow.line, flow.kind)
            for flow in record.flows
        ],
    )


#: DataScope by value: an enum call per value costs more than the rest of building its node.
_SCOPE_NAMES = {str(scope): scope for scope in DataScope}


#: The capture of ``flow_pattern``, which extraction hands to ``data_flow`` as ``stops``.
FLOW_CAPTURE = "flow.stop"


def flow_pattern(lang: LangId) -> str:
    """A query pattern for every node the flow walk of ``lang`` stops at: its handled, scope,
    nested and function nodes (the types the grammar has); empty for a language without flow.
    Extraction appends it to its own query, so one pass over the tree finds both."""
    walker = _WALKERS.get(lang)
    if walker is None:
        return ""
    from sitegen.code.grammars import get_language

    language = get_language(lang)
    types = set(_handlers(walker)) | walker._scopes | walker._nested | walker.unit_types
    known = sorted(t for t in types if language.id_for_node_kind(t, True) is not None)
    return "[" + " ".join(f"({t})" for t in known) + "] @" + FLOW_CAPTURE


@cache
def _stop_query(lang: LangId) -> Query:
    from sitegen.code.grammars import get_language

    return Query(get_language(lang), flow_pattern(lang))


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
    prefix: str,
    owner: str | None,
    values: list[_Value],
    flows: list[_FlowRow],
    seen: set[str],
) -> None:
    """Replay the events: each binding shadows the last one of its name until its scope ends.
    Value ids start with ``prefix``, the function's id (the file's for a unit of no symbol)."""
    current: dict[str, str] = {}
    frames: list[dict[str, str | None]] = []
    for event in events:
        kind = event.kind
        if kind == "push":
            frames.append({})
        elif kind == "pop":
            for name, old in frames.pop().items() if frames else ():
                if old is None:
                    current.pop(name, None)
                else:
                    current[name] = old
        elif event.node is not None:
            point = event.node.start_point
            name = event.name if kind == "def" else "return"
            value_id = data_endpoint(prefix, name, point.row + 1, point.column + 1)
            if value_id not in seen:
                seen.add(value_id)
                scope = event.scope if kind == "def" else DataScope.TEMPORARY
                values.append((value_id, owner, scope, event.type_hint, name, point.row + 1))
            flow = "assign" if kind == "def" else "use"
            for read in event.reads:
                source = current.get(_text(read, data))
                if source is not None:
                    flows.append((source, value_id, read.start_point.row + 1, flow))
            if kind == "def":
                if event.scoped and frames and event.name not in frames[-1]:
                    frames[-1][event.name] = current.get(event.name)
                current[event.name] = value_id


def _text(node: Node, data: bytes) -> str:
    return data[node.start_byte : node.end_byte].decode("utf-8", errors="replace")


def _identifiers(node: Node | None, skip: frozenset[str] = frozenset()) -> list[Node]:
    """Identifier nodes of a binding pattern, in order: not inside a node of a ``skip`` type
    nor inside a child in a ``type`` or ``attribute`` field (``a: int``, ``Some(x)``)."""
    if node is None or node.type in skip:
        return []
    if node.type == "identifier":
        return [node]
    return _scan(node, skip, _BINDING_SKIP_FIELDS)


_BINDING_SKIP_FIELDS = frozenset({"type", "attribute"})


def _scan(
    root: Node, stop: frozenset[str], skip_fields: frozenset[str] | dict[str, str]
) -> list[Node]:
    """The identifiers below ``root``, in order, found with a tree cursor (``Node.children``
    makes a list of new nodes at every level: four times the cost). Neither a node of a
    ``stop`` type is entered nor a child in a field ``skip_fields`` names: any field of the
    set, or, as a dict, the one field it maps the parent's type to."""
    out: list[Node] = []
    cursor = root.walk()
    if not cursor.goto_first_child():
        return out
    by_type = isinstance(skip_fields, dict)
    down, along, up = cursor.goto_first_child, cursor.goto_next_sibling, cursor.goto_parent
    parents = [root.type]  # the type of each node the cursor is inside
    while True:
        node = cursor.node
        assert node is not None
        kind = node.type
        if kind not in stop:
            if by_type:  # the one field the parent's type names, if it has one
                skip = skip_fields.get(parents[-1])  # type: ignore[union-attr]
                skipped = skip is not None and cursor.field_name == skip
            else:
                skipped = cursor.field_name in skip_fields
            if not skipped:
                if kind == "identifier":
                    out.append(node)
                elif down():
                    parents.append(kind)
                    continue
        while not along():
            up()
            parents.pop()
            if not parents:
                return out


def _scope_events(node: Node, order_pop: int = 9) -> list[_Event]:
    return [
        _Event(node.start_byte, "push", order=-1),
        _Event(node.end_byte, "pop", order=order_pop),
    ]


_Handler = Callable[[Any, Node, bytes], list[_Event]]
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

    #: Function nodes: each is a unit with its own values (nested ones too).
    unit_types: frozenset[str] = frozenset()
    _nested: frozenset[str] = frozenset()
    _scopes: frozenset[str] = frozenset()

    def __init__(self, lang: LangId, root: Node, stops: list[Node] | None) -> None:
        """Index the nodes the walk stops at (``flow_pattern``'s, found by the caller or here
        by a query) and the units among them: a Python loop over every node of the function
        bodies cost more than the whole analysis."""
        if stops is None:
            stops = QueryCursor(_stop_query(lang)).captures(root).get(FLOW_CAPTURE, [])
        found = sorted(stops, key=lambda n: (n.start_byte, -n.end_byte))
        self._nodes = found
        self._starts = [n.start_byte for n in found]
        self._ends = [n.end_byte for n in found]
        self._kinds = [n.type for n in found]
        self.units = [
            n for n, kind in zip(found, self._kinds, strict=True) if kind in self.unit_types
        ]

    def events(self, unit: Node, data: bytes) -> list[_Event]:
        """The events of one function: its parameters, its body's, and its tail value where
        the language has one."""
        out = self._parameters(unit.child_by_field_name("parameters"), DataScope.PARAMETER, data)
        body = unit.child_by_field_name("body")
        if body is not None:
            out += self._walk(body, data) + self._tail(body)
        return out

    def _parameters(self, params: Node | None, scope: DataScope, data: bytes) -> list[_Event]:
        """The bindings of a parameter list, none when the function has no list."""
        return [] if params is None else self._parameter_list(params, scope, data)

    def _parameter_list(self, params: Node, scope: DataScope, data: bytes) -> list[_Event]:
        """One binding per name each parameter binds, typed by the parameter's hint."""
        return [
            _parameter(params, name, scope, param.child_by_field_name("type"), data)
            for param in params.named_children
            for name in self._parameter_names(param)
        ]

    def _parameter_names(self, param: Node) -> list[Node]:
        raise NotImplementedError

    def _tail(self, body: Node) -> list[_Event]:
        """The events of a function body's value: none, unless the language has one."""
        return []

    def reads(self, node: Node | None) -> list[Node]:
        raise NotImplementedError

    def _names(self, target: Node | None) -> list[Node]:
        raise NotImplementedError

    def _bind_value(
        self, node: Node, data: bytes, target_field: str, value_field: str
    ) -> list[_Event]:
        """``target = value`` (a type annotation optional): the value's own events, then the
        target's names bound to what the value reads."""
        value = node.child_by_field_name(value_field)
        inner = self._walk(value, data) if value is not None else []
        return inner + self._binds(
            node.child_by_field_name(target_field),
            self.reads(value),
            node.end_byte,
            data,
            node.child_by_field_name("type"),
        )

    def _walk(self, node: Node, data: bytes) -> list[_Event]:
        """Events of ``node``'s subtree (the caller sorts them by position): the nodes the
        query found in it, in order; a handled or nested node's subtree is its handler's."""
        handlers = _handlers(type(self))
        starts, ends, kinds = self._starts, self._ends, self._kinds
        start, end = node.start_byte, node.end_byte
        out: list[_Event] = []
        skip_to = start  # a node starting before this lies inside one already dealt with
        for i in range(bisect_left(starts, start), len(starts)):
            at = starts[i]
            if at > end or (at == end and end > start):
                break
            if ends[i] > end or at < skip_to:
                continue  # an ancestor of ``node``, or inside a handled node
            kind = kinds[i]
            if kind in self._nested:
                skip_to = ends[i]
            elif kind in handlers:
                skip_to = ends[i]
                out += handlers[kind](self, self._nodes[i], data)
            elif kind in self._scopes:
                out += _scope_events(self._nodes[i])
        return out

    def _binds(
        self, target: Node | None, reads: list[Node], at: int, data: bytes, hint: Node | None = None
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
            for n in self._names(target)
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

    def _parameter_names(self, param: Node) -> list[Node]:
        """The name a parameter binds (``a``, ``b=1``, ``*args``, ``c: int``), if any."""
        name = (
            param.child_by_field_name("name")
            if param.type.endswith("default_parameter")
            else next(iter(_identifiers(param)), None)
        )
        return [name] if name is not None and name.type == "identifier" else []

    def _names(self, target: Node | None) -> list[Node]:
        return list(_identifiers(target, self._not_bindings))

    def _on_assignment(self, node: Node, data: bytes) -> list[_Event]:
        return self._bind_value(node, data, "left", "right")

    def _on_augmented_assignment(self, node: Node, data: bytes) -> list[_Event]:
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        reads = self.reads(left) + self.reads(right)
        return self._binds(left, reads, node.end_byte, data)

    def _on_for_statement(self, node: Node, data: bytes) -> list[_Event]:
        right = node.child_by_field_name("right")
        out = self._binds(
            node.child_by_field_name("left"),
            self.reads(right),
            right.end_byte if right else node.start_byte,
            data,
        )
        for child in (node.child_by_field_name("body"), node.child_by_field_name("alternative")):
            out += self._walk(child, data) if child is not None else []
        return out

    def _on_for_in_clause(self, node: Node, data: bytes) -> list[_Event]:
        right = node.child_by_field_name("right")
        return self._binds(node.child_by_field_name("left"), self.reads(right), node.end_byte, data)

    def _on_as_pattern(self, node: Node, data: bytes) -> list[_Event]:
        alias = node.child_by_field_name("alias")
        value = node.named_children[0] if node.named_children else None
        return self._binds(alias, self.reads(value), node.end_byte, data)

    def _on_named_expression(self, node: Node, data: bytes) -> list[_Event]:
        events = self._binds(
            node.child_by_field_name("name"),
            self.reads(node.child_by_field_name("value")),
            node.end_byte,
            data,
        )
        for event in events:
            event.scoped = False  # binds in the function, even inside a comprehension
        return events

    def _on_return_statement(self, node: Node, data: bytes) -> list[_Event]:
        return [_Event(node.start_byte, "return", node=node, reads=self.reads(node))]

    def reads(self, node: Node | None) -> list[Node]:
        """Identifiers the expression reads (not attribute names, keywords, inner scopes)."""
        if node is None or node.type in self._nested:
            return []
        if node.type == "identifier":
            return [node]
        return _scan(node, self._nested, _PYTHON_NOT_READ)


#: Only these two node types have a child that names rather than reads: ``obj.attr`` reads
#: obj, not attr; ``f(name=v)`` reads v, not name.
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
    _not_read = _nested | _no_reads
    #: Pattern parts that name a type or a path (``Some(x)``, ``Point { x, y }``), not a binding.
    _pattern_skip = frozenset({"scoped_identifier", "type_identifier"})

    def _parameter_list(self, params: Node, scope: DataScope, data: bytes) -> list[_Event]:
        """``self`` (written ``&mut self`` or ``self: Box<Self>``, always bound as ``self``),
        then the other parameters' names."""
        selves = [
            _Event(params.start_byte, "def", "self", param, scope)
            for param in params.named_children
            if param.type == "self_parameter"
        ]
        return selves + super()._parameter_list(params, scope, data)

    def _parameter_names(self, param: Node) -> list[Node]:
        """Every name a parameter's pattern binds: ``(a, b): (u8, u8)`` binds two."""
        if param.type == "self_parameter":
            return []
        return self._pattern_names(param.child_by_field_name("pattern") or param)

    def _pattern_names(self, pattern: Node | None) -> list[Node]:
        return _identifiers(pattern, self._pattern_skip)

    def _names(self, target: Node | None) -> list[Node]:
        return list(self._pattern_names(target))

    def _on_let_declaration(self, node: Node, data: bytes) -> list[_Event]:
        return self._bind_value(node, data, "pattern", "value")

    def _on_let_condition(self, node: Node, data: bytes) -> list[_Event]:
        value = node.child_by_field_name("value")
        return self._binds(
            node.child_by_field_name("pattern"), self.reads(value), node.end_byte, data
        )

    def _on_assignment_expression(self, node: Node, data: bytes) -> list[_Event]:
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        inner = self._walk(right, data) if right is not None else []
        target = left if left is not None and left.type == "identifier" else None
        extra = self.reads(left) if node.type == "compound_assignment_expr" else []
        events = self._binds(target, extra + self.reads(right), node.end_byte, data)
        for event in events:
            event.scoped = False  # `x = …` updates the x in scope; only `let` shadows
        return inner + events

    _on_compound_assignment_expr = _on_assignment_expression

    def _on_for_expression(self, node: Node, data: bytes) -> list[_Event]:
        value, body = node.child_by_field_name("value"), node.child_by_field_name("body")
        out = _scope_events(node)
        out += self._binds(
            node.child_by_field_name("pattern"),
            self.reads(value),
            value.end_byte if value else node.start_byte,
            data,
        )
        return out + (self._walk(body, data) if body is not None else [])

    def _on_closure_expression(self, node: Node, data: bytes) -> list[_Event]:
        body = node.child_by_field_name("body")
        out = _scope_events(node)
        out += self._parameters(node.child_by_field_name("parameters"), DataScope.CLOSURE, data)
        return out + (self._walk(body, data) if body is not None else [])

    def _on_return_expression(self, node: Node, data: bytes) -> list[_Event]:
        return [_Event(node.start_byte, "return", node=node, reads=self.reads(node))]

    def _tail(self, body: Node) -> list[_Event]:
        """The block's final expression (no semicolon) is the function's value."""
        last = body.named_children[-1] if body.named_children else None
        if (
            last is None
            or last.type.endswith(("_statement", "_declaration", "_item"))
            or last.type in ("line_comment", "block_comment", "return_expression")
        ):
            return []
        return [_Event(last.start_byte, "return", node=last, reads=self.reads(last), order=5)]

    def reads(self, node: Node | None) -> list[Node]:
        """Identifiers the expression reads: not paths, types, field or macro names."""
        if node is None or node.type in self._not_read:
            return []
        if node.type == "identifier":
            return [node]
        return _scan(node, self._not_read, _RUST_NOT_READ)


#: Children in these fields name (a macro, a type, a field) rather than read.
_RUST_NOT_READ = frozenset({"macro", "type", "name", "field"})

_WALKERS: dict[LangId, type[_Python | _Rust]] = {LangId.PYTHON: _Python, LangId.RUST: _Rust}
