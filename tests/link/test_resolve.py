"""Link resolution (content/reference/urls.md): paths as on GitHub, index pages, forms, URLs."""

from __future__ import annotations

import pytest

from sitegen.base.paths import NodeId
from sitegen.base.urlgate import is_loopback, is_private_url
from sitegen.link.rules import AnchorIndex, SiteIndex, normalize_url, resolve
from sitegen.records.linked import Outcome
from sitegen.records.pages import Heading, PageRecord


@pytest.fixture
def index() -> SiteIndex:
    return SiteIndex(
        content="content",
        pages={
            "content/index.md",
            "content/guides/a.md",
            "content/guides/install.md",
            "content/guides/index.md",
            "content/x.md",
            "content/ref/README.md",
            "content/café.md",
            "content/sp ace.md",
        },
        assets={"content/img/logo.png"},
        sources={"sitegen/graph.py"},
        dirs={"content", "content/guides", "content/ref", "content/img", "sitegen"},
    )


@pytest.mark.parametrize(
    "href,node",
    [
        ("../x.md", "/x.md"),
        ("a.md", "/guides/a.md"),
        ("./a.md", "/guides/a.md"),
        ("install", "/guides/install.md"),
        ("install.html", "/guides/install.md"),
        ("../guides/", "/guides/index.md"),
        ("../guides", "/guides/index.md"),
        ("../ref/", "/ref/README.md"),
        ("/x.md", "/x.md"),
        ("/guides/a.md#intro", "/guides/a.md"),
        ("../caf%C3%A9.md", "/café.md"),
        ("../sp%20ace.md", "/sp ace.md"),
        ("../img/logo.png", "/img/logo.png"),
        ("../../sitegen/graph.py", "/code/sitegen/graph.py"),
        ("../../sitegen/graph.py#L10-L20", "/code/sitegen/graph.py"),
        ("../", "/index.md"),
    ],
)
def test_internal_targets_resolve_like_github(index: SiteIndex, href: str, node: str) -> None:
    res = resolve(href, "content/guides/other.md", index)
    assert res.outcome is Outcome.INTERNAL, res
    assert res.node == node


def test_fragment_is_kept_apart_from_the_node(index: SiteIndex) -> None:
    res = resolve("install.md#step-1", "content/guides/a.md", index)
    assert (res.node, res.fragment) == ("/guides/install.md", "step-1")


def test_missing_target_is_named_by_its_resolved_path(index: SiteIndex) -> None:
    res = resolve("nope.md", "content/guides/a.md", index)
    assert res.outcome is Outcome.MISSING
    assert res.node == "/guides/nope.md"
    assert res.looked_up == "content/guides/nope.md"


def test_outside_root_is_missing_named_as_written(index: SiteIndex) -> None:
    res = resolve("../../../etc/passwd", "content/guides/a.md", index)
    assert res.outcome is Outcome.OUTSIDE
    assert res.node == "../../../etc/passwd"


def test_self_link_and_pure_fragment(index: SiteIndex) -> None:
    assert resolve("#usage", "content/guides/a.md", index).outcome is Outcome.SELF
    assert resolve("a.md#usage", "content/guides/a.md", index).outcome is Outcome.SELF


@pytest.mark.parametrize("href", ["mailto:a@b.c", "tel:+123", "", "data:text/plain,x", "irc:x"])
def test_non_edges(index: SiteIndex, href: str) -> None:
    assert resolve(href, "content/x.md", index).outcome is Outcome.IGNORED


@pytest.mark.parametrize(
    "href",
    [
        "http://localhost:8000/x",
        "http://127.0.0.1/",
        "http://127.3.4.5",
        "http://[::1]:80/",
        "http://0.0.0.0/",
        "https://LOCALHOST./a",
    ],
)
def test_loopback_is_no_edge(index: SiteIndex, href: str) -> None:
    assert is_loopback(href)
    assert is_private_url(href)
    assert resolve(href, "content/x.md", index).outcome is Outcome.LOOPBACK


@pytest.mark.parametrize(
    "href",
    [
        "http://10.0.0.7:8080/admin",
        "http://172.16.4.2/",
        "http://192.168.1.20/x",
        "http://169.254.1.1/",
        "http://[fd12:3456::1]/",
        "http://[fe80::1%25eth0]/",
        "http://[::ffff:192.168.0.1]/",
    ],
)
def test_a_private_address_is_no_edge_but_not_loopback(index: SiteIndex, href: str) -> None:
    assert not is_loopback(href)
    assert is_private_url(href)
    assert resolve(href, "content/x.md", index).outcome is Outcome.LOOPBACK


@pytest.mark.parametrize(
    "href", ["http://172.32.0.1/", "http://8.8.8.8/", "https://localhost.example.com/", "http://x/"]
)
def test_public_hosts_stay_external(index: SiteIndex, href: str) -> None:
    assert not is_private_url(href)
    assert resolve(href, "content/x.md", index).outcome is Outcome.EXTERNAL


@pytest.mark.parametrize(
    "url,norm",
    [
        ("HTTPS://Example.COM:443/a?b=1#frag", "https://example.com/a?b=1"),
        ("http://example.com.:80", "http://example.com/"),
        ("http://example.com:8080/x", "http://example.com:8080/x"),
        ("https://Ex.org/Path", "https://ex.org/Path"),
    ],
)
def test_external_normalization(url: str, norm: str) -> None:
    assert normalize_url(url) == norm


def test_protocol_relative_is_external(index: SiteIndex) -> None:
    res = resolve("//example.com/x", "content/x.md", index)
    assert (res.outcome, res.node) == (Outcome.EXTERNAL, "https://example.com/x")


def _page(path: str, headings: list[tuple[str, str]], anchors: list[str]) -> PageRecord:
    return PageRecord(
        path=path,
        content_hash="",
        title="",
        front_matter={},
        headings=[Heading(2, text, id_, i + 1, 0) for i, (text, id_) in enumerate(headings)],
        links=[],
        relations=[],
        html="",
        link_mark="",
        anchors=anchors,
    )


@pytest.fixture
def anchors() -> AnchorIndex:
    page = _page("content/a.md", [("Intro", "intro"), (" Set Up ", "set-up")], ["raw"])
    return AnchorIndex({NodeId("/a.md"): page}, {NodeId("/code/sitegen/graph.py"): 10})


def test_line_anchors(anchors: AnchorIndex) -> None:
    source = NodeId("/code/sitegen/graph.py")
    assert anchors.has(source, "L3")
    assert anchors.has(source, "L3-L10")
    assert not anchors.has(source, "L11")
    assert not anchors.has(source, "L5-L3")
    assert not anchors.has(source, "intro")


def test_page_anchors_are_heading_ids_and_other_anchors(anchors: AnchorIndex) -> None:
    page = NodeId("/a.md")
    assert anchors.has(page, "intro") and anchors.has(page, "raw") and anchors.has(page, "")
    assert not anchors.has(page, "nope") and not anchors.has(page, "L3")
    assert anchors.ids(page) == {"intro", "set-up", "raw"}
    assert anchors.by_text(page, "set up") == "set-up"
    assert anchors.by_text(page, "raw") is None


def test_an_asset_or_unknown_node_has_nothing_to_check(anchors: AnchorIndex) -> None:
    assert anchors.has(NodeId("/img/logo.png"), "anything")
    assert anchors.ids(NodeId("/img/logo.png")) == frozenset()
