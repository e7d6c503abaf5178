"""How the code steps ask the cyclic garbage collector to wait while they build their records
and graph (tens of thousands of symbols, values and edges, almost no reference cycles).

Left at its defaults the collector walks every live object again and again as they pile up:
a third of the django code graph's link step and shard loading, and about a sixth of a whole
build. A build runs inside it (``sitegen.build``); the code steps set it themselves so that
every caller (the benchmarks, tests, tools) runs them the way a build does.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def long_lived_objects() -> Iterator[None]:
    """Collect rarely inside the block; the previous thresholds come back afterwards."""
    old = gc.get_threshold()
    if old[0] == 0:  # automatic collection is off: nothing to defer
        yield
        return
    gc.set_threshold(max(old[0], 200_000), max(old[1], 50), max(old[2], 1_000))
    try:
        yield
    finally:
        gc.set_threshold(*old)
