"""A peer's graph.md to the edges that point at this site: ParseExport's reading, then the
target filter (content/reference/urls.md normalization, loopback and private hosts
dropped).

Pure: bytes in, a ``PeerCopy`` out (with what to report); never reads files, never fetches.
Bounded: linear in the input, with caps on lines, line length, edges kept and problems
reported (content/guides/federation.md).
"""

from __future__ import annotations

import heapq
import re
from dataclasses import dataclass

from sitegen.base.diagnostics import cut
from sitegen.base.paths import NodeId
from sitegen.base.plural import counted
from sitegen.base.urlgate import is_private_url
from sitegen.graph.export import atx_heading, parse_graph_md
from sitegen.graph.model import Edge
from sitegen.link.rules import normalize_url
from sitegen.records.federation import PeerCopy, PeerEdge

#: Lines of a peer's graph.md read at most; the rest is left with one warning. A site of
#: 20,000 pages exports about that many rows; this keeps the parser's memory bounded.
MAX_LINES = 200_000
#: Bytes a line may have; a longer one is a malformed row (a row is a few hundred bytes).
MAX_LINE_BYTES = 16_384
#: Edges into this site kept per peer; the rest are counted and left.
MAX_EDGES = 100_000
#: Malformed rows reported one by one per reading; the others are counted in one line.
MAX_PROBLEMS = 10
#: Characters of a problem's message shown: a message may quote a cell of any length.
MAX_MESSAGE = 160
#: Characters of a linking page's title kept, and of the peer's name: a title is copied
#: onto every edge from its page, so a long one would multiply the stored copy.
MAX_TITLE = 200
#: Where a line that cannot be read stood: a row the table reader reads and the edge reader
#: skips, so the table around it is read on.
_BAD_ROW = "|"
#: CommonMark line endings, as ParseExport splits: a line number means the same to both.
_LINE_END = re.compile(rb"\r\n|\r|\n")


@dataclass(frozen=True)
class Ingested:
    """One reading of a peer's graph.md: the copy to store, whether it held an edge table at
    all (a page without one is no graph.md: an error page, a login form), and the problems
    to report now (at most ``MAX_PROBLEMS`` rows, then one line counting the rest)."""

    copy: PeerCopy
    has_table: bool
    problems: tuple[tuple[int, str], ...]


def decode_rows(data: bytes) -> tuple[str, dict[int, str], bool]:
    """The text of the first ``MAX_LINES`` lines, the 1-based lines that could not be read
    (not valid UTF-8, or longer than ``MAX_LINE_BYTES``), each replaced by a row the parser
    skips, and whether lines past ``MAX_LINES`` were left unread."""
    lines = _LINE_END.split(data, MAX_LINES)
    truncated = len(lines) > MAX_LINES
    if truncated:
        lines.pop()  # the unsplit rest
    bad: dict[int, str] = {}
    out = []
    for number, raw in enumerate(lines, start=1):
        if len(raw) > MAX_LINE_BYTES:
            bad[number] = f"row is longer than {MAX_LINE_BYTES:,} bytes; row skipped"
            out.append(_BAD_ROW)
            continue
        try:
            out.append(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            bad[number] = f"row is not valid UTF-8 (byte {exc.start + 1}); row skipped"
            out.append(_BAD_ROW)
    return "\n".join(out).removeprefix("\ufeff"), bad, truncated


def graph_title(text: str) -> str:
    """The peer's name from its graph.md's first heading: ``# Docs A graph`` is ``Docs A``."""
    for line in text[:4096].splitlines()[:20]:  # the title is at the top: never split it all
        found = atx_heading(line)
        if found is not None and found[0] == 1 and found[1]:
            title = found[1]
            title = title.removesuffix(" graph").strip() if title != "graph" else title
            return cut(title, MAX_TITLE)
    return ""


def reported(problems: list[tuple[int, str]]) -> tuple[tuple[int, str], ...]:
    """The first ``MAX_PROBLEMS`` problems by line, each message cut, then one line that
    counts the others: a million malformed rows are eleven warnings, not a million."""
    first = heapq.nsmallest(MAX_PROBLEMS + 1, problems)
    shown = [(line, _cut_middle(message)) for line, message in first[:MAX_PROBLEMS]]
    if len(problems) > MAX_PROBLEMS:  # said at the first row not reported
        more = len(problems) - MAX_PROBLEMS
        line = first[MAX_PROBLEMS][0]
        shown.append((line, f"({counted(more, 'more malformed row')}, not reported one by one)"))
    return tuple(shown)


def _cut_middle(message: str) -> str:
    """A message that quotes a long cell, cut in the middle: its start names the problem,
    its end says what was done."""
    if len(message) <= MAX_MESSAGE:
        return message
    return message[: MAX_MESSAGE - 41] + "…" + message[-40:]


def site_prefix(base_url: str) -> str:
    """This site's base URL normalized, ending in ``/``: a target under it is one of ours."""
    norm = normalize_url(base_url) if base_url else None
    if not norm:
        return ""
    return norm if norm.endswith("/") else norm + "/"


#: A URL's scheme and authority: the part whose normalization is the same for every URL
#: of one host, so it is worked out once per host, not once per row.
_ORIGIN = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://[^/?#]*")


class _Origins:
    """Per scheme and authority as written: its normalized form (``https://host/``, "" when
    it is no URL) and whether it is a loopback or private host. Memoized: a graph names few
    hosts, and this keeps the filter a dictionary lookup per row."""

    def __init__(self) -> None:
        self.known: dict[str, tuple[str, bool]] = {}

    def __call__(self, origin: str) -> tuple[str, bool]:
        found = self.known.get(origin)
        if found is None:
            norm = normalize_url(origin + "/") or ""
            found = self.known[origin] = (norm, bool(norm) and is_private_url(norm))
        return found


def ingest(data: bytes, key: str, site: str, read_at: str, digest: str) -> Ingested:
    """The stored copy of one peer's graph.md: its edges whose target lies under ``site``
    (this site's normalized base URL), with the linking pages' titles; at most
    ``MAX_EDGES`` of them."""
    text, bad, truncated = decode_rows(data)
    parsed = parse_graph_md(text)
    problems = [(line, message) for line, message in parsed.errors if line not in bad]
    problems += bad.items()
    edges, dropped, more = _edges_into(parsed.edges, {n.id: n.title for n in parsed.nodes}, site)
    notes = []  # the caps that were met: always said, after the rows
    if truncated:
        notes.append((MAX_LINES + 1, f"more than {MAX_LINES:,} lines; the rest was not read"))
    if more:
        kept = f"the first {MAX_EDGES:,} were kept"
        notes.append((1, f"{counted(MAX_EDGES + more, 'edge')} point to this site; {kept}"))
    copy = PeerCopy(
        key=key,
        site=site,
        name=graph_title(text),
        read_at=read_at,
        digest=digest,
        total=len(parsed.edges),
        dropped=dropped,
        edges=tuple(edges),
        malformed=len(problems),
    )
    return Ingested(copy, parsed.has_edge_table, reported(problems) + tuple(notes))


def _edges_into(
    found: list[Edge], titles: dict[NodeId, str], site: str
) -> tuple[list[PeerEdge], int, int]:
    """The edges into ``site`` (at most ``MAX_EDGES``), the targets dropped for lying on a
    loopback or private host, and the edges into ``site`` past the cap."""
    site_origin = _ORIGIN.match(site)
    ours = normalize_url(site_origin.group() + "/") if site_origin else None
    origins = _Origins()
    edges: list[PeerEdge] = []
    dropped = more = 0
    for edge in found:
        m = _ORIGIN.match(edge.dst)
        if m is None:  # the peer's own pages: most rows end here
            continue
        origin, private = origins(m.group())
        if private:
            dropped += 1
        elif origin and origin == ours:
            target, _, fragment = edge.dst.partition("#")
            norm = normalize_url(target)
            if norm is None or not norm.startswith(site):
                continue
            if len(edges) == MAX_EDGES:
                more += 1
                continue
            title = cut(titles.get(edge.src, ""), MAX_TITLE)
            edges.append(
                PeerEdge(
                    edge.src, title, norm, fragment, edge.rel, edge.label, edge.anchor, edge.count
                )
            )
    return edges, dropped, more
