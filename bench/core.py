#!/usr/bin/env python3
"""The graph core against networkx on generated graphs of 10k, 100k and 1M edges.

    python bench/core.py [--edges 10000 100000 1000000] [--runs 3] [--big-runs 1]

Per size, on the same graph, side by side: sitegen's finalize (CSR + PageRank), Louvain
communities, and one spreading activation; networkx's ``pagerank`` and
``louvain_communities`` (graph construction timed separately). Activation latency is the
median and p95 of 50 queries from random seeds. Memory is the peak RSS growth of each side,
measured in a fresh child process per side. Graphs: a planted partition (communities of
100 nodes, 90 % of each node's edges inside), seeded, so every run sees the same graph.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time

import numpy as np
from common import REPO

sys.path.insert(0, str(REPO))


def generate(edges: int, seed: int = 7) -> tuple[int, np.ndarray, np.ndarray]:
    """About ``edges`` undirected edges, average degree 10, communities of 100 nodes."""
    n = max(100, edges // 5)
    rng = np.random.default_rng(seed)
    src = rng.integers(0, n, edges)
    inside = rng.random(edges) < 0.9
    block = src // 100 * 100
    dst = np.where(inside, block + rng.integers(0, 100, edges), rng.integers(0, n, edges))
    dst = np.minimum(dst, n - 1)
    keep = src != dst
    pairs = np.unique(np.minimum(src, dst)[keep] * n + np.maximum(src, dst)[keep])
    return n, pairs // n, pairs % n


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_sitegen(edges: int) -> dict[str, float]:
    import scipy.sparse as sp

    from sitegen.graph.activation import spread, structural_transition
    from sitegen.graph.communities import louvain
    from sitegen.graph.core import GraphCore

    n, src, dst = generate(edges)
    base = _rss_mb()
    t0 = time.perf_counter()
    core = GraphCore()
    for i in range(n):
        core.add_node(f"n{i}")
    core.add_edges(np.r_[src, dst], np.r_[dst, src], np.ones(2 * len(src)))
    t1 = time.perf_counter()
    core.finalize()  # CSR both ways + PageRank
    t2 = time.perf_counter()
    w = core.weight_matrix()
    found = louvain(sp.csr_matrix(w))
    t3 = time.perf_counter()
    transition = structural_transition(core)
    rng = np.random.default_rng(1)
    latencies = []
    for _ in range(50):
        seeds = {int(s): 1.0 for s in rng.integers(0, n, 5)}
        q0 = time.perf_counter()
        spread(transition, seeds)
        latencies.append(time.perf_counter() - q0)
    return {
        "nodes": n,
        "edges": len(src),
        "build": t1 - t0,
        "finalize": t2 - t1,
        "communities": t3 - t2,
        "modularity": found.modularity,
        "converged": float(found.converged),
        "passes": found.passes,
        "act_median": statistics.median(latencies),
        "act_p95": float(np.percentile(latencies, 95)),
        "rss": _rss_mb() - base,
    }


def run_networkx(edges: int) -> dict[str, float]:
    import networkx as nx

    n, src, dst = generate(edges)
    base = _rss_mb()
    t0 = time.perf_counter()
    g = nx.Graph()
    g.add_nodes_from(range(n))
    g.add_edges_from(zip(src.tolist(), dst.tolist(), strict=True))
    t1 = time.perf_counter()
    nx.pagerank(g, alpha=0.85, max_iter=50, tol=1e-6)
    t2 = time.perf_counter()
    parts = nx.community.louvain_communities(g, seed=1)
    t3 = time.perf_counter()
    return {
        "nodes": n,
        "edges": len(src),
        "build": t1 - t0,
        "pagerank": t2 - t1,
        "communities": t3 - t2,
        "modularity": nx.community.modularity(g, parts),
        "rss": _rss_mb() - base,
    }


def in_child(side: str, edges: int) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, __file__, "--child", side, str(edges)],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout)


def median_of(runs: list[dict[str, float]]) -> dict[str, float]:
    return {k: statistics.median(r[k] for r in runs) for k in runs[0]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--edges", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--big-runs", type=int, default=1, help="runs for 1M edges and more")
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        side, edges = args.child
        print(json.dumps((run_sitegen if side == "sitegen" else run_networkx)(int(edges))))
        return
    print(
        "| edges | nodes | sitegen finalize (CSR+PageRank) | nx pagerank | sitegen Louvain | "
        "nx Louvain | modularity sitegen / nx | passes, converged | activation median / p95 "
        "| memory MB sitegen / nx |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for edges in args.edges:
        runs = args.big_runs if edges >= 1_000_000 else args.runs
        ours = median_of([in_child("sitegen", edges) for _ in range(runs)])
        theirs = median_of([in_child("networkx", edges) for _ in range(runs)])
        print(
            f"| {int(ours['edges']):,} | {int(ours['nodes']):,} | {ours['finalize']:.3f} s | "
            f"{theirs['pagerank']:.3f} s | {ours['communities']:.2f} s | "
            f"{theirs['communities']:.2f} s | {ours['modularity']:.3f} / "
            f"{theirs['modularity']:.3f} | {int(ours['passes'])}, "
            f"{'yes' if ours['converged'] else 'no'} | {ours['act_median'] * 1000:.2f} / "
            f"{ours['act_p95'] * 1000:.2f} ms | {ours['rss']:.0f} / {theirs['rss']:.0f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
