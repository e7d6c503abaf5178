"""Helpers for the safety tests: a small project beside the user's own files, and sitegen run
as a user runs it (a subprocess), so what is asserted is what a user would see."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

PROJECT = {
    "content/index.md": "# Home\n\nSee [the guide](guide.md).\n",
    "content/guide.md": "# Guide\n\nBack [home](index.md).\n",
    "src/app.py": "import os\n\n\ndef main() -> None:\n    print(os.name)\n",
    ".git/HEAD": "ref: refs/heads/main\n",
    ".git/config": "[core]\n",
    "public/CNAME": "docs.example.org\n",
    "public/keep.html": "<p>the user's own page</p>\n",
    "out.txt": "a file of the user's\n",
    "sitegen.toml": 'source = ["src"]\n',
}


def make_project(base: Path, files: dict[str, str] = PROJECT) -> Path:
    """The project at ``base/project``, with a file of the user's beside it in ``base``."""
    root = base / "project"
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (root / "empty").mkdir()
    (base / "beside.txt").write_text("next to the project\n", encoding="utf-8")
    return root


def snapshot(base: Path, skip: tuple[str, ...] = ()) -> dict[str, str]:
    """Every file below ``base`` (links not followed) by its path, with its bytes' hash."""
    found: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames.sort()
        for name in filenames:
            path = Path(dirpath) / name
            rel = path.relative_to(base).as_posix()
            if rel.startswith(skip):
                continue
            found[rel] = (
                hashlib.sha256(path.read_bytes()).hexdigest()
                if not path.is_symlink()
                else "link:" + os.readlink(path)
            )
    return found


def sitegen(root: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    env.pop("SITEGEN_DEBUG", None)
    return subprocess.run(
        [sys.executable, "-m", "sitegen.commands.cli", *args],
        cwd=root,
        env=env,
        capture_output=True,
        check=False,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )
