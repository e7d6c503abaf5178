"""The ``/graph.md`` export (content/reference/graph-md.md) and ParseExport, which reads it back.

Pure text in, text out: never touches the file system, never mutates a graph, and the
parser never raises on bad input (it reports the line and skips the row).

Cell escaping is the format's and only that: ``\\`` becomes ``\\\\`` and ``|`` becomes
``\\|``. Both survive a GFM parser: GFM splits cells only at a ``|`` with no backslash
right before it (and then drops that one backslash), and its inline pass turns ``\\\\``
into ``\\``. Every cell is written padded by one space, so a cell ending in ``\\`` never
touches the next ``|``; that is why our left-to-right unescaping and GFM's "backslash
before the pipe" rule read the same cells. Characters that end a line (``\\n``, ``\\r``,
U+2028 …) become spaces, and leading/trailing whitespace is trimmed before writing,
because every GFM parser trims it when reading: a value such as ``" a"`` is written as
``a``. Extraction already collapses and trims labels, so real graphs round-trip exactly.
``<``, ``>`` and ``&`` are written as ``&lt;``, ``&gt;`` and ``&amp;``, so no cell becomes
markup where graph.md is rendered, even with raw HTML allowed; every markdown renderer shows
those entities as the characters. Parsing decodes exactly these three, left to right after
the backslash escapes, and leaves any other ``&`` (and raw ``<``, ``>`` of legacy files) as
it is. Since every ``&`` is written as ``&amp;``, a value that looks like an entity
(``&lt;``) round-trips; a legacy file holding a literal ``&amp;`` reads back as ``&``, which
is what a markdown renderer showed for it too (content/reference/graph-md.md, "Escaping").
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from sitegen.base.paths import NodeId
from sitegen.base.plural import counted
from sitegen.graph.model import Edge, Graph, Node, NodeKind

NODE_COLUMNS = ("Node", "Title", "Kind")
EDGE_COLUMNS = ("From", "To", "Rel", "Label", "Anchor", "Count")
_EDGE_FIELDS = tuple(c.lower() for c in EDGE_COLUMNS)
_KINDS = frozenset(k.value for k in NodeKind)

#: Everything ``str.splitlines`` breaks on; a cell never contains one.
_LINE_BREAKS = re.compile("[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
#: The whitespace GFM parsers trim from a cell (markdown-it's set, a superset of cmark's).
_TRIM = (
    "\t\n\v\f\r \xa0\u1680"
    + "".join(map(chr, range(0x2000, 0x200B)))
    + "\u2028\u2029\u202f\u205f\u3000"
)
#: CommonMark line endings: the only ones that split a markdown document into lines.
_MD_LINES = re.compile(r"\r\n|\r|\n")
_DELIMITER_CELL = re.compile(r":?-+:?")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
# At most 18 digits: a count is a number of links, and int() of a 5,000-digit string raises.
_COUNT = re.compile(r"[0-9]{1,18}")
_ENTITIES = {"&lt;": "<", "&gt;": ">", "&amp;": "&"}
_ENTITY = re.compile("|".join(_ENTITIES))
_TO_ENTITY = str.maketrans({"<": "&lt;", ">": "&gt;", "&": "&amp;"})


# --- export ---------------------------------------------------------------------------------


def export_graph_md(graph: Graph, title: str = "Graph") -> str:
    """The graph as markdown: a Nodes table sorted by id, an Edges table by (from, to, rel)."""
    heading = _one_line(title).translate(_TO_ENTITY) or "Graph"
    node_rows = [
        (n.id, n.title, str(n.kind)) for n in (graph.nodes[k] for k in sorted(graph.nodes))
    ]
    edge_rows = [_edge_row(e) for e in graph.edges()]
    lines = [
        f"# {heading}",
        "",
        "## Nodes",
        "",
        *_table(NODE_COLUMNS, node_rows),
        "",
        "## Edges",
        "",
        *_table(EDGE_COLUMNS, edge_rows),
    ]
    return "\n".join(lines) + "\n"


def _edge_row(edge: Edge) -> tuple[str, ...]:
    anchor = "#" + edge.anchor if edge.anchor else ""
    return (edge.src, edge.dst, edge.rel, edge.label, anchor, str(edge.count))


def _table(columns: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> list[str]:
    lines = [_row(columns), _row(tuple("---" for _ in columns))]
    lines.extend(_row(tuple(escape_cell(c) for c in row)) for row in rows)
    return lines


def _row(cells: tuple[str, ...]) -> str:
    return "| " + " | ".join(cells) + " |"


def _one_line(value: str) -> str:
    return _LINE_BREAKS.sub(" ", value).strip(_TRIM)


def escape_cell(value: str) -> str:
    """A value as a table cell: on one line, trimmed, ``\\`` and ``|`` escaped, ``<``, ``>``
    and ``&`` written as entities."""
    return _one_line(value).replace("\\", "\\\\").replace("|", "\\|").translate(_TO_ENTITY)


def decode_entities(cell: str) -> str:
    """``&lt;``, ``&gt;`` and ``&amp;`` as the characters, in one pass; nothing else."""
    return _ENTITY.sub(lambda m: _ENTITIES[m.group()], cell) if "&" in cell else cell


# --- parse ----------------------------------------------------------------------------------


@dataclass
class ParseResult:
    """What ParseExport read: edges and nodes in table order, and the rows it skipped."""

    edges: list[Edge] = field(default_factory=list)
    nodes: list[Node] = field(default_factory=list)
    #: ``(line, message)``, 1-based line numbers of the document.
    errors: list[tuple[int, str]] = field(default_factory=list)
    #: Whether the document holds an edge table at all (``sitegen graph parse`` exits 1 if not).
    has_edge_table: bool = True

    def graph(self) -> Graph:
        return Graph.from_edges(self.edges, self.nodes)

    def to_json(self) -> str:
        """``{"edges": [...]}``, all six fields on every edge, in table order (for ``--json``)."""
        edges = [
            {
                "from": e.src,
                "to": e.dst,
                "rel": e.rel,
                "label": e.label,
                "anchor": e.anchor,
                "count": e.count,
            }
            for e in self.edges
        ]
        return json.dumps({"edges": edges}, ensure_ascii=False, indent=1) + "\n"


@dataclass
class _Table:
    heading: str  # the nearest heading above, lower-cased ("" if none)
    line: int  # of the header row
    columns: list[str]  # header names, lower-cased
    rows: list[tuple[int, list[str]]]


def parse_graph_md(text: str) -> ParseResult:
    """Read a graph.md export, wide (six columns) or legacy (``| From | To |``)."""
    result = ParseResult()
    tables = _tables(_MD_LINES.split(text))
    edge_table = _pick(tables, "edges", ("from", "to"))
    if edge_table is None:
        result.errors.append((1, "no table with From and To columns was found"))
        result.has_edge_table = False
    else:
        _read_edges(edge_table, result)
    node_table = _pick(tables, "nodes", ("node",))
    if node_table is not None:
        _read_nodes(node_table, result)
    return result


def _pick(tables: list[_Table], heading: str, needed: tuple[str, ...]) -> _Table | None:
    """The table under the named heading having the needed columns, else the first having them."""
    fitting = [t for t in tables if all(c in t.columns for c in needed)]
    named = [t for t in fitting if t.heading == heading]
    return (named or fitting)[0] if fitting else None


def _tables(lines: list[str]) -> list[_Table]:
    tables: list[_Table] = []
    heading, fence, i = "", "", 0
    while i < len(lines):
        line = lines[i]
        fence = _fence_state(line, fence)
        if fence or _FENCE.match(line):
            i += 1
            continue
        if (found := atx_heading(line)) is not None:
            heading = found[1].strip().lower()
        elif i + 1 < len(lines) and _is_table_start(line, lines[i + 1]):
            table = _Table(heading, i + 1, [c.lower() for c in split_row(line)], [])
            i = _read_body(lines, i + 2, table)
            tables.append(table)
            continue
        i += 1
    return tables


def atx_heading(line: str) -> tuple[int, str] | None:
    """An ATX heading's level and text (``## Edges ##`` gives ``(2, "Edges")``), None for any
    other line. String tests, not a pattern: a lazy text group before optional closing ``#``s
    tried a run of spaces from every start, quadratic in a hostile line (issue 27)."""
    text = line.lstrip(" ")
    if len(line) - len(text) > 3:
        return None
    level = len(text) - len(text.lstrip("#"))
    rest = text[level:]
    if not 1 <= level <= 6 or (rest and rest[0] not in " \t"):
        return None
    rest = rest.strip(" \t")
    body = rest.rstrip("#")
    if not body:  # only closing #s: an empty heading
        return level, ""
    if body[-1] in " \t" and len(body) < len(rest):
        rest = body.rstrip(" \t")
    return level, rest


def _fence_state(line: str, fence: str) -> str:
    """The open fence after this line: a fence line opens one, or closes the open one."""
    m = _FENCE.match(line)
    if not fence:
        return m.group(1) if m else ""
    closes = (
        m is not None
        and m.group(1)[0] == fence[0]
        and len(m.group(1)) >= len(fence)
        and not line.strip()[len(m.group(1)) :].strip()
    )
    return "" if closes else fence


def _is_table_start(header: str, delimiter: str) -> bool:
    if "|" not in header:
        return False
    cells = delimiter.strip(_TRIM).split("|")
    if cells and not cells[0].strip():
        cells = cells[1:]
    if cells and not cells[-1].strip():
        cells = cells[:-1]
    if not cells or not all(_DELIMITER_CELL.fullmatch(c.strip(" \t")) for c in cells):
        return False
    return len(split_row(header)) == len(cells)


def _read_body(lines: list[str], start: int, table: _Table) -> int:
    """Collect rows until a blank line, a heading or a fence; returns the next line's index."""
    i = start
    while i < len(lines):
        line = lines[i]
        if not line.strip(_TRIM) or atx_heading(line) is not None or _FENCE.match(line):
            break
        table.rows.append((i + 1, split_row(line)))
        i += 1
    return i


def split_row(line: str) -> list[str]:
    """A table row's cells, unescaped and trimmed: splits on ``|`` not escaped by ``\\``.

    Escapes pair up left to right (``\\\\`` is one backslash, ``\\|`` one pipe); a
    backslash before any other character is kept, as exporters that escaped only pipes wrote it.
    Then the three entities are decoded (``decode_entities``).
    """
    line = line.strip(_TRIM)
    cells: list[str] = []
    current: list[str] = []
    ends_on_pipe, i = False, 0
    while i < len(line):
        ch, ends_on_pipe = line[i], False
        if ch == "\\" and line[i + 1 : i + 2] in ("\\", "|"):
            current.append(line[i + 1])
            i += 1
        elif ch == "|":
            cells.append("".join(current))
            current, ends_on_pipe = [], True
        else:
            current.append(ch)
        i += 1
    cells.append("".join(current))
    if line.startswith("|"):
        cells = cells[1:]
    if ends_on_pipe and len(cells) > 1:
        cells = cells[:-1]
    return [decode_entities(c.strip(_TRIM)) for c in cells]


def _read_edges(table: _Table, result: ParseResult) -> None:
    cols = {name: table.columns.index(name) for name in _EDGE_FIELDS if name in table.columns}
    for line, cells in table.rows:
        edge = _edge_from_cells(cells, cols, len(table.columns))
        if isinstance(edge, str):
            result.errors.append((line, edge))
        else:
            result.edges.append(edge)


def _edge_from_cells(cells: list[str], cols: dict[str, int], width: int) -> Edge | str:
    """The edge of one row, or the reason the row is malformed."""
    if len(cells) == 2 and width != 2:
        cols = {"from": 0, "to": 1}  # a legacy row inside a wide table
    elif len(cells) != width:
        return (
            f"row has {counted(len(cells), 'cell')} but the table has "
            f"{counted(width, 'column')}; row skipped"
        )
    values = {name: cells[i] for name, i in cols.items()}
    if not values["from"] or not values["to"]:
        return "row has an empty From or To cell; row skipped"
    count = values.get("count", "")
    if count and (not _COUNT.fullmatch(count) or int(count) < 1):
        return f"count {count!r} is not a positive integer; row skipped"
    anchor = values.get("anchor", "")
    return Edge(
        NodeId(values["from"]),
        NodeId(values["to"]),
        rel=values.get("rel", ""),
        label=values.get("label", ""),
        anchor=anchor.removeprefix("#"),
        count=int(count) if count else 1,
    )


def _read_nodes(table: _Table, result: ParseResult) -> None:
    if "kind" not in table.columns:
        result.errors.append((table.line, "the Nodes table has no Kind column; nodes skipped"))
        return
    node_col, kind_col = table.columns.index("node"), table.columns.index("kind")
    title_col = table.columns.index("title") if "title" in table.columns else None
    for line, cells in table.rows:
        if len(cells) != len(table.columns):
            message = (
                f"row has {counted(len(cells), 'cell')} but the table has "
                f"{counted(len(table.columns), 'column')}"
            )
            result.errors.append((line, message + "; row skipped"))
        elif not cells[node_col] or cells[kind_col] not in _KINDS:
            message = f"node {cells[node_col]!r} has kind {cells[kind_col]!r}"
            result.errors.append(
                (line, f"{message}; expected one of {', '.join(NodeKind)}; row skipped")
            )
        else:
            title = cells[title_col] if title_col is not None else ""
            result.nodes.append(Node(NodeId(cells[node_col]), NodeKind(cells[kind_col]), title))
