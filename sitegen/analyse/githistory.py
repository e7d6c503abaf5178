"""The project's git history as stale pages and change impact need it: which commits changed
which files (renames followed), and which lines each commit or a diff touched.

Runs only ``git`` itself, with fixed arguments, in the project root's own checkout, with an
environment and options that keep the repository's configuration from running anything
(no external diff, no textconv, no fsmonitor, no signature checks). Never writes.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from sitegen.link.documents import Commit

T = TypeVar("T")
GIT_TIMEOUT = 120
#: At most this many paths are given to one ``git log -p`` (the command line stays short).
PATHS_PER_CALL = 500
#: The configuration that could make git run a program from the repository, overridden.
_SAFE_CONFIG = (
    "core.quotePath=false",
    "core.fsmonitor=false",
    "log.showSignature=false",
    "diff.external=",
    "core.hooksPath=/dev/null",
    "color.ui=false",
)
_DIFF_OPTIONS = ("--no-ext-diff", "--no-textconv", "--no-color", "-M")
_HUNK = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


class GitError(Exception):
    """git is missing, the root is no checkout, or git refused (a bad revision)."""


def git_env() -> dict[str, str]:
    """The caller's environment without any ``GIT_*`` variable (which could point git at
    another repository or configuration), plus a fixed locale and no prompts or locks."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(
        GIT_OPTIONAL_LOCKS="0",
        GIT_TERMINAL_PROMPT="0",
        GIT_CONFIG_NOSYSTEM="1",
        LC_ALL="C",
    )
    return env


def is_checkout(root: Path) -> bool:
    """Whether the root is the top of a git checkout (sitegen reads nothing above the root)."""
    return (root / ".git").exists()


def run_git(root: Path, args: Sequence[str]) -> bytes:
    """``git -C root <safe config> args``: its standard output; GitError on any failure."""
    command = ["git", "-C", str(root)]
    for setting in _SAFE_CONFIG:
        command += ["-c", setting]
    try:
        proc = subprocess.run(
            [*command, *args],
            capture_output=True,
            timeout=GIT_TIMEOUT,
            check=False,
            env=git_env(),
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        raise GitError(f"git could not run ({exc})") from exc
    if proc.returncode != 0:
        first = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitError(first[0] if first else f"git exited with {proc.returncode}")
    return proc.stdout


# --- commits and the files they changed ---------------------------------------------------


@dataclass
class History:
    """Every commit reachable from HEAD, newest first (``--topo-order``: a commit comes
    before its parents), and for each file as HEAD names it the commits that changed its
    content (a pure rename is no change), followed across the renames git reports."""

    commits: list[Commit] = field(default_factory=list)
    #: HEAD path -> indexes into ``commits`` of the commits that changed it, newest first.
    changes: dict[str, list[int]] = field(default_factory=dict)
    #: (commit index, the path as that commit names it) -> the path at HEAD.
    names: dict[tuple[int, str], str] = field(default_factory=dict)

    def last_change(self, path: str) -> int | None:
        """The index of the newest commit that changed ``path``, or None (never committed)."""
        found = self.changes.get(path)
        return found[0] if found else None

    def changes_after(self, path: str, index: int | None) -> list[int]:
        """The commits that changed ``path`` and come before commit ``index`` in history
        order (newer than it); every one when ``index`` is None."""
        found = self.changes.get(path, [])
        return found if index is None else [i for i in found if i < index]

    def old_names(self, path: str) -> set[str]:
        """Every name ``path`` had in the commits that changed it."""
        return {name for (_, name), head in self.names.items() if head == path}


#: The last history and line log read, by what they depend on (the root, HEAD, the range and
#: the paths): ``sitegen serve`` rebuilds in one process, and git's history does not change
#: when a page is saved. One entry each; nothing is kept on disk.
_LAST: dict[str, tuple[tuple[object, ...], object]] = {}


def _remembered(kind: str, key: tuple[object, ...], read: Callable[[], T]) -> T:
    found = _LAST.get(kind)
    if found is not None and found[0] == key:
        return found[1]  # type: ignore[return-value]
    value = read()
    _LAST[kind] = (key, value)
    return value


def forget() -> None:
    """Drop what was remembered (a benchmark timing the reads themselves)."""
    _LAST.clear()


def head_commit(root: Path) -> str:
    return run_git(root, ["rev-parse", "HEAD"]).decode("ascii", "replace").strip()


def read_history(root: Path) -> History:
    """One ``git log --name-status`` pass over everything reachable from HEAD."""
    key = (str(root.resolve()), head_commit(root))
    return _remembered("history", key, lambda: _read_history(root))


def _read_history(root: Path) -> History:
    out = run_git(
        root,
        [
            "log",
            "--topo-order",
            "--format=%x00%H%x00%cs%x00%s",
            "--name-status",
            *_DIFF_OPTIONS,
            "HEAD",
            "--",
        ],
    )
    return parse_history(out)


def parse_history(out: bytes) -> History:
    """The History of ``git log --format=%x00%H%x00%cs%x00%s --name-status -M`` output.

    Walking from the newest commit back, ``alias`` maps a name as the commit being read
    knows it to the name at HEAD: a rename ``old -> new`` sends ``old`` to what ``new``
    became; an added file ends the name's history (an older file of that name is another)."""
    history = History()
    alias: dict[str, str | None] = {}
    index = -1
    for raw in out.split(b"\n"):
        if raw.startswith(b"\0"):
            parts = raw[1:].decode("utf-8", "replace").split("\0")
            if len(parts) < 3:
                continue
            history.commits.append(Commit(parts[0], parts[1], parts[2]))
            index += 1
            continue
        if not raw or index < 0 or b"\t" not in raw:
            continue
        status, *paths = raw.decode("utf-8", "replace").split("\t")
        _apply(history, alias, index, status, [_unquote(p) for p in paths])
    return history


def _apply(
    history: History, alias: dict[str, str | None], index: int, status: str, paths: list[str]
) -> None:
    kind = status[:1]
    if kind in ("R", "C") and len(paths) == 2:
        old, new = paths
        head = alias.get(new, new)
        if head is not None:
            history.names[(index, new)] = head
            history.names[(index, old)] = head
            if status[1:] != "100":
                history.changes.setdefault(head, []).append(index)
        if kind == "R":
            alias[old] = head
            alias[new] = None
        return
    if len(paths) != 1:
        return
    path = paths[0]
    head = alias.get(path, path)
    if head is None:
        return
    history.names[(index, path)] = head
    history.changes.setdefault(head, []).append(index)
    if kind == "A":
        alias[path] = None


def _unquote(path: str) -> str:
    """A path git quoted (``"a\\tb"``, C escapes) as the file is named."""
    if not (len(path) >= 2 and path[0] == path[-1] == '"'):
        return path
    body = path[1:-1].encode("latin-1", "backslashreplace")
    return body.decode("unicode_escape").encode("latin-1", "replace").decode("utf-8", "replace")


# --- lines -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hunk:
    """One hunk of a ``--unified=0`` diff: ``old_count`` lines from ``old_start`` became
    ``new_count`` lines from ``new_start`` (a count of 0: the lines were inserted after,
    or deleted after, that line)."""

    old_start: int
    old_count: int
    new_start: int
    new_count: int

    def touches(self, start: int, end: int) -> bool:
        """Whether the hunk changed any of the new side's lines ``start..end``: a line in
        the range replaced or inserted, or lines deleted between two lines of the range."""
        if self.new_count:
            return self.new_start <= end and start <= self.new_start + self.new_count - 1
        return start <= self.new_start < end

    @property
    def new_lines(self) -> tuple[int, int]:
        """The new side's lines, for a report: a deletion names the line after it."""
        if self.new_count:
            return self.new_start, self.new_start + self.new_count - 1
        return self.new_start + 1, self.new_start + 1


@dataclass
class FileDiff:
    path: str  # the new side's name
    old_path: str
    hunks: list[Hunk] = field(default_factory=list)
    deleted: bool = False


def parse_patch(out: bytes) -> list[tuple[str, list[FileDiff]]]:
    """``(commit hash, file diffs)`` in the order of a ``git log -p --unified=0
    --format=%x00%H`` output; a plain ``git diff --unified=0`` gives one entry, hash ""."""
    commits: list[tuple[str, list[FileDiff]]] = []
    files: list[FileDiff] = []
    current: FileDiff | None = None
    for line in out.split(b"\n"):
        if line.startswith(b"\0"):
            files = []
            commits.append((line[1:].decode("ascii", "replace"), files))
            current = None
        elif line.startswith(b"diff --git "):
            if not commits:
                files = []
                commits.append(("", files))
            current = FileDiff("", "")
            files.append(current)
        elif current is None:
            continue
        elif line.startswith(b"@@"):
            _add_hunk(current, line)
        elif line.startswith(b"--- "):
            current.old_path = _side(line[4:], b"a/")
        elif line.startswith(b"+++ "):
            current.path = _side(line[4:], b"b/")
            current.deleted = current.path == ""
        elif line.startswith(b"rename from "):
            current.old_path = _decode_path(line[len(b"rename from ") :])
        elif line.startswith(b"rename to "):
            current.path = _decode_path(line[len(b"rename to ") :])
    return commits


def _add_hunk(diff: FileDiff, line: bytes) -> None:
    found = _HUNK.match(line)
    if found is None:
        return
    a, b, c, d = found.groups()
    diff.hunks.append(Hunk(int(a), 1 if b is None else int(b), int(c), 1 if d is None else int(d)))


def _side(name: bytes, prefix: bytes) -> str:
    name = name.rstrip(b"\r")
    if name == b"/dev/null":
        return ""
    decoded = _decode_path(name)
    return decoded[len(prefix) :] if decoded.startswith(prefix.decode()) else decoded


def _decode_path(name: bytes) -> str:
    return _unquote(name.decode("utf-8", "replace").rstrip("\t"))


def line_history(root: Path, since: str, paths: Iterable[str]) -> list[tuple[str, list[FileDiff]]]:
    """Each commit of ``since..HEAD`` that touches ``paths`` (newest first, history order),
    with its ``--unified=0`` hunks, in as few ``git log -p`` calls as the paths allow."""
    names = sorted(set(paths))
    key = (str(root.resolve()), head_commit(root), since, tuple(names))
    return _remembered("lines", key, lambda: _line_history(root, since, names))


def _line_history(root: Path, since: str, names: list[str]) -> list[tuple[str, list[FileDiff]]]:
    found: dict[str, list[FileDiff]] = {}
    order: list[str] = []
    for chunk in range(0, len(names), PATHS_PER_CALL):
        out = run_git(
            root,
            [
                "log",
                "--topo-order",
                "-p",
                "--unified=0",
                "--format=%x00%H",
                *_DIFF_OPTIONS,
                f"{since}..HEAD" if since else "HEAD",
                "--",
                *names[chunk : chunk + PATHS_PER_CALL],
            ],
        )
        for commit, files in parse_patch(out):
            if commit not in found:
                order.append(commit)
                found[commit] = []
            found[commit].extend(files)
    if len(names) > PATHS_PER_CALL:  # chunks list commits separately: put them back in order
        position = {c: i for i, c in enumerate(order)}
        order.sort(key=position.__getitem__)
    return [(commit, found[commit]) for commit in order]


def work_tree_diff(root: Path, since: str, paths: Sequence[str] = ()) -> list[FileDiff]:
    """What changed between ``since`` and the work tree (staged or not), with hunks."""
    args = ["diff", "--unified=0", *_DIFF_OPTIONS, since, "--", *paths]
    commits = parse_patch(run_git(root, args))
    return commits[0][1] if commits else []


def resolve_revision(root: Path, rev: str) -> Commit:
    """The commit ``rev`` names; GitError when it names none. ``rev`` never reaches git as
    an option."""
    if rev.startswith("-") or not rev.strip():
        raise GitError(f"'{rev}' is not a revision")
    try:
        full = run_git(root, ["rev-parse", "--verify", "--quiet", rev + "^{commit}"])
    except GitError as exc:
        raise GitError(f"'{rev}' names no commit of this repository") from exc
    commit = full.decode("ascii", "replace").strip()
    out = run_git(root, ["log", "-1", "--format=%H%x00%cs%x00%s", commit, "--"])
    parts = out.decode("utf-8", "replace").strip("\n").split("\0")
    if len(parts) < 3:
        raise GitError(f"'{rev}' names no commit")
    return Commit(parts[0], parts[1], parts[2])


def map_back(start: int, end: int, hunks: Sequence[Hunk]) -> tuple[int, int]:
    """Lines ``start..end`` of a diff's new side as the old side numbered them; an empty
    range (start > end) when every line of it was inserted by the diff."""
    return _old_line(start, hunks, first=True), _old_line(end, hunks, first=False)


def _old_line(line: int, hunks: Sequence[Hunk], first: bool) -> int:
    shift = 0
    for h in sorted(hunks, key=lambda h: h.new_start):
        last_new = h.new_start + h.new_count - 1
        if (h.new_count == 0 and h.new_start < line) or (h.new_count and last_new < line):
            shift += h.old_count - h.new_count
        elif h.new_count and h.new_start <= line:  # inside the hunk: its old side's edge
            if h.old_count == 0:
                return h.old_start + 1 if first else h.old_start
            return h.old_start if first else h.old_start + h.old_count - 1
        else:
            break
    return line + shift
