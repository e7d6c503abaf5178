"""The code half of the build: extract every source file (shards reuse unchanged ones), then
resolve imports and names into one code graph.

Called by ``sitegen.build`` after the crawl; never writes anything but the shard cache.
"""

from __future__ import annotations

from typing import Any

from sitegen.code.records import CodeRecord
from sitegen.config import Config
from sitegen.crawl import Crawl
from sitegen.diagnostics import Diagnostic
from sitegen.parallel import pool_map
from sitegen.progress import Progress


def _extract_job(item: tuple[str, str, bytes]) -> CodeRecord:
    from sitegen.code.extract import extract_source
    from sitegen.code.records import LangId
    return extract_source(item[0], LangId(item[1]), item[2])


def extract_records(found: Crawl, config: Config, jobs: int, clean: bool,
                    progress: Progress) -> tuple[list[CodeRecord], list[Diagnostic]]:
    """One record per source file, from the shard cache when its content hash is unchanged."""
    from sitegen.code import shards
    cache = shards.ShardCache(config.cache_dir)
    diags: list[Diagnostic] = list(cache.open(clean))
    records: dict[str, CodeRecord] = {}
    todo = []
    for f in found.code:
        hit = cache.get(f.path, shards.content_hash(f.data))
        if hit is not None:
            records[f.path] = hit
        else:
            todo.append((f.path, f.language.value, f.data))
    for rec in pool_map(_extract_job, todo, jobs, progress, "Analysing source files"):
        records[rec.path] = rec
        cache.put(rec)
    cache.prune({f.path for f in found.code})
    cache.flush()
    out = [records[f.path] for f in found.code]
    return out, diags


def analyse_sources(config: Config, found: Crawl, jobs: int, clean: bool,
                    progress: Progress) -> tuple[list[CodeRecord], Any, list[Diagnostic]]:
    from sitegen.code.analyse import build_code_graph
    records, diags = extract_records(found, config, jobs, clean, progress)
    # The crawl already read the manifests (go.mod) the resolver asks for by name.
    graph, resolve_diags = build_code_graph(records, config, set(found.all_paths),
                                            found.manifests.get)
    diags += [d for r in records for d in r.diagnostics] + list(resolve_diags)
    return records, graph, diags
