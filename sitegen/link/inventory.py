"""Sphinx inventories (``objects.inv``, format version 2): the names another project's docs
publish, so that an autoref naming one links there offline (content/syntax/autorefs.md#inventories).

Parses the bytes the crawl read with the standard library (zlib); never reads a file and
never fetches anything. A bad inventory is a warning and the build goes on without it.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from urllib.parse import urljoin

from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.base.plural import counted
from sitegen.base.urlgate import allowed_url

#: The first line of every inventory this reader takes; version 1 (Sphinx before 1.0) is not.
HEADER = b"# Sphinx inventory version 2"
#: What an inventory may decompress to: more is refused (a bomb, not an inventory).
MAX_TEXT = 64 * 1024 * 1024
#: Lines read from one inventory; the rest is ignored with a warning. Python's own has about
#: 20,000 and the largest published ones a few hundred thousand.
MAX_LINES = 1_000_000
#: A longer line is skipped (counted in the inventory's warning): real ones are names,
#: addresses and titles, a few hundred characters at most.
MAX_LINE = 64 * 1024
#: A priority is -1, 0, 1 or 2 in practice; a longer number is skipped, never given to int()
#: (Python refuses to convert more than 4,300 digits).
MAX_PRIORITY_DIGITS = 9
_TOKEN = re.compile(r"\S+")  # one maximal run: linear, nothing to backtrack into
_ABSOLUTE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
CODE = "inventory"


@dataclass(frozen=True, order=True)
class _Entry:
    """One name's target, ordered best first: a Python object before a page label, a
    default priority before an unimportant one and a hidden one last; then by URL."""

    rank: tuple[int, int]
    role: str
    url: str
    source: str = field(compare=False)


@dataclass
class Inventories:
    """Every name of every inventory the configuration names, with its URL."""

    by_name: dict[str, _Entry] = field(default_factory=dict)
    #: What was wrong with an inventory (the build reports these with the links).
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def find(self, name: str) -> tuple[str, str] | None:
        """The URL ``name`` has in an inventory, and that inventory's path; None if none."""
        entry = self.by_name.get(name)
        return (entry.url, entry.source) if entry is not None else None


def load_inventories(
    wanted: tuple[tuple[str, str], ...], read: Mapping[str, bytes | str]
) -> Inventories:
    """The inventories ``wanted`` names (repository path and base URL), from the bytes the
    crawl ``read`` (or why it could not read one). The first inventory that names a name
    decides, in the configuration's order."""
    out = Inventories()
    for path, base in wanted:
        data = read.get(path, "no such file inside the project root")
        if isinstance(data, str):
            out.diagnostics.append(_warning(path, f"inventory not read: {data}"))
            continue
        entries, problem = parse_inventory(data, base, path)
        if problem:
            out.diagnostics.append(_warning(path, problem))
        for name, entry in sorted(entries.items()):
            out.by_name.setdefault(name, entry)
    return out


def parse_inventory(data: bytes, base: str, path: str) -> tuple[dict[str, _Entry], str]:
    """Each name's best entry, and what is wrong with the file ("" when nothing is)."""
    text, problem = _inflate(data)
    if text is None:
        return {}, problem
    reading = _Reading(base, path)
    for line in _lines(text, reading):
        reading.take(line)
    return reading.entries, reading.problem()


def _inflate(data: bytes) -> tuple[str | None, str]:
    """The text of the inventory's compressed part, at most ``MAX_TEXT`` bytes, or why not."""
    lines = data.split(b"\n", 4)
    if len(lines) < 5 or lines[0].rstrip() != HEADER or b"zlib" not in lines[3]:
        return None, "not a Sphinx inventory (objects.inv, version 2); ignored"
    try:
        inflater = zlib.decompressobj()
        text = inflater.decompress(lines[4], MAX_TEXT)
    except zlib.error:
        return None, "the inventory's compressed part is damaged; ignored"
    if inflater.unconsumed_tail:
        return None, f"the inventory holds more than {MAX_TEXT:,} bytes; ignored"
    if not inflater.eof:  # cut short: what came out is a part, never trusted as the whole
        return None, "the inventory's compressed part is damaged; ignored"
    return text.decode("utf-8", errors="replace"), ""


@dataclass
class _Reading:
    """The entries of one inventory so far, and the lines it skipped, by reason."""

    base: str
    path: str
    entries: dict[str, _Entry] = field(default_factory=dict)
    relative: int = 0
    long_lines: int = 0
    long_priorities: int = 0
    cut: bool = False  # more than MAX_LINES lines

    def take(self, line: str) -> None:
        fields = _fields(line)
        if fields is None:
            return  # not an entry: Sphinx skips such a line too
        name, role, priority, uri = fields
        if len(priority.removeprefix("-")) > MAX_PRIORITY_DIGITS:
            self.long_priorities += 1
            return
        uri = uri[:-1] + name if uri.endswith("$") else uri
        if not _ABSOLUTE.match(uri) and not self.base:
            self.relative += 1
            return
        url = urljoin(self.base, uri)
        if not allowed_url(url) or not url.startswith(("http://", "https://")):
            return
        number = int(priority)
        rank = (role.startswith("std:"), (0, 1, 2).index(number) if number in (0, 1, 2) else 3)
        entry = _Entry(rank, role, url, self.path)
        if name not in self.entries or entry < self.entries[name]:
            self.entries[name] = entry

    def problem(self) -> str:
        said = []
        if self.relative:
            said.append(
                f"{self.relative} entries have addresses relative to the docs they come from, "
                "and the inventory has no base URL: give one, "
                f'inventories = {{ "https://…/" = "{self.path}" }}'
            )
        if self.long_lines:
            said.append(f"{counted(self.long_lines, 'line')} over {MAX_LINE:,} characters skipped")
        if self.long_priorities:
            said.append(
                f"{counted(self.long_priorities, 'line')} with a priority of more than "
                f"{MAX_PRIORITY_DIGITS} digits skipped"
            )
        if self.cut:
            said.append(f"only the first {MAX_LINES:,} lines read")
        return "; ".join(said)


def _lines(text: str, reading: _Reading) -> Iterator[str]:
    """The lines of ``text`` (split at ``\\n``, as Sphinx splits them), each found from where
    the last one ended; at most ``MAX_LINES``, none over ``MAX_LINE`` characters."""
    start = 0
    for _ in range(MAX_LINES):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        if end - start > MAX_LINE:
            reading.long_lines += 1
        else:
            yield text[start:end]
        if end >= len(text):
            return
        start = end + 1
    reading.cut = True


def _fields(line: str) -> tuple[str, str, str, str] | None:
    """``name domain:role priority uri dispname`` as Sphinx reads it (sphinx/util/inventory.py,
    a lazy pattern): the name is the shortest run of words followed by a role (a word with a
    colon inside), a priority (an integer), an address and a display name; the address is
    empty where two spaces separate the priority from the last word. Words are found once
    each, so a line costs time linear in its length (a pattern took 173 s over 160,000 spaces)."""
    line = line.strip()
    spans = [m.span() for m in _TOKEN.finditer(line)]
    for i in range(1, len(spans) - 2):
        role = line[spans[i][0] : spans[i][1]]
        priority = line[spans[i + 1][0] : spans[i + 1][1]]
        if ":" not in role[1:-1] or not _is_integer(priority):
            continue
        if i + 3 < len(spans):
            uri = line[spans[i + 2][0] : spans[i + 2][1]]
        elif spans[i + 2][0] - spans[i + 1][1] >= 2:
            uri = ""
        else:
            continue
        return line[: spans[i - 1][1]], role, priority, uri
    return None


def _is_integer(word: str) -> bool:
    digits = word.removeprefix("-")
    return digits.isascii() and digits.isdigit()


def _warning(path: str, message: str) -> Diagnostic:
    return Diagnostic(path, 1, 1, Level.WARNING, message, CODE)
