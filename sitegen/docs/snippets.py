"""Snippets (pymdownx ``--8<-- "file"``): another file's lines put in place of the snippet line
before a page is parsed, and every position mapped back to the page's own bytes.

Never reads a file: the crawl reads the named files through its root and symlink guard and
hands their bytes in (content/syntax/snippets.md). Pure and linear in the page's size.
"""

from __future__ import annotations

import bisect
import dataclasses
import itertools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from sitegen.base.diagnostics import Diagnostic, Level, quoted
from sitegen.records.pages import Heading, Link, PageRecord

#: One snippet line: indentation, scissors, a quoted file name with an optional
#: ``:start:end`` line range (1-based, inclusive, as pymdownx reads it).
SNIPPET_LINE = re.compile(
    rb"^(?P<indent>[ \t]*)(?P<escape>;?)-{1,3}8<-{1,3}[ \t]+(?P<q>[\"'])(?P<name>[^\"'\r\n]+)(?P=q)"
    rb"[ \t]*\r?$",
    re.MULTILINE,
)
#: Most digits a line number in a range may have (a file of 10**9 lines is over any size
#: limit); a longer one leaves its include out with a warning instead of being converted
#: (Python refuses integers of over 4,300 digits, issue 27).
MAX_LINE_DIGITS = 9
#: Most snippet lines (or includes) a page may hold: the crawl looks each name up, so this
#: bounds the lookups per page. More are left out, with one warning.
MAX_INCLUDES = 1_000
#: Most bytes the includes of one page may add together: one file of max_file_size included
#: a thousand times would otherwise make a page of gigabytes.
MAX_INCLUDED_BYTES = 8_000_000
#: Most problems listed for one page's snippets and includes; the rest are counted in one line.
MAX_PROBLEMS = 20
#: Longest value a message quotes (a path, a range): longer ones are cut, with '…'.
MAX_SHOWN = 80


def shown(text: str, limit: int = MAX_SHOWN) -> str:
    """``text`` as a message quotes it: each number cut to 20 digits and the whole to
    ``limit`` characters, with '…'."""
    return quoted(text, limit)


def line_number(digits: str) -> int | None:
    """A line number written in a range, None when it has over ``MAX_LINE_DIGITS`` digits."""
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= MAX_LINE_DIGITS else None


def too_long_number(digits: str) -> str:
    """Why a range whose number ``digits`` is too long is left out (the number cut short)."""
    return (
        f"the line number {shown(digits.lstrip('0'), 20)} has over {MAX_LINE_DIGITS} digits; "
        "nothing is included"
    )


def snippet_names(data: bytes) -> list[str]:
    """The file names a page's snippet lines ask for (ranges stripped), in page order: of the
    first ``MAX_INCLUDES`` snippet lines only, the ones ``expand`` puts in place."""
    if b"8<" not in data:
        return []
    return [
        split_range(m.group("name").decode("utf-8", "replace"))[0]
        for m in itertools.islice(SNIPPET_LINE.finditer(data), MAX_INCLUDES)
        if not m.group("escape")
    ]


def split_range(name: str) -> tuple[str, int, int]:
    """``file.py:3:5`` -> (``file.py``, 3, 5), lines 3 to 5; ``file.py:3`` from line 3;
    ``file.py::5`` up to line 5; no range, the whole file (1, 0). A number of over
    ``MAX_LINE_DIGITS`` digits is read as the largest one (``range_problem`` says so)."""
    path, start, end = _range_parts(name)
    first, last = line_number(start or "1"), line_number(end or "0")
    largest = 10**MAX_LINE_DIGITS - 1
    return path, max(largest if first is None else first, 1), largest if last is None else last


def range_problem(name: str) -> str | None:
    """Why the range of snippet ``name`` cannot be read, if it cannot."""
    _, start, end = _range_parts(name)
    for digits in (start, end):
        if line_number(digits) is None:
            return too_long_number(digits)
    return None


def _range_parts(name: str) -> tuple[str, str, str]:
    """``file.py:3:5`` -> (``file.py``, ``3``, ``5``), the numbers as written: one or two
    ``:digits`` at the end (pymdownx), else no range. String tests, one pass."""
    name = name.strip()
    head, _, last = name.rpartition(":")
    if not head or not _digits(last):
        return name, "", ""
    before, _, middle = head.rpartition(":")
    if before and _digits(middle):
        return before, middle, last
    return head, last, ""


def _digits(text: str) -> bool:
    return text == "" or (text.isascii() and text.isdigit())


@dataclass(frozen=True)
class Splice:
    """One snippet line replaced: where it was in the page, and what took its place."""

    page_offset: int  # first byte of the snippet line in the page
    page_length: int  # its length, without the line break
    new_offset: int  # first byte of the inserted text in the expanded page
    new_length: int
    page_line: int  # 1-based line of the snippet line in the page
    new_lines: int  # lines the inserted text spans (the snippet line was one)


#: The code of a problem of a snippet or an include (``Replacement.code``'s default).
SNIPPET_CODE = "snippet"


@dataclass
class Expanded:
    data: bytes
    splices: list[Splice]
    problems: list[tuple[int, str]]  # (1-based page line, message)
    #: Each problem's diagnostic code, in the same order (``SNIPPET_CODE`` where it is
    #: missing): a ``:::`` block's problems are ``api`` ones.
    codes: list[str] = field(default_factory=list)

    def coded(self) -> Iterator[tuple[int, str, str]]:
        """Each problem as (line, message, code)."""
        for i, (line, message) in enumerate(self.problems):
            yield line, message, self.codes[i] if i < len(self.codes) else SNIPPET_CODE


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
    body, own_lines, nested = _without_nested(body, path)
    # Snippets in a snippet are not read (content/syntax/snippets.md): their lines are left
    # out, said once; a line that includes its own file would never end.
    problems = ["the file includes itself; that line of it is left out"] if own_lines else []
    if nested:
        more = f" ({len(nested) - 1} more)" if len(nested) > 1 else ""
        problems.append(
            f"its own snippet line '{shown(nested[0])}'{more} is left out: sitegen reads "
            "snippets one level deep"
        )
    return "; ".join(problems) or None, _lines(body, *lines, indent)


@dataclass(frozen=True)
class Replacement:
    """Part of one line of a page (``start`` to ``end``, no line break) and what takes its
    place; ``problem`` is the warning at its line, if any, with the diagnostic ``code``
    it is reported under."""

    start: int
    end: int
    text: bytes
    problem: str | None = None
    code: str = SNIPPET_CODE


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
    found = list(SNIPPET_LINE.finditer(data)) if b"8<" in data else []
    for m in found[:MAX_INCLUDES]:
        name = m.group("name").decode("utf-8", "replace")
        path, start, end = split_range(name)
        line_end = m.end() if not data[m.start() : m.end()].endswith(b"\r") else m.end() - 1
        if m.group("escape"):  # ";--8<-- ..." shows the snippet line itself, as pymdownx does
            problem, text = None, data[m.start() : line_end].replace(b";", b"", 1)
        elif (problem := range_problem(name)) is not None:
            text = b""
        else:
            own = bool(page) and (paths or {}).get(path) == page
            why = (unread or {}).get(path)  # why the crawl did not read it, if it did not
            problem, text = _inserted(
                files.get(path), path, (start, end), m.group("indent"), own, why
            )
        message = None if problem is None else f"snippet '{shown(name)}': {problem}"
        out.append(Replacement(m.start(), line_end, text, message))
    spans = [(m.start(), m.end() - m.group(0).endswith(b"\r")) for m in found[MAX_INCLUDES:]]
    return out + over_the_limit(spans, "snippet lines")


def over_the_limit(later: list[tuple[int, int]], what: str) -> list[Replacement]:
    """The snippet lines or includes past ``MAX_INCLUDES`` (their spans), left out: one
    warning at the first, saying how many."""
    said = (
        f"the page has {MAX_INCLUDES + len(later)} {what}, over the limit of {MAX_INCLUDES}: "
        f"this one and the {len(later) - 1} after it are left out"
    )
    return [Replacement(a, b, b"", None if i else said) for i, (a, b) in enumerate(later)]


def splice(data: bytes, replacements: list[Replacement]) -> Expanded:
    """``data`` with each replacement made (in page order; one that overlaps the one before
    is left out), and the splices that map the result back to ``data``."""
    out: list[bytes] = []
    splices: list[Splice] = []
    problems: list[tuple[int, str, str]] = []
    pos = grown = added = 0
    lines_before = 0
    for written in replacements:
        if written.start < pos:
            continue
        lines_before += data.count(b"\n", pos, written.start)
        fits = added + len(written.text) <= MAX_INCLUDED_BYTES
        r = written if fits else _too_much(written, added)
        added += len(r.text)
        if r.problem is not None:
            problems.append((lines_before + 1, r.problem, r.code))
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
    listed = _listed(problems)
    return Expanded(
        b"".join(out), splices, [(n, m) for n, m, _ in listed], [c for _, _, c in listed]
    )


def _too_much(r: Replacement, added: int) -> Replacement:
    """``r`` left out, since the page's includes already add ``added`` bytes."""
    said = (
        f"the page's snippets and includes add over {MAX_INCLUDED_BYTES} bytes "
        f"({added} before this one); this one is left out"
    )
    problem = f"{r.problem}; {said}" if r.problem else said
    return Replacement(r.start, r.end, b"", problem, r.code)


def _listed(problems: list[tuple[int, str, str]]) -> list[tuple[int, str, str]]:
    """The first ``MAX_PROBLEMS`` problems, and one line for the rest, at the first of them
    (with its code)."""
    if len(problems) <= MAX_PROBLEMS:
        return problems
    rest = len(problems) - MAX_PROBLEMS
    line, _, code = problems[MAX_PROBLEMS]
    said = f"{rest} more problems with this page's snippets and includes are not listed"
    return [*problems[:MAX_PROBLEMS], (line, said, code)]


def _without_nested(body: bytes, path: str) -> tuple[bytes, bool, list[str]]:
    """``body`` with its snippet lines emptied (snippets in a snippet file are not read):
    whether one named ``path`` itself, and the others as written. An escaped one
    (``;--8<--``) is shown without its ``;``, as pymdownx shows it."""
    if b"8<" not in body:
        return body, False, []
    own = False
    nested: list[str] = []

    def drop(m: re.Match[bytes]) -> bytes:
        nonlocal own
        if m.group("escape"):
            return m.group(0).replace(b";", b"", 1)
        written = m.group(0).strip().decode("utf-8", "replace")
        if split_range(m.group("name").decode("utf-8", "replace"))[0] == path:
            own = True
        else:
            nested.append(written)
        return b""

    return SNIPPET_LINE.sub(drop, body), own, nested


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
        self._firsts: list[int] | None = None
        self._added: list[int] = []

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
        """The page's line of a line of the expanded page: a bisection, since a page with
        many includes may have as many warnings."""
        if self._firsts is None:
            self._firsts, self._added, added = [], [], 0
            for s in self.splices:
                self._firsts.append(s.page_line + added)  # its first line, expanded
                self._added.append(added)
                added += s.new_lines - 1
            self._added.append(added)
        i = bisect.bisect_right(self._firsts, new_line) - 1
        if i >= 0 and new_line < self._firsts[i] + self.splices[i].new_lines:
            return self.splices[i].page_line
        return new_line - self._added[i + 1]


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
        Diagnostic(rec.path, line, 1, Level.WARNING, message, code)
        for line, message, code in expanded.coded()
    ]
    return dataclasses.replace(
        rec,
        links=[link(x) for x in rec.links],
        headings=[heading(h) for h in rec.headings],
        diagnostics=diagnostics,
    )
