"""Include variants (the ``markdown_include_variants`` extension of FastAPI, Typer and SQLModel):
a line ``{* ../../docs_src/app/tutorial001_py310.py hl[3,5] ln[1:8] *}`` becomes the file in a
tab, and its variant files (``_an``, ``_py39``, ``_py310``, ``_py311``) in tabs under "Other
versions and variants", written as the ``///`` blocks the page's parser reads
(content/syntax/include-variants.md).

Never reads a file: the crawl reads the names ``variant_names`` gives, inside the root only,
and hands their bytes in. Pure, and linear in the page and in the bytes it adds.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field

from sitegen.docs.snippets import (
    MAX_INCLUDED_BYTES,
    MAX_INCLUDES,
    Replacement,
    line_number,
    over_the_limit,
    shown,
)

#: A variants line starts the line with ``{*``; the rest of it is read by ``_variant_line``
#: with string tests (the extension's pattern backtracks over a long line).
_LINE_START = re.compile(rb"^\{\*[^\n]*", re.MULTILINE)
#: One option after the path: ``hl[3,5:7]``, ``ln[1:8]``, ``title["app/main.py"]``.
_OPTION = re.compile(r"(\w+)\[([^\]]+)\]")
#: The suffixes the extension strips from a file's (or a folder's) name to find its family,
#: and the Python versions it knows, newest first, with the label of each.
_SUFFIXES = ("_an", "_py39", "_py310", "_py311")
_ANNOTATED = "_an"
_VERSIONS = (("_py311", "3.11"), ("_py310", "3.10"), ("_py39", "3.9"), ("", "3.8"))
#: Most ranges one ``hl[…]`` or ``ln[…]`` may list; more are left out, said once.
MAX_RANGES = 100

_NOT_FOUND = (
    "no such file inside the project (read from the project root, the content folder, "
    "then the folder of mkdocs.yml, where MkDocs runs)"
)
_PREFER_ANNOTATED = ("/// tip", "", "Prefer to use the `Annotated` version if possible.", "", "///")


@dataclass(frozen=True)
class VariantLine:
    """One ``{* path options *}`` line of a page: its span (no line break), the path as
    written and the options after it."""

    start: int
    end: int
    written: str
    options: str


@dataclass(frozen=True)
class Variant:
    """One file of a family: the crawl's name of it, its tab's label, and whether it is the
    ``Annotated`` one of its version (None when the version has one file only)."""

    name: str
    title: str
    annotated: bool | None
    version: int  # 0 for the newest version the extension knows


@dataclass
class _Options:
    """What a line's options ask: lines to show and to highlight (1-based, inclusive), a
    title, and the problems reading them."""

    shown: list[tuple[int, int]] = field(default_factory=list)
    marked: list[tuple[int, int]] = field(default_factory=list)
    title: str = ""
    problems: list[str] = field(default_factory=list)


def variant_lines(data: bytes, fenced: Callable[[int], bool]) -> list[VariantLine]:
    """Each ``{* path … *}`` line of a page, in page order, that starts its line as the
    extension requires and is not inside fenced code (``fenced(offset)``): a page that
    shows the syntax in a code block keeps it as written."""
    if b"{*" not in data:
        return []
    found = []
    for m in _LINE_START.finditer(data):
        line = m.group(0).rstrip(b"\r")
        parsed = _variant_line(line.decode("utf-8", "replace"))
        if parsed is not None and not fenced(m.start()):
            found.append(VariantLine(m.start(), m.start() + len(line), *parsed))
    return found


def _variant_line(line: str) -> tuple[str, str] | None:
    """(path, options) of ``{* path options *}``, the whole line; None when it is not one."""
    if len(line) < 5 or not line.endswith("*}"):
        return None
    parts = line[2:-2].split(None, 1)
    if not parts:
        return None
    return parts[0], parts[1].strip() if len(parts) > 1 else ""


def variant_names(lines: list[VariantLine]) -> list[str]:
    """Every name the crawl must look up for ``lines`` (of the first ``MAX_INCLUDES``): each
    file as written and every variant it could have, found or not, so that a variant file
    created later is read and watched (``sitegen serve``)."""
    names: dict[str, None] = {}
    for line in lines[:MAX_INCLUDES]:
        if line.written.endswith(".py"):
            names[line.written] = None
            names.update(dict.fromkeys(c for c, _, _ in _candidates(line.written)))
            names.update(dict.fromkeys(c for c, _, _ in _folder_candidates(line.written)))
    return list(names)


def variant_replacements(
    lines: list[VariantLine],
    files: Mapping[str, bytes | None],
    unread: Mapping[str, str],
) -> list[Replacement]:
    """What each line becomes (content/syntax/include-variants.md): the tabs, or nothing
    and a warning at the line (a missing file, a bad option). The bytes they add together
    stop at ``MAX_INCLUDED_BYTES``, checked while they are written."""
    out: list[Replacement] = []
    budget = MAX_INCLUDED_BYTES
    for line in lines[:MAX_INCLUDES]:
        text, problem = _written(line, files, unread, budget)
        budget -= len(text)
        what = f"include variants '{shown(line.written)}'"
        out.append(
            Replacement(
                line.start, line.end, text, None if problem is None else f"{what}: {problem}"
            )
        )
    spans = [(x.start, x.end) for x in lines[MAX_INCLUDES:]]
    return out + over_the_limit(spans, "include variants lines")


def _written(
    line: VariantLine, files: Mapping[str, bytes | None], unread: Mapping[str, str], budget: int
) -> tuple[bytes, str | None]:
    """The markdown ``line`` becomes, and the problem to report, if any."""
    if not line.written.endswith(".py"):
        return b"", "only a Python file (.py) has variants; nothing is included"
    if files.get(line.written) is None:
        return b"", unread.get(line.written) or _NOT_FOUND
    family = variants_of(line.written, lambda name: files.get(name) is not None)
    chosen = next((v for v in family if v.name == line.written), None)
    if chosen is None:  # a name whose suffixes are in another order: the extension fails
        return b"", (
            "its name is none of its family's (_an before _py310, as in x_an_py310.py); "
            "nothing is included"
        )
    options = _options(line.options)
    others = [v for v in family if v is not chosen]
    blocks = _Blocks(budget)
    try:
        _write(blocks, chosen, others, options, files)
    except _TooMuch:
        said = f"with the page's other includes it adds over {MAX_INCLUDED_BYTES} bytes"
        return b"", f"{said}; it is left out"
    problems = options.problems + [
        f"its variant '{shown(v.name)}' is not shown: {unread[v.name]}"
        for v in _unread_variants(line.written, unread)
    ]
    return blocks.text(), "; ".join(problems) or None


def _unread_variants(written: str, unread: Mapping[str, str]) -> Iterator[Variant]:
    """The variants the crawl found but did not read (too big, binary, left out)."""
    if not unread:
        return
    for name, _, _ in [*_candidates(written), *_folder_candidates(written)]:
        if name != written and name in unread:
            yield Variant(name, "", None, 0)


# --- the family of a file -------------------------------------------------------------------


def _stem(name: str) -> str:
    """``name`` without the extension's suffixes at its end, in any order, each as often as
    it comes (``tutorial002_an_py310`` -> ``tutorial002``)."""
    stripped = True
    while stripped:
        stripped = False
        for suffix in _SUFFIXES:
            if name.endswith(suffix):
                name, stripped = name[: -len(suffix)], True
                break
    return name


def _family(make: Callable[[str], str]) -> list[tuple[str, int, bool]]:
    """(name, version, annotated) of each member a family may have: ``make(suffix)`` names
    the member of that suffix (``_an_py310``, ``_py310``, …, ``_an``, "")."""
    return [
        (make(an + suffix), version, bool(an))
        for version, (suffix, _) in enumerate(_VERSIONS)
        for an in (_ANNOTATED, "")
    ]


def _candidates(written: str) -> list[tuple[str, int, bool]]:
    """The family of ``written`` in its own folder: the same stem with each suffix."""
    folder, base = posixpath.split(written)
    stem = _stem(posixpath.splitext(base)[0])
    return _family(lambda suffix: posixpath.join(folder, f"{stem}{suffix}.py"))


def _folder_candidates(written: str) -> list[tuple[str, int, bool]]:
    """The family of ``written`` by its folder's name (``app_an_py310/main.py``): the same
    file in the sibling folders with each suffix."""
    folder, base = posixpath.split(written)
    parent, name = posixpath.split(folder)
    if not name or name in (".", ".."):
        return []
    stem = _stem(name)
    return _family(lambda suffix: posixpath.join(parent, f"{stem}{suffix}", base))


def _found(candidates: list[tuple[str, int, bool]], exists: Callable[[str], bool]) -> list[Variant]:
    """The members that exist, labelled as the extension labels them: a version with an
    ``_an`` file shows it as "Python 3.10+" and the other as "… - non-Annotated"."""
    out: list[Variant] = []
    by_version: dict[int, dict[bool, str]] = {}
    for name, version, annotated in candidates:
        if exists(name):
            by_version.setdefault(version, {})[annotated] = name
    for version, members in sorted(by_version.items()):
        label = f"Python {_VERSIONS[version][1]}+"
        if True in members:
            out.append(Variant(members[True], label, True, version))
            if False in members:
                out.append(Variant(members[False], f"{label} - non-Annotated", False, version))
        else:
            out.append(Variant(members[False], label, None, version))
    return out


def variants_of(written: str, exists: Callable[[str], bool]) -> list[Variant]:
    """The files of ``written``'s family that exist, in the extension's order: the
    ``Annotated`` ones, newest Python first, then the non-Annotated, then the versions with
    one file. By the folder's name when the file's own name gives one file only and the
    folder gives more, or gives a versioned one where the file's is the plain ``x.py``."""
    family = _found(_candidates(written), exists)
    if len(family) == 1:
        by_folder = _found(_folder_candidates(written), exists)
        plain = len(_VERSIONS) - 1
        if len(by_folder) > 1 or (
            len(by_folder) == 1
            and (family[0].version, family[0].annotated) == (plain, None)
            and (by_folder[0].version, by_folder[0].annotated) != (plain, None)
        ):
            family = by_folder
    order = {True: 0, False: 1, None: 2}
    return sorted(family, key=lambda v: (order[v.annotated], v.version))


# --- options ----------------------------------------------------------------------------------


def _options(written: str) -> _Options:
    """The ``hl[…]``, ``ln[…]`` and ``title["…"]`` of a line; another name is ignored, as
    the extension ignores it."""
    options = _Options()
    for m in _OPTION.finditer(written):
        name, value = m.group(1), m.group(2)
        if name in ("hl", "ln"):
            ranges, problem = _ranges(value)
            (options.marked if name == "hl" else options.shown).extend(ranges)
            if problem:
                options.problems.append(f"{name}[{shown(value)}]: {problem}")
        elif name == "title":
            if len(value) >= 2 and value[0] == value[-1] == '"':
                options.title = value[1:-1].replace('"', "")
            else:
                options.problems.append(f"title[{shown(value)}] is not in double quotes; no title")
    return options


def _ranges(value: str) -> tuple[list[tuple[int, int]], str | None]:
    """``3,5:7`` -> [(3, 3), (5, 7)], sorted, as the extension reads a list of lines; the
    problem when a part is no line number or range (that part is left out)."""
    ranges: list[tuple[int, int]] = []
    bad = ""
    parts = value.split(",")
    for part in parts[:MAX_RANGES]:
        first, colon, last = part.strip().partition(":")
        numbers = [_number(first), _number(last) if colon else _number(first)]
        if numbers[0] is None or numbers[1] is None:
            bad = bad or part.strip()
            continue
        ranges.append((numbers[0], numbers[1]))
    ranges.sort()
    if bad:
        return ranges, f"'{shown(bad, 20)}' is no line number or range (3 or 3:8); it is left out"
    if len(parts) > MAX_RANGES:
        return ranges, f"over {MAX_RANGES} ranges; the first {MAX_RANGES} are read"
    return ranges, None


def _number(digits: str) -> int | None:
    digits = digits.strip()
    return line_number(digits) if digits.isascii() and digits.isdigit() else None


# --- the markdown written -----------------------------------------------------------------------


class _TooMuch(Exception):
    """The lines written would pass the page's budget."""


class _Blocks:
    """The lines written for one include, counted against a budget of bytes as they come."""

    def __init__(self, budget: int) -> None:
        self.lines: list[str] = [""]  # a blank line first: the tabs never join a paragraph
        self.budget = budget

    def add(self, *lines: str) -> None:
        for line in lines:
            self.budget -= len(line) + 1
            if self.budget < 0:
                raise _TooMuch
            self.lines.append(line)

    def text(self) -> bytes:
        return "\n".join(self.lines).encode()


def _write(
    blocks: _Blocks,
    chosen: Variant,
    others: list[Variant],
    options: _Options,
    files: Mapping[str, bytes | None],
) -> None:
    """The extension's layout: the chosen file in a tab (only the ``ln`` lines, with what is
    left out said in comments, when there are some), then the whole file under "Full file
    preview", then the other variants' tabs under "Other versions and variants"."""
    lines = _lines(files.get(chosen.name))
    title = f' title="{options.title}"' if options.title else ""
    if options.shown != [(0, 0)]:
        body, marked = _excerpt(lines, options.shown, options.marked)
        hl = f' hl_lines="{_spans(marked)}"' if marked else ""
        _tab(blocks, chosen.title, "python" + hl + title, body)
    if options.shown:
        hl = f' hl_lines="{_spans(options.marked)}"' if options.marked else ""
        blocks.add("///// details | 👀 Full file preview", "")
        _tab(blocks, chosen.title, "python" + hl + title, lines)
        blocks.add("/////", "")
    if others:
        blocks.add("///// details | 🤓 Other versions and variants", "")
        for v in others:
            tip = _PREFER_ANNOTATED if v.annotated is False else ()
            _tab(blocks, v.title, "python" + title, _lines(files.get(v.name)), tip)
        blocks.add("/////", "")


def _tab(
    blocks: _Blocks, label: str, info: str, code: list[str], before: tuple[str, ...] = ()
) -> None:
    """A ``//// tab | label`` block holding ``before`` and the code in a fence longer than
    any run of backticks that starts one of its lines."""
    longest = max((len(x) - len(x.lstrip("`")) for x in code), default=0)
    ticks = "`" * max(3, longest + 1)
    blocks.add(f"//// tab | {label}", "")
    if before:
        blocks.add(*before, "")
    blocks.add(ticks + info, *code, ticks, "", "////", "")


def _lines(data: bytes | None) -> list[str]:
    lines = (data or b"").decode("utf-8", "replace").replace("\r\n", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _excerpt(
    lines: list[str], shown_: list[tuple[int, int]], marked: list[tuple[int, int]]
) -> tuple[list[str], list[tuple[int, int]]]:
    """The lines of ``shown_`` (all when empty) with a comment for each part left out, and
    the ``marked`` ranges moved to where their lines now stand (a range that is not wholly
    inside one shown part is not highlighted, as the extension does)."""
    if not shown_:
        return lines, marked
    out: list[str] = []
    moved: list[tuple[int, int]] = []
    for i, (first, last) in enumerate(shown_):
        if i == 0 and first > 1:
            out += ["# Code above omitted 👆", ""]
        elif i > 0:
            out += ["", "# Code here omitted 👈", ""]
        shift = len(out) + 1 - first
        moved += [(a + shift, b + shift) for a, b in marked if first <= a and b <= last]
        out += lines[max(first, 1) - 1 : last]
    if shown_[-1][1] < len(lines):
        out += ["", "# Code below omitted 👇"]
    return out, moved


def _spans(ranges: list[tuple[int, int]]) -> str:
    """``[(3, 3), (5, 7)]`` -> ``3 5-7``, as a fence's ``hl_lines`` reads them."""
    return " ".join(str(a) if a == b else f"{a}-{b}" for a, b in ranges)
