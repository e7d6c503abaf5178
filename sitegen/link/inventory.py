"""Sphinx inventories (``objects.inv``, format version 2): the names another project's docs
publish, so that an autoref naming one links there offline (content/syntax/autorefs.md#inventories).

Parses the bytes the crawl read with the standard library (zlib); never reads a file and
never fetches anything. A bad inventory is a warning and the build goes on without it.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urljoin

from sitegen.diagnostics import Diagnostic, Level
from sitegen.urlgate import allowed_url

#: The first line of every inventory this reader takes; version 1 (Sphinx before 1.0) is not.
HEADER = b"# Sphinx inventory version 2"
#: What an inventory may decompress to: more is refused (a bomb, not an inventory).
MAX_TEXT = 64 * 1024 * 1024
#: ``name domain:role priority uri dispname``, as Sphinx itself reads a line (a name may hold
#: spaces: a label's title).
_LINE = re.compile(r"(.+?)\s+(\S+:\S+)\s+(-?\d+)\s+(\S*)\s+(.*)")
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
    lines = data.split(b"\n", 4)
    if len(lines) < 5 or lines[0].rstrip() != HEADER or b"zlib" not in lines[3]:
        return {}, "not a Sphinx inventory (objects.inv, version 2); ignored"
    try:
        inflater = zlib.decompressobj()
        text = inflater.decompress(lines[4], MAX_TEXT)
    except zlib.error:
        return {}, "the inventory's compressed part is damaged; ignored"
    if inflater.unconsumed_tail:
        return {}, f"the inventory holds more than {MAX_TEXT} bytes; ignored"
    if not inflater.eof:  # cut short: what came out is a part, never trusted as the whole
        return {}, "the inventory's compressed part is damaged; ignored"
    entries: dict[str, _Entry] = {}
    relative = 0
    for raw in text.decode("utf-8", errors="replace").splitlines():
        m = _LINE.fullmatch(raw.strip())
        if m is None:
            continue
        name, role, priority, uri = m.group(1), m.group(2), int(m.group(3)), m.group(4)
        uri = uri[:-1] + name if uri.endswith("$") else uri
        if not _ABSOLUTE.match(uri) and not base:
            relative += 1
            continue
        url = urljoin(base, uri)
        if not allowed_url(url) or not url.startswith(("http://", "https://")):
            continue
        rank = (role.startswith("std:"), (0, 1, 2).index(priority) if priority in (0, 1, 2) else 3)
        entry = _Entry(rank, role, url, path)
        if name not in entries or entry < entries[name]:
            entries[name] = entry
    if relative:
        return entries, (
            f"{relative} entries have addresses relative to the docs they come from, and the "
            f'inventory has no base URL: give one, inventories = {{ "https://…/" = "{path}" }}'
        )
    return entries, ""


def _warning(path: str, message: str) -> Diagnostic:
    return Diagnostic(path, 1, 1, Level.WARNING, message, CODE)
