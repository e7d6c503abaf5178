"""A small project with a git history written for the stale-pages and impact tests: every
commit has fixed author and committer dates, so hashes are the same on every run.

History (one day apart from 2024-01-01):
1. everything: ``a.py`` (helper, Parser.feed, Parser.close), ``b.py``, ``old.py`` and the pages;
2. ``a.py``: only ``helper`` changes (two lines more, so ``feed`` moves down): nothing stale;
3. ``a.py``: ``Parser.feed`` changes: parser.md is stale;
4. ``b.py``: a line outside the snippet's range changes: snippet.md is not stale;
5. ``b.py``: a line inside the snippet's range changes: snippet.md is stale;
6. ``old.py``: ``go`` changes; 7. ``old.py`` is renamed ``new.py``: rename.md is stale by 6;
calm.md documents ``Parser.close``, which no commit after it touches.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

A1 = """def helper():
    return 1


class Parser:
    def feed(self, data):
        return data.strip()

    def close(self):
        return None
"""
A2 = A1.replace("    return 1\n", "    x = 1\n    y = 2\n    return x + y\n")
A3 = A2.replace("return data.strip()", "return data.strip().lower()")
B1 = "first = 1\nsecond = 2\nthird = 3\nfourth = 4\nfifth = 5\n"
B2 = B1.replace("fifth = 5", "fifth = 55")
B3 = B2.replace("third = 3", "third = 33")
OLD1 = "def go():\n    return 'go'\n"
OLD2 = "def go():\n    return 'went'\n"

PAGES = {
    "content/index.md": "# Home\n\nSee [the parser](parser.md).\n",
    "content/parser.md": "# Parser\n\nFeeding: [feed][a.Parser.feed] takes bytes.\n",
    "content/calm.md": "# Calm\n\nClosing:\n\n::: a.Parser.close\n",
    "content/snippet.md": '# Snippet\n\nThe constants:\n\n--8<-- "b.py:2:3"\n',
    "content/whole.md": "# Whole\n\nAll of [b](../b.py).\n",
    "content/rename.md": "# Rename\n\nWe [go][new.go] now.\n",
    "sitegen.toml": 'title = "Stale"\n',
}


def git(root: Path, *args: str, day: int = 1) -> str:
    date = f"2024-01-{day:02d}T12:00:00+00:00"
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "Ada",
        "GIT_AUTHOR_EMAIL": "ada@example.com",
        "GIT_COMMITTER_NAME": "Ada",
        "GIT_COMMITTER_EMAIL": "ada@example.com",
        "GIT_AUTHOR_DATE": date,
        "GIT_COMMITTER_DATE": date,
        "GIT_CONFIG_NOSYSTEM": "1",
        "HOME": str(root),
    }
    proc = subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, text=True, env=env, check=True
    )
    return proc.stdout.strip()


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def commit(root: Path, day: int, message: str) -> str:
    git(root, "add", "-A", day=day)
    git(root, "commit", "-q", "-m", message, day=day)
    return git(root, "rev-parse", "HEAD", day=day)


def make_repo(root: Path) -> dict[str, str]:
    """The project at ``root``; returns each commit's hash by its message."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed; the stale-pages tests need it")
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q", "-b", "main")
    hashes = {}
    write(root, {**PAGES, "a.py": A1, "b.py": B1, "old.py": OLD1})
    hashes["start"] = commit(root, 1, "start")
    write(root, {"a.py": A2})
    hashes["helper"] = commit(root, 2, "helper adds up")
    write(root, {"a.py": A3})
    hashes["feed"] = commit(root, 3, "feed lowers")
    write(root, {"b.py": B2})
    hashes["fifth"] = commit(root, 4, "fifth grows")
    write(root, {"b.py": B3})
    hashes["third"] = commit(root, 5, "third grows")
    write(root, {"old.py": OLD2})
    hashes["go"] = commit(root, 6, "go went")
    git(root, "mv", "old.py", "new.py", day=7)
    hashes["rename"] = commit(root, 7, "old is new")
    return hashes
