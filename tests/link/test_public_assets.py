"""VitePress's ``public/`` folder is published at the site root: a site-absolute link such as
``/search.png`` reaches ``docs/public/search.png``, an edge to the asset node ``/search.png``
(content/reference/urls.md#resolving-a-destination)."""

from __future__ import annotations

from sitegen.base.paths import NodeId, SitePath, asset_node_of
from sitegen.docs.markdown import extract_page
from sitegen.graph.model import NodeKind
from sitegen.link.rules import SiteIndex, resolve
from sitegen.link.step import link_all
from sitegen.records.linked import Outcome

ASSETS = {"docs/public/search.png", "docs/public/img/a b.svg", "docs/logo.png"}


def _index(public: str = "docs/public") -> SiteIndex:
    return SiteIndex(
        content="docs",
        pages={"docs/index.md", "docs/guide/start.md"},
        assets=set(ASSETS),
        sources=set(),
        dirs={"docs", "docs/guide", "docs/public", "docs/public/img"},
        public=public,
    )


def test_a_site_absolute_path_names_a_file_of_the_public_folder() -> None:
    index = _index()
    for href in ("/search.png", "/img/a%20b.svg#frag"):
        res = resolve(href, "docs/guide/start.md", index)
        assert res.outcome == Outcome.INTERNAL, href
    assert resolve("/search.png", "docs/index.md", index).node == "/search.png"
    assert resolve("/img/a%20b.svg", "docs/index.md", index).node == "/img/a b.svg"


def test_the_public_file_by_its_path_is_the_same_node() -> None:
    res = resolve("../public/search.png", "docs/guide/start.md", _index())
    assert (res.outcome, res.node) == (Outcome.INTERNAL, "/search.png")


def test_other_assets_and_missing_files_are_as_before() -> None:
    index = _index()
    assert resolve("/logo.png", "docs/index.md", index).node == "/logo.png"
    missing = resolve("/nothing.png", "docs/index.md", index)
    assert (missing.outcome, missing.looked_up) == (Outcome.MISSING, "docs/nothing.png")


def test_the_public_folder_cannot_be_climbed_out_of() -> None:
    index = _index()
    assert index.public_asset("/../logo.png") is None
    assert index.public_asset("/search.png") == "docs/public/search.png"


def test_without_a_public_folder_the_path_is_missing() -> None:
    res = resolve("/search.png", "docs/index.md", _index(public=""))
    assert res.outcome == Outcome.MISSING
    assert _index(public="").node_for("docs/public/search.png") == "/public/search.png"


def test_asset_nodes_and_published_paths_agree() -> None:
    assert asset_node_of("docs", "docs/public", "docs/public/img/x.svg") == "/img/x.svg"
    assert asset_node_of("docs", "docs/public", "docs/img/x.svg") == "/img/x.svg"
    assert asset_node_of("docs", "", "docs/public/x.svg") == "/public/x.svg"
    assert SitePath.asset("docs/public/search.png", "docs", "docs/public").raw == "search.png"


def test_a_link_and_an_image_to_a_public_file_are_edges_not_broken_links() -> None:
    page = "# Home\n\n![Search](/search.png) and [the icon](/img/a%20b.svg).\n"
    records = [extract_page("docs/index.md", page.encode())]
    linked = link_all(_index(), records, [], {})
    assert linked.broken == []
    assert not [d for d in linked.diagnostics if d.level != "info"]
    edges = {(e.src, e.dst) for e in linked.graph.edges()}
    assert (NodeId("/index.md"), NodeId("/search.png")) in edges
    assert linked.graph.nodes[NodeId("/search.png")].kind == NodeKind.ASSET
