"""The code half of the extract step: every source file to its record, in forked workers, with
shards reusing the records of unchanged files (linking them is sitegen/code/link.py).

Called by ``sitegen.build`` after the crawl; never writes anything but the shard cache.
"""

from __future__ import annotations

import hashlib

from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.base.languages import LangId
from sitegen.base.parallel import run_forked
from sitegen.base.progress import Progress
from sitegen.code.memory import long_lived_objects
from sitegen.code.shards import ShardCache
from sitegen.config import Config
from sitegen.records.code import CodeRecord
from sitegen.records.crawl import Crawl


def _extract_chunk(
    state: tuple[list[tuple[str, str, bytes]], ShardCache], indexes: list[int]
) -> list[CodeRecord]:
    # Forked workers read the bytes from the list they inherit; records come back as the
    # plain dataclasses a shard holds, never as tree-sitter objects. Each worker writes its
    # own shards (distinct files, each atomically): encoding them is a fifth of the work,
    # which the main process would otherwise do alone.
    from sitegen.base.languages import LangId

    todo, cache = state
    records = [_extract_one(todo[i][0], LangId(todo[i][1]), todo[i][2]) for i in indexes]
    for record in records:
        cache.put(record)
    return records


def _extract_one(path: str, lang: LangId, data: bytes) -> CodeRecord:
    """The file's record; a file nested deeper than Python's recursion limit allows (a test of
    CPython's own parser, say) is a warning and an empty record, never a crashed build."""
    from sitegen.code.extract import extract_source

    try:
        return extract_source(path, lang, data)
    except RecursionError:
        message = (
            "the file nests too deeply to analyse; it is published without its symbols, "
            "imports and references"
        )
        return CodeRecord(
            path=path,
            language=lang,
            content_hash=hashlib.sha256(data).hexdigest(),
            has_error=True,
            diagnostics=[Diagnostic(path, 1, 1, Level.WARNING, message, "code")],
        )


def extract_records(
    found: Crawl, config: Config, jobs: int, clean: bool, progress: Progress
) -> tuple[list[CodeRecord], list[Diagnostic]]:
    """One record per source file, from the shard cache when its content hash is unchanged."""
    with long_lived_objects():
        return _extract(found, config, jobs, clean, progress)


def _extract(
    found: Crawl, config: Config, jobs: int, clean: bool, progress: Progress
) -> tuple[list[CodeRecord], list[Diagnostic]]:
    cache = ShardCache(config.cache_dir)
    diags: list[Diagnostic] = list(cache.open(clean))
    records: dict[str, CodeRecord] = {}
    todo = []
    for f in found.code:
        hit = cache.get(f.path, f.content_hash)
        if hit is not None:
            records[f.path] = hit
        else:
            todo.append((f.path, f.language.value, f.data))
    task = progress.task("Analysing source files", len(todo))
    for chunk in run_forked(_extract_chunk, (todo, cache), list(range(len(todo))), jobs):
        for rec in chunk:
            records[rec.path] = rec
        task.advance(len(chunk))
    cache.prune({f.path for f in found.code})
    cache.flush()
    out = [records[f.path] for f in found.code]
    return out, diags + cache.diagnostics  # shards set aside (sitegen/state/files.py)
