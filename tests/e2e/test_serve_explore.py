"""`sitegen explore` ranks the matching page first; `sitegen serve` serves the built site on
the loopback interface."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.e2e.conftest import run_cli


def test_explore_ranks_the_matching_page_first(project: Path) -> None:
    proc = run_cli("explore", "--root", str(project), "decision")
    assert proc.returncode == 0, proc.stderr
    first = proc.stdout.splitlines()[0]
    assert first.endswith(("/adr/0002-new.md", "/adr/index.md")), proc.stdout
    assert "No page matches" in run_cli("explore", "--root", str(project), "zzzqqq").stdout


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_builds_and_serves_on_loopback(project: Path) -> None:
    port = _free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "sitegen.commands.cli",
            "serve",
            "--root",
            str(project),
            "--port",
            str(port),
            "--jobs",
            "1",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        body = b""
        for _ in range(100):
            try:
                with urllib.request.urlopen(
                    f"http://127.0.0.1:{port}/adr/0001-old.html", timeout=2
                ) as r:
                    body = r.read()
                break
            except OSError:
                time.sleep(0.2)
        assert b"Superseded by" in body
    finally:
        proc.terminate()
        proc.wait(timeout=20)
