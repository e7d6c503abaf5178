"""Issue 18, rows 3 and 5, black-box: `sitegen serve > serve.log 2>&1` in the project root
rebuilds once, not forever (serve watches only what a build reads), an edit of a page still
rebuilds; and a bad query parameter of the event stream is a 400, never a 200 whose stream
then fails."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.conftest import write_project
from tests.e2e.test_safety_serve import Served, free_port, raw_get, serving, stop_process, wait_for

PAGES: dict[str, str | bytes] = {
    "content/index.md": "# Home\n\nWelcome.\n",
    "content/a.md": "# Page A\n\nAlpha text.\n",
    "pkg/core.py": "def run():\n    return 1\n",
    "sitegen.toml": 'title = "Watched"\nsource = ["pkg"]\n',
}


class LoggedServe:
    """`sitegen serve > serve.log 2>&1` run in the project root, as the issue has it: the
    shell makes the log before sitegen starts, and every build appends its lines to it."""

    def __init__(self, root: Path, port: int) -> None:
        self.root, self.port, self.log = root, port, root / "serve.log"
        with open(self.log, "wb") as log:  # the child keeps its own descriptor
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "sitegen.commands.cli",
                    "serve",
                    "--port",
                    str(port),
                    "--jobs",
                    "1",
                ],
                cwd=root,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        wait_for(lambda: "serving" in self.text(), "the server to start")

    def text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def builds(self) -> int:
        """Build summaries in the log: one per build (`sitegen: 2 pages, ... in 0.1 s`)."""
        return sum(
            1
            for line in self.text().splitlines()
            if line.startswith("sitegen: ") and " page" in line
        )

    def stop(self) -> None:
        stop_process(self.proc)


@pytest.mark.parametrize("gitignored", [False, True])
def test_a_log_in_the_project_root_starts_no_build(tmp_path: Path, gitignored: bool) -> None:
    pages = dict(PAGES)
    pages["tool.log"] = ""  # another program's log, made before serve starts, as serve.log is
    if gitignored:
        pages[".gitignore"] = "*.log\n"
    served = LoggedServe(write_project(tmp_path / "proj", pages), free_port())
    try:
        # watchfiles batches changes for 1.6 s: wait well past it before counting
        time.sleep(3)
        assert served.builds() == 1, served.text()[-2000:]
        for n in range(10):  # lines of another program, in serve's log and in its own
            for name in ("serve.log", "tool.log"):
                with open(served.root / name, "a", encoding="utf-8") as log:
                    log.write(f"note {n}\n")
            time.sleep(0.2)
        (served.root / "tool.log").write_text("rewritten whole\n")
        (served.root / "new.log").write_text("a log made while serving\n")
        (served.root / "logs").mkdir()
        (served.root / "logs" / "today.log").write_text("in a new folder\n")
        time.sleep(3)
        assert served.builds() == 1, served.text()[-2000:]
        # and what a build reads still rebuilds, once
        (served.root / "content" / "a.md").write_text("# Page A\n\nAlpha, edited.\n")
        wait_for(lambda: served.builds() == 2, "the page edit's rebuild")
        time.sleep(3)
        assert served.builds() == 2, served.text()[-2000:]
        assert "Traceback" not in served.text()
    finally:
        served.stop()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    with serving(write_project(tmp_path / "proj", PAGES)) as server:
        yield server
    assert not any("Traceback" in line for line in server.lines), "\n".join(server.lines)
    assert not any("a request failed" in line for line in server.lines), "\n".join(server.lines)


def _summaries(served: Served) -> int:
    return sum(1 for line in served.lines if line.startswith("sitegen: ") and " page" in line)


def test_a_rebuild_that_changes_no_output_sends_no_reload(served: Served) -> None:
    """A page saved with the same bytes is built again, but the site is the same, so an open
    page hears nothing; a page edit then reloads it."""
    with socket.create_connection(("127.0.0.1", served.port), timeout=10) as s:
        s.sendall(
            f"GET /__sitegen/events?since=1 HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n\r\n".encode()
        )
        heard = s.recv(4096)
        assert heard.startswith(b"HTTP/1.1 200 "), heard
        builds = _summaries(served)
        page = served.root / "content" / "a.md"
        page.write_bytes(page.read_bytes())
        wait_for(lambda: _summaries(served) > builds, "the rebuild")
        s.settimeout(2)
        try:
            heard += s.recv(4096)
        except TimeoutError:
            pass
        assert b"event: build" not in heard, heard
        (served.root / "content" / "a.md").write_text("# Page A\n\nAlpha, edited.\n")
        s.settimeout(60)
        while b"event: build" not in heard:
            chunk = s.recv(4096)
            assert chunk, heard
            heard += chunk
        assert b'"generation": 2' in heard, heard


# ---------------------------------------------------------------------------- row 5


@pytest.mark.parametrize(
    "query",
    [
        "since=",  # empty
        "since=" + "9" * 5000,  # 5,000 digits
        "since=%C2%B2",  # '²': str.isdigit() says yes, int() says no
        "since=\u00b2",  # the same, unencoded
        "since=-1",
        "since=abc",
        "since=1e3",
        "since=%20%31",
        "since=1234567890123456789",  # 19 digits
        "since=1&since=2",  # duplicated
        "since",  # no '='
        "since=1&&x=2",  # an empty field
        "since=%ff",  # not UTF-8
    ],
)
def test_a_bad_query_parameter_is_a_400(served: Served, query: str) -> None:
    status, body = served.get(f"/__sitegen/events?{query}")
    assert status == 400, body
    assert body.count("\n") == 1 and body.startswith("400: "), body  # one line
    assert served.get("/")[0] == 200  # and the server still answers


def _stream_head(port: int, query: str) -> bytes:
    """The status line and headers of an event stream (which never ends by itself)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(
            f"GET /__sitegen/events?{query} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
        )
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
    return data


@pytest.mark.parametrize("query", ["since=0", "since=1", "since=000000000000000001", "", "v=2"])
def test_a_good_query_still_streams(served: Served, query: str) -> None:
    head = _stream_head(served.port, query)
    assert head.startswith(b"HTTP/1.1 200 "), head
    assert b"text/event-stream" in head


def test_the_reload_script_is_still_served(served: Served) -> None:
    status, body = raw_get(
        served.port,
        f"GET /__sitegen/live.js HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n"
        "Connection: close\r\n\r\n",
    )
    assert status == 200 and "EventSource" in body
