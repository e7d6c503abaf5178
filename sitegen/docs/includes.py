"""Includes of other generators read like snippets: VitePress ``<<< @/file`` code imports and
``<!--@include: file-->``, markdown-include ``{!file!}`` and mkdocs-macros ``{% include "file" %}``,
and in MDX (``Dialect.MDX``) a partial: ``<X />`` alone on its line, ``X`` imported from a
``.md``/``.mdx`` file (content/syntax/docusaurus.md); with ``Dialect.INCLUDE_VARIANTS`` a
``{* file.py *}`` line and its variant files (sitegen/docs/variants.py).

Each is replaced by its file's text before the page is parsed, and positions map back as
snippets' do (content/syntax/includes.md). Never reads a file: the crawl reads the names
``include_names`` gives, inside the root only, and hands their bytes in. Pure and linear.
"""

from __future__ import annotations

import bisect
import posixpath
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from sitegen.docs.slug import vitepress_slug
from sitegen.docs.snippets import (
    MAX_INCLUDES,
    Expanded,
    Replacement,
    line_number,
    over_the_limit,
    shown,
    snippet_names,
    snippet_replacements,
    splice,
    too_long_number,
)
from sitegen.docs.variants import (
    VariantLine,
    variant_lines,
    variant_names,
    variant_replacements,
)
from sitegen.generators import Dialect

#: ``<<< @/file#region{1,3 lang} [title]`` on a line of its own (VitePress code import): the
#: rest of the line is read by ``_code_import_parts``, from the right as VitePress reads it.
CODE_IMPORT = re.compile(rb"^(?P<indent>[ \t]*)<<<[ \t]+(?P<rest>[^\n]*)", re.MULTILINE)
#: ``<!--@include: ./part.md#section{3,10}-->`` (VitePress) is found by ``_md_includes``, with
#: string searches: a pattern tried from every ``<!--@include:`` of a run of them read the
#: rest of the run each time (issue 27: 130 KB took 146 s). ``<!--@@include:`` is its escape.
_INCLUDE_MARK = b"@include:"
#: markdown-include ``{!file!}`` and mdx_include ``{!+ file | utf-8 !}``; ``\{!`` escapes it.
MARKDOWN_INCLUDE = re.compile(
    rb"(?P<escape>\\?)\{![+\->]?[ \t]*(?P<path>[^\s!{}|]+)[ \t]*(?:\|[^!{}\r\n]*)?!\}"
)
#: mkdocs-macros (Jinja) ``{% include "file" %}``, quoted: the unquoted Jekyll form is not it.
MACROS_INCLUDE = re.compile(
    rb"\{%-?[ \t]*include[ \t]+(?P<q>[\"'])(?P<path>[^\"'\r\n]+)(?P=q)[ \t]*-?%\}"
)
#: An MDX default import of a markdown file by a relative path, on one line of its own:
#: ``import Warning from '../_Warning.mdx';``. Anchored at a line's start, one read a line.
_MDX_IMPORT = re.compile(
    rb"^import[ \t]+(?P<name>[A-Za-z_$][\w$]*)[ \t]+from[ \t]+(?P<q>['\"])"
    rb"(?P<path>\.{1,2}/[^'\"\r\n]*\.mdx?)(?P=q)[ \t;]*\r?$",
    re.MULTILINE,
)
#: Any one-line ``import … from '…'`` of a partial: MDX runs it, sitegen leaves it out.
_IMPORT_LINE = re.compile(rb"^import[ \t][^\r\n]*['\"][ \t;]*\r?$", re.MULTILINE)
#: A self-closing JSX element alone on its line, ``<Warning />`` or ``<Warning a="b" />``
#: (its attributes are not read). One anchored read a line: the run to ``/>`` is the line's.
_MDX_ELEMENT = re.compile(
    rb"^(?P<indent>[ \t]*)<(?P<name>[A-Za-z_$][\w$]*)(?:[ \t][^\r\n]*)?/>[ \t]*(?=\r?$)",
    re.MULTILINE,
)
_FENCE = re.compile(rb"^[ \t]*(?P<mark>`{3,}|~{3,})(?P<rest>.*)$")
_FENCE_TEXT = re.compile(r"^[ \t]*(`{3,}|~{3,})")
#: A heading line; its closing ``#``s and ``{#id}`` are taken off by string tests
#: (``_heading_text``), since a lazy pattern before them rescans each run of spaces.
_HEADING = re.compile(r"^(#{1,6})[ \t]+(.*)$")
_HEADING_ID = re.compile(r"[\w-]+")
_INCLUDE_PATH = re.compile(rb"[^\s{}]+")
_CODE_PATH = re.compile(r"[^\s{}\[]+")
_REGION_NAME = re.compile(r"[\w.-]+", re.ASCII)
#: Lines to highlight, as VitePress reads them: ``2``, ``1,3-5``.
_LINES = re.compile(r"\d+(?:[,-]\d+)*", re.ASCII)
_LINE_CHARS = frozenset("0123456789,- \t")
#: Region markers as VitePress finds them (its ``regions.ts``: VS Code's folding markers, one
#: pattern per comment syntax): a marker is a comment, never a line of code that starts with
#: the word ``region`` (``region = "eu"``, issue 27). Each reads one line, anchored, and
#: takes the name with one greedy or lazy run, so a line is read once.
_MARKERS = tuple(
    re.compile(pattern)
    for pattern in (
        r"\s*(?://\s*#?|(?:--|::|@?[rR][eE][mM])\s*#)(?P<end>end)?region\b(?P<name>.*)",
        r"\s*#\s*(?:#\s*|pragma\s+)?(?:(?P<end>[eE]nd ?)[rR]egion|[rR]egion)\b(?P<name>.*)",
        r"\s*<!--\s*#?(?P<end>end)?region\b(?P<name>.*?)-->",
        r"\s*/\*\s*#(?P<end>end)?region\b(?P<name>.*?)\*/",
        r"\s*\(\*\s*#(?P<end>end)?region\b(?P<name>.*?)\*\)",
        r"\s*\"/{2,}\s*#(?P<end>end)?region\b(?P<name>.*?)\":\s*\"\",?\s*$",
    )
)

_NOT_FOUND = (
    "no such file inside the project (read from the page's folder, or the content folder for '@/')"
)
_NOT_FOUND_PARTIAL = "no such file inside the project (read from the page's folder)"
_NOT_FOUND_BY_NAME = (
    "no such file inside the project "
    "(read from the project root, the content folder, then the folder of mkdocs.yml)"
)


@dataclass(frozen=True)
class _Found:
    """One include written in a page: the part of its line it replaces, and what it asks."""

    start: int
    end: int
    kind: str  # "code import", "include", "markdown-include", "macros include"
    written: str  # the path as written, for messages
    name: str  # the name the crawl reads it by
    indent: bytes | None  # the line's indentation when the include is its whole line
    region: str = ""
    lines: tuple[int, int] = (1, 0)  # a range of lines (1-based, inclusive, 0 = to the end)
    highlight: str = ""
    lang: str = ""
    title: str = ""
    escaped: bytes | None = None  # shown as written (without its escape) instead
    problem: str | None = None  # why it is left out, though written as an include
    component: str = ""  # an MDX partial's name, as its element writes it


def include_names(page: str, data: bytes, dialect: Dialect = Dialect.NONE) -> list[str]:
    """Every name a page's includes ask the crawl to read, snippets' first, in page order.
    A name is a path from the root, content folder or mkdocs.yml's folder as snippets are
    read; ``@/x`` from the content folder only, ``/x`` from the project root only. Only
    the first ``MAX_INCLUDES`` of each family are read (``expand_includes`` says so).
    ``dialect``: the generator record's; with ``Dialect.MDX`` a page's partials are
    includes too, with ``Dialect.INCLUDE_VARIANTS`` its ``{* file *}`` lines and every
    variant file each could have (content/syntax/include-variants.md)."""
    names = snippet_names(data)
    found = _includes(page, data, dialect)[:MAX_INCLUDES]
    names += [f.name for f in found if f.escaped is None and f.problem is None]
    names += variant_names(_variant_lines(data, dialect))
    return names


def _variant_lines(data: bytes, dialect: Dialect) -> list[VariantLine]:
    """The page's ``{* file *}`` lines, where the project enables include variants."""
    if not dialect & Dialect.INCLUDE_VARIANTS or b"{*" not in data:
        return []
    return variant_lines(data, _Page(data).fenced)


def expand_includes(
    page: str,
    data: bytes,
    files: Mapping[str, bytes | None],
    unread: Mapping[str, str] | None = None,
    paths: Mapping[str, str] | None = None,
    more: Sequence[Replacement] = (),
    dialect: Dialect = Dialect.NONE,
) -> Expanded | None:
    """The page with its snippets and includes in place, or None when it has neither.
    ``more`` are the page's other replacements (its ``:::`` API blocks), spliced in the
    same pass so that every position maps back through one splice. ``dialect`` as for
    ``include_names`` (its ``{* *}`` lines become tabs of their variants there too)."""
    found = snippet_replacements(data, files, unread, page=page, paths=paths) + list(more)
    includes = _includes(page, data, dialect)
    for inc in includes[:MAX_INCLUDES]:
        found.append(_replacement(inc, files, unread or {}, page, paths or {}))
    found += over_the_limit([(f.start, f.end) for f in includes[MAX_INCLUDES:]], "includes")
    found += variant_replacements(_variant_lines(data, dialect), files, unread or {})
    if not found:
        return None
    return splice(data, sorted(found, key=lambda r: r.start))


class _Page:
    """One page's lines, read once for all its includes: where each line starts, which lines
    are fenced, whether a place is in a code span, whether an include is alone on its line.
    Each answer costs time linear in the page over all includes, never a rescan of the line
    per include (content/guides/safety.md)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.starts = [0, *(m.end() for m in re.finditer(rb"\n", data))]
        self._fenced: set[int] | None = None
        self._ticks = (-1, 0, 0)  # the last place asked: its line, offset, backticks before it
        self._bounds: dict[int, tuple[int, int]] = {}

    def line(self, offset: int) -> int:
        """The 0-based line of ``offset``."""
        return bisect.bisect_right(self.starts, offset) - 1

    def fenced(self, offset: int) -> bool:
        """Whether ``offset`` is inside fenced code (the fence lines included)."""
        if self._fenced is None:
            self._fenced = _fenced_lines(self.data)
        return self.line(offset) in self._fenced

    def in_code_span(self, offset: int) -> bool:
        """Whether an odd number of backticks come before ``offset`` on its line (``{!x!}``
        written in a code span is shown, as when a page documents it). Counted on from the
        place asked before, when it is earlier on the same line: each scan asks in order."""
        line = self.line(offset)
        last_line, last, ticks = self._ticks
        if line != last_line or offset < last:
            last, ticks = self.starts[line], 0
        ticks += self.data.count(b"`", last, offset)
        self._ticks = (line, offset, ticks)
        return ticks % 2 == 1

    def own_line(self, start: int, end: int) -> bytes | None:
        """The indentation of the line, when the span ``start``-``end`` is all it holds (the
        include then replaces the line from its start)."""
        line = self.line(start)
        if line not in self._bounds:
            first = self.starts[line]
            stop = self.starts[line + 1] - 1 if line + 1 < len(self.starts) else len(self.data)
            text = self.data[first:stop]
            blank_before = len(text) - len(text.lstrip(b" \t"))
            self._bounds[line] = (first + blank_before, first + len(text.rstrip(b" \t\r")))
        text_start, text_end = self._bounds[line]
        if start != text_start or end < text_end:
            return None
        return self.data[self.starts[line] : start]


def _includes(page: str, data: bytes, dialect: Dialect = Dialect.NONE) -> list[_Found]:
    """Every include the page writes, in page order."""
    mdx = bool(dialect & Dialect.MDX) and b"import" in data
    if b"<<<" not in data and _INCLUDE_MARK not in data and b"{" not in data and not mdx:
        return []
    text = _Page(data)
    folder = posixpath.dirname(page)
    found: list[_Found] = list(_partials(text, folder)) if mdx else []
    for m in CODE_IMPORT.finditer(data) if b"<<<" in data else ():
        if not text.fenced(m.start()) and (inc := _code_import(m, folder)) is not None:
            found.append(inc)
    found += _md_includes(text, folder)
    for m in MARKDOWN_INCLUDE.finditer(data) if b"{!" in data else ():
        if not text.in_code_span(m.start()):
            found.append(_by_name(m, "markdown-include", text, in_code=text.fenced(m.start())))
    for m in MACROS_INCLUDE.finditer(data) if b"{%" in data else ():
        if not text.fenced(m.start()) and not text.in_code_span(m.start()):
            found.append(_by_name(m, "macros include", text))
    found.sort(key=lambda f: f.start)
    return found


def _partial_imports(text: _Page) -> dict[str, str]:
    """The components a page (or partial) imports from markdown files: name -> the path as
    written. The first import of a name counts, as the page's warnings read them."""
    imports: dict[str, str] = {}
    for m in _MDX_IMPORT.finditer(text.data):
        if not text.fenced(m.start()):
            imports.setdefault(_text(m.group("name")), _text(m.group("path")))
    return imports


def _partial_elements(text: _Page, imports: Mapping[str, str]) -> Iterator[re.Match[bytes]]:
    """Each ``<X />`` alone on its line outside fenced code, ``X`` one of ``imports``."""
    if not imports:
        return
    for m in _MDX_ELEMENT.finditer(text.data):
        if _text(m.group("name")) in imports and not text.fenced(m.start()):
            yield m


def _partials(text: _Page, folder: str) -> Iterator[_Found]:
    """Each MDX partial element of the page, read from the page's folder as Docusaurus
    resolves a relative import (content/syntax/docusaurus.md). Its attributes (props) are
    not read: MDX would evaluate them."""
    imports = _partial_imports(text)
    for m in _partial_elements(text, imports):
        name = _text(m.group("name"))
        path = imports[name]
        indent = m.group("indent")
        yield _Found(
            m.start(),
            m.end(),
            "MDX partial",
            path,
            _relative_name(path, folder),
            indent,
            component=name,
        )


def _md_includes(text: _Page, folder: str) -> Iterator[_Found]:
    """Each ``<!--[ \t]*@include:[ \t]*body[ \t]*-->`` on one line (``@@include`` its escape),
    found in one pass: the next ``-->`` is searched for once and kept until passed, and a
    body that holds another ``@include:`` is no include, so bodies never overlap."""
    data = text.data
    close = -1
    at = data.find(_INCLUDE_MARK)
    while at >= 0:
        after = at + len(_INCLUDE_MARK)
        following = data.find(_INCLUDE_MARK, after)
        if close < after:
            close = data.find(b"-->", after)
            if close < 0:
                return
        escaped = at > 0 and data[at - 1] == ord("@")
        opener = _comment_start(data, at - 1 if escaped else at)
        usable = opener >= 0 and (following < 0 or following > close)
        if usable and text.line(close) == text.line(at) and not text.in_code_span(opener):
            inc = _md_include(text, opener, close + 3, data[after:close], escaped, folder)
            if inc is not None:
                yield inc
        at = following


def _comment_start(data: bytes, mark: int) -> int:
    """Where ``<!--`` starts, when only blanks lie between it and ``mark``; else -1."""
    i = mark
    while i > 0 and data[i - 1] in b" \t":
        i -= 1
    return i - 4 if i >= 4 and data[i - 4 : i] == b"<!--" else -1


def _fenced_lines(data: bytes) -> set[int]:
    """The 0-based lines inside fenced code (the fence lines included)."""
    fenced: set[int] = set()
    mark = b""
    for i, line in enumerate(data.split(b"\n")):
        head = _FENCE.match(line.rstrip(b"\r"))
        if mark:
            fenced.add(i)
            closes = head and head.group("mark")[:1] == mark[:1] and not head.group("rest").strip()
            if head and closes and len(head.group("mark")) >= len(mark):
                mark = b""
        elif head and not (head.group("mark")[:1] == b"`" and b"`" in head.group("rest")):
            mark = head.group("mark")
            fenced.add(i)
    return fenced


def _relative_name(path: str, folder: str) -> str:
    """The crawl's name of a VitePress path: ``@/x`` from the content folder, anything
    else from the page's folder (a path from the root, ``/`` first)."""
    if path.startswith("@/"):
        return path
    return "/" + posixpath.normpath(posixpath.join(folder, path))


def _code_import(m: re.Match[bytes], folder: str) -> _Found | None:
    """A ``<<<`` line, when the rest of it reads as a code import; else it is text."""
    parts = _code_import_parts(m.group("rest").decode("utf-8", "replace").rstrip(" \t\r"))
    if parts is None:
        return None
    path, region, lines, lang, title = parts
    end = m.end() - 1 if m.group(0).endswith(b"\r") else m.end()
    numbers = re.split(r"[,-]", lines) if lines else []
    too_long = next((n for n in numbers if line_number(n) is None), None)
    return _Found(
        m.start(),
        end,
        "code import",
        path,
        _relative_name(path, folder),
        m.group("indent"),
        region=region,
        highlight=lines,
        lang=lang,
        title=title,
        problem=None if too_long is None else too_long_number(too_long),
    )


def _code_import_parts(rest: str) -> tuple[str, str, str, str, str] | None:
    """(path, region, lines, language, title) of ``path#region{lines lang} [title]``, each
    part after the path optional and taken off from the right, as VitePress reads it
    (``parseSnippetPath``); None when what is left is no path (blanks, braces, ``[``)."""
    title = ""
    if rest.endswith("]") and (k := rest.find("[")) >= 0:
        title, rest = rest[k + 1 : -1].strip(), rest[:k].rstrip()
    meta = ""
    if rest.endswith("}") and (k := rest.rfind("{")) > 0:
        meta, rest = rest[k + 1 : -1].strip(), rest[:k].rstrip()
    region = ""
    k = rest.rfind("#")
    if k >= 0 and _REGION_NAME.fullmatch(rest, k + 1):
        region, rest = rest[k + 1 :], rest[:k]
    if not _CODE_PATH.fullmatch(rest) or "}" in meta:
        return None
    return (rest, region, *_code_meta(meta), title)


def _code_meta(meta: str) -> tuple[str, str]:
    """(lines, language) of a code import's braces as VitePress reads them: the lines to
    highlight first, when the first word is lines (``{2}``, ``{1,3-5}``, ``{2 python}``;
    ``{1, 3}`` when lines are all it holds), then the language, then words it ignores."""
    if not meta:
        return "", ""
    if _LINE_CHARS.issuperset(meta):
        collapsed = "".join(meta.split())
        if _LINES.fullmatch(collapsed):
            return collapsed, ""
    first, *after = meta.split(None, 1)
    if not _LINES.fullmatch(first):
        return "", first
    words = after[0].split(None, 1) if after else []
    return first, words[0] if words else ""


def _md_include(
    text: _Page, start: int, end: int, body: bytes, escaped: bool, folder: str
) -> _Found | None:
    """The include ``<!--@include: body-->`` spanning ``start``-``end``, when ``body`` reads
    as ``path#region{start,end}`` (VitePress), each part after the path optional."""
    parts = _include_parts(body.strip(b" \t"))
    if parts is None:
        return None
    path, region, first, last = parts
    indent = text.own_line(start, end)
    numbers = [line_number(first or "1"), line_number(last or "0")]
    too_long = first if numbers[0] is None else last if numbers[1] is None else None
    return _Found(
        start - len(indent or b""),
        end,
        "include",
        path,
        _relative_name(path, folder),
        indent,
        region=region,
        lines=(max(numbers[0] or 1, 1), numbers[1] or 0),
        escaped=text.data[start:end].replace(b"@@", b"@", 1) if escaped else None,
        problem=None if too_long is None else too_long_number(too_long),
    )


def _include_parts(body: bytes) -> tuple[str, str, str, str] | None:
    """(path, region, first line, last line) of ``path#region{3,10}``, the numbers as
    written; None when ``body`` is no include (no path, blanks in it, a brace not a range)."""
    first = last = b""
    if body.endswith(b"}"):
        k = body.rfind(b"{")
        first, _, last = body[k + 1 : -1].partition(b",")
        if k < 0 or not all(n == b"" or n.isdigit() for n in (first, last)) or b"," in last:
            return None
        body = body[:k]
    path, region = body, b""
    k = body.rfind(b"#")
    if k >= 0 and _REGION_NAME.fullmatch(body[k + 1 :].decode("ascii", "replace")):
        path, region = body[:k], body[k + 1 :]
    if not _INCLUDE_PATH.fullmatch(path):
        return None
    return _text(path), _text(region), _text(first), _text(last)


def _by_name(m: re.Match[bytes], kind: str, text: _Page, *, in_code: bool = False) -> _Found:
    """An include named from the root, the content folder or mkdocs.yml's folder. ``\\{!``
    is shown as ``{!``: in a code block without its backslash, in prose with it (markdown
    drops it, and the backslash tells the unsupported-syntax scan it was meant)."""
    path = m.group("path").decode("utf-8", "replace")
    escape = "escape" in m.re.groupindex and bool(m.group("escape"))
    escaped = (m.group(0)[1:] if in_code else m.group(0)) if escape else None
    indent = text.own_line(m.start(), m.end())
    start = m.start() - len(indent or b"")
    return _Found(start, m.end(), kind, path, path, indent, escaped=escaped)


def _text(value: bytes | None) -> str:
    return (value or b"").decode("utf-8", "replace")


def _replacement(
    inc: _Found,
    files: Mapping[str, bytes | None],
    unread: Mapping[str, str],
    page: str,
    paths: Mapping[str, str],
) -> Replacement:
    if inc.escaped is not None:
        return Replacement(inc.start, inc.end, inc.escaped)
    what = f"{inc.kind} '{shown(inc.written)}'"
    if inc.component:
        what = f"{inc.kind} <{shown(inc.component)}> (imported from '{shown(inc.written)}')"
    body = files.get(inc.name)
    if inc.problem is not None:
        return Replacement(inc.start, inc.end, b"", f"{what}: {inc.problem}")
    if paths.get(inc.name) == page:
        return Replacement(inc.start, inc.end, b"", f"{what}: the page includes itself")
    if body is None:
        why = unread.get(inc.name) or (
            _NOT_FOUND_PARTIAL
            if inc.component
            else _NOT_FOUND_BY_NAME
            if inc.name == inc.written
            else _NOT_FOUND
        )
        return Replacement(inc.start, inc.end, b"", f"{what}: {why}")
    lines = body.decode("utf-8", "replace").replace("\r\n", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if inc.region:
        chosen = _region(lines, inc.region, markdown=inc.kind == "include")
        if chosen is None:  # nothing, as VitePress renders nothing (with its silent option)
            part = "region or section" if inc.kind == "include" else "region"
            said = f"no {part} '{shown(inc.region)}' in the file; nothing is included"
            return Replacement(inc.start, inc.end, b"", f"{what}: {said}")
        lines = chosen
    lines = lines[inc.lines[0] - 1 : inc.lines[1] or None]
    problem = None
    if inc.kind == "code import":
        lines = _fenced(lines, inc)
    elif inc.kind in ("include", "MDX partial"):
        if inc.component:
            lines, problem = _partial_body(lines, what)
        else:
            lines, problem = _without_nested(lines, what)
        if inc.name in paths:
            lines = _rebased(lines, posixpath.dirname(paths[inc.name]), posixpath.dirname(page))
    return Replacement(inc.start, inc.end, _indented(lines, inc.indent), problem)


def _without_nested(lines: list[str], what: str) -> tuple[list[str], str | None]:
    """A markdown include's lines without the includes written in them, and the warning that
    says so: sitegen reads includes one level deep (content/syntax/includes.md), and an
    ``<!--@include:-->`` left in would vanish as a comment without a word."""
    text = "\n".join(lines).encode()
    if _INCLUDE_MARK not in text:
        return lines, None
    nested = [f for f in _md_includes(_Page(text), "") if f.escaped is None]
    if not nested:
        return lines, None
    kept, pos = [], 0
    for f in nested:
        kept.append(text[pos : f.start])
        pos = f.end
    kept.append(text[pos:])
    first = nested[0]
    written = text[first.start + len(first.indent or b"") : first.end].decode("utf-8", "replace")
    more = f" ({len(nested) - 1} more)" if len(nested) > 1 else ""
    said = f"{what}: its own include '{shown(written)}'{more} is left out: sitegen reads "
    said += "includes one level deep"
    return b"".join(kept).decode("utf-8", "replace").split("\n"), said


def _partial_body(lines: list[str], what: str) -> tuple[list[str], str | None]:
    """An MDX partial's lines as Docusaurus shows them: without its front matter and its
    one-line imports, and without the partials it uses in turn, with the warning that says
    so (sitegen reads includes one level deep, content/syntax/docusaurus.md)."""
    if lines and lines[0].rstrip() == "---":
        end = next((i for i in range(1, len(lines)) if lines[i].rstrip() == "---"), -1)
        lines = lines[end + 1 :] if end > 0 else lines
    text = _Page("\n".join(lines).encode())
    if b"import" not in text.data:
        return lines, None
    nested = list(_partial_elements(text, _partial_imports(text)))
    cut = [(m.start(), m.end()) for m in nested]
    cut += [
        (m.start(), m.end()) for m in _IMPORT_LINE.finditer(text.data) if not text.fenced(m.start())
    ]
    kept, pos = [], 0
    for start, end in sorted(cut):
        kept.append(text.data[pos:start])
        pos = end
    kept.append(text.data[pos:])
    lines = b"".join(kept).decode("utf-8", "replace").split("\n")
    if not nested:
        return lines, None
    more = f" ({len(nested) - 1} more)" if len(nested) > 1 else ""
    name = _text(nested[0].group("name"))
    said = f"{what}: its own partial <{shown(name)}>{more} is left out: sitegen reads "
    return lines, said + "includes one level deep"


#: A relative destination in markdown (``](dest``, ``[ref]: dest``) or HTML (``src="dest"``).
_RELATIVE_URL = re.compile(
    r"(?P<lead>\]\(|^[ \t]{0,3}\[[^\]\n]+\]:[ \t]*|\b(?:src|href)=[\"'])"
    r"(?P<url>(?![a-zA-Z][\w+.-]*:|/|#|<)[^\s)\"'#?]+)",
    re.MULTILINE,
)


def _rebased(lines: list[str], included: str, page: str) -> list[str]:
    """A markdown include's relative links and images, made relative to the including page,
    so they still lead where they did from the included file (VitePress' rebaseRelativeUrls)."""
    if included == page:
        return lines

    def rebase(m: re.Match[str]) -> str:
        target = posixpath.normpath(posixpath.join(included, m.group("url")))
        return m.group("lead") + posixpath.relpath(target, page or ".")

    return [
        _RELATIVE_URL.sub(rebase, line) if "](" in line or "]:" in line or "=" in line else line
        for line in lines
    ]


def _region(lines: list[str], name: str, *, markdown: bool) -> list[str] | None:
    """The lines of every region ``name`` (``#region name`` to ``#endregion``), one after
    the other, as VitePress takes them: for a code import without the marker lines of the
    regions' comment styles and with their common indentation removed; for a markdown
    include as they are, else the section under the heading whose id is ``name``. None
    when there is neither."""
    regions = _find_regions(lines, name)
    if not regions:
        return _section(lines, name) if markdown else None
    chosen = [line for first, stop, _ in regions for line in lines[first:stop]]
    if markdown:
        return chosen
    styles = {style for *_, style in regions}
    return _dedent([x for x in chosen if (m := _marker(x)) is None or m[0] not in styles])


def _marker(line: str) -> tuple[int, bool, str] | None:
    """(comment style, whether it ends a region, the name) of a region marker line."""
    if "egion" not in line:  # region, Region, endregion, EndRegion
        return None
    for style, pattern in enumerate(_MARKERS):
        if found := pattern.match(line):
            name = found.group("name").strip()
            if len(name) > 1 and name[0] == name[-1] == '"':  # Visual Basic's #Region "Name"
                name = name[1:-1]
            return style, bool(found.group("end")), name
    return None


def _find_regions(lines: list[str], name: str) -> list[tuple[int, int, int]]:
    """(first line, end line (exclusive), style) of each outermost region ``name``, in
    order, by VitePress' rule: every region is tracked, a named end closes the innermost
    region of that name, an unnamed one the innermost of its own comment style. The open
    regions are indexed by name and style, so each marker costs the same at any depth."""
    found: list[tuple[int, int, int]] = []
    stack: list[tuple[str, int, int]] = []  # the open regions: name, first line, style
    by_name: dict[str, list[int]] = {}  # places in ``stack``, innermost last
    by_style: dict[int, list[int]] = {}
    for i, line in enumerate(lines):
        marker = _marker(line)
        if marker is None:
            continue
        style, ends, label = marker
        if not ends:
            by_name.setdefault(label, []).append(len(stack))
            by_style.setdefault(style, []).append(len(stack))
            stack.append((label, i + 1, style))
            continue
        open_ = by_name.get(label) if label else by_style.get(style)
        if not open_:
            continue
        innermost = open_[-1]
        closed = stack[innermost]
        while len(stack) > innermost:  # it closes the regions opened inside it too
            inner, _, inner_style = stack.pop()
            by_name[inner].pop()
            by_style[inner_style].pop()
        if closed[0] == name and not by_name.get(name):
            found.append((closed[1], i, closed[2]))
    return found


def _section(lines: list[str], name: str) -> list[str] | None:
    """The lines under the heading whose id is ``name``, up to the next heading of its level
    or above, the heading itself left out as VitePress does (its ids, or ``{#id}`` when the
    heading gives one)."""
    level, out, fence = 0, list[str](), ""
    for line in lines:
        mark = _FENCE_TEXT.match(line)
        if mark and (not fence or mark.group(1).startswith(fence)):
            fence = "" if fence else mark.group(1)
        head = None if fence or mark else _HEADING.match(line)
        if head and level and len(head.group(1)) <= level:
            break
        if level:
            out.append(line)
        elif head and _heading_id(head.group(2)) == name:
            level = len(head.group(1))
    return out if level else None


def _heading_id(text: str) -> str:
    """The id of a heading's text: its ``{#id}``, else VitePress' slug of the text without
    its closing ``#``s (CommonMark: a run of ``#`` after a blank, or the whole text)."""
    text = text.rstrip(" \t")
    bare = text.rstrip("#")
    if bare != text and (not bare or bare[-1] in " \t"):
        text = bare.rstrip(" \t")
    k = text.rfind("{#")
    given = text.endswith("}") and k > 0 and text[k - 1] in " \t"
    if given and _HEADING_ID.fullmatch(text, k + 2, len(text) - 1):
        return text[k + 2 : -1]
    return vitepress_slug(text)


def _dedent(lines: list[str]) -> list[str]:
    widths = [len(x) - len(x.lstrip()) for x in lines if x.strip()]
    cut = min(widths, default=0)
    return [x[cut:] for x in lines]


def _fenced(lines: list[str], inc: _Found) -> list[str]:
    """A code import as a fence: its language (the extension's, unless given), the lines
    it highlights and its title, in the info string sitegen's fences read."""
    lang = inc.lang or posixpath.splitext(inc.written)[1].lstrip(".")
    info = lang + (f"{{{inc.highlight}}}" if inc.highlight else "")
    title = inc.title or posixpath.basename(inc.written)
    info += f" [{title}]" if title else ""
    longest = max((len(x.lstrip()) - len(x.lstrip().lstrip("`")) for x in lines), default=0)
    fence = "`" * max(3, longest + 1)
    return [fence + info, *lines, fence]


def _indented(lines: list[str], indent: bytes | None) -> bytes:
    """The lines joined, each given the include line's indentation when it was alone on
    its line (so an include in a list item stays there); else as they are."""
    text = "\n".join(lines).encode()
    if not indent:
        return text
    return b"\n".join(indent + line if line else line for line in text.split(b"\n"))


def include_places(
    page: str, data: bytes, dialect: Dialect = Dialect.NONE
) -> list[tuple[int, str, str, int, int, str]]:
    """Every include a page writes, escapes left out, for what the page documents
    (sitegen/link/documented.py): (byte offset of its line's text, kind, the name the crawl
    reads it by, first line, last line (0: to the end), region name). In ``dialect`` with
    include variants, a ``{* file *}`` line includes its file and every variant it could
    have, whole (the documents step keeps those the crawl read)."""
    places = [
        (f.start + len(f.indent or b""), f.kind, f.name, *f.lines, f.region)
        for f in _includes(page, data, dialect)[:MAX_INCLUDES]
        if f.escaped is None and f.problem is None
    ]
    for line in _variant_lines(data, dialect)[:MAX_INCLUDES]:
        places += [(line.start, "include variant", n, 1, 0, "") for n in variant_names([line])]
    return sorted(places)
