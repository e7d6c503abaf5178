"""The temporal dimension's input: when files changed, and which changed together, from git.

Ages are measured from the newest commit, never from the clock, so one commit always gives
the same figures (content/guides/related-pages.md). When the project root is not the top of
its own git checkout (a parent's history is never read), or git fails, the history is empty
and the dimension is flat. Only runs ``git log``, through sitegen/base/gitrun.py; writes nothing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from sitegen.base.gitrun import GitError, is_checkout, run_git

#: How many commits back the history reaches.
MAX_COMMITS = 300
#: A commit touching more files than this (a rename sweep, a reformat) says nothing about
#: which files belong together.
MAX_FILES_PER_COMMIT = 40
DAY = 86_400.0
#: Seconds the history may take to read (the related pages wait for it).
GIT_TIMEOUT = 20.0
#: Half-life of a change's weight, per node kind: docs stay relevant longer than code.
HALF_LIFE_DAYS = {"page": 180.0, "source": 60.0}


@dataclass(frozen=True)
class History:
    #: Unix time of the newest commit (0 outside git).
    head_time: int = 0
    #: Repository path (relative to the project root) -> time of its last change.
    last_change: dict[str, int] = field(default_factory=dict)
    #: Each commit's time and the project files it touched, newest first.
    commits: tuple[tuple[int, tuple[str, ...]], ...] = ()

    def recency(self, path: str, kind: str) -> float:
        """``0.5 ** (age / half-life)`` of the file's last change; 1.0 for every file
        when there is no history (flat)."""
        if not self.head_time:
            return 1.0
        when = self.last_change.get(path)
        if when is None:
            return 0.0
        return _decay(self.head_time - when, kind)

    def co_changes(self, kind_of: dict[str, str]) -> dict[tuple[str, str], float]:
        """``(a, b) -> weight`` for files committed together (a < b), each commit weighted
        by its recency and shared among its files (a commit of many files ties each pair
        loosely); only files in ``kind_of``."""
        out: dict[tuple[str, str], float] = {}
        for when, files in self.commits:
            known = sorted(f for f in files if f in kind_of)
            if len(known) < 2 or len(known) > MAX_FILES_PER_COMMIT:
                continue
            for i, a in enumerate(known):
                weight = _decay(self.head_time - when, kind_of[a]) / (len(known) - 1)
                for b in known[i + 1 :]:
                    out[(a, b)] = out.get((a, b), 0.0) + weight
        return out


def _decay(age_seconds: float, kind: str) -> float:
    half_life = HALF_LIFE_DAYS.get(kind, HALF_LIFE_DAYS["source"]) * DAY
    return math.pow(0.5, max(0.0, age_seconds) / half_life)


def read_history(root: Path) -> History:
    """The last ``MAX_COMMITS`` commits of the root's own checkout (sitegen/base/gitrun.py: no
    parent repository is read, nothing of the repository's configuration runs); empty when
    the root is not the top of a checkout or git fails."""
    if not is_checkout(root):
        return History()
    try:
        out = run_git(
            root,
            [
                "log",
                f"-n{MAX_COMMITS}",
                "--no-renames",
                "--name-only",
                "--format=%x1e%ct",
                "HEAD",
                "--",
            ],
            timeout=GIT_TIMEOUT,
        )
    except GitError:
        return History()
    return parse_log(out.decode("utf-8", "replace"))


def parse_log(text: str) -> History:
    """Parse ``git log --name-only --format=%x1e%ct`` output."""
    commits: list[tuple[int, tuple[str, ...]]] = []
    for block in text.split("\x1e")[1:]:
        lines = [line.strip() for line in block.strip().splitlines() if line.strip()]
        if not lines or not lines[0].isdigit():
            continue
        commits.append((int(lines[0]), tuple(sorted(set(lines[1:])))))
    if not commits:
        return History()
    last: dict[str, int] = {}
    for when, files in commits:
        for f in files:
            last[f] = max(last.get(f, 0), when)
    return History(max(c[0] for c in commits), dict(sorted(last.items())), tuple(commits))
