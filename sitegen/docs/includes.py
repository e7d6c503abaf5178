"""Includes of other generators read like snippets: VitePress ``<<< @/file`` code imports and
``<!--@include: file-->``, markdown-include ``{!file!}`` and mkdocs-macros ``{% include "file" %}``.

Each is replaced by its file's text before the page is parsed, and positions map back as
snippets' do (content/syntax/includes.md). Never reads a file: the crawl reads the names
``include_names`` gives, inside the root only, and hands their bytes in. Pure and linear.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from sitegen.docs.slug import vitepress_slug
from sitegen.docs.snippets import (
    Expanded,
    Replacement,
    snippet_names,
    snippet_replacements,
    splice,
)

#: ``<<< @/file#region{1,3 lang} [title]`` on a line of its own (VitePress code import).
CODE_IMPORT = re.compile(
    rb"^(?P<indent>[ \t]*)<<<[ \t]+(?P<path>[^\s{}\[]+?)(?:#(?P<region>[\w.-]+))?"
    rb"(?:[ \t]*\{(?P<lines>[\d,\s-]*?)[ \t]*(?P<lang>[^\s{}]+)?\})?"
    rb"(?:[ \t]*\[(?P<title>[^\]\r\n]*)\])?[ \t]*\r?$",
    re.MULTILINE,
)
#: ``<!--@include: ./part.md#section{3,10}-->`` (VitePress); ``<!--@@include:`` is its escape.
MD_INCLUDE = re.compile(
    rb"<!--[ \t]*(?P<escape>@?)@include:[ \t]*(?P<path>[^\s{}]+?)(?:#(?P<region>[\w.-]+))?"
    rb"(?:\{(?P<start>\d*),?(?P<end>\d*)\})?[ \t]*-->"
)
#: markdown-include ``{!file!}`` and mdx_include ``{!+ file | utf-8 !}``; ``\{!`` escapes it.
MARKDOWN_INCLUDE = re.compile(
    rb"(?P<escape>\\?)\{![+\->]?[ \t]*(?P<path>[^\s!{}|]+)[ \t]*(?:\|[^!{}\r\n]*)?!\}"
)
#: mkdocs-macros (Jinja) ``{% include "file" %}``, quoted: the unquoted Jekyll form is not it.
MACROS_INCLUDE = re.compile(
    rb"\{%-?[ \t]*include[ \t]+(?P<q>[\"'])(?P<path>[^\"'\r\n]+)(?P=q)[ \t]*-?%\}"
)
_FENCE = re.compile(rb"^[ \t]*(?P<mark>`{3,}|~{3,})(?P<rest>.*)$")
_REGION = re.compile(
    r"^[ \t]*(?://|#|<!--|/\*|--|;|'|::|REM\b)?[ \t]*#?(?P<end>end)?region\b[ \t]*(?P<name>[\w.-]*)",
    re.IGNORECASE,
)
_FENCE_TEXT = re.compile(r"^[ \t]*(`{3,}|~{3,})")
_HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)(?:[ \t]+\{#(?P<id>[\w-]+)\})?[ \t]*#*[ \t]*$")

_NOT_FOUND = (
    "no such file inside the project (read from the page's folder, or the content folder for '@/')"
)
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


def include_names(page: str, data: bytes) -> list[str]:
    """Every name a page's includes ask the crawl to read, snippets' first, in page order.
    A name is a path from the root, content folder or mkdocs.yml's folder as snippets are
    read; ``@/x`` from the content folder only, ``/x`` from the project root only."""
    names = snippet_names(data)
    names += [f.name for f in _includes(page, data) if f.escaped is None]
    return names


def expand_includes(
    page: str,
    data: bytes,
    files: Mapping[str, bytes | None],
    unread: Mapping[str, str] | None = None,
    paths: Mapping[str, str] | None = None,
) -> Expanded | None:
    """The page with its snippets and includes in place, or None when it has neither."""
    found = snippet_replacements(data, files, unread, page=page, paths=paths)
    for inc in _includes(page, data):
        found.append(_replacement(inc, files, unread or {}, page, paths or {}))
    if not found:
        return None
    return splice(data, sorted(found, key=lambda r: r.start))


def _includes(page: str, data: bytes) -> Iterator[_Found]:
    if b"<<<" not in data and b"@include" not in data and b"{!" not in data and b"{%" not in data:
        return
    fenced = _fenced_lines(data)
    line_starts = [0] + [m.end() for m in re.finditer(rb"\n", data)]
    folder = posixpath.dirname(page)

    def outside(offset: int) -> bool:  # not in a fence, nor in a code span of its line
        line = _line_of(line_starts, offset)
        return line not in fenced and _outside_code_span(data, line_starts[line], offset)

    for m in CODE_IMPORT.finditer(data) if b"<<<" in data else ():
        if _line_of(line_starts, m.start()) not in fenced:
            yield _code_import(m, folder)
    for m in MD_INCLUDE.finditer(data) if b"@include" in data else ():
        if _outside_code_span(data, line_starts[_line_of(line_starts, m.start())], m.start()):
            yield _md_include(m, folder, data)
    for m in MARKDOWN_INCLUDE.finditer(data) if b"{!" in data else ():
        line = _line_of(line_starts, m.start())
        if _outside_code_span(data, line_starts[line], m.start()):
            yield _by_name(m, "markdown-include", data, in_code=line in fenced)
    for m in MACROS_INCLUDE.finditer(data) if b"{%" in data else ():
        if outside(m.start()):
            yield _by_name(m, "macros include", data)


def _line_of(line_starts: list[int], offset: int) -> int:
    """The 0-based line of ``offset``."""
    lo, hi = 0, len(line_starts)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if line_starts[mid] <= offset:
            lo = mid
        else:
            hi = mid
    return lo


def _outside_code_span(data: bytes, line_start: int, offset: int) -> bool:
    """Whether ``offset`` is outside a code span: an even number of backticks before it on
    its line (``{!x!}`` written in a code span is shown, as when a page documents it)."""
    return data.count(b"`", line_start, offset) % 2 == 0


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


def _own_line(data: bytes, start: int, end: int) -> bytes | None:
    """The indentation of the line, when the span ``start``-``end`` is all it holds (the
    include then replaces the line from its start)."""
    line_start = data.rfind(b"\n", 0, start) + 1
    line_end = data.find(b"\n", end)
    line_end = len(data) if line_end < 0 else line_end
    before, after = data[line_start:start], data[end:line_end]
    if before.strip(b" \t") or after.strip(b" \t\r"):
        return None
    return before


def _code_import(m: re.Match[bytes], folder: str) -> _Found:
    path = m.group("path").decode("utf-8", "replace")
    end = m.end() - 1 if m.group(0).endswith(b"\r") else m.end()
    return _Found(
        m.start(),
        end,
        "code import",
        path,
        _relative_name(path, folder),
        m.group("indent"),
        region=_text(m.group("region")),
        highlight=_text(m.group("lines")).replace(" ", ""),
        lang=_text(m.group("lang")),
        title=_text(m.group("title")).strip(),
    )


def _md_include(m: re.Match[bytes], folder: str, data: bytes) -> _Found:
    path = m.group("path").decode("utf-8", "replace")
    start, end = m.group("start") or b"", m.group("end") or b""
    escaped = m.group(0).replace(b"@@", b"@", 1) if m.group("escape") else None
    indent = _own_line(data, m.start(), m.end())
    return _Found(
        m.start() - len(indent or b""),
        m.end(),
        "include",
        path,
        _relative_name(path, folder),
        indent,
        region=_text(m.group("region")),
        lines=(max(int(start or b"1"), 1), int(end or b"0")),
        escaped=escaped,
    )


def _by_name(m: re.Match[bytes], kind: str, data: bytes, *, in_code: bool = False) -> _Found:
    """An include named from the root, the content folder or mkdocs.yml's folder. ``\\{!``
    is shown as ``{!``: in a code block without its backslash, in prose with it (markdown
    drops it, and the backslash tells the unsupported-syntax scan it was meant)."""
    path = m.group("path").decode("utf-8", "replace")
    escape = "escape" in m.re.groupindex and bool(m.group("escape"))
    escaped = (m.group(0)[1:] if in_code else m.group(0)) if escape else None
    indent = _own_line(data, m.start(), m.end())
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
    what = f"{inc.kind} '{inc.written}'"
    body = files.get(inc.name)
    if paths.get(inc.name) == page:
        return Replacement(inc.start, inc.end, b"", f"{what}: the page includes itself")
    if body is None:
        why = unread.get(inc.name) or (
            _NOT_FOUND_BY_NAME if inc.name == inc.written else _NOT_FOUND
        )
        return Replacement(inc.start, inc.end, b"", f"{what}: {why}")
    lines = body.decode("utf-8", "replace").replace("\r\n", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    problem = None
    if inc.region:
        chosen = _region(lines, inc.region, heading=inc.kind == "include")
        if chosen is None:
            problem = f"{what}: no region or section '{inc.region}' in the file"
        lines = chosen or []
    lines = lines[inc.lines[0] - 1 : inc.lines[1] or None]
    if inc.kind == "code import":
        lines = _fenced(lines, inc)
    elif inc.kind == "include" and inc.name in paths:
        lines = _rebased(lines, posixpath.dirname(paths[inc.name]), posixpath.dirname(page))
    return Replacement(inc.start, inc.end, _indented(lines, inc.indent), problem)


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


def _region(lines: list[str], name: str, *, heading: bool) -> list[str] | None:
    """The lines of region ``name`` (``#region name`` to ``#endregion``, markers left out,
    its common indentation removed; every region of that name, one after the other); for a
    markdown include, else the section under the heading whose id is ``name``. None when
    there is neither."""
    depth, found, chosen = 0, False, list[str]()
    for line in lines:
        marker = _REGION.match(line)
        if marker and not marker.group("end") and (depth or marker.group("name") == name):
            depth, found = depth + 1, True
        elif marker and marker.group("end") and depth:
            depth -= 1
        elif depth and not marker:
            chosen.append(line)
    if found:
        return _dedent(chosen)
    return _section(lines, name) if heading else None


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
        elif head and (head.group("id") or vitepress_slug(head.group(2))) == name:
            level = len(head.group(1))
    return out if level else None


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


def include_places(page: str, data: bytes) -> list[tuple[int, str, str, int, int, str]]:
    """Every include a page writes, escapes left out, for what the page documents
    (sitegen/link/documents.py): (byte offset of its line's text, kind, the name the crawl
    reads it by, first line, last line (0: to the end), region name)."""
    return [
        (f.start + len(f.indent or b""), f.kind, f.name, *f.lines, f.region)
        for f in _includes(page, data)
        if f.escaped is None
    ]
