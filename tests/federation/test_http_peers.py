"""Peers over HTTP (issue 22, point 4), against a local server on 127.0.0.1 only: a peer
site's graph.md, wide and legacy; a slow one (timeout), a huge one (limit), malformed rows,
a redirect to another host, 404, and 304 on revalidation. Never a traceback."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

from sitegen.cache import prepare_cache
from sitegen.config import load_config
from sitegen.diagnostics import Level
from sitegen.federation.fetch import FetchPolicy, Validators, fetch_url
from sitegen.federation.model import PeerState
from sitegen.federation.step import read_peers
from tests.federation.helpers import PEER_A, build_site, legacy_graph, peer_backlinks, write_site

LEGACY = legacy_graph(
    [("/l.md", "https://docs.b.example/guides/intro.html"), ("/l.md", "/elsewhere.md")]
)
BAD_ROWS = PEER_A.replace(
    "| /old.md | https://elsewhere.example/x |  | x |  | 1 |",
    "| /old.md | https://elsewhere.example/x |  | x |  | one |\n| /old.md | three | cells |",
)
ETAG = '"a-1"'


class _Peer(BaseHTTPRequestHandler):
    """Each path is one kind of peer; ``hits`` counts full (200) answers per path."""

    hits: ClassVar[dict[str, int]] = {}
    port = 0

    def log_message(self, format: str, *args: object) -> None:
        pass

    def _send(self, body: bytes, headers: dict[str, str] | None = None) -> None:
        self.send_response(200)
        for name, value in {"Content-Length": str(len(body)), **(headers or {})}.items():
            self.send_header(name, value)
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeouts)
            return
        _Peer.hits[self.path] = _Peer.hits.get(self.path, 0) + 1

    def do_GET(self) -> None:
        path = self.path
        if path == "/a/graph.md":
            if self.headers.get("If-None-Match") == ETAG:
                self.send_response(304)
                self.end_headers()
                return
            self._send(PEER_A.encode(), {"ETag": ETAG})
        elif path == "/dated/graph.md":
            stamp = "Tue, 01 Dec 2026 10:00:00 GMT"
            if self.headers.get("If-Modified-Since") == stamp:
                self.send_response(304)
                self.end_headers()
                return
            self._send(PEER_A.encode(), {"Last-Modified": stamp})
        elif path == "/legacy/graph.md":
            self._send(LEGACY.encode())
        elif path == "/bad/graph.md":
            self._send(
                BAD_ROWS.encode() + b"| /x\xfe.md | https://docs.b.example/ |  |  |  | 1 |\n"
            )
        elif path == "/slow/graph.md":
            time.sleep(1.5)
            self._send(PEER_A.encode())
        elif path == "/drip/graph.md":
            self.send_response(200)
            self.end_headers()
            try:
                for _ in range(30):
                    self.wfile.write(b"| a |\n")
                    self.wfile.flush()
                    time.sleep(0.1)
            except (BrokenPipeError, ConnectionResetError):
                return
        elif path == "/huge/graph.md":
            self._send(b"x" * 5000)
        elif path == "/huge-unsized/graph.md":
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"y" * 5000)
        elif path == "/away/graph.md":
            self.send_response(302)
            self.send_header("Location", f"http://localhost:{_Peer.port}/a/graph.md")
            self.end_headers()
        elif path == "/moved/graph.md":
            self.send_response(301)
            self.send_header("Location", "/a/graph.md")
            self.end_headers()
        else:
            self.send_error(404, "Not Found")


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Peer)
    httpd.daemon_threads = True
    _Peer.port = httpd.server_address[1]
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{_Peer.port}"
    httpd.shutdown()
    httpd.server_close()


QUICK = FetchPolicy(connect_timeout=0.5, total_timeout=1.0, max_bytes=4096)


def test_a_peer_site_over_http_gives_backlinks(server: str, tmp_path: Path) -> None:
    root = write_site(tmp_path, f'[{{ url = "{server}/a/", name = "Docs A" }}]')
    result = build_site(root)
    assert peer_backlinks(result) == [
        (f"{server}/a/index.md", "", "the intro", "home", "2", "Docs A"),
        (f"{server}/a/old.md", "supersedes", "", "", "1", "Docs A"),
    ]
    assert not [d for d in result.diagnostics if d.level is Level.WARNING]


def test_a_legacy_graph_over_http_is_read(server: str, tmp_path: Path) -> None:
    root = write_site(tmp_path, f'["{server}/legacy/graph.md"]')
    result = build_site(root)
    # the name is the file's title; the linking page's URL is made from the file's folder
    assert peer_backlinks(result) == [
        (f"{server}/legacy/l.md", "", "", "", "1", "Legacy export"),
    ]


def test_revalidation_answers_304_and_nothing_is_read_again(server: str, tmp_path: Path) -> None:
    root = write_site(tmp_path, f'["{server}/a/", "{server}/dated/"]')
    config = load_config(root)
    prepare_cache(config.cache_dir)
    before = dict(_Peer.hits)
    first = [s for _, _, s in read_peers(config).peers]
    second = read_peers(config).peers
    assert first == [PeerState.READ, PeerState.READ]
    assert [s for _, _, s in second] == [PeerState.UNCHANGED, PeerState.UNCHANGED]
    assert [len(c.edges) for _, c, _ in second if c] == [2, 2]
    for path in ("/a/graph.md", "/dated/graph.md"):
        assert _Peer.hits.get(path, 0) - before.get(path, 0) == 1  # one full answer each


def test_a_slow_peer_times_out(server: str) -> None:
    got = fetch_url(f"{server}/slow/graph.md", Validators(), QUICK)
    assert got.data is None
    assert "timed out" in got.error


def test_a_peer_that_drips_meets_the_total_timeout(server: str) -> None:
    started = time.monotonic()
    got = fetch_url(f"{server}/drip/graph.md", Validators(), QUICK)
    assert got.data is None
    assert "longer than 1 s" in got.error
    assert time.monotonic() - started < 2.5


def test_a_huge_peer_is_refused_by_its_length_or_while_reading(server: str) -> None:
    for path in ("/huge/graph.md", "/huge-unsized/graph.md"):
        got = fetch_url(server + path, Validators(), QUICK)
        assert got.data is None
        assert "larger than the limit of 4,096 bytes" in got.error


def test_a_redirect_to_another_host_is_not_followed(server: str) -> None:
    got = fetch_url(f"{server}/away/graph.md", Validators(), QUICK)
    assert got.data is None
    assert "redirects to another host" in got.error
    same = fetch_url(f"{server}/moved/graph.md", Validators(), QUICK)
    assert same.data == PEER_A.encode()


def test_a_404_is_a_warning_and_no_backlinks(server: str, tmp_path: Path) -> None:
    root = write_site(tmp_path, f'["{server}/nothing-here/"]')
    result = build_site(root)
    assert peer_backlinks(result) == []
    [warning] = [d for d in result.diagnostics if d.level is Level.WARNING]
    assert warning.path == f"{server}/nothing-here/"
    assert "the server answered 404 Not Found; it gives no backlinks" in warning.message


def test_an_unreachable_peer_keeps_its_copy(server: str, tmp_path: Path) -> None:
    root = write_site(tmp_path, f'["{server}/a/"]')
    assert len(peer_backlinks(build_site(root))) == 2
    # the same peer, now on a port nothing listens on
    closed = "http://127.0.0.1:9/a/"
    copy = next((root / ".sitegen" / "peers").glob("*.json"))
    copy.rename(copy.with_name("moved.json"))
    write_site(root, f'["{closed}"]')
    result = build_site(root)
    assert peer_backlinks(result) == []
    assert any("could not be reached" in d.message for d in result.diagnostics)


def test_malformed_and_non_utf8_rows_are_reported_per_row(server: str, tmp_path: Path) -> None:
    root = write_site(tmp_path, f'["{server}/bad/"]')
    result = build_site(root)
    assert len(peer_backlinks(result)) == 2  # the good rows are read
    rows = [
        d
        for d in result.diagnostics
        if d.path == f"{server}/bad/graph.md" and d.level is Level.WARNING
    ]
    messages = [d.message for d in rows]
    assert len(rows) == 3
    assert any("count 'one' is not a positive integer" in m for m in messages)
    assert any("row has 3 cells" in m for m in messages)
    assert any("not valid UTF-8" in m for m in messages)
    assert sorted(d.line for d in rows) == [d.line for d in sorted(rows)]
    assert all(d.line > 1 for d in rows)
