"""Issue 8, point 2: one build per project at a time. A second build waits, naming the other
process, then builds normally; a killed holder never leaves a stale lock."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.safety.conftest import make_project, sitegen

pytestmark = pytest.mark.slow  # concurrent builds, in subprocesses (the fast loop skips them)


def _start_build(root: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "sitegen.commands.cli", "build", "--jobs", "1"],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        stdin=subprocess.DEVNULL,
    )


def _read_until(proc: subprocess.Popen[str], needle: str, seconds: float) -> str:
    """The build's stderr up to the first line holding ``needle`` (read by a thread, since a
    blocking read could wait forever)."""
    assert proc.stderr is not None
    lines: list[str] = []
    found = threading.Event()

    def pump() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            lines.append(line)
            if needle in line:
                found.set()
                return

    threading.Thread(target=pump, daemon=True).start()
    found.wait(seconds)
    return "".join(lines)


def test_a_second_build_waits_for_the_first_then_builds(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    assert sitegen(root, "build", "--jobs", "1").returncode == 0  # the cache folder exists
    # This test process is "the other build": it holds the lock, as a running build does.
    fd = os.open(root / ".sitegen/lock", os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX)
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode())
    (root / "content/later.md").write_text("# Later\n")
    proc = _start_build(root)
    try:
        seen = _read_until(proc, "waiting", 60)
        assert f"waiting for another build of this project (process {os.getpid()})" in seen
        time.sleep(0.3)
        assert proc.poll() is None, "the second build must wait while the lock is held"
        assert not (root / "site/later.html").exists()
    finally:
        os.close(fd)  # the first build ends
    _out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, seen + err
    assert (root / "site/later.html").is_file()
    assert (root / "site/style.css").is_file()


def test_two_builds_started_together_both_publish_a_whole_site(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    procs = [_start_build(root) for _ in range(2)]
    for proc in procs:
        _out, err = proc.communicate(timeout=180)
        assert proc.returncode == 0, err
    for name in ("index.html", "guide.html", "style.css", "graph.md", ".sitegen-output"):
        assert (root / "site" / name).is_file(), name


def test_a_killed_build_leaves_no_stale_lock(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            (
                "import fcntl, os, sys, time\n"
                "os.makedirs('.sitegen', exist_ok=True)\n"
                "fd = os.open('.sitegen/lock', os.O_RDWR | os.O_CREAT)\n"
                "fcntl.flock(fd, fcntl.LOCK_EX)\n"
                "print('held', flush=True)\n"
                "time.sleep(600)\n"
            ),
        ],
        cwd=root,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    holder.kill()
    holder.wait()
    proc = sitegen(root, "build", "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    assert "waiting" not in proc.stderr
