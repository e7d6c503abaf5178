"""Ingestion of a peer's graph.md: ParseExport's reading (wide and legacy tables), the
target filter (§3 normalization, fragment kept, loopback and private hosts dropped and
counted), typed relations kept, bad rows reported at their line."""

from __future__ import annotations

from sitegen.base.urlgate import is_private_url
from sitegen.federation.ingest import graph_title, ingest, site_prefix
from sitegen.records.federation import PeerEdge
from tests.federation.helpers import PEER_A, SITE, legacy_graph, wide_graph


def _ingest(text: str | bytes) -> tuple[list[PeerEdge], int, list[tuple[int, str]]]:
    data = text.encode("utf-8") if isinstance(text, str) else text
    read = ingest(data, "peer", site_prefix(SITE), "2026-01-01T00:00:00Z", "d")
    return list(read.copy.edges), read.copy.dropped, list(read.problems)


def test_edges_into_this_site_are_kept_normalized_with_fragment_rel_and_title() -> None:
    edges, dropped, problems = _ingest(PEER_A)
    assert edges == [
        PeerEdge(
            "/index.md",
            "Home A",
            "https://docs.b.example/guides/intro.html",
            "setup",
            "",
            "the intro",
            "home",
            2,
        ),
        PeerEdge(
            "/old.md",
            "Old <notes> & co",
            "https://docs.b.example/guides/intro.md",
            "",
            "supersedes",
            "",
            "",
            1,
        ),
    ]
    assert dropped == 2  # 127.0.0.1 and 192.168.1.4
    assert problems == []


def test_the_legacy_table_is_read_with_count_one_and_no_titles() -> None:
    text = legacy_graph([("/a.md", "https://docs.b.example/guides/intro.html"), ("/a.md", "/b.md")])
    edges, dropped, _ = _ingest(text)
    assert [(e.source, e.title, e.target, e.count) for e in edges] == [
        ("/a.md", "", "https://docs.b.example/guides/intro.html", 1)
    ]
    assert dropped == 0


def test_a_host_that_only_starts_like_this_site_is_not_this_site() -> None:
    text = wide_graph(
        "X",
        [
            ("/a.md", "https://docs.b.example.evil.org/guides/intro.html", "", "", "", "1"),
            ("/a.md", "http://docs.b.example/guides/intro.html", "", "", "", "1"),
            ("/a.md", "https://docs.b.example:8443/guides/intro.html", "", "", "", "1"),
        ],
        [],
    )
    edges, _, _ = _ingest(text)
    assert edges == []


def test_loopback_private_and_link_local_hosts_are_private() -> None:
    # The ingest filter is the URL gate's (sitegen/base/urlgate.py), the one the link step uses.
    private = ["http://localhost/x", "http://a.localhost/", "http://127.0.0.2/", "http://[::1]/"]
    private += ["http://10.0.0.1/", "http://172.16.3.4/", "http://192.168.0.1/"]
    private += ["http://169.254.1.1/", "http://0.0.0.0/", "http://[fe80::1]/"]
    assert [u for u in private if not is_private_url(u)] == []
    public = ["https://docs.b.example/", "http://8.8.8.8/", "https://[2001:4860::8888]/"]
    assert [u for u in public if is_private_url(u)] == []


def test_malformed_and_non_utf8_rows_are_reported_at_their_line_and_the_rest_read() -> None:
    good = "| /a.md | https://docs.b.example/guides/intro.html |  |  |  | 1 |"
    text = wide_graph("X", [], []).encode()
    lines = text.rstrip(b"\n").split(b"\n")
    lines += [
        b"| /a.md | https://docs.b.example/ |  |  |  | many |",  # bad count
        b"| /bad\xff.md | https://docs.b.example/ |  |  |  | 1 |",  # not UTF-8
        b"| /a.md | only three | cells |",
        good.encode(),
    ]
    first = len(lines) - 3
    edges, _, problems = _ingest(b"\n".join(lines) + b"\n")
    assert [e.target for e in edges] == ["https://docs.b.example/guides/intro.html"]
    assert [line for line, _ in problems] == [first, first + 1, first + 2]
    assert "not valid UTF-8" in problems[1][1]
    assert "count 'many'" in problems[0][1]


def test_a_file_that_is_no_graph_is_one_problem_and_no_edges() -> None:
    edges, _, problems = _ingest(b"\x00\x01 not markdown at all")
    assert edges == []
    assert problems == [(1, "no table with From and To columns was found")]


def test_the_peer_name_is_its_graph_title() -> None:
    assert graph_title(PEER_A) == "Docs A"
    assert graph_title("# Handbook\n") == "Handbook"
    assert graph_title("no heading\n") == ""


def test_the_site_prefix_is_normalized_and_ends_in_a_slash() -> None:
    assert site_prefix("HTTPS://Docs.B.Example:443") == "https://docs.b.example/"
    assert site_prefix("https://x.example/docs") == "https://x.example/docs/"
    assert site_prefix("") == ""
