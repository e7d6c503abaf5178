"""What readers get from peers (issue 22, points 1 and 5): the configuration's peers and its
one-sentence errors, the page's "Linked from other sites" group escaped and kept current by
incremental builds, and peers.html."""

from __future__ import annotations

import os
import re
import threading
from pathlib import Path

import pytest

from sitegen.base.diagnostics import Level
from sitegen.config import ConfigError, PeerOption, load_config
from sitegen.federation.fetch import FetchPolicy, Validators, read_file
from tests.cli.conftest import sitegen
from tests.federation.helpers import PEER_A, build_site, wide_graph, write_site


def _peer_file(tmp_path: Path, text: str = PEER_A) -> Path:
    peer = tmp_path / "a" / "graph.md"
    peer.parent.mkdir(parents=True, exist_ok=True)
    peer.write_text(text, encoding="utf-8")
    return peer


def test_peers_are_urls_paths_or_tables(tmp_path: Path) -> None:
    peers = '["https://docs.a.example/", "../a/site", { path = "x.md", name = "X" }]'
    config = load_config(write_site(tmp_path, peers))
    assert config.peers == (
        PeerOption(url="https://docs.a.example/"),
        PeerOption(path="../a/site"),
        PeerOption(path="x.md", name="X"),
    )


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("[1]", "option 'peers' must list URLs, paths or tables"),
        ('["ftp://files.example/graph.md"]', "is not an absolute http(s) URL"),
        ('[{ name = "no place" }]', "each peer needs a url or a path"),
        ('[{ path = "a", colour = "red" }]', "option 'peers' must list URLs"),
        # issue 27, row 18: urlsplit raised, and the build said "internal error"
        ('["http://[::1:18555/"]', "peers[0] 'http://[::1:18555/' is not a valid URL"),
        ('["https://a.example/", { url = "http://h:99999/" }]', "peers[1] 'http://h:99999/'"),
        ('["http://u:pw@[::1/?token=x"]', "peers[0] 'http://***@[::1/?token=***' is not a valid"),
    ],
)
def test_a_bad_peer_is_one_sentence_and_exit_2(tmp_path: Path, value: str, message: str) -> None:
    root = write_site(tmp_path, value)
    with pytest.raises(ConfigError, match=re.escape(message)):
        load_config(root)
    run = sitegen("build", root=root)
    assert run.code == 2
    [line] = run.err_lines
    assert line.startswith("error: ") and message in line


def test_the_group_is_escaped_and_only_web_links_are_links(tmp_path: Path) -> None:
    hostile = wide_graph(
        "<b>Evil</b>",
        [
            ("/x.md", "https://docs.b.example/guides/intro.html", "", "<img src=x>", "", "1"),
            ("javascript:alert(1)", "https://docs.b.example/guides/intro.md", "", "", "", "1"),
        ],
        [("/x.md", "<script>alert(1)</script>")],
    )
    _peer_file(tmp_path, hostile)
    root = write_site(tmp_path / "b", '[{ path = "../a/graph.md", url = "https://a.example/" }]')
    build_site(root, write=True)
    html = (root / "site/guides/intro.html").read_text(encoding="utf-8")
    section = html[html.index('id="backlinks-peers"') :]
    assert "<script>alert(1)" not in html and "<img src=x>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in section
    assert "on &lt;b&gt;Evil&lt;/b&gt;" in section
    assert 'href="https://a.example/x.md"' in section
    assert 'href="javascript:' not in html
    assert "<span>javascript:alert(1)</span>" in section  # shown, never a link


def test_an_incremental_build_shows_the_peers_new_links(tmp_path: Path) -> None:
    peer = _peer_file(tmp_path)
    root = write_site(tmp_path / "b", '[{ path = "../a/graph.md", url = "https://a.example/" }]')
    build_site(root, write=True)
    page = root / "site/guides/intro.html"
    assert "Home A" in page.read_text(encoding="utf-8")
    peer.write_text(
        wide_graph(
            "Docs A",
            [("/n.md", "https://docs.b.example/guides/intro.html", "", "", "", "1")],
            [("/n.md", "Newer page")],
        ),
        encoding="utf-8",
    )
    os.utime(peer, ns=(7, 7))
    build_site(root, write=True)
    text = page.read_text(encoding="utf-8")
    assert "Newer page" in text and "Home A" not in text


def test_the_peers_page_lists_each_peer(tmp_path: Path) -> None:
    _peer_file(tmp_path)
    peers = '[{ path = "../a/graph.md", url = "https://a.example/" }, "../missing/graph.md"]'
    root = write_site(tmp_path / "b", peers)
    build_site(root, write=True)
    html = (root / "site/peers.html").read_text(encoding="utf-8")
    rows = html[html.index("<tbody") :].split("<tr")[1:]
    assert len(rows) == 2
    assert "Docs A" in rows[0] and "2 (of 6 edges, 2 loopback or private targets" in rows[0]
    assert "never" in rows[1] and "never read" in rows[1]


def test_a_site_without_peers_has_no_peers_page(tmp_path: Path) -> None:
    root = write_site(tmp_path, "[]")
    build_site(root, write=True)
    assert not (root / "site/peers.html").exists()
    assert not (root / ".sitegen/peers").exists()


def test_a_bad_row_of_a_local_peer_is_reported_at_the_file_as_configured(tmp_path: Path) -> None:
    text = PEER_A + "| /x.md | https://docs.b.example/ | | | | zero |\n"
    _peer_file(tmp_path, text)
    root = write_site(tmp_path / "b", '["../a"]')  # the folder: its graph.md is read
    result = build_site(root)
    [bad] = [d for d in result.diagnostics if d.level == "warning"]
    assert (bad.path, bad.line) == ("../a/graph.md", len(text.splitlines()))
    assert bad.format().endswith(
        "warning: peer graph.md: count 'zero' is not a positive integer; row skipped"
    )


def test_a_fifo_or_a_device_as_a_local_peer_is_one_warning_and_never_blocks(
    tmp_path: Path,
) -> None:
    fifo = tmp_path / "a" / "graph.md"
    fifo.parent.mkdir()
    os.mkfifo(fifo)  # opening it for reading waits for a writer: issue 27, row 22
    got: list[str] = []
    reader = threading.Thread(
        target=lambda: got.append(read_file(fifo, Validators(), FetchPolicy()).error),
        daemon=True,
    )
    reader.start()
    reader.join(5)
    if reader.is_alive():  # let the blocked reader go before failing
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    assert got == [f"{fifo} is not a regular file (a pipe, a device or a socket); not read"]
    assert "not a regular file" in read_file(Path("/dev/null"), Validators(), FetchPolicy()).error
    root = write_site(tmp_path / "b", '["../a/graph.md"]')
    [warning] = [d for d in build_site(root).diagnostics if d.level is Level.WARNING]
    assert (warning.path, warning.line) == ("../a/graph.md", 1)
    assert "is not a regular file" in warning.message


def test_a_no_change_build_says_this_builds_peer_warning_not_the_last_ones(
    tmp_path: Path,
) -> None:
    peer = _peer_file(tmp_path)
    root = write_site(tmp_path / "b", '["../a/graph.md"]')
    build_site(root, write=True)
    peer.unlink()
    second = build_site(root, write=True)  # the copy is used: a warning saying why
    assert [d.message for d in second.diagnostics if d.level is Level.WARNING] == [
        _stale(second, "does not exist")
    ]
    peer.mkdir()  # unreadable for another reason; the same copy, so nothing else changed
    third = build_site(root, write=True)
    assert third.unchanged  # issue 27, row 25: this build replayed the second one's warning
    warnings = [d.message for d in third.diagnostics if d.level is Level.WARNING]
    assert len(warnings) == 1 and "graph.md/graph.md does not exist" in warnings[0]
    infos = [d.message for d in third.diagnostics if d.code == "peer-summary"]
    assert infos == [
        "peer 'Docs A': 2 backlinks to this site from 6 edges; 2 targets on "
        "loopback or private addresses dropped"
    ]


def _stale(result: object, why: str) -> str:
    from sitegen.build import BuildResult

    assert isinstance(result, BuildResult)
    [warning] = [d.message for d in result.diagnostics if d.level is Level.WARNING]
    assert why in warning and "its last good copy" in warning
    return warning
