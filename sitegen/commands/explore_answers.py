"""``sitegen explore "query"``: the pages and source files most related to a query, from the
snapshot of the last build (content/guides/related-pages.md#explore).

Seeds are the documents whose text matches the query (or the node the query names); their
activation spreads in four dimensions, merged as related pages are. Reads the snapshot (or,
when it is refused, builds in memory without writing the site); never writes anything.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass

import numpy as np

from sitegen.base.paths import page_node_id
from sitegen.config import Config
from sitegen.graph.activation import MAX_SEEDS, causal_transition, spread, structural_transition
from sitegen.graph.core import FloatArray
from sitegen.graph.semantic import word_counts
from sitegen.graph.snapshot import SNAPSHOT_FILE, Snapshot, SnapshotRefused, load_snapshot

WEIGHTS = {"structural": 0.35, "semantic": 0.25, "temporal": 0.15, "causal": 0.25}
PAGERANK_BOOST = 0.1


@dataclass(frozen=True)
class Answer:
    node: str
    title: str
    score: float
    dimensions: dict[str, float]
    reason: str


def current_snapshot(config: Config) -> Snapshot:
    """The snapshot of the build that made the site in the output folder; when it is
    missing, stale or unsound, one made by a build in memory (which writes nothing; the
    next ``sitegen build`` saves it)."""
    from sitegen.state.folder import check_cache_dir
    from sitegen.state.ownership import check_output

    # A configuration the build would refuse is refused first, in the build's own words.
    check_output(config, writing=False)
    check_cache_dir(config.cache_dir)
    try:
        return load_snapshot(config.cache_dir / SNAPSHOT_FILE, _site_fingerprint(config))
    except SnapshotRefused as why:
        shown = f"{config.cache_dir.name}/{SNAPSHOT_FILE}"
        print(f"sitegen: the graph snapshot {shown} {why}; building in memory", file=sys.stderr)
    from sitegen.build import BuildOptions, build

    result = build(config, BuildOptions(write_site=False, quiet=True))
    assert result.insight is not None, "a build analyses its graphs"
    return result.insight.snapshot


def _site_fingerprint(config: Config) -> str:
    """The input fingerprint the site in the output folder was built from ("" if none);
    only that field of the marker is read (the rest lists every output)."""
    from sitegen import __version__
    from sitegen.state.files import Unreadable, parse_json, read_state
    from sitegen.state.ownership import OUTPUT_MARKER

    try:  # bounded, and never blocked by a FIFO in the marker's place
        doc = parse_json(read_state(config.out_dir / OUTPUT_MARKER) or b"")
    except Unreadable:
        return ""
    ok = isinstance(doc, dict) and doc.get("version") == __version__
    return str(doc.get("fingerprint", "")) if ok else ""


def _normalized(values: FloatArray) -> FloatArray:
    top = float(values.max()) if len(values) else 0.0
    return values / top if top > 0 else np.zeros_like(values)


def _seeds(snap: Snapshot, query: str, semantic: FloatArray) -> dict[int, float]:
    for name in (query.strip(), page_node_id(query.strip())):
        named = snap.core.id_of(name)
        if named is not None:  # the query names a page: it is the one seed
            return {named: 1.0}
    best = np.lexsort((np.arange(len(semantic)), -semantic))[:MAX_SEEDS]
    return {int(i): float(semantic[i]) for i in best if semantic[i] > 0}


def answer(snap: Snapshot, query: str, limit: int = 10) -> list[Answer]:
    """The ``limit`` best nodes for ``query``, each with its merged score and dimensions."""
    core = snap.core
    n = core.node_count
    semantic = snap.text.query(query) if n else np.zeros(0)
    seeds = _seeds(snap, query, semantic)
    if not seeds or not core.finalized:
        return []
    plain = {i for i, r in enumerate(core.rel_names) if r in ("", "imports")}
    dims = {"structural": np.zeros(n), "causal": np.zeros(n), "semantic": _normalized(semantic)}
    for name, transition in (
        ("structural", structural_transition(core, plain)),
        ("causal", causal_transition(core)),
    ):
        reached = spread(transition, seeds)
        dims[name][reached.nodes] = reached.values
        dims[name] = _normalized(dims[name])
    active = (dims["structural"] > 0) | (dims["causal"] > 0) | (dims["semantic"] > 0)
    dims["temporal"] = np.where(active, snap.recency, 0.0)
    merged = np.zeros(n)
    for name, weight in WEIGHTS.items():
        merged += weight * dims[name]
    ranks = core.pagerank
    if ranks is not None:
        merged = merged + PAGERANK_BOOST * ranks * active
    order = [int(i) for i in np.lexsort((np.arange(n), -merged)) if active[i]][:limit]
    wanted = set(word_counts(query))
    return [
        Answer(
            core.names[i],
            snap.titles[i],
            round(float(merged[i]), 4),
            {k: round(float(v[i]), 4) for k, v in dims.items()},
            _reason(snap, i, wanted, i in seeds),
        )
        for i in order
    ]


def _reason(snap: Snapshot, node: int, wanted: set[str], seed: bool) -> str:
    row = snap.text.vectors[node]
    have = {snap.text.vocabulary[int(c)] for c in row.indices}
    matched = sorted(w for w in wanted if w in have)
    if matched:
        return "matches the words '" + " ".join(matched) + "'"
    return "the page the query names" if seed else "linked with matching pages"


def explore(config: Config, query: str, limit: int = 10, as_json: bool = False) -> str:
    found = answer(current_snapshot(config), query, limit)
    if as_json:
        return (
            json.dumps(
                {"query": query, "results": [a.__dict__ for a in found]},
                indent=2,
                ensure_ascii=False,
            )
            + "\n"
        )
    if not found:
        return f"No page matches '{query}'.\n"
    return "".join(f"{a.score:6.3f}  {a.title}  {a.node}\n        {a.reason}\n" for a in found)
