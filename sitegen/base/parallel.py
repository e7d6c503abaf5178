"""Work spread over processes: forked workers that inherit the build's state instead of
receiving it pickled. Parsing and rendering hold the GIL, so threads would not help.

Never used for anything whose result depends on which worker ran it: callers get results
in input order and outputs are byte-identical for every number of jobs.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")
#: Below this many items a pool costs more than it saves.
MIN_PARALLEL = 64

_STATE: Any = None
_FN: Callable[[Any, Any], Any] | None = None


def _call(chunk: Any) -> Any:
    assert _FN is not None
    return _FN(_STATE, chunk)


def _chunks(items: Sequence[T], n: int) -> list[list[T]]:
    size = max(1, min(128, -(-len(items) // (n * 4))))
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


def run_forked(
    fn: Callable[[Any, list[T]], R], state: Any, items: Sequence[T], jobs: int
) -> Iterator[R]:
    """``fn(state, chunk)`` over chunks of ``items``, in order; in forked workers that share
    ``state`` copy-on-write when ``jobs > 1`` and the work is large, else in this process."""
    global _STATE, _FN
    if (
        jobs <= 1
        or len(items) < MIN_PARALLEL
        or "fork" not in multiprocessing.get_all_start_methods()
    ):
        for chunk in _chunks(items, 1):
            yield fn(state, chunk)
        return
    _STATE, _FN = state, fn
    try:
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(processes=min(jobs, os.cpu_count() or jobs)) as pool:
            yield from pool.imap(_call, _chunks(items, jobs))
    finally:
        _STATE, _FN = None, None


class run_in_background:
    """``with run_in_background(fn, state, enabled):`` runs ``fn(state)`` in a forked process
    while the block runs, and waits for it at the end (re-raising its failure); in this
    process at the start of the block when not enabled."""

    def __init__(
        self, fn: Callable[[Any], None], state: Any, enabled: bool, skip: bool = False
    ) -> None:
        self.fn, self.state, self.skip = fn, state, skip
        self.enabled = enabled and "fork" in multiprocessing.get_all_start_methods()
        self.proc: Any = None

    def __enter__(self) -> run_in_background:
        if self.skip:
            return self
        if self.enabled:
            self.proc = multiprocessing.get_context("fork").Process(
                target=self.fn, args=(self.state,)
            )
            self.proc.start()
        else:
            self.fn(self.state)
        return self

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if self.proc is None:
            return
        self.proc.join()
        if self.proc.exitcode != 0 and exc_type is None:
            raise RuntimeError(
                f"background work {self.fn.__name__} failed (exit code {self.proc.exitcode})"
            )


class compute_in_background:
    """``job = compute_in_background(fn, arg, enabled).start()`` computes ``fn(arg)`` in a
    forked process while the caller goes on; ``job.result()`` waits for it (and computes it
    here when not enabled) and ends the process. Also a context manager that ends it on
    exit. The result comes back pickled."""

    def __init__(self, fn: Callable[[Any], R], arg: Any, enabled: bool) -> None:
        self.fn, self.arg = fn, arg
        self.enabled = enabled and "fork" in multiprocessing.get_all_start_methods()
        self.pool: Any = None
        self.pending: Any = None

    def start(self) -> compute_in_background:
        if self.enabled:
            self.pool = multiprocessing.get_context("fork").Pool(1)
            self.pending = self.pool.apply_async(self.fn, (self.arg,))
        return self

    def result(self) -> Any:
        if self.pending is None:
            return self.fn(self.arg)
        try:
            return self.pending.get()
        finally:
            self.close()

    def close(self) -> None:
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()
            self.pool = None

    def __enter__(self) -> compute_in_background:
        return self.start()

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        self.close()
