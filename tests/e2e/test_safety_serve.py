"""Issue 8, point 8: `sitegen serve` keeps watching after a failed build, answers only the
loopback's Host names (against DNS rebinding), never lists or serves the cache or anything
outside the output, reports a busy or invalid port in one line (exit 2), and answers a bad
request with an error response, never a traceback. Black-box: the real command, real sockets.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import run_cli, write_project

PAGES: dict[str, str | bytes] = {
    "content/index.md": "# Home\n\nWelcome home.\n",
    "content/notes/a.md": "# A note\n\nNo index page in this folder.\n",
    "sitegen.toml": 'title = "Served"\n',
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Served:
    """A running `sitegen serve` and the lines it printed to stderr so far."""

    def __init__(self, root: Path, port: int) -> None:
        self.root, self.port = root, port
        self.lines: list[str] = []
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "sitegen.commands.cli",
                "serve",
                "--root",
                str(root),
                "--port",
                str(port),
                "--jobs",
                "1",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        threading.Thread(target=self._read, daemon=True).start()
        wait_for(lambda: any("serving" in line for line in self.lines), "the server to start")

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.append(line.rstrip("\n"))

    def get(self, path: str, host: str | None = None) -> tuple[int, str]:
        host = host or f"127.0.0.1:{self.port}"
        return raw_get(
            self.port, f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        )

    def stop(self) -> None:
        stop_process(self.proc)


def stop_process(proc: subprocess.Popen[Any]) -> None:
    """Terminate a server; kill it if it does not end within 20 s."""
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=20)


@contextmanager
def serving(root: Path) -> Iterator[Served]:
    """`sitegen serve` of the project at ``root`` on a free port, stopped after the block."""
    server = Served(root, free_port())
    try:
        yield server
    finally:
        server.stop()


def raw_get(port: int, request: str) -> tuple[int, str]:
    """Status code and body of one raw HTTP request (so Host and the path are sent as given)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(request.encode("latin-1"))
        chunks = []
        while chunk := s.recv(65536):
            chunks.append(chunk)
    head, _, body = b"".join(chunks).partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body.decode("utf-8", errors="replace")


def wait_for(condition: Callable[[], bool], what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    with serving(write_project(tmp_path / "proj", PAGES)) as server:
        yield server
    assert not any("Traceback" in line for line in server.lines), "\n".join(server.lines)


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "[::1]", "LOCALHOST"])
def test_loopback_host_names_with_the_port_are_answered(served: Served, host: str) -> None:
    status, body = served.get("/", f"{host}:{served.port}")
    assert status == 200 and "Welcome home." in body


@pytest.mark.parametrize("host", ["attacker.example", "127.0.0.1.nip.io", "evil.com:80"])
def test_other_host_names_are_refused_against_dns_rebinding(served: Served, host: str) -> None:
    port_host = host if ":" in host else f"{host}:{served.port}"
    status, body = served.get("/", port_host)
    assert status == 403 and "Welcome" not in body


def test_a_request_without_host_is_refused(served: Served) -> None:
    status, body = raw_get(served.port, "GET / HTTP/1.1\r\nConnection: close\r\n\r\n")
    assert status == 400 and "Welcome" not in body


@pytest.mark.parametrize(
    "path",
    [
        "/.sitegen-output",
        "/%2e%2e/.sitegen/",
        "/../.sitegen/",
        "/%2E%2E/sitegen.toml",
        "/../content/index.md",
        "/notes/..%2f..%2fsitegen.toml",
    ],
)
def test_the_cache_and_anything_outside_the_output_are_never_served(
    served: Served, path: str
) -> None:
    status, body = served.get(path)
    assert status in (400, 404)
    assert 'title = "Served"' not in body and "# Home" not in body and "fingerprint" not in body


def test_a_folder_without_index_is_not_listed(served: Served) -> None:
    assert served.get("/notes/a.html")[0] == 200
    status, body = served.get("/notes/")
    assert status == 404 and "Page not found" in body  # the site's 404 page, not a listing
    assert "Directory listing" not in body and "Index of" not in body


@pytest.mark.parametrize("path", ["/%00", "/a%00.html", "/%ff%fe", "/..%5c..%5csitegen.toml"])
def test_a_bad_path_gets_an_error_response_not_a_traceback(served: Served, path: str) -> None:
    status, _ = served.get(path)
    assert status in (400, 404)
    assert served.get("/")[0] == 200  # and the server still answers


def test_serve_keeps_watching_after_a_failed_build(served: Served) -> None:
    root = served.root
    (root / "theme").mkdir()
    (root / "theme" / "page.html").write_text(
        '{% extends "base.html" %}\n{% block content %}{{ page.title }\n{% endblock %}'
    )
    (root / "sitegen.toml").write_text('title = "Served"\ntheme_dir = "theme"\n')
    wait_for(
        lambda: any(line.startswith("error: theme/page.html:2:") for line in served.lines),
        "the template error in the terminal",
    )
    status, body = served.get("/")
    assert status == 200 and "sitegen-build-error" in body and "theme/page.html:2:" in body
    (root / "theme" / "page.html").write_text(
        '{% extends "base.html" %}{% block content %}<p id="fixed">{{ page.title }}</p>{% endblock %}'
    )
    wait_for(lambda: '<p id="fixed">Home</p>' in served.get("/")[1], "the rebuilt page")
    # The new site is swapped in a moment before the build is recorded as a success: the
    # banner must be gone once it is (not necessarily in the same instant).
    wait_for(lambda: "sitegen-build-error" not in served.get("/")[1], "the banner to clear", 20)
    assert '<p id="fixed">Home</p>' in served.get("/")[1]


def test_a_busy_port_is_one_line_and_exit_2(tmp_path: Path) -> None:
    root = write_project(tmp_path / "proj", PAGES)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = run_cli("serve", "--root", str(root), "--port", str(port))
    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        f"error: port {port} on 127.0.0.1 is in use by another program; choose another with --port"
    )


@pytest.mark.parametrize("port", ["99999", "-1", "0"])
def test_an_invalid_port_is_one_line_and_exit_2(tmp_path: Path, port: str) -> None:
    root = write_project(tmp_path / "proj", PAGES)
    proc = run_cli("serve", "--root", str(root), "--port", port)
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"error: --port {port}: a port is a number from 1 to 65535"


def test_served_pages_carry_live_reload_but_the_built_site_does_not(served: Served) -> None:
    status, body = served.get("/")
    assert status == 200 and 'src="/__sitegen/live.js"' in body
    assert served.get("/__sitegen/live.js")[0] == 200
    site = served.root / "site"
    assert not any(b"__sitegen" in p.read_bytes() for p in site.rglob("*") if p.is_file())


def test_urllib_sees_the_same_refusal(served: Served) -> None:
    request = urllib.request.Request(
        f"http://127.0.0.1:{served.port}/", headers={"Host": "rebound.example"}
    )
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(request, timeout=5)
    assert err.value.code == 403
