"""The federation step of a build: read every configured peer (or keep its last good copy),
then turn the stored edges into backlinks from nodes of kind ``peer``.

Reads only the peers the configuration names and writes only their copies below
``.sitegen/peers/``; the last crawl of each peer wins (content/guides/federation.md).
"""

from __future__ import annotations

import hashlib
import posixpath
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit, urlunsplit

from sitegen.addresses import Addresses
from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.base.paths import NodeId
from sitegen.base.plural import counted
from sitegen.config import Config, PeerOption
from sitegen.federation.fetch import Fetched, FetchPolicy, Validators, fetch_url, read_file
from sitegen.federation.ingest import Ingested, ingest, site_prefix
from sitegen.federation.store import forget_others, load_copy, save_copy
from sitegen.graph.model import Edge, Node, NodeKind, Occurrence
from sitegen.records.federation import (
    Federation,
    Peer,
    PeerCopy,
    PeerEdge,
    PeerReport,
    PeerState,
)
from sitegen.state.remembered import digest

DEFAULT_POLICY = FetchPolicy()
#: The code of what reading the peers found: about that moment (a peer unreachable, its
#: malformed rows when read), so a no-change build says this build's, not the last one's.
PEER = "peer"
#: The code of the one info line per peer the federation gives (the same for the same input).
PEER_SUMMARY = "peer-summary"


def peers_of(config: Config) -> list[Peer]:
    """The configured peers, each once (by key), in the configuration's order."""
    peers: dict[str, Peer] = {}
    for option in config.peers:
        peer = _peer(config.root, option)
        peers.setdefault(peer.key, peer)
    return list(peers.values())


def _peer(root: Path, option: PeerOption) -> Peer:
    if option.path:
        path = Path(option.path)
        where = path if path.is_absolute() else root / path
        public = _public(option.url, with_folder=True) if option.url else ""
        return Peer(option.path, "", str(where), public, option.name)
    parts = urlsplit(option.url)
    if parts.path.lower().endswith(".md"):  # the graph.md itself
        return Peer(option.url, option.url, "", _public(option.url), option.name)
    folder = parts.path if parts.path.endswith("/") else parts.path + "/"
    graph_md = urlunsplit((parts.scheme, parts.netloc, folder + "graph.md", parts.query, ""))
    return Peer(option.url, graph_md, "", _public(option.url, with_folder=True), option.name)


def _public(url: str, with_folder: bool = False) -> str:
    """The base URL of a peer's pages: its folder (``url`` itself when ``with_folder``, else
    the folder of the graph.md it names), without user, password, query or fragment, since
    links to the peer's pages are published."""
    parts = urlsplit(url)
    path = parts.path if with_folder else parts.path.rsplit("/", 1)[0]
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit((parts.scheme, host, path.rstrip("/") + "/", "", ""))


@dataclass
class PeerReading:
    """What reading the peers gave: each peer with its copy (None: nothing usable) and what
    happened, and the diagnostics."""

    peers: list[tuple[Peer, PeerCopy | None, PeerState]] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def fingerprint(self) -> str:
        """Everything the site shows of the peers, for the build's input fingerprint."""
        return digest(
            [(p.key, p.name, p.public, c.digest if c else "", _shown(s)) for p, c, s in self.peers]
        )


def read_peers(
    config: Config,
    offline: bool = False,
    policy: FetchPolicy = DEFAULT_POLICY,
    now: Callable[[], datetime] = lambda: datetime.now(UTC),
) -> PeerReading:
    """Read each peer, or keep its stored copy: the last good reading of a peer wins."""
    reading = PeerReading()
    peers = peers_of(config)
    for key in forget_others(config.cache_dir, {p.key for p in peers}):
        reading.diagnostics.append(
            _diag(key, Level.INFO, f"peer '{key}' is no longer configured; its copy was removed")
        )
    site = site_prefix(config.base_url)
    if peers and not site:
        reading.diagnostics.append(
            _diag(
                "sitegen.toml",
                Level.WARNING,
                "peers are configured but base_url is not set: no link of theirs can be "
                'known to point here (base_url = "https://docs.example.com/" says which '
                "URLs are this site's)",
            )
        )
    for peer in peers:
        copy, state, diags = _read_one(config.cache_dir, peer, site, offline, policy, now)
        reading.peers.append((peer, copy, state))
        reading.diagnostics += diags
    return reading


def _read_one(
    cache_dir: Path,
    peer: Peer,
    site: str,
    offline: bool,
    policy: FetchPolicy,
    now: Callable[[], datetime],
) -> tuple[PeerCopy | None, PeerState, list[Diagnostic]]:
    loaded = load_copy(cache_dir, peer.key, PEER)
    diags = [loaded.warning] if loaded.warning else []
    stored = loaded.copy
    if stored is not None and stored.site != site:  # chosen for another base_url
        stored = None
    if offline:
        if stored is None:
            never = _diag(peer.shown, Level.WARNING, _never(peer, True))
            return None, PeerState.MISSING, [*diags, never]
        return stored, PeerState.OFFLINE, diags
    seen = Validators(stored.etag, stored.last_modified, stored.stat) if stored else Validators()
    got = (
        fetch_url(peer.url, seen, policy) if peer.url else read_file(Path(peer.path), seen, policy)
    )
    if got.unchanged and stored is not None:
        return stored, PeerState.UNCHANGED, diags
    if got.data is None:
        return _unreadable(peer, stored, got.error, now(), diags)
    read = _new_copy(peer, site, got, stored, now())
    if not read.has_table:  # an error page answered 200: the last good copy stands
        error = "it holds no table with From and To columns (no graph.md)"
        return _unreadable(peer, stored, error, now(), diags)
    diags += _problems(peer, read)
    if not_stored := save_copy(cache_dir, read.copy):
        diags.append(_diag(peer.shown, Level.WARNING, f"peer {peer.shown}: {not_stored}"))
    return read.copy, PeerState.READ, diags


def _new_copy(
    peer: Peer, site: str, got: Fetched, stored: PeerCopy | None, now: datetime
) -> Ingested:
    """The copy of what was just read. Its date is the stored one when the bytes are the
    same, so a build of unchanged inputs shows the same date."""
    assert got.data is not None
    sha = hashlib.sha256(got.data).hexdigest()
    same = stored is not None and stored.digest == sha
    read_at = stored.read_at if same and stored is not None else _stamp(now)
    read = ingest(got.data, peer.key, site, read_at, sha)
    v = got.validators
    copy = replace(read.copy, etag=v.etag, last_modified=v.last_modified, stat=v.stat)
    return replace(read, copy=copy)


def _unreadable(
    peer: Peer, stored: PeerCopy | None, error: str, now: datetime, diags: list[Diagnostic]
) -> tuple[PeerCopy | None, PeerState, list[Diagnostic]]:
    if stored is None:
        message = f"peer {peer.shown} could not be read: {error}; it gives no backlinks"
        return None, PeerState.MISSING, [*diags, _diag(peer.shown, Level.WARNING, message)]
    message = (
        f"peer {peer.shown} could not be read: {error}; its last good copy, read "
        f"{stored.read_at} ({_age(stored.read_at, now)}), is used"
    )
    return stored, PeerState.STALE, [*diags, _diag(peer.shown, Level.WARNING, message)]


def _problems(peer: Peer, read: Ingested) -> list[Diagnostic]:
    """What was wrong in the graph.md just read, each at its line: at most a few malformed
    rows, then one line counting the rest (reported when read, not at every build)."""
    return [
        Diagnostic(peer.graph_md, line, 1, Level.WARNING, f"peer graph.md: {message}", PEER)
        for line, message in read.problems
    ]


def _never(peer: Peer, offline: bool) -> str:
    why = "; --offline reads no peer" if offline else ""
    return f"peer {peer.shown} has no stored copy{why}; it gives no backlinks"


def _diag(path: str, level: Level, message: str) -> Diagnostic:
    return Diagnostic(path, 1, 1, level, message, PEER)


def _stamp(now: datetime) -> str:
    return now.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _age(read_at: str, now: datetime) -> str:
    """How old a copy read at ``read_at`` is, in the largest whole unit: "2 days old"."""
    try:
        then = datetime.strptime(read_at, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    except ValueError:
        return "of unknown age"
    seconds = max(0, int((now - then).total_seconds()))
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            return counted(seconds // size, unit) + " old"
    return counted(seconds, "second") + " old"


def _shown(state: PeerState) -> str:
    """What the peers page says of a state: a revalidated copy reads as a fresh one."""
    return PeerState.READ if state is PeerState.UNCHANGED else state


# ---------------------------------------------------------------- into backlinks


def federate(
    reading: PeerReading, site: str, addresses: Addresses, nodes: Mapping[NodeId, Node]
) -> Federation:
    """Backlinks from the peers' pages (nodes of kind ``peer``) to this site's pages.

    Only after the link step, since a target is matched against the pages' addresses."""
    fed = Federation(diagnostics=list(reading.diagnostics))
    reports = []
    for peer, copy, state in reading.peers:
        name = peer.name or (copy.name if copy else "") or _fallback_name(peer)
        given = _add_edges(fed, peer, name, copy.edges if copy else (), site, addresses, nodes)
        reports.append(_report(peer, name, copy, state, given))
        if copy is not None:
            fed.diagnostics.append(_summary(peer, name, copy, given))
    fed.peers = tuple(reports)
    return fed


def _add_edges(
    fed: Federation,
    peer: Peer,
    name: str,
    edges: Iterable[PeerEdge],
    site: str,
    addresses: Addresses,
    nodes: Mapping[NodeId, Node],
) -> int:
    given = 0
    for pe in edges:
        target = page_of(pe.target, site, addresses, nodes)
        if target is None:
            continue
        src, href = _source_node(peer, pe.source)
        fed.graph.add_node(Node(src, NodeKind.PEER, pe.title or pe.source))
        fed.site_of[src] = name
        if href:
            fed.hrefs[src] = href
        occurrences = [Occurrence(0, 0, 0, pe.fragment)] if pe.fragment else []
        fed.graph.add_edge(Edge(src, target, pe.rel, pe.label, pe.anchor, pe.count, occurrences))
        given += 1
    return given


def page_of(
    target: str, site: str, addresses: Addresses, nodes: Mapping[NodeId, Node]
) -> NodeId | None:
    """This site's page at the normalized URL ``target`` (one under ``site``): by its HTML
    address in either style, or its raw markdown at the node's own path."""
    if not site or not target.startswith(site):
        return None
    # normalized, so what follows the site's prefix is the path (then any query)
    path = "/" + unquote(target[len(site) :].partition("?")[0])
    node = nodes.get(NodeId(path))
    if node is not None and node.kind in (NodeKind.PAGE, NodeKind.SOURCE):
        return node.id
    found = addresses.find(path)
    if found is not None and found.node in nodes:
        return found.node
    return None


def _source_node(peer: Peer, source: str) -> tuple[NodeId, str]:
    """The node of a peer's linking page (its URL when known) and the href to it."""
    if "://" in source:
        return NodeId(source), source if _is_web(source) else ""
    if peer.public and source.startswith("/"):
        url = peer.public + quote(source.lstrip("/"), safe="/-._~!$&'()*+,;=:@")
        return NodeId(url), url if _is_web(url) else ""
    return NodeId(f"{peer.shown}:{source}"), ""


def _is_web(url: str) -> bool:
    """Only http(s) URLs of a peer are ever written into a page."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    return parts.scheme.lower() in ("http", "https") and bool(parts.hostname)


def _fallback_name(peer: Peer) -> str:
    if peer.public:
        return urlsplit(peer.public).hostname or peer.shown
    return posixpath.basename(peer.key.rstrip("/")) or peer.key


def _report(
    peer: Peer, name: str, copy: PeerCopy | None, state: PeerState, given: int
) -> PeerReport:
    return PeerReport(
        name=name,
        location=_location(peer),
        public=peer.public if _is_web(peer.public) else "",
        state=PeerState(_shown(state)),
        read_at=copy.read_at if copy else "",
        backlinks=given,
        total=copy.total if copy else 0,
        dropped=copy.dropped if copy else 0,
    )


def _summary(peer: Peer, name: str, copy: PeerCopy, given: int) -> Diagnostic:
    dropped = (
        f"; {counted(copy.dropped, 'target')} on loopback or private addresses dropped"
        if copy.dropped
        else ""
    )
    malformed = f"; {counted(copy.malformed, 'malformed row')} skipped" if copy.malformed else ""
    message = (
        f"peer '{name}': {counted(given, 'backlink')} to this site from "
        f"{counted(copy.total, 'edge')}{dropped}{malformed}"
    )
    return Diagnostic(_location(peer), 1, 1, Level.INFO, message, PEER_SUMMARY)


def _location(peer: Peer) -> str:
    """Where a peer is read from, as pages and messages show it: its graph.md's URL (its
    secrets hidden) or the path as configured."""
    return peer.graph_md if peer.url else peer.key
