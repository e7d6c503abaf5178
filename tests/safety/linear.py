"""One way for the reader tests to say "time linear in the input": CPU seconds, not wall time.

Issue 27 asks each reader of outside input for a property test of its time. A timed test on a
shared two-core machine is noisy, so the rule here is loose on purpose and still catches the
defects it is for: the input grows ``FACTOR`` times, and the CPU time (best of ``RUNS``) may
grow at most ``FACTOR * SLACK`` times. A quadratic reader grows ``FACTOR ** 2`` = 64 times and
fails; a linear one grows about 8 times and passes with room for noise. The small size must
cost a measurable time (``FLOOR`` seconds); ``grows_linearly`` doubles it until it does.
Timings of whole builds belong in ``bench/`` (CONTRIBUTING.md), not here.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

FACTOR = 8
SLACK = 3.0
RUNS = 3
#: A failing measure is taken again up to this many times in all (the least ratio counts):
#: a shared machine's load comes in bursts, and a quadratic reader fails every attempt.
ATTEMPTS = 3
#: Below this many CPU seconds a measure is mostly noise; the small input is grown until it
#: costs at least this much (or reaches ``max_size``).
FLOOR = 0.01


def cpu_seconds(run: Callable[[], object], runs: int = RUNS) -> float:
    """The least CPU time (user + system of this process) of ``runs`` calls of ``run``, each
    with Python's cyclic garbage collector off: its passes come every so many allocations and
    scan every live object, so they grow faster than the input and fall unevenly on the
    runs (a YAML of nested maps: 8x the input took 14.5x the time with it, 9.2x without).
    What is measured is the reader's own work."""
    best = float("inf")
    was_enabled = gc.isenabled()
    for _ in range(runs):
        gc.collect()
        gc.disable()
        try:
            started = time.process_time()
            run()
            best = min(best, time.process_time() - started)
        finally:
            if was_enabled:
                gc.enable()
    return best


def growth(read: Callable[[str], object], make: Callable[[int], str], size: int) -> float:
    """How many times longer ``read(make(size * FACTOR))`` takes than ``read(make(size))``."""
    small, large = make(size), make(size * FACTOR)
    base = max(cpu_seconds(lambda: read(small)), 1e-6)
    return cpu_seconds(lambda: read(large)) / base


def grows_linearly(
    read: Callable[[str], object],
    make: Callable[[int], str],
    size: int = 1_000,
    max_size: int = 200_000,
) -> tuple[bool, str]:
    """Whether ``read`` takes time linear in ``make(n)``'s size, and a sentence saying what
    was measured (for the assertion message). ``size`` is a starting point: it doubles until
    the small input costs ``FLOOR`` seconds of CPU."""
    while size < max_size and cpu_seconds(lambda n=size: read(make(n)), runs=1) < FLOOR:
        size *= 2
    ratio = growth(read, make, size)
    for _ in range(ATTEMPTS - 1):
        if ratio <= FACTOR * SLACK:
            break
        # A burst of load on the other core can land on the large run only: measure again.
        ratio = min(ratio, growth(read, make, size))
    said = f"{FACTOR}x the input ({size} -> {size * FACTOR}) took {ratio:.1f}x the CPU time"
    return ratio <= FACTOR * SLACK, said


def costs_at_most(
    ours: Callable[[], object],
    theirs: Callable[[], object],
    times: float,
    allowance: float = 0.0,
) -> tuple[bool, str]:
    """Whether ``ours`` costs at most ``times`` the CPU time of ``theirs`` (plus ``allowance``
    seconds), each measured in turn, again up to ``ATTEMPTS`` times while it does not hold;
    and a sentence saying what was measured."""
    best_ratio, said = float("inf"), ""
    for _ in range(ATTEMPTS):
        mine, other = cpu_seconds(ours), cpu_seconds(theirs)
        ratio = (mine - allowance) / max(other, 1e-6)
        if ratio < best_ratio:
            best_ratio, said = ratio, f"{mine:.3f} s against {other:.3f} s"
        if best_ratio <= times:
            break
    return best_ratio <= times, said


def bytes_grows_linearly(
    read: Callable[[bytes], object],
    make: Callable[[int], bytes],
    size: int = 1_000,
    max_size: int = 200_000,
) -> tuple[bool, str]:
    """``grows_linearly`` for a reader of bytes."""
    holder: dict[int, bytes] = {}

    def text_make(n: int) -> str:
        holder[n] = make(n)
        return str(n)

    return grows_linearly(lambda key: read(holder[int(key)]), text_make, size, max_size)
