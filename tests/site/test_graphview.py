"""/graph.html: offline (no remote resources), deterministic, colour = community, size = PageRank."""

from __future__ import annotations

import json
import re

import pytest

from sitegen.base.paths import NodeId
from sitegen.graph.model import Edge, Node, NodeKind
from sitegen.site.graphview import (
    PALETTE,
    GraphDrawing,
    community_color,
    remote_resource_urls,
    render_graph_page,
    strip_remote_resources,
)

NODES = [Node(NodeId(f"/p{i}.md"), NodeKind.PAGE, f"Page {i}") for i in range(6)] + [
    Node(NodeId("https://example.com/ext"), NodeKind.EXTERNAL, ""),
    Node(NodeId("/evil.md"), NodeKind.PAGE, '</script><img src="https://evil.example/x.png">'),
]
EDGES = [
    Edge(NodeId(f"/p{i}.md"), NodeId(f"/p{(i + 1) % 6}.md"), count=i + 1) for i in range(6)
] + [
    Edge(NodeId("/p0.md"), NodeId("https://example.com/ext")),
    Edge(NodeId("/p1.md"), NodeId("/p0.md"), "supersedes"),
    Edge(NodeId("/p2.md"), NodeId("/nowhere.md")),  # endpoint not drawn: skipped
]
COMMUNITIES = {f"/p{i}.md": i % 2 for i in range(6)}
PAGERANK = {"/p0.md": 1.0, "/p1.md": 0.5, "/p2.md": 0.1}
HREFS = {n.id: n.id.lstrip("/").replace(".md", ".html") for n in NODES if n.id.startswith("/")}
HREFS["https://example.com/ext"] = "https://example.com/ext"


@pytest.fixture(scope="module")
def html() -> str:
    return render_graph_page(GraphDrawing(NODES, EDGES, COMMUNITIES, PAGERANK, HREFS))


def _data(html: str) -> dict:
    m = re.search(
        r'<script type="application/json" id="graph-data">(.*?)</script>', html, re.DOTALL
    )
    assert m
    return json.loads(m.group(1))


def test_graph_page_loads_nothing_remote(html: str) -> None:
    assert remote_resource_urls(html) == []
    assert not re.search(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", html, re.IGNORECASE)
    assert not re.search(r"""url\(\s*["']?\s*(?:https?:)?//""", html, re.IGNORECASE)
    assert "vis.Network" in html  # the library is inlined, not fetched


def test_content_cannot_break_out_of_the_data_script(html: str) -> None:
    assert '</script><img src="https://evil' not in html
    titles = [n["title"] for n in _data(html)["nodes"]]
    assert any("evil.example" in t for t in titles)  # kept as data, safely encoded


def test_colour_is_the_community_and_size_the_pagerank(html: str) -> None:
    nodes = {n["href"]: n for n in _data(html)["nodes"] if n["href"]}
    assert nodes["p0.html"]["color"] == community_color(0) == PALETTE[0]
    assert nodes["p1.html"]["color"] == PALETTE[1]
    assert nodes["p0.html"]["size"] > nodes["p1.html"]["size"] > nodes["p2.html"]["size"]
    assert nodes["p3.html"]["size"] == nodes["p4.html"]["size"]  # no rank: the same small size


def test_edges_are_drawn_between_drawn_nodes_only(html: str) -> None:
    data = _data(html)
    ids = {n["id"] for n in data["nodes"]}
    assert len(data["nodes"]) == len(NODES)
    assert all(e["from"] in ids and e["to"] in ids for e in data["edges"])
    assert len(data["edges"]) == 8  # 6 ring links + external + supersedes; /nowhere.md dropped


def test_layout_is_seeded_and_output_deterministic(html: str) -> None:
    assert _data(html)["options"]["layout"]["randomSeed"] == 7
    again = render_graph_page(
        GraphDrawing(list(reversed(NODES)), list(reversed(EDGES)), COMMUNITIES, PAGERANK, HREFS)
    )
    assert again == html


def test_node_list_for_reading_without_script_links_only_site_pages(html: str) -> None:
    listing = html[html.index('id="graph-list"') : html.index('id="graph-data"')]
    assert '<a href="p0.html">Page 0</a>' in listing
    assert "https://example.com/ext" in listing  # shown as text, not fetched or linked


def test_strip_removes_remote_resource_tags() -> None:
    page = (
        '<link rel="stylesheet" href="https://cdn.example/x.css">'
        '<script src="//cdn.example/x.js"></script><p>kept</p>'
    )
    assert remote_resource_urls(page) == ["//cdn.example/x.js", "https://cdn.example/x.css"]
    assert strip_remote_resources(page) == "<p>kept</p>"
