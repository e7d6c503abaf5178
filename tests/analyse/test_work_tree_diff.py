"""The work tree's changes, computed without showing git the work tree (issue 27, defect 1):
files hashed as git hashes blobs (sitegen/base/gitrun.py ``blob_id``) and diffed with difflib
(sitegen/analyse/githistory.py ``line_hunks``), with the hunks git's own ``diff -U0`` gives."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.analyse.githistory import (
    MAX_DIFF_LINES,
    Hunk,
    line_hunks,
    parse_history,
    parse_patch,
    work_tree_diff,
)
from sitegen.base.gitrun import blob_id
from tests.analyse.stalerepo import commit, git, write
from tests.safety.linear import bytes_grows_linearly

LINES = st.lists(st.sampled_from([b"a\n", b"b\n", b"c\n", b"\n", b"a\r\n"]), max_size=30)


def split(data: bytes) -> list[bytes]:
    parts = data.replace(b"\r\n", b"\n").split(b"\n")
    return [p + b"\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def rebuilt(old: bytes, new: bytes, hunks: list[Hunk]) -> list[bytes]:
    """The new side rebuilt from the old one: unchanged lines from ``old``, each hunk's lines
    from ``new`` at the place the hunk names on both sides."""
    a, b = split(old), split(new)
    out: list[bytes] = []
    at = 0
    for h in hunks:
        cut = h.old_start - 1 if h.old_count else h.old_start
        assert cut >= at, "hunks in order, not overlapping"
        out += a[at:cut]
        first = h.new_start - 1 if h.new_count else h.new_start
        assert first == len(out), "the hunk's new side starts where the rebuilt text is"
        out += b[first : first + h.new_count]
        at = cut + h.old_count
    return out + a[at:]


@settings(deadline=None, max_examples=50)
@given(LINES, LINES, st.booleans())
def test_the_hunks_turn_the_old_side_into_the_new(
    old: list[bytes], new: list[bytes], cut_end: bool
) -> None:
    a, b = b"".join(old), b"".join(new)
    if cut_end and b.endswith(b"\n"):
        b = b[:-1]  # no newline at the end of the file
    hunks = line_hunks(a, b)
    assert rebuilt(a, b, hunks) == split(b)
    assert all(h.old_count or h.new_count for h in hunks)


def test_a_line_ending_conversion_is_no_change() -> None:
    assert line_hunks(b"a\nb\n", b"a\r\nb\r\n") == []
    assert line_hunks(b"a\nb", b"a\nb\n") == [Hunk(2, 1, 2, 1)]  # as git: the last line changed


def _pairs(n: int, swapped: bool) -> bytes:
    """Lines 0, 1, 2, 3 … or 1, 0, 3, 2 …: difflib alone is quadratic on these."""
    pairs = [(b"%d\n" % k, b"%d\n" % (k + 1)) for k in range(0, n, 2)]
    return b"".join(x for a, b in pairs for x in ((b, a) if swapped else (a, b)))


def _blocks(n: int, swapped: bool) -> bytes:
    """Blocks of MAX_DIFF_LINES lines (difflib's worst case when each pair is swapped), each
    after a line found once: the most work difflib can be given, again and again."""
    out = []
    for block in range(max(1, n // MAX_DIFF_LINES)):
        out.append(b"anchor %d\n" % block)
        pairs = [(b"%d\n" % k, b"%d\n" % (k + 1)) for k in range(0, MAX_DIFF_LINES, 2)]
        out += [x for a, b in pairs for x in ((b, a) if swapped else (a, b))]
    return b"".join(out)


@pytest.mark.parametrize(
    "make",
    [
        lambda n: (b"x\n" * n, b"x\n" * (n // 2) + b"y\n" + b"x\n" * (n // 2)),
        lambda n: (
            b"".join(b"%d\n" % i for i in range(n)),
            b"".join(b"%d\n" % -i for i in range(n)),
        ),
        lambda n: (b"}\n" * n + b"a\n", b"a\n" + b"}\n" * n),
        lambda n: (_blocks(n, swapped=False), _blocks(n, swapped=True)),
        lambda n: (_pairs(n, swapped=False), _pairs(n, swapped=True)),
    ],
    ids=[
        "one line in a run of equal lines",
        "every line changed",
        "a line moved past a run",
        "swapped pairs between anchors",
        "every pair of lines swapped",
    ],
)
def test_line_hunks_take_linear_time(make: object) -> None:
    """The unchanged head and tail are set aside in one pass, a long middle is cut at its
    unique lines (O(n log n)), and difflib sees at most MAX_DIFF_LINES a side at a time."""
    pairs: dict[int, tuple[bytes, bytes]] = {}

    def made(n: int) -> bytes:
        pairs[n] = make(n)  # type: ignore[operator]
        return b"%d" % n

    ok, said = bytes_grows_linearly(
        lambda key: line_hunks(*pairs[int(key)]), made, size=2 * MAX_DIFF_LINES, max_size=400_000
    )
    assert ok, said


def test_blob_ids_are_gits(tmp_path: Path) -> None:
    data = b"caf\xc3\xa9\r\n\0binary"
    path = tmp_path / "f"
    path.write_bytes(data)
    out = subprocess.run(
        ["git", "hash-object", "--no-filters", str(path)], capture_output=True, check=True
    )
    assert blob_id(data) == out.stdout.decode().strip()
    assert blob_id([data[:3], data[3:]], size=len(data)) == blob_id(data)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    root = tmp_path / "proj"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    write(
        root,
        {
            "a.py": "".join(f"line {i}\n" for i in range(40)),
            "gone.py": "bye\n",
            "moved.py": "same\ncontent\n",
            "sub/b.txt": "one\ntwo\nthree\n",
            "crlf.txt": "x\ny\n",
        },
    )
    commit(root, 1, "start")
    return root


def test_the_work_tree_diff_has_gits_hunks(repo: Path) -> None:
    a = repo / "a.py"
    lines = a.read_text().splitlines(keepends=True)
    lines[3] = "changed 3\n"
    del lines[10:13]
    lines.insert(30, "new\nlines\n")
    a.write_text("".join(lines) + "tail")
    (repo / "gone.py").unlink()
    (repo / "sub/b.txt").write_text("one\nTWO\nthree\nfour\n")
    write(repo, {"added.py": "print(1)\n"})
    git(repo, "add", "added.py")
    commit(repo, 2, "added")
    (repo / "added.py").write_text("print(2)\n")
    ours = {d.path: d.hunks for d in work_tree_diff(repo, "HEAD~1") if not d.deleted}
    theirs_out = subprocess.run(
        ["git", "-C", str(repo), "diff", "--no-renames", "-U0", "HEAD~1"],
        capture_output=True,
        check=True,
    ).stdout
    theirs = {d.path: d.hunks for d in parse_patch(theirs_out)[0][1] if not d.deleted}
    assert ours == theirs
    assert {d.old_path for d in work_tree_diff(repo, "HEAD~1") if d.deleted} == {"gone.py"}


def test_an_exact_rename_has_no_hunks(repo: Path) -> None:
    (repo / "moved.py").rename(repo / "renamed.py")
    git(repo, "add", "-A")
    commit(repo, 2, "renamed")
    diffs = work_tree_diff(repo, "HEAD~1")
    assert [(d.path, d.old_path, d.hunks, d.deleted) for d in diffs] == [
        ("renamed.py", "moved.py", [], False)
    ]


def test_a_fifo_or_a_link_is_never_read_through(repo: Path, tmp_path: Path) -> None:
    """A FIFO where a file was is no file (the read never blocks); a link is the name it
    points to, as git stores a link, never the file outside the project it points at."""
    outside = tmp_path / "secret"
    outside.write_text("line 0\n")
    (repo / "a.py").unlink()
    os.symlink(outside, repo / "a.py")
    (repo / "sub/b.txt").unlink()
    os.mkfifo(repo / "sub/b.txt")
    diffs = {d.path or d.old_path: d for d in work_tree_diff(repo, "HEAD")}
    assert diffs["sub/b.txt"].deleted
    assert diffs["a.py"].hunks == [Hunk(1, 40, 1, 1)]  # 40 lines became the link's one line


def test_a_crafted_tree_cannot_make_it_read_above_the_root(repo: Path) -> None:
    """A tree entry named ``..`` (git's plumbing writes one) lists ``../outside.txt``: the
    file above the project root is never read, the entry is a file gone from the work tree."""
    (repo.parent / "outside.txt").write_text("new\n")

    def plumbing(*args: str, given: str = "") -> str:
        return subprocess.run(
            ["git", "-C", str(repo), *args], input=given, capture_output=True, text=True, check=True
        ).stdout.strip()

    blob = plumbing("hash-object", "-w", "--stdin", given="old\n")
    inner = plumbing("mktree", given=f"100644 blob {blob}\toutside.txt\n")
    top = plumbing("mktree", given=f"040000 tree {inner}\t..\n")
    made = git(repo, "commit-tree", top, "-p", "HEAD", "-m", "crafted")
    git(repo, "update-ref", "HEAD", made)
    diffs = work_tree_diff(repo, "HEAD")
    assert [(d.path, d.old_path, d.deleted) for d in diffs] == [("", "../outside.txt", True)]


PIECES = st.sampled_from(
    [
        b"\0",
        b"\t",
        b"\n",
        b"diff --git a/x b/x",
        b"@@ -1,2 +3 @@",
        b"@@ -99999999999999999999",
        b"--- a/",
        b"+++ /dev/null",
        b"rename from ",
        b'"\\377\\',
        b"R100",
        b"A",
        b"x",
        b"\xff\xfe",
        b"\x1e",
        b"123",
    ]
)


@settings(deadline=None, max_examples=50)
@given(st.lists(PIECES, max_size=60))
def test_git_output_parsers_take_any_bytes(pieces: list[bytes]) -> None:
    """What git prints names files and subjects the repository chose: the parsers of
    ``git log`` and ``-p`` output never raise on it."""
    from sitegen.graph.history import parse_log

    out = b"".join(pieces)
    parse_history(out)
    parse_patch(out)
    parse_log(out.decode("utf-8", "replace"))


def test_git_output_parsers_take_linear_time() -> None:
    ok, said = bytes_grows_linearly(
        lambda out: (parse_history(out), parse_patch(out)),
        lambda n: b"\0h\0d\0s\nM\tpath\n@@ -1 +1 @@\ndiff --git a/x b/x\n" * n,
    )
    assert ok, said
