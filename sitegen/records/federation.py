"""The records of federation: a peer as configured, its stored copy, what a build shows.

Plain data, serializable as JSON; never reads or writes files, never fetches.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from sitegen.base.diagnostics import Diagnostic
from sitegen.base.paths import NodeId
from sitegen.base.plural import counted
from sitegen.config import shown_url
from sitegen.graph.model import Graph
from sitegen.state.caches import COPY_VERSION as COPY_VERSION


@dataclass(frozen=True)
class Peer:
    """A configured peer: where its graph.md is read and under which URL its pages live."""

    #: The peer as configured (its URL or its path as written): its identity in the store.
    key: str
    #: The graph.md to read: an http(s) URL, or a local file's path ("" for the other kind).
    url: str
    path: str
    #: The peer site's public base URL, ending in ``/`` ("" when unknown: a local peer
    #: without ``url``); its pages' links are made from it.
    public: str
    #: The name given in the configuration ("" to take the graph.md's own title).
    name: str = ""

    @property
    def shown(self) -> str:
        """The peer as configured, as pages and messages may show it: a URL's user, password
        and query values hidden (content/guides/federation.md)."""
        return shown_url(self.key) if self.url else self.key

    @property
    def graph_md(self) -> str:
        """Where its graph.md is read, as it may be shown."""
        if self.url:
            return shown_url(self.url)
        return self.key if self.key.lower().endswith(".md") else self.key.rstrip("/") + "/graph.md"


@dataclass(frozen=True, slots=True)
class PeerEdge:
    """One edge of a peer's graph whose target is an address of this site."""

    source: str  # the peer's node id of the linking page (``/guides/a.md``) or its URL
    title: str  # the linking page's title, from the peer's Nodes table
    target: str  # the normalized absolute URL linked to, fragment apart
    fragment: str
    rel: str
    label: str
    anchor: str
    count: int

    def row(self) -> list[Any]:
        return [
            self.source,
            self.title,
            self.target,
            self.fragment,
            self.rel,
            self.label,
            self.anchor,
            self.count,
        ]


@dataclass(frozen=True)
class PeerCopy:
    """The last good reading of one peer, as stored below ``.sitegen/peers/``."""

    key: str
    #: The base URL of this site the edges were chosen for.
    site: str
    #: The peer site's name: its graph.md's title (``# Docs A graph`` gives ``Docs A``).
    name: str
    #: When the content was last found changed (UTC, ``2026-12-03T15:53:50Z``).
    read_at: str
    digest: str = ""
    etag: str = ""
    last_modified: str = ""
    #: A local file's size and modification time, ``"size:mtime_ns"``.
    stat: str = ""
    #: Every edge of the peer's graph, those on loopback or private hosts, and how many
    #: rows were malformed (each was reported by the build that read it).
    total: int = 0
    dropped: int = 0
    edges: tuple[PeerEdge, ...] = ()
    malformed: int = 0


class PeerState(StrEnum):
    """What this build did with a peer."""

    READ = "read"  # read, and its content replaced the stored copy
    UNCHANGED = "unchanged"  # revalidation said unchanged: the stored copy stands
    STALE = "stale"  # could not be read: its last good copy is used
    OFFLINE = "offline"  # --offline: its stored copy is used
    MISSING = "missing"  # neither read nor stored: no backlinks


@dataclass(frozen=True)
class PeerReport:
    """One row of ``/peers.html``: the peer, when it was read, how many backlinks it gave."""

    name: str
    location: str
    public: str
    state: PeerState
    read_at: str
    backlinks: int
    total: int
    dropped: int


@dataclass
class Federation:
    """What the build shows of its peers: ``graph`` holds nodes of kind ``peer`` (the linking
    pages, by URL) and their edges into this site's pages; ``site_of`` names each one's site."""

    graph: Graph = field(default_factory=Graph)
    site_of: dict[NodeId, str] = field(default_factory=dict)
    hrefs: dict[NodeId, str] = field(default_factory=dict)
    peers: tuple[PeerReport, ...] = ()
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def counts(self) -> str:
        """The summary's words for the peers ("" when none is configured): backlinks from
        them, and the targets dropped for lying on loopback or private addresses."""
        if not self.peers:
            return ""
        given = sum(p.backlinks for p in self.peers)
        dropped = sum(p.dropped for p in self.peers)
        more = f" ({counted(dropped, 'loopback or private target')} dropped)" if dropped else ""
        return f", {counted(given, 'backlink')} from {counted(len(self.peers), 'peer')}{more}"

    def key_of(self, node: NodeId) -> list[tuple[Any, ...]]:
        """Everything a page shows of its peer backlinks (part of the page's key)."""
        return [
            (e.src, e.rel, e.label, e.anchor, e.count, self.site_of.get(e.src, ""))
            + (self.graph.title_of(e.src), self.hrefs.get(e.src, ""))
            for e in self.graph.backlinks_of(node)
        ]
