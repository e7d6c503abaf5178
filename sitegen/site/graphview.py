"""``/graph.html``: the interactive graph, built with pyvis and inlined so it works offline.

Colour is the community, size the PageRank; the same nodes are listed as plain links for
reading without script. Never loads anything remote, never reads files, never mutates the graph.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup
from pyvis.edge import Edge as PyvisEdge
from pyvis.network import Network

from sitegen.graph.model import Edge, Node
from sitegen.site.render import Renderer
from sitegen.site.views import LinkItem, SiteContext

#: Tableau-like colours, distinct in light and dark themes; community i takes PALETTE[i % 12].
PALETTE = (
    "#4e79a7",
    "#f28e2b",
    "#e15759",
    "#76b7b2",
    "#59a14f",
    "#edc948",
    "#b07aa1",
    "#ff9da7",
    "#9c755f",
    "#86bcb6",
    "#d37295",
    "#8cd17d",
)
NO_COMMUNITY = "#9aa4af"
VIS_JS = "lib/vis-9.1.2/vis-network.min.js"
VIS_CSS = "lib/vis-9.1.2/vis-network.css"
LABEL_MAX = 40

# A fixed seed and fixed physics: the same graph lays out the same way on every build.
OPTIONS: dict[str, Any] = {
    "layout": {"randomSeed": 7, "improvedLayout": True},
    "physics": {
        "solver": "barnesHut",
        "barnesHut": {
            "gravitationalConstant": -4000,
            "centralGravity": 0.3,
            "springLength": 110,
            "springConstant": 0.04,
            "damping": 0.3,
            "avoidOverlap": 0.1,
        },
        "stabilization": {"enabled": True, "iterations": 300, "fit": True},
        "minVelocity": 0.75,
    },
    "interaction": {"hover": True, "tooltipDelay": 150, "keyboard": {"enabled": True}},
    "nodes": {"shape": "dot", "borderWidth": 1, "font": {"size": 13}},
    "edges": {
        "arrows": {"to": {"enabled": True, "scaleFactor": 0.5}},
        "smooth": False,
        "color": {"inherit": "from", "opacity": 0.45},
    },
}
# vis-network's "improved layout" (Kamada-Kawai seeding) is slow on big graphs.
IMPROVED_LAYOUT_MAX = 150


@dataclass(frozen=True)
class GraphDrawing:
    """What the graph page draws: the nodes and edges, each node's community and PageRank,
    and each node's href (relative to the graph page; a node without one is not a link)."""

    nodes: Sequence[Node]
    edges: Sequence[Edge]
    communities: Mapping[str, int]
    pagerank: Mapping[str, float]
    hrefs: Mapping[str, str]


@dataclass(frozen=True)
class _Group:
    """One community in that list: its number, heading, colour and nodes."""

    number: int
    name: str
    color: str
    nodes: tuple[LinkItem, ...]  # title, site-local link, kind


def community_color(community: int | None) -> str:
    return NO_COMMUNITY if community is None else PALETTE[community % len(PALETTE)]


def _is_site_local(href: str) -> bool:
    return bool(href) and not re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:|^//", href)


def _normalized(pagerank: Mapping[str, float]) -> dict[str, float]:
    top = max((v for v in pagerank.values() if math.isfinite(v)), default=0.0)
    return {k: (v / top if top > 0 and math.isfinite(v) else 0.0) for k, v in pagerank.items()}


def _tooltip(node: Node, rank: float, community: int | None) -> str:
    lines = [node.title or str(node.id), str(node.id), f"PageRank {rank:.3f}"]
    if community is not None:
        lines.append(f"community {community}")
    return "\n".join(lines)


def _label(node: Node) -> str:
    text = node.title or str(node.id)
    return text if len(text) <= LABEL_MAX else text[: LABEL_MAX - 1] + "…"


def build_network(drawing: GraphDrawing) -> Network:
    """A pyvis Network, nodes sorted by id (numbered 0..n-1), edges merged per node pair."""
    net = Network(directed=True, cdn_resources="in_line", height="100%", width="100%")
    ranks = _normalized(drawing.pagerank)
    ordered = _by_id(drawing.nodes)
    number: dict[str, int] = {n.id: i for i, n in enumerate(ordered)}
    for node in ordered:
        rank, community = ranks.get(node.id, 0.0), drawing.communities.get(node.id)
        net.add_node(
            number[node.id],
            label=_label(node),
            title=_tooltip(node, rank, community),
            color=community_color(community),
            size=round(8 + 28 * rank, 2),
            href=drawing.hrefs.get(node.id, ""),
            kind=str(node.kind),
        )
    for (src, dst), rels in sorted(_pairs(drawing.edges, number).items()):
        # pyvis's add_edge scans every node per edge; endpoints are known valid here.
        net.edges.append(PyvisEdge(src, dst, True, **_edge_options(rels)).options)
    net.set_options(
        json.dumps(
            dict(
                OPTIONS,
                layout={"randomSeed": 7, "improvedLayout": len(ordered) <= IMPROVED_LAYOUT_MAX},
            )
        )
    )
    return net


def _pairs(edges: Iterable[Edge], number: Mapping[str, int]) -> dict[tuple[int, int], list[Edge]]:
    pairs: dict[tuple[int, int], list[Edge]] = {}
    for e in edges:
        if e.src in number and e.dst in number and e.src != e.dst:
            pairs.setdefault((number[e.src], number[e.dst]), []).append(e)
    return pairs


def _edge_options(rels: list[Edge]) -> dict[str, Any]:
    count = sum(e.count for e in rels)
    names = sorted({e.rel or "link" for e in rels})
    return {
        "title": ", ".join(names) + (f" (x{count})" if count > 1 else ""),
        "width": round(1 + math.log2(count), 2),
        "dashes": all(e.rel for e in rels),
    }


def _by_id(nodes: Iterable[Node]) -> list[Node]:
    """Each node once (the last of an id wins), sorted by id."""
    return sorted({n.id: n for n in nodes}.values(), key=lambda n: n.id)


def _groups(drawing: GraphDrawing) -> tuple[_Group, ...]:
    """The nodes by community (the nodes without one last), each list sorted by title."""
    by: dict[int | None, list[LinkItem]] = {}
    for n in _by_id(drawing.nodes):
        href = drawing.hrefs.get(n.id, "")
        # Only site-local links: the page must not point at remote hosts by itself.
        listed = LinkItem(
            n.title or str(n.id),
            href if _is_site_local(href) else "",
            f"{n.kind} {n.id}" if n.title else str(n.kind),
        )
        by.setdefault(drawing.communities.get(n.id), []).append(listed)
    keys = sorted(by, key=lambda c: (c is None, c or 0))
    return tuple(
        _Group(
            -1 if c is None else c,
            "No community" if c is None else f"Community {c}",
            community_color(c),
            tuple(sorted(by[c], key=lambda x: (x.title, x.note))),
        )
        for c in keys
    )


def vis_assets(net: Network) -> tuple[str, str]:
    """vis-network's JS and CSS from pyvis's own bundle (what ``cdn_resources="in_line"``
    inlines). ``</`` is split so the code can never close its inline element early."""

    def read(name: str) -> str:
        source: str = net.templateEnv.loader.get_source(net.templateEnv, name)[0]
        return source

    return read(VIS_JS).replace("</script", "<\\/script"), read(VIS_CSS).replace(
        "</style", "<\\/style"
    )


def render_graph_page(
    drawing: GraphDrawing,
    *,
    site: SiteContext | None = None,
    renderer: Renderer | None = None,
    title: str = "Graph",
    figures_note: str = "",
) -> str:
    """The HTML of ``/graph.html``; the hrefs are relative to the site root (graph.html's
    folder)."""
    renderer = renderer or Renderer()
    site = site or SiteContext(site_title=title, current_href="graph.html")
    net = build_network(drawing)
    vis_js, vis_css = vis_assets(net)
    node_list, edge_list, _, _, _, options = net.get_network_data()
    html = renderer.render(
        "graph.html",
        site=site,
        title=title,
        data={"nodes": node_list, "edges": edge_list, "options": json.loads(options)},
        vis_js=Markup(vis_js),
        vis_css=Markup(vis_css),
        groups=_groups(drawing),
        node_count=len(node_list),
        edge_count=len(edge_list),
        figures_note=figures_note,
    )
    return strip_remote_resources(html)


# Elements that make the browser fetch something, pointing at another host.
_REMOTE_TAG = re.compile(
    r"<(script|link|img|iframe|source|video|audio|embed|object)\b[^>]*?\b(?:src|href|data)\s*=\s*"
    r"[\"']?\s*(?:https?:)?//[^>]*>(?:\s*</\1>)?",
    re.IGNORECASE,
)
_REMOTE_ATTR = re.compile(
    r"\b(?:src|href)\s*=\s*[\"']?\s*((?:https?:)?//[^\"'\s>]+)", re.IGNORECASE
)
_REMOTE_CSS = re.compile(
    r"(?:url\(\s*[\"']?|@import\s+[\"']?)\s*((?:https?:)?//[^\"')\s]+)", re.IGNORECASE
)


def remote_resource_urls(html: str) -> list[str]:
    """Every remote URL the page would load (src=/href= to another host, CSS url()/@import)."""
    return sorted(set(_REMOTE_ATTR.findall(html)) | set(_REMOTE_CSS.findall(html)))


def strip_remote_resources(html: str) -> str:
    """Removes tags that would fetch from another host (a safety net for overridden templates)."""
    return _REMOTE_TAG.sub("", html)
