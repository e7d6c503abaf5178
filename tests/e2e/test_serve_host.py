"""Issue 14, point 5: ``sitegen serve --host``. The loopback is the default; another address
is served on purpose, announced with a warning, and its name joins the Host allow-list."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.e2e.conftest import write_project

PAGES: dict[str, str | bytes] = {"content/index.md": "# Home\n\nWelcome home.\n"}
#: Another loopback address: on Linux all of 127.0.0.0/8 is the loopback, yet to sitegen
#: it is "not 127.0.0.1", so it stands for an address a user would choose on purpose.
OTHER = "127.0.0.2"


def _free_port(host: str) -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def _get(host: str, port: int, host_header: str) -> int:
    with socket.create_connection((host, port), timeout=5) as s:
        s.sendall(f"GET / HTTP/1.1\r\nHost: {host_header}\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    return int(data.split(b" ", 2)[1])


@contextmanager
def _serving(root: Path, port: int, *extra: str) -> Iterator[list[str]]:
    """`sitegen serve` running until it says where it serves; yields its stderr lines."""
    argv = [
        sys.executable,
        "-m",
        "sitegen.commands.cli",
        "serve",
        "--root",
        str(root),
        "--port",
        str(port),
    ]
    proc = subprocess.Popen(
        [*argv, *extra, "--jobs", "1"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    lines: list[str] = []

    def pump() -> None:
        assert proc.stderr is not None
        lines.extend(line.rstrip("\n") for line in proc.stderr)

    threading.Thread(target=pump, daemon=True).start()
    try:
        deadline = time.monotonic() + 90
        while not any("Ctrl-C stops" in line for line in lines) and time.monotonic() < deadline:
            time.sleep(0.1)
        yield lines
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert not any("Traceback" in line for line in lines)


def test_serve_on_another_address_warns_and_answers_its_name(tmp_path: Path) -> None:
    root = write_project(tmp_path / "proj", PAGES)
    port = _free_port(OTHER)
    with _serving(root, port, "--host", OTHER) as lines:
        assert any(f"at http://{OTHER}:{port}/" in line for line in lines), lines
        assert (
            f"sitegen: warning: serving on {OTHER}, not the loopback: anyone who can reach "
            "this machine can read the site" in lines
        )
        assert _get(OTHER, port, f"{OTHER}:{port}") == 200
        assert _get(OTHER, port, f"attacker.example:{port}") == 403


def test_the_default_is_the_loopback_without_a_warning(tmp_path: Path) -> None:
    root = write_project(tmp_path / "proj", PAGES)
    port = _free_port("127.0.0.1")
    with _serving(root, port) as lines:
        assert any(f"at http://127.0.0.1:{port}/" in line for line in lines), lines
        assert not any("warning: serving on" in line for line in lines)
