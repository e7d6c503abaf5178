"""Source extraction: a file's bytes to a CodeRecord (content/reference/code-graph.md), one query.

Pure: bytes in, record out. Never reads files and never resolves a name against another file.

The per-language knowledge lives in ``queries/<lang>.scm``; this driver reads capture names:

- ``@definition.<kind>`` (or ``@declaration.<kind>``, a prototype that yields to a
  definition of the same qualified name) with ``@name`` and, for out-of-line members
  (C++ ``Foo::bar``, Rust ``impl Foo``, Go receivers), ``@owner``. A function whose parent
  symbol is class-like becomes a method. When several patterns capture the same node, the
  pattern written later in the query wins, so specific patterns follow generic ones.
- ``@import.<form>`` on the statement, with ``@import.source`` and ``@import.alias``, or a
  per-language builder from ``sitegen.code.dialects`` for structured forms.
- ``@reference.<call|type|base>`` on the name as written (``@reference.receiver`` is
  prefixed with a dot); ``@owner`` in a reference match makes that type the enclosing symbol.
- ``@comment`` (comments, docstrings), ``@metacall.function``, ``@metacall.tag`` +
  ``@metacall.paths``. Captures starting with ``_`` only serve predicates.
"""

from __future__ import annotations

import bisect
import hashlib
import re
from dataclasses import dataclass, field, replace
from functools import cache
from typing import NamedTuple

from tree_sitter import Node, QueryCursor

from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.base.languages import LangId
from sitegen.code.dataflow import FLOW_CAPTURE, record_flow
from sitegen.code.dialects import DIALECTS, Captures, DefSite, Dialect, ecmascript_default_export
from sitegen.code.grammars import get_parser, load_query, parse_within
from sitegen.code.source import CodeSource, line_of, node_range
from sitegen.records.code import (
    CodeRecord,
    CommentLink,
    Import,
    MetacallCall,
    MetacallLoad,
    Reference,
    Symbol,
    SymbolKind,
)

#: Kinds that own methods: a function defined directly inside one is a method.
CLASS_LIKE = frozenset(
    {
        SymbolKind.CLASS,
        SymbolKind.OBJECT,
        SymbolKind.INTERFACE,
        SymbolKind.TRAIT,
        SymbolKind.STRUCT,
        SymbolKind.ENUM,
    }
)

#: A reference is kept only when it is a (dotted) name, not an arbitrary expression.
_NAME = re.compile(
    rb"[A-Za-z_$\x80-\xff][\w$\x80-\xff]*[?!]?"
    rb"(?:(?:\.|::|->)[A-Za-z_$~\x80-\xff][\w$\x80-\xff]*[?!]?)*"
)
_WHITESPACE = re.compile(rb"\s+")
#: Markdown links and bare URLs in comments; a trailing sentence mark is not part of a URL.
#: Not after a name, a closing bracket or a dot: ``MyGeneric[Any](x=1)`` and
#: ``class Base[T](BaseModel):`` are code that only looks like a link (content/guides/linking.md).
_MD_LINK = re.compile(
    rb"(?<![\w\])\].])"
    rb"\[([^\]\n]*)\]\(\s*<?([^()\s<>]+)>?(?:\s+\"[^\"\n]*\")?\s*\)"
)
_ANGLE_URL = re.compile(rb"<(https?://[^>\s]+)>")
_BARE_URL = re.compile(rb"https?://[^\s<>\"'`\]\[(){}]+")
_URL_TAIL = b".,;:!?"
#: MkDocs-autorefs cross-references in docstrings: ``[Model][pkg.Model]``, ``[pkg.Model][]``
#: (content/syntax/autorefs.md); their href is ``autoref:`` and the dotted name.
_DOTTED = rb"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+"
_AUTOREF = re.compile(rb"(?<![\w\])\].])\[([^\[\]\n]+)\]\[(" + _DOTTED + rb")\]")
_AUTOREF_SHORT = re.compile(rb"(?<![\w\])\].])\[`?(" + _DOTTED + rb")`?\]\[\]")
_AUTOREF_PATTERNS = (_AUTOREF, _AUTOREF_SHORT)
#: (pattern, href group, label group or None for the URL itself), in priority order.
_LINK_PATTERNS = (
    (_MD_LINK, 2, 1),
    (_AUTOREF, 2, 1),
    (_AUTOREF_SHORT, 1, 1),
    (_ANGLE_URL, 1, 1),
    (_BARE_URL, 0, None),
)
#: SymbolKind by name without an enum call per definition.
_KINDS = {str(kind): kind for kind in SymbolKind}
#: When one node is captured as several kinds of reference, the highest rank is kept.
#: A ``field`` use (Go ``c.items`` through a typed variable) is found outside the query.
_KIND_RANK = {"field": -1, "type": 0, "call": 1, "base": 2}


@dataclass
class _Def:
    node: Node
    name: Node
    kind: SymbolKind
    weak: bool
    owner: str | None
    pattern: int


class _Ref(NamedTuple):
    """A captured reference; sorts by position, the higher rank first on the same node."""

    start: int
    minus_end: int
    minus_rank: int
    kind: str
    node: Node
    receiver: Node | None
    owner: Node | None


@dataclass
class _Matches:
    """Query matches sorted into what each becomes."""

    defs: dict[tuple[int, int], _Def] = field(default_factory=dict)
    imports: list[tuple[str, Node, Captures, int]] = field(default_factory=list)
    references: list[_Ref] = field(default_factory=list)
    comments: list[Node] = field(default_factory=list)
    metacalls: list[Node] = field(default_factory=list)
    loads: list[tuple[Node, Node]] = field(default_factory=list)
    #: The nodes the def-use flow walk stops at (``dataflow.flow_pattern``).
    flow: list[Node] = field(default_factory=list)


#: CPU seconds tree-sitter may spend reading one source file (``parse_within``): real files
#: take a fraction of a second a megabyte; a file written to make its error recovery slow is
#: left out with one warning instead of holding the build for minutes (issue 27).
MAX_PARSE_SECONDS = 10.0


def extract_source(path: str, lang: LangId, data: bytes) -> CodeRecord:
    """Everything one source file declares, imports and references, with positions."""
    tree = parse_within(get_parser(lang), data, MAX_PARSE_SECONDS)
    if tree is None:
        return _unread(path, lang, data)
    src = CodeSource(path, data)
    found = _sort_matches(QueryCursor(load_query(lang)).matches(tree.root_node), src)
    symbols = _build_symbols(list(found.defs.values()), src, DIALECTS[lang])
    scopes = _Scopes(symbols)
    renames = _typed_selectors(lang, tree.root_node, src, found)
    loads = _metacall_loads(found.loads, src)
    record = CodeRecord(
        path=path,
        language=lang,
        content_hash=hashlib.sha256(data).hexdigest(),
        symbols=symbols,
        imports=sorted(
            _imports(found.imports, src, DIALECTS[lang]) + _load_imports(loads),
            key=lambda imp: imp.line,
        ),
        references=_references(found.references, symbols, scopes, src, renames),
        metacalls=[
            MetacallCall(src.string_value(n), line_of(n), scopes.innermost(n.start_byte))
            for n in _distinct(found.metacalls)
        ],
        metacall_loads=loads,
        links=[link for node in _distinct(found.comments) for link in _comment_links(node, data)],
        has_error=tree.root_node.has_error,
        diagnostics=src.diagnostics,
    )
    record_flow(record, data, tree.root_node, found.flow)
    if lang in (LangId.JAVASCRIPT, LangId.TYPESCRIPT, LangId.TSX):
        record.default_export = ecmascript_default_export(tree.root_node, src, symbols)
    return record


def _unread(path: str, lang: LangId, data: bytes) -> CodeRecord:
    """A file tree-sitter did not read in time: no symbols, imports or links, one warning."""
    said = Diagnostic(
        path,
        1,
        1,
        Level.WARNING,
        f"tree-sitter did not read this file in {MAX_PARSE_SECONDS:g} s of CPU; its symbols, "
        "imports and links are left out",
        "code-parse",
    )
    digest = hashlib.sha256(data).hexdigest()
    return CodeRecord(path, lang, digest, has_error=True, diagnostics=[said])


def _distinct(nodes: list[Node]) -> list[Node]:
    """Nodes in file order, each once (two patterns may capture the same comment)."""
    return list({(n.start_byte, n.end_byte): n for n in nodes}.values())


def _sort_matches(matches: list[tuple[int, Captures]], src: CodeSource) -> _Matches:
    found = _Matches()
    for pattern, caps in matches:
        flow = caps.get(FLOW_CAPTURE)
        if flow is not None:  # two matches in five: the flow pattern's, one node each
            found.flow += flow
            continue
        for capture, nodes in caps.items():
            head, tail = _role(capture)
            if head == "reference" and tail != "receiver":  # most matches: test it first
                _add_references(found, tail, nodes, caps)
            elif head in ("definition", "declaration") and "name" in caps:
                _add_def(
                    found,
                    pattern,
                    nodes[0],
                    caps,
                    _KINDS.get(tail) or SymbolKind(tail),
                    head == "declaration",
                    src,
                )
            elif head == "import" and tail not in ("source", "alias"):
                found.imports.append((tail, nodes[0], caps, pattern))
            elif capture == "comment":
                found.comments.extend(nodes)
            elif capture == "metacall.function":
                found.metacalls.extend(nodes)
            elif capture == "metacall.paths" and "metacall.tag" in caps:
                found.loads.append((caps["metacall.tag"][0], nodes[0]))
    return found


def _add_references(found: _Matches, kind: str, nodes: list[Node], caps: Captures) -> None:
    receiver = owner = None
    if len(caps) > 1:
        receiver = caps.get("reference.receiver", [None])[0]
        owner = caps.get("owner", [None])[0]
    rank = -_KIND_RANK[kind]
    for n in nodes:
        found.references.append(_Ref(n.start_byte, -n.end_byte, rank, kind, n, receiver, owner))


@cache
def _role(capture: str) -> tuple[str, str]:
    """``definition.function`` -> ("definition", "function")."""
    head, _, tail = capture.partition(".")
    return head, tail


def _add_def(
    found: _Matches,
    pattern: int,
    node: Node,
    caps: Captures,
    kind: SymbolKind,
    weak: bool,
    src: CodeSource,
) -> None:
    key = (node.start_byte, node.end_byte)
    previous = found.defs.get(key)
    if previous is not None and previous.pattern > pattern:
        return
    owner = caps.get("owner")
    found.defs[key] = _Def(
        node,
        caps["name"][0],
        kind,
        weak,
        _owner_name(src.text(owner[0])) if owner else None,
        pattern,
    )


def _owner_name(text: str) -> str:
    """``ns::Foo<T>`` / ``*Foo`` / ``Foo[T]`` -> ``Foo``: the type a member belongs to."""
    depth, kept = 0, []
    for char in text:
        depth += char in "<[("
        if depth == 0 and char not in "*& \t\n":
            kept.append(char)
        depth -= char in ">])"
    return "".join(kept).rsplit("::", 1)[-1].rsplit(".", 1)[-1]


# ---------------------------------------------------------------- symbols


def _build_symbols(defs: list[_Def], src: CodeSource, dialect: Dialect) -> list[Symbol]:
    """Nest definitions by containment (or by ``@owner``), then let prototypes yield."""
    defs.sort(key=lambda d: (d.node.start_byte, -d.node.end_byte))
    memo: dict[object, object] = {}
    built: list[tuple[Symbol, _Def]] = []
    stack: list[tuple[int, Symbol]] = []  # (end byte, symbol) of the open containers
    for d in defs:
        while stack and stack[-1][0] <= d.node.start_byte:
            stack.pop()
        container = stack[-1][1] if stack else None
        if d.weak and container is not None and container.kind not in CLASS_LIKE:
            continue  # a prototype inside a function body declares nothing new
        symbol = _make_symbol(d, container, src, dialect, memo)
        built.append((symbol, d))
        stack.append((d.node.end_byte, symbol))
    return _merge_declarations(_attach_owners(built))


def _make_symbol(
    d: _Def, container: Symbol | None, src: CodeSource, dialect: Dialect, memo: dict[object, object]
) -> Symbol:
    name = src.text(d.name)
    prefix = d.owner if d.owner is not None else (container.qualified_name if container else None)
    parent = container if d.owner is None else None
    kind = d.kind
    if kind == SymbolKind.FUNCTION and parent is not None and parent.kind in CLASS_LIKE:
        kind = SymbolKind.METHOD
    site = DefSite(d.node, name, kind, parent, src, memo)
    return Symbol(
        name=name,
        qualified_name=f"{prefix}.{name}" if prefix else name,
        kind=kind,
        visibility=dialect.visibility(site),
        source_range=node_range(d.node),
        name_range=node_range(d.name),
        parent=prefix,
    )


def _attach_owners(built: list[tuple[Symbol, _Def]]) -> list[tuple[Symbol, _Def]]:
    """An out-of-line member's parent is its type only when the type is in this file."""
    types = {s.qualified_name for s, _ in built if s.kind in CLASS_LIKE}
    return [
        (replace(s, parent=None) if d.owner is not None and d.owner not in types else s, d)
        for s, d in built
    ]


def _merge_declarations(built: list[tuple[Symbol, _Def]]) -> list[Symbol]:
    """Drop a prototype when the file also defines the name; the definition keeps the
    prototype's visibility (a C++ member's access, a C ``static`` prototype)."""
    declared: dict[str, Symbol] = {}
    for s, d in built:
        if d.weak:
            declared.setdefault(s.qualified_name, s)
    defined = {s.qualified_name for s, d in built if not d.weak}
    symbols = []
    for s, d in built:
        if d.weak and s.qualified_name in defined:
            continue
        prototype = declared.get(s.qualified_name)
        if not d.weak and prototype is not None and prototype.visibility is not None:
            symbols.append(replace(s, visibility=prototype.visibility))
        else:
            symbols.append(s)
    return symbols


class _Scopes:
    """Innermost symbol around a byte offset, by containment of source ranges."""

    def __init__(self, symbols: list[Symbol]) -> None:
        ordered = sorted(
            symbols, key=lambda s: (s.source_range.start_byte, -s.source_range.end_byte)
        )
        self._starts = [s.source_range.start_byte for s in ordered]
        self._ends = [s.source_range.end_byte for s in ordered]
        self._names = [s.qualified_name for s in ordered]
        self._container: list[int] = []
        stack: list[int] = []
        for i in range(len(self._ends)):
            while stack and self._ends[stack[-1]] <= self._starts[i]:
                stack.pop()
            self._container.append(stack[-1] if stack else -1)
            stack.append(i)
        self.names = set(self._names)

    def innermost(self, offset: int) -> str | None:
        i = bisect.bisect_right(self._starts, offset) - 1
        while i >= 0 and self._ends[i] <= offset:
            i = self._container[i]
        return self._names[i] if i >= 0 else None


# ---------------------------------------------------------------- imports


def _imports(
    found: list[tuple[str, Node, Captures, int]], src: CodeSource, dialect: Dialect
) -> list[Import]:
    """One record per statement (the later pattern wins on the same source), in file order."""
    chosen: dict[tuple[int, int], tuple[int, list[Import]]] = {}
    for form, node, caps, pattern in found:
        source = caps.get("import.source", [node])[0]
        key = (source.start_byte, source.end_byte)
        if key in chosen and chosen[key][0] > pattern:
            continue
        rule = dialect.imports.get(form)
        built = rule(node, caps, src) if rule else _plain_import(form, node, caps, src)
        context = dialect.import_context(node) if dialect.import_context else ""
        if context:
            built = [replace(imp, context=context) for imp in built]
        chosen[key] = (pattern, built)
    return [imp for key in sorted(chosen) for imp in chosen[key][1]]


def _plain_import(form: str, node: Node, caps: Captures, src: CodeSource) -> list[Import]:
    source = caps.get("import.source")
    if not source:
        return []
    specifier = src.specifier(source[0])
    if specifier is None:
        return []
    alias = caps.get("import.alias")
    return [Import(specifier, form, line_of(node), alias=src.text(alias[0]) if alias else None)]


def _metacall_loads(found: list[tuple[Node, Node]], src: CodeSource) -> list[MetacallLoad]:
    loads = []
    for tag, paths in found:
        specifiers = (src.specifier(n) for n in paths.named_children if "string" in n.type)
        loads.append(
            MetacallLoad(src.string_value(tag), tuple(s for s in specifiers if s), line_of(tag))
        )
    return loads


def _load_imports(loads: list[MetacallLoad]) -> list[Import]:
    return [Import(p, "metacall-load", load.line) for load in loads for p in load.paths]


# ---------------------------------------------------------------- references


def _typed_selectors(
    lang: LangId, root: Node, src: CodeSource, found: _Matches
) -> dict[tuple[int, int], str]:
    """Go: selectors through a variable of known type, renamed ``T.member``; a field use the
    query did not capture becomes a ``field`` reference. Empty for other languages."""
    if lang != LangId.GO:
        return {}
    from sitegen.code.go_types import typed_selectors

    renames = typed_selectors(root, src)
    captured = {(r.start, -r.minus_end) for r in found.references}
    for span in sorted(set(renames) - captured):
        node = renames[span][0]
        found.references.append(
            _Ref(span[0], -span[1], -_KIND_RANK["field"], "field", node, None, None)
        )
    return {span: name for span, (_, name) in renames.items()}


def _references(
    found: list[_Ref],
    symbols: list[Symbol],
    scopes: _Scopes,
    src: CodeSource,
    renames: dict[tuple[int, int], str],
) -> list[Reference]:
    """Names as written, innermost symbol as enclosing. Dropped: a definition's own name,
    a node captured again (as a lower kind: a base class is also a type use), and a name
    inside a longer reference (``a::B`` holds ``B``)."""
    own_names = {
        (s.name_range.start_byte, s.name_range.end_byte)
        for s in symbols
        if s.name_range is not None
    }
    outer_start, outer_end = -1, -1  # the last reference kept: nodes nest or are disjoint
    references = []
    for ref in sorted(found):
        start, end = ref.start, -ref.minus_end
        if (outer_start <= start and end <= outer_end) or (start, end) in own_names:
            continue
        name = renames.get((start, end)) or _reference_name(ref, src.data)
        if name is None:
            continue
        outer_start, outer_end = start, end
        enclosing = scopes.innermost(start)
        if ref.owner is not None and _owner_name(src.text(ref.owner)) in scopes.names:
            enclosing = _owner_name(src.text(ref.owner))
        references.append(Reference(name, ref.kind, ref.node.start_point.row + 1, enclosing))
    return references


def _reference_name(ref: _Ref, data: bytes) -> str | None:
    raw = data[ref.start : -ref.minus_end]
    if ref.receiver is not None:
        raw = data[ref.receiver.start_byte : ref.receiver.end_byte] + b"." + raw
    if _NAME.fullmatch(raw) is None:
        raw = _WHITESPACE.sub(b"", raw)  # `a.\n    b` as written, minus the layout
        if _NAME.fullmatch(raw) is None:
            return None
    return raw.decode("utf-8", errors="replace")


# ---------------------------------------------------------------- comment links


def _comment_links(node: Node, data: bytes) -> list[CommentLink]:
    """Markdown links, ``<autolinks>`` and bare http(s) URLs, positioned at their first byte
    (``[``, ``<`` or ``h``); a URL inside a link already found is not found again."""
    text = data[node.start_byte : node.end_byte]
    if b"http" not in text and b"](" not in text and b"][" not in text:
        return []  # what every pattern needs: most comments and docstrings have none of them
    links: list[tuple[int, bytes, bytes]] = []
    covered: list[tuple[int, int]] = []
    for pattern, href_group, label_group in _LINK_PATTERNS:
        for m in pattern.finditer(text):
            if any(a <= m.start() < b for a, b in covered) or _in_code_span(text, m.start()):
                continue
            href = m.group(href_group)
            if pattern in _AUTOREF_PATTERNS:
                href = b"autoref:" + href
            if label_group is None:
                href = href.rstrip(_URL_TAIL)
            links.append((m.start(), href, m.group(label_group) if label_group else href))
            covered.append(m.span())
    return [_position_link(node, text, start, href, label) for start, href, label in sorted(links)]


def _in_code_span(text: bytes, start: int) -> bool:
    """Whether ``start`` is inside a `` `code span` `` of its line (an odd number of
    backticks before it): code quoted in a comment is not a link."""
    line_start = text.rfind(b"\n", 0, start) + 1
    return text.count(b"`", line_start, start) % 2 == 1


def _position_link(node: Node, text: bytes, start: int, href: bytes, label: bytes) -> CommentLink:
    newlines = text.count(b"\n", 0, start)
    if newlines:
        column = start - text.rindex(b"\n", 0, start)
    else:
        column = node.start_point.column + start + 1
    return CommentLink(
        href.decode("utf-8", errors="replace"),
        _WHITESPACE.sub(b" ", label).strip().decode("utf-8", errors="replace"),
        node.start_byte + start,
        node.start_point.row + 1 + newlines,
        column,
    )
