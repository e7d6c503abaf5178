"""The one way sitegen runs git: every git call of every part (stale pages, change impact,
``check --changed-since``, related pages' history, page dates) goes through ``run_git``.

Building a repository somebody else wrote (a clone in CI) must never run its configuration
(content/guides/safety.md). So git runs:

- only in the project root's own checkout (``<root>/.git``, a folder or a ``gitdir:`` file),
  named by ``GIT_DIR``: git never looks for a repository, and never finds a parent's;
- with an environment cleared of every ``GIT_*`` variable (``GIT_TRACE``, ``GIT_DIR``,
  ``GIT_CONFIG_*`` of the caller), then only the fixed ones below; neither the system's nor
  the user's global configuration is read (a build reads the same on every machine);
- shown an empty work tree and an empty index (a fresh temporary folder): git reads no
  ``.gitattributes`` of the checkout, so no filter, diff driver or ``-diff`` of the
  repository applies (git 2.39 has no ``--attr-source``); sitegen reads work-tree files
  itself and hashes them as git would (``blob_id``);
- with ``-c`` overrides of every setting that could start a program (``_OVERRIDES``) and,
  on ``log``, ``--no-ext-diff --no-textconv --no-show-signature``;
- with no pager, stdin from ``/dev/null`` (or the bytes a batch asks for), a timeout and a
  cap on what it may print.

Nothing here writes to the repository; only read-only commands are run (never ``status``,
``add``, ``hash-object`` or a ``diff`` against the work tree, which would apply filters).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import tempfile
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import IO

from sitegen.base.diagnostics import cut

#: Seconds one git command may take (a history of 100,000 commits reads in a few).
GIT_TIMEOUT = 120.0
#: Bytes one git command may print: a bound on memory (the whole history of a large
#: repository, ``--name-status``, is tens of MB).
OUTPUT_CAP = 256 * 2**20
#: Bytes of git's error output kept (its first line is the message).
_ERROR_CAP = 64 * 2**10
#: The longest revision a message shows whole (content/guides/safety.md: no message echoes
#: a huge input); the longest one given to git at all.
SHOWN_REVISION = 80
MAX_REVISION = 1024

#: Settings that could start a program, read a file or change what git prints, fixed on the
#: command line (which wins over the repository's ``.git/config``).
_OVERRIDES = (
    "core.fsmonitor=false",
    "core.hooksPath=/dev/null",
    "core.pager=cat",
    "core.attributesFile=/dev/null",
    "core.quotePath=false",
    "diff.external=",
    "diff.orderFile=/dev/null",
    "diff.noprefix=false",
    "diff.mnemonicPrefix=false",
    "diff.relative=false",
    "diff.algorithm=myers",
    "diff.interHunkContext=0",
    "log.showSignature=false",
    "log.follow=false",
    # signatures are never verified: a verifier that is no program at all
    "gpg.program=/dev/null",
    "gpg.openpgp.program=/dev/null",
    "gpg.x509.program=/dev/null",
    "gpg.ssh.program=/dev/null",
    "gpg.ssh.allowedSignersFile=/dev/null",
    # no transport (a partial clone's lazy fetch would run core.sshCommand or a helper)
    "protocol.allow=never",
    "i18n.logOutputEncoding=UTF-8",
    "color.ui=false",
    "gc.auto=0",
    "maintenance.auto=false",
)
#: Options every ``log`` gets, so no caller can forget one.
_LOG_OPTIONS = ("--no-ext-diff", "--no-textconv", "--no-show-signature", "--no-color", "--no-notes")
#: The commands sitegen runs; anything else is refused before git starts.
_READ_ONLY = frozenset({"rev-parse", "log", "ls-tree", "cat-file"})


class GitError(Exception):
    """git is missing, the root is no checkout, or git refused (a bad revision)."""


def is_checkout(root: Path) -> bool:
    """Whether the root is the top of its own git checkout (sitegen reads nothing above it)."""
    return (root / ".git").exists()


def shown_revision(rev: str) -> str:
    """``rev`` as a message shows it: at most SHOWN_REVISION characters, else cut with "…"."""
    return cut(rev, SHOWN_REVISION)


def git_env(root: Path, scratch: Path) -> dict[str, str]:
    """The caller's environment without any ``GIT_*`` variable, plus the fixed ones: the
    root's own ``.git``, ``scratch`` (an empty folder) as work tree and index, no system or
    global configuration, no prompts, no optional locks, no lazy fetch, a fixed locale."""
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith("GIT_")}
    env.update(
        GIT_DIR=str(root / ".git"),
        GIT_WORK_TREE=str(scratch),
        GIT_INDEX_FILE=str(scratch / "index"),
        GIT_CONFIG_NOSYSTEM="1",
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_ATTR_NOSYSTEM="1",
        GIT_TERMINAL_PROMPT="0",
        GIT_OPTIONAL_LOCKS="0",
        GIT_NO_LAZY_FETCH="1",
        GIT_LITERAL_PATHSPECS="1",
        LC_ALL="C",
    )
    return env


def git_command(args: Sequence[str]) -> list[str]:
    """The whole command line for ``git <args>``: no pager, the overrides, then ``args``
    with the log options after the subcommand."""
    if not args or args[0] not in _READ_ONLY:
        raise GitError(f"sitegen does not run 'git {args[0] if args else ''}'")
    command = ["git", "--no-pager", "--literal-pathspecs"]
    for setting in _OVERRIDES:
        command += ["-c", setting]
    command.append(args[0])
    if args[0] == "log":
        command += _LOG_OPTIONS
    return [*command, *args[1:]]


def run_git(
    root: Path,
    args: Sequence[str],
    stdin: bytes | None = None,
    cap: int = OUTPUT_CAP,
    timeout: float = GIT_TIMEOUT,
) -> bytes:
    """``git <args>`` in the root's own checkout: its standard output; GitError when there
    is no ``<root>/.git``, git cannot run, fails, takes longer than ``timeout`` seconds or
    prints more than ``cap`` bytes. ``stdin`` feeds a batch command; else it is /dev/null."""
    if not is_checkout(root):
        raise GitError(f"{root} is not the top of a git checkout")
    with tempfile.TemporaryDirectory(prefix="sitegen-git-") as scratch:
        try:
            proc = subprocess.Popen(
                git_command(args),
                cwd=scratch,
                env=git_env(root.resolve(), Path(scratch)),
                stdin=subprocess.DEVNULL if stdin is None else subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
        except OSError as exc:
            raise GitError(f"git could not run ({exc.strerror or exc})") from exc
        return _collect(proc, stdin, cap, timeout)


def _collect(proc: subprocess.Popen[bytes], stdin: bytes | None, cap: int, timeout: float) -> bytes:
    """Read ``proc``'s output in threads (a pipe never fills and blocks git), kill it at
    the timeout or past the cap."""
    out, err = _Reader(proc.stdout, cap), _Reader(proc.stderr, _ERROR_CAP, keep_going=True)
    threads = [threading.Thread(target=r.run, daemon=True) for r in (out, err)]
    if stdin is not None:
        threads.append(threading.Thread(target=_feed, args=(proc.stdin, stdin), daemon=True))
    for thread in threads:
        thread.start()
    try:
        code = proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise GitError(f"git took longer than {timeout:g} s") from None
    finally:
        for thread in threads:
            thread.join(5)
    if out.over:
        raise GitError(f"git printed more than {cap:,} bytes")
    if code != 0:
        first = bytes(err.data).decode("utf-8", "replace").strip().splitlines()
        raise GitError(shown_revision(first[0]) if first else f"git exited with {code}")
    return bytes(out.data)


class _Reader:
    """Reads a pipe to its end, keeping at most ``cap`` bytes. Past the cap it stops and
    closes the pipe (git then dies of SIGPIPE: its output would be cut), unless
    ``keep_going`` (error text: its head is enough, and git must not block on it)."""

    def __init__(self, pipe: IO[bytes] | None, cap: int, keep_going: bool = False) -> None:
        self.pipe, self.cap, self.keep_going = pipe, cap, keep_going
        self.data = bytearray()
        self.over = False

    def run(self) -> None:
        if self.pipe is None:
            return
        with self.pipe:
            while chunk := os.read(self.pipe.fileno(), 1 << 16):
                room = self.cap - len(self.data)
                self.data += chunk[: max(room, 0)]
                if len(chunk) > room:
                    self.over = True
                    if not self.keep_going:
                        return


def _feed(pipe: IO[bytes] | None, data: bytes) -> None:
    if pipe is None:
        return
    try:
        with pipe:
            pipe.write(data)
    except OSError:
        pass  # git stopped reading (it failed, or was killed): its exit code tells


# --- blobs -------------------------------------------------------------------------------


def blob_id(data: bytes | Iterable[bytes], hex_length: int = 40, size: int = -1) -> str:
    """The id git gives ``data`` as a blob, without asking git: sha1 (40 hex digits) or, in
    a sha256 repository (64), sha256 of ``blob <size>\\0<data>``. ``data`` may come in
    pieces (a large file read a piece at a time), its ``size`` then given."""
    digest = hashlib.sha256() if hex_length == 64 else hashlib.sha1(usedforsecurity=False)
    pieces = [data] if isinstance(data, bytes) else data
    digest.update(b"blob %d\0" % (len(data) if isinstance(data, bytes) else size))
    for piece in pieces:
        digest.update(piece)
    return digest.hexdigest()


def tree_blobs(root: Path, rev: str) -> dict[str, tuple[str, str]]:
    """Every file of commit ``rev`` (a full hash): path -> (mode, blob id); submodules left
    out. ``git ls-tree -r -z``: the tree as committed, no attribute or filter involved."""
    out = run_git(root, ["ls-tree", "-r", "-z", "--full-tree", rev, "--"])
    found: dict[str, tuple[str, str]] = {}
    for entry in out.split(b"\0"):
        meta, tab, name = entry.partition(b"\t")
        parts = meta.split(b" ")
        if not tab or len(parts) != 3 or parts[1] != b"blob":
            continue
        found[name.decode("utf-8", "surrogateescape")] = (parts[0].decode(), parts[2].decode())
    return found


def read_blobs(root: Path, ids: Iterable[str]) -> dict[str, bytes]:
    """The bytes of each blob, as stored (``git cat-file --batch``: no ``--filters``, no
    textconv), in one git command; a missing id is left out."""
    wanted = sorted({i for i in ids if i.isalnum()})
    if not wanted:
        return {}
    out = run_git(root, ["cat-file", "--batch"], stdin="\n".join(wanted).encode() + b"\n")
    found: dict[str, bytes] = {}
    at = 0
    while at < len(out):
        end = out.find(b"\n", at)
        if end < 0:
            break
        header = out[at:end].split(b" ")
        at = end + 1
        if len(header) != 3 or not header[2].isdigit():
            continue  # "<id> missing"
        size = int(header[2])
        found[header[0].decode()] = out[at : at + size]
        at += size + 1
    return found


def is_shallow(root: Path) -> bool:
    """Whether the checkout has only part of its history (a shallow clone)."""
    out = run_git(root, ["rev-parse", "--is-shallow-repository"])
    return out.strip() == b"true"
