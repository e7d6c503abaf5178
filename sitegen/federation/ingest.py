"""A peer's graph.md to the edges that point at this site: ParseExport's reading, then the
target filter (content/reference/urls.md normalization, loopback and private hosts
dropped).

Pure: bytes in, a ``PeerCopy`` out; never reads files, never fetches. Linear in the input.
"""

from __future__ import annotations

import re

from sitegen.federation.model import PeerCopy, PeerEdge
from sitegen.graph.export import parse_graph_md
from sitegen.link.rules import normalize_url
from sitegen.urlgate import is_private_url

_TITLE = re.compile(r" {0,3}# +(.+?)(?: +#+)? *$")
#: Where a non-UTF-8 line stood: a row the table reader reads and the edge reader skips.
_BAD_ROW = "|"


def decode_rows(data: bytes) -> tuple[str, dict[int, str]]:
    """The text, and the 1-based lines that are not valid UTF-8 (each replaced by a row the
    parser skips, so the table around it is read on)."""
    try:
        return data.decode("utf-8").removeprefix("\ufeff"), {}
    except UnicodeDecodeError:
        pass
    lines = data.split(b"\n")
    bad: dict[int, str] = {}
    out = []
    for number, raw in enumerate(lines, start=1):
        try:
            out.append(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            bad[number] = f"row is not valid UTF-8 (byte {exc.start + 1}); row skipped"
            out.append(_BAD_ROW)
    return "\n".join(out).removeprefix("\ufeff"), bad


def graph_title(text: str) -> str:
    """The peer's name from its graph.md's first heading: ``# Docs A graph`` is ``Docs A``."""
    for line in text[:4096].splitlines()[:20]:  # the title is at the top: never split it all
        m = _TITLE.match(line)
        if m:
            title = m.group(1).strip()
            return title.removesuffix(" graph").strip() if title != "graph" else title
    return ""


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


def ingest(data: bytes, key: str, site: str, read_at: str, digest: str) -> PeerCopy:
    """The stored copy of one peer's graph.md: its edges whose target lies under ``site``
    (this site's normalized base URL), with the linking pages' titles."""
    text, bad = decode_rows(data)
    parsed = parse_graph_md(text)
    titles = {n.id: n.title for n in parsed.nodes}
    problems = [(line, message) for line, message in parsed.errors if line not in bad]
    problems += sorted(bad.items())
    site_origin = _ORIGIN.match(site)
    ours = normalize_url(site_origin.group() + "/") if site_origin else None
    origins = _Origins()
    edges: list[PeerEdge] = []
    dropped = 0
    for edge in parsed.edges:
        m = _ORIGIN.match(edge.dst)
        if m is None:  # the peer's own pages: most rows end here
            continue
        origin, private = origins(m.group())
        if private:
            dropped += 1
        elif origin and origin == ours:
            target, _, fragment = edge.dst.partition("#")
            norm = normalize_url(target)
            if norm is not None and norm.startswith(site):
                edges.append(
                    PeerEdge(
                        edge.src,
                        titles.get(edge.src, ""),
                        norm,
                        fragment,
                        edge.rel,
                        edge.label,
                        edge.anchor,
                        edge.count,
                    )
                )
    return PeerCopy(
        key=key,
        site=site,
        name=graph_title(text),
        read_at=read_at,
        digest=digest,
        total=len(parsed.edges),
        dropped=dropped,
        edges=tuple(edges),
        problems=tuple(sorted(problems)),
    )
