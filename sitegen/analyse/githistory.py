"""The project's git history as stale pages and change impact need it: which commits changed
which files (renames followed), and which lines each commit or the work tree touched.

git runs only through sitegen/base/gitrun.py (the one way sitegen runs git: the root's own
checkout, a clean environment, nothing of the repository's configuration or attributes
applied). The work tree is never shown to git: its files are hashed and diffed here, in
Python, against the blobs of a commit (``work_tree_diff``). Never writes.
"""

from __future__ import annotations

import bisect
import difflib
import os
import re
import stat
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from sitegen.base.gitrun import (
    MAX_REVISION,
    GitError,
    blob_id,
    is_checkout,
    read_blobs,
    run_git,
    shown_revision,
    tree_blobs,
)
from sitegen.records.stale import Commit

__all__ = ["GitError", "is_checkout", "run_git"]

T = TypeVar("T")
#: At most this many paths are given to one ``git log -p`` (the command line stays short).
PATHS_PER_CALL = 500
#: A work-tree file larger than this is compared by its blob id alone: a change is one hunk
#: over the whole file (its lines are not read into memory).
MAX_DIFF_BYTES = 16 * 2**20
#: The most lines a side that difflib compares at once (its matcher is quadratic at worst:
#: 500 lines of swapped pairs take 0.02 s); a longer middle is cut at anchors first.
MAX_DIFF_LINES = 500
_DIFF_OPTIONS = ("--no-color", "-M")
_HUNK = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


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
    """What changed between commit ``since`` and the work tree, with hunks, sorted by path.

    The files are those of ``since`` and of HEAD (only ``paths`` when given). Each is read
    from the work tree and hashed as git hashes a blob; where the id differs from the
    committed one, the committed blob (``git cat-file``, no filter) and the file are diffed
    line by line here. git never sees the work tree, so no filter, diff driver or attribute
    of the repository applies (content/guides/safety.md). A file with the content of a file
    ``since`` had that is gone from the work tree is that file renamed (no hunks)."""
    old = tree_blobs(root, since)
    head = old if since == "HEAD" else tree_blobs(root, "HEAD")
    names = old.keys() | head.keys()
    if paths:
        names &= set(paths)
    width = len(next(iter([*old.values(), *head.values()]), ("", "0" * 40))[1])
    reader = _WorkTree(root, width)
    work: dict[str, _WorkFile | None] = {}
    for name in sorted(names):
        found = reader.read(name)
        committed = old.get(name)
        if committed is None or found is None or found.blob != committed[1]:
            work[name] = found
    blobs = read_blobs(root, (old[n][1] for n, f in work.items() if n in old and f and f.data))
    diffs = [_file_diff(name, old.get(name), found, blobs) for name, found in work.items()]
    return _with_renames(diffs, old, work)


@dataclass(frozen=True)
class _WorkFile:
    blob: str  # its id as git would give it
    data: bytes | None  # its bytes; None when larger than MAX_DIFF_BYTES


class _WorkTree:
    """Reads the work tree's files as git would see them, never through a link: a symbolic
    link is the name it points to (what git stores), and a file below a folder that is a
    link, or anything but a file (a FIFO never blocks), is no file; so is a name that
    steps out of the root or into ``.git``."""

    def __init__(self, root: Path, width: int) -> None:
        self.root, self.width = root, width
        self.folders: dict[str, bool] = {"": True}

    def read(self, name: str) -> _WorkFile | None:
        parts = name.split("/")  # a crafted tree can name "../x": nothing above the root
        if any(p in ("", ".", "..") or p.lower() == ".git" for p in parts):
            return None
        if not self._is_folder(name.rpartition("/")[0]):
            return None
        path = self.root / name
        try:
            mode = os.lstat(path).st_mode
            if stat.S_ISLNK(mode):
                data = os.fsencode(os.readlink(path))
                return _WorkFile(blob_id(data, self.width), data)
            return _read_file(path, self.width) if stat.S_ISREG(mode) else None
        except OSError:
            return None

    def _is_folder(self, folder: str) -> bool:
        """Whether every step of ``folder`` is a real folder (each step looked at once)."""
        steps = folder.split("/") if folder else []
        for i in range(len(steps)):
            at = "/".join(steps[: i + 1])
            if at not in self.folders:
                try:
                    self.folders[at] = stat.S_ISDIR(os.lstat(self.root / at).st_mode)
                except OSError:
                    self.folders[at] = False
            if not self.folders[at]:
                return False
        return True


def _read_file(path: Path, width: int) -> _WorkFile | None:
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(path, flags)
    with os.fdopen(fd, "rb") as fh:
        size = os.fstat(fd).st_size
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        if size <= MAX_DIFF_BYTES:
            data = fh.read()
            return _WorkFile(blob_id(data, width), data)
        return _WorkFile(blob_id(iter(lambda: fh.read(1 << 20), b""), width, size), None)


def _file_diff(
    name: str, committed: tuple[str, str] | None, found: _WorkFile | None, blobs: dict[str, bytes]
) -> FileDiff:
    if found is None:
        return FileDiff("", name, deleted=True)
    before = b"" if committed is None else blobs.get(committed[1])
    if before is None or found.data is None:  # too large to diff: one hunk over the file
        return FileDiff(name, "" if committed is None else name, [Hunk(1, 1, 1, 1)])
    return FileDiff(name, "" if committed is None else name, line_hunks(before, found.data))


def _with_renames(
    diffs: list[FileDiff], old: dict[str, tuple[str, str]], work: dict[str, _WorkFile | None]
) -> list[FileDiff]:
    """A new file with the content of a file gone from the work tree is that file renamed,
    as ``git diff -M`` reports an exact rename (no hunks)."""
    gone = {old[d.old_path][1]: d.old_path for d in diffs if d.deleted}
    moved: dict[str, str] = {}
    for diff in diffs:
        found = work.get(diff.path)
        if not diff.deleted and diff.path not in old and found and found.blob in gone:
            moved[diff.path] = gone.pop(found.blob)
    kept = [d for d in diffs if not (d.deleted and d.old_path in moved.values())]
    return [FileDiff(d.path, moved[d.path]) if d.path in moved else d for d in kept]


def line_hunks(old: bytes, new: bytes) -> list[Hunk]:
    """The hunks of a ``--unified=0`` diff from ``old`` to ``new``, computed here. The
    unchanged head and tail are set aside first (most edits are local); a middle longer than
    MAX_DIFF_LINES is cut at the lines found once in each side, in the same order (patience
    diff's anchors), and difflib compares the pieces between them; a piece still too long is
    one hunk. A line ending "\\r\\n" is the line ending "\\n" (a checkout that converts
    line endings changed nothing)."""
    a, b = _lines(old), _lines(new)
    limit = min(len(a), len(b))
    head = 0
    while head < limit and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < limit - head and a[len(a) - 1 - tail] == b[len(b) - 1 - tail]:
        tail += 1
    a_mid, b_mid = a[head : len(a) - tail], b[head : len(b) - tail]
    if len(a_mid) <= MAX_DIFF_LINES and len(b_mid) <= MAX_DIFF_LINES:
        return _difflib_hunks(a_mid, b_mid, head, head)
    hunks: list[Hunk] = []
    i = j = 0
    for anchor_i, anchor_j in [*_anchors(a_mid, b_mid), (len(a_mid), len(b_mid))]:
        hunks += _difflib_hunks(a_mid[i:anchor_i], b_mid[j:anchor_j], head + i, head + j)
        i, j = anchor_i + 1, anchor_j + 1
    return hunks


def _difflib_hunks(a: list[bytes], b: list[bytes], i0: int, j0: int) -> list[Hunk]:
    """difflib's hunks of ``a`` to ``b`` (lines ``i0``/``j0`` on), or one hunk over both
    when either is longer than MAX_DIFF_LINES (difflib's matcher is quadratic at worst)."""
    if not a and not b:
        return []
    if len(a) > MAX_DIFF_LINES or len(b) > MAX_DIFF_LINES:
        return [_hunk(i0, i0 + len(a), j0, j0 + len(b))]
    matcher = difflib.SequenceMatcher(None, a, b)
    return [
        _hunk(i0 + i1, i0 + i2, j0 + j1, j0 + j2)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    ]


def _anchors(a: list[bytes], b: list[bytes]) -> list[tuple[int, int]]:
    """The longest run, in order on both sides, of lines found once in ``a`` and once in
    ``b``: their positions ``(i, j)``. Patience sorting, O(n log n)."""
    count: dict[bytes, int] = {}
    for line in a:
        count[line] = count.get(line, 0) + 1
    where_b: dict[bytes, int] = {}
    for j, line in enumerate(b):
        if count.get(line) == 1:
            where_b[line] = -1 if line in where_b else j
    pairs = [(i, where_b[line]) for i, line in enumerate(a) if where_b.get(line, -1) >= 0]
    tops: list[int] = []  # the j ending the best run of each length
    ends: list[int] = []  # the pair index ending it
    before: list[int] = []  # each pair's predecessor in its run
    for k, (_, j) in enumerate(pairs):
        at = bisect.bisect_left(tops, j)
        before.append(ends[at - 1] if at else -1)
        if at == len(tops):
            tops.append(j)
            ends.append(k)
        else:
            tops[at], ends[at] = j, k
    run: list[tuple[int, int]] = []
    k = ends[-1] if ends else -1
    while k >= 0:
        run.append(pairs[k])
        k = before[k]
    return run[::-1]


def _lines(data: bytes) -> list[bytes]:
    parts = data.replace(b"\r\n", b"\n").split(b"\n")
    lines = [part + b"\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])  # the last line, without a newline at the end of the file
    return lines


def _hunk(i1: int, i2: int, j1: int, j2: int) -> Hunk:
    """Lines ``i1:i2`` of the old side became ``j1:j2`` (0-based, end excluded), numbered as
    git numbers a hunk: from 1, and an empty side names the line before it."""
    return Hunk(i1 + 1 if i2 > i1 else i1, i2 - i1, j1 + 1 if j2 > j1 else j1, j2 - j1)


def resolve_revision(root: Path, rev: str) -> Commit:
    """The commit ``rev`` names; GitError when it names none. ``rev`` never reaches git as
    an option, and a message shows at most its first 80 characters."""
    shown = shown_revision(rev)
    if rev.startswith("-") or not rev.strip() or len(rev) > MAX_REVISION or "\0" in rev:
        raise GitError(f"'{shown}' is not a revision")
    try:
        full = run_git(
            root, ["rev-parse", "--verify", "--quiet", "--end-of-options", rev + "^{commit}"]
        )
    except GitError as exc:
        raise GitError(f"'{shown}' names no commit of this repository") from exc
    commit = full.decode("ascii", "replace").strip()
    out = run_git(root, ["log", "-1", "--format=%H%x00%cs%x00%s", commit, "--"])
    parts = out.decode("utf-8", "replace").strip("\n").split("\0")
    if len(parts) < 3:
        raise GitError(f"'{shown}' names no commit")
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
