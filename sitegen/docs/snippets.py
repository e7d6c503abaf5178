"""Snippets (pymdownx ``--8<-- "file"``): another file's lines put in place of the snippet line
before a page is parsed, and every position mapped back to the page's own bytes.

Never reads a file: the crawl reads the named files through its root and symlink guard and
hands their bytes in (content/syntax/snippets.md). Pure and linear in the page's size.
"""

from __future__ import annotations

import bisect
import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass

from sitegen.diagnostics import Diagnostic, Level
from sitegen.docs.records import Heading, Link, PageRecord

#: One snippet line: indentation, scissors, a quoted file name with an optional
#: ``:start:end`` line range (1-based, inclusive, as pymdownx reads it).
SNIPPET_LINE = re.compile(
    rb"^(?P<indent>[ \t]*)(?P<escape>;?)-{1,3}8<-{1,3}[ \t]+(?P<q>[\"'])(?P<name>[^\"'\r\n]+)(?P=q)"
    rb"[ \t]*\r?$",
    re.MULTILINE,
)
_RANGE = re.compile(r"(?P<path>.+?)(?::(?P<start>[0-9]*)(?::(?P<end>[0-9]*))?)?")


def snippet_names(data: bytes) -> list[str]:
    """The file names a page's snippet lines ask for (ranges stripped), in page order."""
    if b"8<" not in data:
        return []
    return [
        split_range(m.group("name").decode("utf-8", "replace"))[0]
        for m in SNIPPET_LINE.finditer(data)
        if not m.group("escape")
    ]


def split_range(name: str) -> tuple[str, int, int]:
    """``file.py:3:5`` -> (``file.py``, 3, 5), lines 3 to 5; ``file.py:3`` from line 3;
    ``file.py::5`` up to line 5; no range, the whole file (1, 0)."""
    found = _RANGE.fullmatch(name.strip())
    if found is None:
        return name.strip(), 1, 0
    start, end = found.group("start") or "", found.group("end") or ""
    return found.group("path"), max(int(start or "1"), 1), int(end or "0")


@dataclass(frozen=True)
class Splice:
    """One snippet line replaced: where it was in the page, and what took its place."""

    page_offset: int  # first byte of the snippet line in the page
    page_length: int  # its length, without the line break
    new_offset: int  # first byte of the inserted text in the expanded page
    new_length: int
    page_line: int  # 1-based line of the snippet line in the page
    new_lines: int  # lines the inserted text spans (the snippet line was one)


@dataclass
class Expanded:
    data: bytes
    splices: list[Splice]
    problems: list[tuple[int, str]]  # (1-based page line, message)


_NOT_FOUND = (
    "no such file inside the project "
    "(snippets are read from the project root, then the content folder)"
)


def _inserted(
    body: bytes | None,
    path: str,
    lines: tuple[int, int],
    indent: bytes,
    own: bool,
    why_unread: str | None,
) -> tuple[str | None, bytes]:
    """What a snippet line becomes, and the problem to report, if any."""
    if own:  # its own text would bring its snippet line back, shown as text
        return "the page includes itself", b""
    if body is None:
        return why_unread or _NOT_FOUND, b""
    body, dropped = _without_self(body, path)
    # snippets in a snippet are not read; a line that includes its own file would never end
    problem = "the file includes itself; that line of it is left out" if dropped else None
    return problem, _lines(body, *lines, indent)


@dataclass(frozen=True)
class Replacement:
    """Part of one line of a page (``start`` to ``end``, no line break) and what takes its
    place; ``problem`` is the warning at its line, if any."""

    start: int
    end: int
    text: bytes
    problem: str | None = None


def expand(
    data: bytes,
    files: Mapping[str, bytes | None],
    unread: Mapping[str, str] | None = None,
    *,
    page: str = "",
    paths: Mapping[str, str] | None = None,
) -> Expanded:
    """The page with each snippet line replaced by its file's lines (each line given the
    snippet line's indentation, so a snippet inside a list item or a fence stays there).
    A file that ``files`` does not hold leaves an empty line and a problem at the snippet's
    line: why it was not read when ``unread`` says (over ``max_file_size``, binary), else no
    such file (missing, outside the root). ``paths`` gives the repository path each name was
    read from, so a snippet of the page ``page`` itself is refused as such."""
    return splice(data, snippet_replacements(data, files, unread, page=page, paths=paths))


def snippet_replacements(
    data: bytes,
    files: Mapping[str, bytes | None],
    unread: Mapping[str, str] | None = None,
    *,
    page: str = "",
    paths: Mapping[str, str] | None = None,
) -> list[Replacement]:
    """What each snippet line of ``data`` becomes (``expand``), in page order."""
    out: list[Replacement] = []
    for m in SNIPPET_LINE.finditer(data) if b"8<" in data else ():
        name = m.group("name").decode("utf-8", "replace")
        path, start, end = split_range(name)
        line_end = m.end() if not data[m.start() : m.end()].endswith(b"\r") else m.end() - 1
        if m.group("escape"):  # ";--8<-- ..." shows the snippet line itself, as pymdownx does
            problem, text = None, data[m.start() : line_end].replace(b";", b"", 1)
        else:
            own = bool(page) and (paths or {}).get(path) == page
            why = (unread or {}).get(path)  # why the crawl did not read it, if it did not
            problem, text = _inserted(
                files.get(path), path, (start, end), m.group("indent"), own, why
            )
        message = None if problem is None else f"snippet '{name}': {problem}"
        out.append(Replacement(m.start(), line_end, text, message))
    return out


def splice(data: bytes, replacements: list[Replacement]) -> Expanded:
    """``data`` with each replacement made (in page order; one that overlaps the one before
    is left out), and the splices that map the result back to ``data``."""
    out: list[bytes] = []
    splices: list[Splice] = []
    problems: list[tuple[int, str]] = []
    pos = grown = 0
    lines_before = 0
    for r in replacements:
        if r.start < pos:
            continue
        lines_before += data.count(b"\n", pos, r.start)
        if r.problem is not None:
            problems.append((lines_before + 1, r.problem))
        out.append(data[pos : r.start])
        out.append(r.text)
        length = r.end - r.start
        splices.append(
            Splice(
                r.start,
                length,
                r.start + grown,
                len(r.text),
                lines_before + 1,
                max(r.text.count(b"\n") + 1, 1),
            )
        )
        grown += len(r.text) - length
        pos = r.end
    out.append(data[pos:])
    return Expanded(b"".join(out), splices, problems)


def _without_self(body: bytes, path: str) -> tuple[bytes, bool]:
    """``body`` with the snippet lines that name ``path`` itself emptied, and whether any did."""
    if b"8<" not in body:
        return body, False
    dropped = False

    def drop(m: re.Match[bytes]) -> bytes:
        nonlocal dropped
        own = (
            not m.group("escape")
            and split_range(m.group("name").decode("utf-8", "replace"))[0] == path
        )
        dropped = dropped or own
        return b"" if own else m.group(0)

    return SNIPPET_LINE.sub(drop, body), dropped


def _lines(body: bytes, start: int, end: int, indent: bytes) -> bytes:
    lines = body.replace(b"\r\n", b"\n").split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    chosen = lines[start - 1 : end or None]
    return b"\n".join(indent + line if line else line for line in chosen)


class PositionMap:
    """Offsets and lines of the expanded page, mapped back to the page's own bytes; a place
    inside inserted text maps to its snippet line."""

    def __init__(self, page: bytes, splices: list[Splice]) -> None:
        self.splices = splices
        self.starts = [s.new_offset for s in splices]
        self.line_starts = [0] + [m.end() for m in re.finditer(b"\n", page)]

    def offset(self, new: int) -> int:
        i = bisect.bisect_right(self.starts, new) - 1
        if i < 0:
            return new
        s = self.splices[i]
        if new < s.new_offset + s.new_length:
            return s.page_offset
        return s.page_offset + s.page_length + (new - s.new_offset - s.new_length)

    def line_col(self, page_offset: int) -> tuple[int, int]:
        i = bisect.bisect_right(self.line_starts, page_offset) - 1
        return i + 1, page_offset - self.line_starts[i] + 1

    def line(self, new_line: int) -> int:
        added = 0
        for s in self.splices:
            first = s.page_line + added  # the inserted text's first line, expanded
            if new_line < first:
                break
            if new_line < first + s.new_lines:
                return s.page_line
            added += s.new_lines - 1
        return new_line - added


def map_back(rec: PageRecord, page: bytes, expanded: Expanded) -> PageRecord:
    """``rec`` (extracted from the expanded page) with every position in the page's bytes,
    and the snippets' problems as warnings."""
    where = PositionMap(page, expanded.splices)

    def link(x: Link) -> Link:
        offset = where.offset(x.offset)
        line, column = where.line_col(offset)
        return dataclasses.replace(x, offset=offset, line=line, column=column)

    def heading(h: Heading) -> Heading:
        offset = where.offset(h.offset)
        return dataclasses.replace(h, offset=offset, line=where.line_col(offset)[0])

    diagnostics = [
        dataclasses.replace(d, line=where.line(d.line)) if d.path == rec.path else d
        for d in rec.diagnostics
    ]
    diagnostics += [
        Diagnostic(rec.path, line, 1, Level.WARNING, message, "snippet")
        for line, message in expanded.problems
    ]
    return dataclasses.replace(
        rec,
        links=[link(x) for x in rec.links],
        headings=[heading(h) for h in rec.headings],
        diagnostics=diagnostics,
    )
