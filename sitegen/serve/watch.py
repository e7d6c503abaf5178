"""The watcher of ``sitegen serve``: which changes start a build (only what a build reads; never
the output, the cache, gitignored files or serve's own log) and which rebuild everything (the
configuration files). See content/guides/safety.md and content/reference/cli.md#sitegen-serve.
"""

from __future__ import annotations

import functools
import os
import stat
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from sitegen.config import Config
from sitegen.crawl import Reads, build_reads
from sitegen.serve.schedule import Builder
from sitegen.site.writer import side_prefix

if TYPE_CHECKING:
    from watchfiles import Change


def config_files(config: Config, config_file: Path | None) -> set[Path]:
    """The files whose change rebuilds everything: sitegen's configuration, and the files
    the generator found beside the content was read from (``mkdocs.yml``, a VitePress
    ``config.ts``, Jekyll's ``_config.yml``), which the configuration holds."""
    names = {config.root / "sitegen.toml", config.root / "pyproject.toml"}
    if config_file is not None:
        names.add(config_file)
    if config.generator is not None:
        names.update(config.root / rel for rel, _ in config.generator.sources)
    return {Path(os.path.realpath(p)) for p in names}


def own_logs() -> set[tuple[int, int]]:
    """(device, inode) of this process's standard output and error when they are files:
    ``sitegen serve > docs/serve.log`` must not rebuild on its own lines, even where a build
    reads the log (an asset in the content folder)."""
    found = set()
    for stream in (sys.stdout, sys.stderr):
        try:
            st = os.fstat(stream.fileno())
        except (OSError, ValueError, AttributeError):
            continue
        if stat.S_ISREG(st.st_mode):
            found.add((st.st_dev, st.st_ino))
    return found


def watch(builder: Builder, config_file: Path | None, stop: threading.Event) -> None:
    """Rebuild after each batch of changes of what a build reads, until ``stop`` is set; never
    ends on a failure. The output, the cache, gitignored files and anything else a build does
    not read (a log in the project root) never start one (content/guides/safety.md)."""
    from watchfiles import watch as watch_changes

    logs = own_logs()

    def relevant(change: Change, path: str) -> bool:
        config = builder.config
        if path.startswith(
            _own_folders(config.out_dir, config.cache_dir)
        ):  # a build's own writes: the bulk of events
            return False
        if logs:
            try:
                st = os.stat(path)
            except OSError:
                pass
            else:
                if (st.st_dev, st.st_ino) in logs:
                    return False
        # Only what a build reads starts one. A file it merely lists (a log in the root)
        # changes no output when it appears or goes, only what a warning about a link to it
        # says; the next build brings that up to date.
        files = config_files(config, config_file)
        return build_reads(config, path, builder.snippets, files) is Reads.BYTES

    root = Path(os.path.realpath(builder.config.root))
    threading.Thread(target=builder.run_requests, args=(stop,), daemon=True).start()
    # Changes are grouped until none came for 50 ms, and for at most 300 ms: a build writing
    # its site never stops for 50 ms, and a save made meanwhile is shown within 300 ms.
    changes_of = watch_changes(root, watch_filter=relevant, stop_event=stop, step=50, debounce=300)
    for changes in changes_of:
        full = any(
            Path(os.path.realpath(p)) in config_files(builder.config, config_file)
            for _, p in changes
        )

        if not full:  # the saved page first, from the last build's site; then its build
            builder.show_saved(sorted({p for _, p in changes}))
        builder.request(full)


@functools.lru_cache(maxsize=4)
def _own_folders(out: Path, cache: Path) -> tuple[str, ...]:
    """Where a build writes, as real path prefixes: the output and cache folders, and the
    folders beside the output it swaps in and out (sitegen/site/writer.py)."""
    real_out = Path(os.path.realpath(out))
    return (str(real_out) + os.sep, os.path.realpath(cache) + os.sep, side_prefix(real_out))
