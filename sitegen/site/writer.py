"""The site writer: files go into a temporary folder beside the output, swapped in whole at
the end, so a killed build never leaves a half-written site. Writes nothing else.

Files whose key (a hash of everything that went into them) matches the previous build's,
or whose bytes are unchanged, are hard-linked from the previous site instead of rewritten.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import shutil
from collections import deque
from collections.abc import Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from sitegen.base.paths import OutPath
from sitegen.state.ownership import OUTPUT_MARKER, files_below, real, scratch_folders
from sitegen.state.remembered import SiteRecord

#: The thread that creates the files while the build renders the next ones. Creating a file
#: waits on the kernel (0.1 to 1 ms a file on this machine's disk) with the GIL released,
#: so the two overlap (bench/README.md, "Writing while rendering": 6,000 pages' files with
#: 1 ms of rendering each, 14.2-15.5 s one after the other, 10.2-10.8 s with the thread). A
#: second thread only doubled the kernel time: both wait for the same folder's lock.
WRITE_THREADS = 1
#: Files queued before the build waits for the oldest: bounds the bytes the queue holds.
MAX_QUEUED = 64

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Swap two folders in one atomic step (Linux renameat2); False where unsupported."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        fn = libc.renameat2
    except (OSError, AttributeError):
        return False
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    return bool(fn(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0)


def side_prefix(out: Path) -> str:
    """The start of the names of the folders a build writes beside the output: the new site
    before it is swapped in, the old one while it is removed."""
    return str(out.parent / f".{out.name}.")


class SiteWriter:
    """Writes the site into a temporary folder beside the output and swaps it in at the end,
    so a killed build never leaves a half-written site."""

    def __init__(self, out: Path, reuse: bool = True) -> None:
        # A symlinked output keeps its link: the folder it points to is what gets replaced.
        # The build checked before (sitegen.state.ownership.check_output) that it is ours to replace.
        self.out = out = real(out)
        self.tmp = Path(f"{side_prefix(out)}tmp-{os.getpid()}")
        self.outputs: dict[str, str] = {}  # out path -> node that produced it
        # Without reuse (--clean) every file is written anew, whatever the previous site holds.
        self.previous = out if reuse and (out / OUTPUT_MARKER).is_file() else None
        # The keys of the files beside it: the previous site describes itself.
        self.old_keys = SiteRecord.read(out / OUTPUT_MARKER).keys if self.previous else {}
        self.keys: dict[str, str] = {}  # out path -> key, for the next build
        #: What the new site holds; the caller fills in the fingerprint and what it reported.
        self.record = SiteRecord()
        self.count = 0
        self.reused = 0
        self._threads: ThreadPoolExecutor | None = None
        self._queued: deque[Future[None]] = deque()
        self._pid = self._home = os.getpid()

    def __enter__(self) -> SiteWriter:
        for stale in scratch_folders(self.out):
            # Left by a killed build (or this one's pid, reused), found by sitegen's exact
            # names and marker only; the build lock means no other build is using it.
            shutil.rmtree(stale, ignore_errors=True)
        self.tmp.mkdir(parents=True)
        # A marker from the start, so a crawl skips this folder even if the build dies.
        (self.tmp / OUTPUT_MARKER).write_text(SiteRecord().to_json())
        return self

    def claim(self, out: OutPath, owner: str) -> bool:
        """Reserve an output path; False (the caller warns) when another source has it."""
        if out in self.outputs:
            return False
        self.outputs[out] = owner
        return True

    def reuse(self, out: OutPath, key: str) -> bool:
        """Take ``out`` from the previous site when its key is unchanged; records the key."""
        self.keys[out] = key
        if self.previous is None or self.old_keys.get(out) != key:
            return False
        return self._link(out)

    def _link(self, out: OutPath) -> bool:
        assert self.previous is not None
        source, target = self.previous / out, self.tmp / out
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(source, target)
        except OSError:
            return False
        self.reused += 1
        return True

    def write(self, out: OutPath, data: bytes | str) -> None:
        """Write ``out`` (or link it from the previous site when its bytes are the same).
        The file is created by a writer thread: ``settle`` waits for every one."""
        raw = data.encode("utf-8") if isinstance(data, str) else data
        if self.previous is not None and self._same(out, raw) and self._link(out):
            return
        self._queue(self.tmp / out, raw)
        self.count += 1

    def _queue(self, target: Path, raw: bytes) -> None:
        if self._pid != os.getpid():  # a forked worker: its parent's threads are not here
            self._threads, self._queued, self._pid = None, deque(), os.getpid()
        if self._threads is None:
            self._threads = ThreadPoolExecutor(WRITE_THREADS, thread_name_prefix="sitegen-write")
        self._queued.append(self._threads.submit(_create, target, raw))
        while len(self._queued) > MAX_QUEUED:
            self._queued.popleft().result()  # a failed write raises here, in the build

    def settle(self, in_worker: bool = False) -> None:
        """Wait until every queued file exists and end the writer threads (raising the first
        write that failed). Called before the build forks, so that no process is forked
        with threads in it, and with ``in_worker`` by a task that may run in a forked
        worker, before it reports its files done (in the build's own process it goes on)."""
        if self._pid != os.getpid():  # forked: the queue is the parent's, never ours
            self._threads, self._queued, self._pid = None, deque(), os.getpid()
            return
        if in_worker and self._pid == self._home:
            return
        try:
            while self._queued:
                self._queued.popleft().result()
        finally:
            if self._threads is not None:
                self._threads.shutdown(wait=True, cancel_futures=True)
            self._threads, self._queued = None, deque()

    def write_pieces(self, out: OutPath, pieces: Iterable[str]) -> None:
        """Write text given in pieces, a piece at a time, so a large output (graph.json)
        never exists whole in memory. Always a new file: such an output is reused by its
        key (``reuse``) or not at all (bench/README.md, "Memory")."""
        target = self.tmp / out
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "wb") as fh:
            for piece in pieces:
                fh.write(piece.encode("utf-8"))
        self.count += 1

    def _same(self, out: OutPath, raw: bytes) -> bool:
        assert self.previous is not None
        try:
            old = self.previous / out
            return old.stat().st_size == len(raw) and old.read_bytes() == raw
        except OSError:
            return False

    def copy(self, out: OutPath, source: Path) -> None:
        target = self.tmp / out
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        self.count += 1

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if exc_type is None:
            try:
                self.settle()
            except BaseException:
                shutil.rmtree(self.tmp, ignore_errors=True)
                raise
        else:
            try:
                self.settle()
            except Exception:  # noqa: BLE001 - the build already failed for its own reason
                pass
            shutil.rmtree(self.tmp, ignore_errors=True)
            return
        self.record.keys = self.keys
        # Every file the folder holds, so a later build can tell its own files from a user's.
        self.record.files = sorted(set(files_below(self.tmp)) - {OUTPUT_MARKER})
        (self.tmp / OUTPUT_MARKER).write_text(self.record.to_json())
        if self.out.exists() and _exchange(self.tmp, self.out):
            shutil.rmtree(self.tmp, ignore_errors=True)  # the previous site, swapped out
            return
        old = Path(f"{side_prefix(self.out)}old-{os.getpid()}")
        if self.out.exists():
            os.replace(self.out, old)
        os.replace(self.tmp, self.out)
        if old.exists():
            shutil.rmtree(old, ignore_errors=True)


def _create(target: Path, raw: bytes) -> None:
    """One file of the site, in its folder (run by a writer thread)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(raw)
