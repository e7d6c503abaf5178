"""What each page documents: the source files, line ranges and symbols it points at, each
with the way it points (a link, a line link, an autoref, ``::: pkg.Name``, a snippet, a
relation) and the exact place in the page (content/guides/stale-pages.md).

Read from the link step's resolutions, the code records' symbol ranges and the pages' bytes
(for snippet lines); never reads files and never asks git.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TypeVar

from sitegen.api.blocks import find_blocks
from sitegen.base.paths import NodeId, is_source_node, source_repo_path
from sitegen.docs.includes import include_places
from sitegen.docs.snippets import MAX_INCLUDES, SNIPPET_LINE, range_problem, split_range
from sitegen.generators import Dialect
from sitegen.graph.model import Edge
from sitegen.link.api_entries import qualified_name
from sitegen.records.api import ApiObject
from sitegen.records.code import CodeRecord, Symbol, Visibility
from sitegen.records.linked import ApiEntries, Outcome, Resolved
from sitegen.records.pages import Link, LinkKind, PageRecord
from sitegen.records.stale import DocRef

#: How a page points at what it documents.
LINK, LINE_LINK, RANGE_LINK = "link", "line link", "range link"
DIRECTIVE, SNIPPET, SNIPPET_RANGE, RELATION = "directive", "snippet", "snippet range", "relation"
AUTOREF = str(LinkKind.AUTOREF)
KINDS = (LINK, LINE_LINK, RANGE_LINK, AUTOREF, DIRECTIVE, SNIPPET, SNIPPET_RANGE, RELATION)
#: The includes of other generators keep their own kind's name ("code import", "include",
#: "markdown-include", "macros include"), with " range" when they name lines.

_LINES = re.compile(r"L(\d+)(?:-L(\d+))?")


# --- what git says about them (sitegen/analyse/stale.py fills these in) ------------------


class _Symbols:
    """The symbols of each source file, by the line they start on."""

    def __init__(self, code: Iterable[CodeRecord]) -> None:
        self.by_line: dict[str, dict[int, list[Symbol]]] = {}
        for rec in code:
            starts: dict[int, list[Symbol]] = {}
            for sym in rec.symbols:
                starts.setdefault(sym.source_range.start_line, []).append(sym)
                if sym.name_range is not None and sym.name_range.start_line != (
                    sym.source_range.start_line
                ):  # a decorated definition: its name's line names it too
                    starts.setdefault(sym.name_range.start_line, []).append(sym)
            self.by_line[rec.path] = starts

    def at(self, path: str, line: int) -> Symbol | None:
        """The outermost symbol starting at ``line`` (a class and its first decorated method
        may share a line)."""
        found = self.by_line.get(path, {}).get(line, [])
        return min(found, key=_span_key) if found else None

    def named(self, path: str, line: int, dotted: str) -> Symbol | None:
        """The symbol starting at ``line`` that ``dotted`` names by its qualified name's tail;
        None when the name fell back to an owner (the symbol is gone, or an attribute the
        graph has no symbol for): the link stands, but nothing is invented about it."""
        for sym in self.by_line.get(path, {}).get(line, []):
            if dotted == sym.qualified_name or dotted.endswith("." + sym.qualified_name):
                return sym
        return None


def _span_key(sym: Symbol) -> tuple[int, str]:
    r = sym.source_range
    return (-(r.end_line - r.start_line), sym.qualified_name)


def _is_public(sym: Symbol) -> bool:
    return sym.visibility is not Visibility.PRIVATE and not any(
        part.startswith("_") and not part.startswith("__") for part in sym.qualified_name.split(".")
    )


def documented(
    pages: Iterable[PageRecord],
    resolutions: Mapping[str, list[Resolved]],
    code: Iterable[CodeRecord],
    page_bytes: Mapping[str, bytes],
    snippet_paths: Mapping[str, str],
    edges: Mapping[str, list[Edge]] | None = None,
    broken: Iterable[tuple[str, int, int]] = (),
    content_files: Iterable[str] = (),
    entries: ApiEntries | None = None,
    dialect: Dialect = Dialect.NONE,
) -> dict[str, list[DocRef]]:
    """Every page (by repository path) -> what it documents, sorted by place in the page.

    ``resolutions`` holds each page's link resolutions by its repository path (the link
    step's, aligned with ``PageRecord.links``); ``snippet_paths`` the repository path each
    snippet or include name was read from (``Crawl.snippet_paths``); ``edges`` each page's
    outgoing edges (for its typed relations); ``broken`` the places (page, line, column) of
    the broken links and anchors, which document nothing; ``content_files`` the pages and
    assets, which a snippet may include but never documents (they are content, not code);
    ``entries`` the objects the API pages show (sitegen/link/api_entries.py): a ``:::`` block
    documents its object's lines, and so does a link or autoref that lands on an entry;
    ``dialect`` what the pages are read as (include variants are includes too).
    A page that documents nothing has no entry."""
    symbols = _Symbols(code)
    broken_at = set(broken)
    content = set(content_files)
    included = {name: path for name, path in snippet_paths.items() if path not in content}
    out: dict[str, list[DocRef]] = {}
    for rec in sorted(pages, key=lambda p: p.path):
        data = page_bytes.get(rec.path, b"")
        refs = [
            *_from_links(rec, resolutions.get(rec.path, []), symbols, data, broken_at, entries),
            *_from_blocks(rec.path, data, entries),
            *_from_snippets(rec.path, data, included),
            *_from_includes(rec.path, data, included, dialect),
            *_from_relations(rec, (edges or {}).get(rec.path, [])),
        ]
        if refs:
            out[rec.path] = sorted(set(refs))
    return out


def _from_links(
    rec: PageRecord,
    resolutions: list[Resolved],
    symbols: _Symbols,
    data: bytes,
    broken: set[tuple[str, int, int]],
    entries: ApiEntries | None = None,
) -> Iterable[DocRef]:
    for link, res in zip(rec.links, resolutions, strict=False):
        if res.outcome is not Outcome.INTERNAL or res.node is None:
            continue
        if entries and _in_block(link, data):
            continue  # a block's own Source links and docstring refs: the block says it
        if not is_source_node(res.node):
            entry = entries.by_place.get((res.node, res.fragment)) if entries else None
            if entry is not None and entries is not None:
                how = AUTOREF if link.kind is LinkKind.AUTOREF else LINK
                yield from _object_ref(
                    rec.path, link.line, link.column, how, entries, entry.canonical
                )
            continue
        if (rec.path, link.line, link.column) in broken:
            continue  # a line past the file's end: a broken anchor, never stale
        ref = _link_ref(rec.path, link, path_of(res.node), res.fragment, symbols, data)
        if ref is not None:
            yield ref


def _in_block(link: Link, data: bytes) -> bool:
    """Whether a link is one a ``:::`` block's expansion wrote (placed at its ``:::``)."""
    return data[link.offset : link.offset + 3] == b":::"


def _from_blocks(page: str, data: bytes, entries: ApiEntries | None) -> Iterable[DocRef]:
    """``::: pkg.Name`` documents the lines of the object it shows, at the ``:::`` line."""
    if not entries or b":::" not in data:
        return
    for block in find_blocks(data):
        canonical = entries.model.target(block.target)
        if canonical is not None:
            column = data.find(b":::", block.start) - data.rfind(b"\n", 0, block.start)
            yield from _object_ref(page, block.line, column, DIRECTIVE, entries, canonical)


def _object_ref(
    page: str, line: int, column: int, how: str, entries: ApiEntries, canonical: str
) -> Iterable[DocRef]:
    """What pointing at an object documents: its lines in the file that defines it (none for
    an installed dependency's object, which is no file of the project)."""
    obj: ApiObject | None = entries.model.objects.get(canonical)
    if obj is None or not obj.file:
        return
    symbol = qualified_name(entries.model, canonical)
    public = obj.is_public and not any(
        p.startswith("_") and not p.startswith("__") for p in symbol.split(".")
    )
    end = max(obj.endlineno, obj.lineno)
    yield DocRef(page, line, column, how, obj.file, symbol, obj.lineno, end, public)


def _from_relations(rec: PageRecord, edges: Iterable[Edge]) -> Iterable[DocRef]:
    """``rel-documents: ../pkg/a.py`` (any predicate) documents the whole file, at the key's line."""
    for edge in edges:
        if edge.rel and is_source_node(edge.dst):
            line = min((r.line for r in rec.relations if r.predicate == edge.rel), default=1)
            yield DocRef(rec.path, line, 1, RELATION, str(source_repo_path(edge.dst)))


def path_of(node: str) -> str:
    return str(source_repo_path(NodeId(node)))


def _link_ref(
    page: str, link: Link, path: str, fragment: str, symbols: _Symbols, data: bytes
) -> DocRef | None:
    """A link into a source file: the symbol an autoref or ``:::`` names, the symbol whose
    first line a line link points at, a line range, or the whole file."""
    found = _LINES.fullmatch(fragment)
    if found is None:
        return DocRef(page, link.line, link.column, LINK, path)
    first = int(found.group(1))
    last = int(found.group(2) or first)
    if link.kind is LinkKind.AUTOREF:
        how = DIRECTIVE if data[link.offset : link.offset + 3] == b":::" else AUTOREF
        sym = symbols.named(path, first, link.href)
        if sym is None:
            return None
    else:
        how = LINE_LINK if found.group(2) is None else RANGE_LINK
        sym = symbols.at(path, first) if how == LINE_LINK else None
    if sym is None:
        return DocRef(page, link.line, link.column, how, path, "", first, max(last, first))
    r = sym.source_range
    return DocRef(
        page, link.line, link.column, how, path, sym.qualified_name, r.start_line,
        max(r.end_line, r.start_line), _is_public(sym),
    )  # fmt: skip


def _from_snippets(page: str, data: bytes, snippet_paths: Mapping[str, str]) -> Iterable[DocRef]:
    """``--8<-- "pkg/a.py"`` documents the file, ``--8<-- "pkg/a.py:3:9"`` its lines 3 to 9
    (an open end: to the file's end, taken as the whole file from ``start`` on)."""
    if b"8<" not in data:
        return
    # The snippet lines the page expands (sitegen.docs.snippets): the first MAX_INCLUDES.
    found = itertools.islice(SNIPPET_LINE.finditer(data), MAX_INCLUDES)
    for m, (line, _) in _placed(data, found, lambda m: m.start()):
        if m.group("escape"):
            continue
        name = m.group("name").decode("utf-8", "replace")
        written, start, end = split_range(name)
        path = snippet_paths.get(written)
        if path is None or path == page or range_problem(name) is not None:
            continue
        column = len(m.group("indent")) + 1
        if start <= 1 and end == 0:
            yield DocRef(page, line, column, SNIPPET, path)
        else:
            yield DocRef(page, line, column, SNIPPET_RANGE, path, "", start, end or _OPEN_END)


def _from_includes(
    page: str, data: bytes, snippet_paths: Mapping[str, str], dialect: Dialect
) -> Iterable[DocRef]:
    """The includes of other generators (content/syntax/includes.md): VitePress ``<<<`` code
    imports and ``<!--@include: file{3,9}-->``, ``{!file!}``, ``{% include "file" %}``. A
    named region is left out: which lines it holds is the file's to say, and the page would
    be claimed stale on a guess."""
    places = include_places(page, data, dialect)
    for place, (line, column) in _placed(data, places, lambda p: p[0]):
        _, kind, name, start, end, region = place
        path = snippet_paths.get(name)
        if path is None or path == page or region:
            continue
        if start <= 1 and end == 0:
            yield DocRef(page, line, column, kind, path)
        else:
            yield DocRef(page, line, column, f"{kind} range", path, "", start, end or _OPEN_END)


_T = TypeVar("_T")


def _placed(
    data: bytes, items: Iterable[_T], offset_of: Callable[[_T], int]
) -> Iterator[tuple[_T, tuple[int, int]]]:
    """Each of ``items`` (in page order) with its 1-based line and column in ``data``, each
    counted on from the one before: one pass over the page however many snippets or includes
    it holds (counting from the page's start for each was quadratic, issue 27)."""
    line, pos, line_start = 1, 0, 0
    for item in items:
        offset = offset_of(item)
        line += data.count(b"\n", pos, offset)
        last = data.rfind(b"\n", pos, offset)
        line_start = last + 1 if last >= 0 else line_start
        pos = offset
        yield item, (line, offset - line_start + 1)


#: The end of a range written without one (``file.py:40``): every line from its start on.
_OPEN_END = 10**9
