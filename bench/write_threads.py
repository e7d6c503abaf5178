"""Writing while rendering: the site writer's thread against writing each file in turn.

A build renders a page (Python, holding the GIL) and then creates its file (the kernel,
with the GIL released). ``SiteWriter`` hands the file to one writer thread so the two
overlap (sitegen/site/writer.py). This script writes the same files through the real
``SiteWriter`` both ways, with a fixed amount of rendering work per file, interleaved,
and prints the median of each and their ratio:

    python bench/write_threads.py [--files 6000] [--render-ms 1.0] [--runs 3] [--dir /tmp]

``--dir`` is where the site goes (the disk that is measured). Nothing is kept.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from sitegen.base.paths import OutPath
from sitegen.site import writer as writer_module
from sitegen.site.writer import SiteWriter


def render(ms: float) -> None:
    """Stand-in for rendering a page: Python work that holds the GIL for ``ms``."""
    end = time.perf_counter() + ms / 1000
    spins = 0
    while time.perf_counter() < end:
        spins += 1


def one_site(folder: Path, files: int, render_ms: float, threaded: bool) -> tuple[float, float]:
    """Seconds of wall and of kernel time to write ``files`` pages of 20 KB."""
    body = b"<p>" + b"x" * 20_000 + b"</p>\n"
    start, before = time.perf_counter(), os.times()
    with SiteWriter(folder / "site", reuse=False) as writer:
        if not threaded:  # each file created in turn, by the rendering thread itself
            writer._queue = writer_module._create  # type: ignore[method-assign]
        for i in range(files):
            render(render_ms)
            writer.write(OutPath(f"section{i % 40}/page{i}.html"), body)
    after = os.times()
    return time.perf_counter() - start, after.system - before.system


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--files", type=int, default=6000)
    parser.add_argument("--render-ms", type=float, default=1.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()))
    args = parser.parse_args()
    times: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(args.runs):
        for threaded in (False, True):
            with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
                wall, kernel = one_site(Path(tmp), args.files, args.render_ms, threaded)
            times[threaded].append(wall)
            how = "writer thread" if threaded else "in turn      "
            print(f"{how}: {wall:6.2f} s wall, {kernel:5.2f} s kernel", flush=True)
    inline, threaded_median = statistics.median(times[False]), statistics.median(times[True])
    print(
        f"\n{args.files} files, {args.render_ms} ms of rendering each, median of {args.runs}: "
        f"in turn {inline:.2f} s, writer thread {threaded_median:.2f} s "
        f"({threaded_median / inline:.2f}x)"
    )


if __name__ == "__main__":
    main()
