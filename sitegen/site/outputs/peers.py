"""``peers.html``: each configured peer, when its graph.md was read, and how many backlinks
it gave this site (content/guides/federation.md).

Shows what the federation step found; never reads a peer itself. Written only when peers
are configured; its dates are the stored copies', so the same inputs give the same bytes.
"""

from __future__ import annotations

from sitegen.base.paths import OutPath
from sitegen.base.plural import counted
from sitegen.records.federation import PeerReport, PeerState
from sitegen.site.emitter import EmitRun, OneFile
from sitegen.site.state import SiteState
from sitegen.site.views import Cell, ReportCell, ReportView

PEERS = OutPath("peers.html")

_STATES = {
    PeerState.READ: "read",
    PeerState.UNCHANGED: "read",
    PeerState.STALE: "could not be read: last good copy shown",
    PeerState.OFFLINE: "stored copy (--offline)",
    PeerState.MISSING: "never read: no backlinks",
}


class PeersPage(OneFile):
    name = "peers"
    options = ("peers",)

    def path(self, site: SiteState) -> OutPath | None:
        return PEERS if site.result.config.peers else None

    def render(self, run: EmitRun, out: OutPath) -> str:
        return run.site.renderer.render_report(run.site.context(out), peers_view(run.site))


def peers_view(site: SiteState) -> ReportView:
    rows = tuple(_row(p) for p in site.result.federation.peers)
    return ReportView(
        title="Peers",
        columns=("Peer", "Read from", "When it was read", "Backlinks here", "State"),
        rows=rows,
        intro=(
            "Other sites whose published graph.md gives this site's pages their "
            '"Linked from other sites" backlinks.'
        ),
        empty_text="No peer is configured.",
    )


def _row(peer: PeerReport) -> tuple[Cell, ...]:
    dropped = f", {counted(peer.dropped, 'loopback or private target')} dropped"
    edges = f"{peer.backlinks} (of {counted(peer.total, 'edge')}{dropped if peer.dropped else ''})"
    return (
        ReportCell(peer.name, peer.public),
        ReportCell(peer.location, code=True),
        peer.read_at.replace("T", " ").replace("Z", " UTC") if peer.read_at else "never",
        edges,
        _STATES[peer.state],
    )
