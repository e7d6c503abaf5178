#!/usr/bin/env python3
"""Federation at scale (issue 22, point 6): 20 peers of 100,000 edges each, read, filtered
and merged, against ``graph parse``'s reader reading the same files alone.

    python bench/federation.py [--peers 20] [--edges 100000] [--runs 5]

The peers are generated graph.md files (seeded): per peer, a Nodes table of 10,000 pages
and an Edges table whose targets are the peer's own pages (80 %), other sites (15 %), this
site's pages (4 %, in both URL spellings, some typed) and loopback or private hosts (1 %).
Baseline: read each file and ``parse_graph_md`` it, as ``sitegen graph parse FILE`` does.
Federation: ``read_peers`` with a fresh store (every peer read, decoded, parsed, filtered
and stored as JSON) then ``federate`` into a site of 1,000 pages. Medians of ``--runs``;
the ratio is federation / baseline (the issue asks for at most 2). Last, a second
``read_peers`` over the unchanged peers: what revalidation costs when nothing changed.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from common import REPO

sys.path.insert(0, str(REPO))

SITE = "https://docs.b.example/"
SITE_PAGES = 1000


def peer_graph(index: int, edges: int, seed: int = 22) -> str:
    """One peer's graph.md, wide format, ``edges`` rows sorted as the exporter sorts them."""
    rng = random.Random(seed * 1000 + index)
    pages = max(10, edges // 10)
    lines = [f"# Peer {index} graph", "", "## Nodes", "", "| Node | Title | Kind |"]
    lines.append("| --- | --- | --- |")
    lines += [f"| /p{index}/page-{i}.md | Page {i} of peer {index} | page |" for i in range(pages)]
    rows = []
    for _ in range(edges):
        src = f"/p{index}/page-{rng.randrange(pages)}.md"
        roll = rng.random()
        rel = ""
        if roll < 0.80:
            dst = f"/p{index}/page-{rng.randrange(pages)}.md"
        elif roll < 0.95:
            dst = f"https://site-{rng.randrange(50)}.example/docs/x-{rng.randrange(1000)}.html"
        elif roll < 0.99:
            n = rng.randrange(SITE_PAGES)
            dst = (
                f"https://Docs.B.Example:443/guides/g{n}.html#part-{n % 7}"
                if rng.random() < 0.5
                else f"https://docs.b.example/guides/g{n}.md"
            )
            rel = "supersedes" if rng.random() < 0.1 else ""
        else:
            dst = f"http://{rng.choice(['127.0.0.1', '10.0.0.5', 'localhost'])}/guides/g1.html"
        rows.append((src, dst, rel, f"label {rng.randrange(100)}", "#intro", "1"))
    rows.sort()
    lines += ["", "## Edges", "", "| From | To | Rel | Label | Anchor | Count |"]
    lines.append("| --- | --- | --- | --- | --- | --- |")
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def write_peers(folder: Path, peers: int, edges: int) -> list[Path]:
    files = []
    for i in range(peers):
        path = folder / f"peer-{i}" / "graph.md"
        path.parent.mkdir(parents=True)
        path.write_text(peer_graph(i, edges), encoding="utf-8")
        files.append(path)
    return files


def parse_alone(files: list[Path]) -> tuple[float, float]:
    """Wall and CPU seconds of reading and parsing every file."""
    from sitegen.graph.export import parse_graph_md

    started, cpu = time.perf_counter(), time.process_time()
    for path in files:
        parse_graph_md(path.read_text(encoding="utf-8", errors="replace"))
    return time.perf_counter() - started, time.process_time() - cpu


def site_config(root: Path, files: list[Path]) -> object:
    from sitegen.config import load_config
    from sitegen.state.folder import prepare_cache

    (root / "content").mkdir(parents=True, exist_ok=True)
    peers = ", ".join(
        f'{{ path = "{p}", url = "https://peer-{i}.example/" }}' for i, p in enumerate(files)
    )
    (root / "sitegen.toml").write_text(
        f'base_url = "{SITE}"\npeers = [{peers}]\n', encoding="utf-8"
    )
    config = load_config(root)
    prepare_cache(config.cache_dir)
    return config


def the_site() -> tuple[object, dict]:
    """This site's pages: ``/guides/g<n>.md``, published as ``guides/g<n>.html``."""
    from sitegen.addresses import Addresses, UrlStyle
    from sitegen.base.paths import NodeId, OutPath
    from sitegen.graph.model import Node, NodeKind

    nodes = {
        NodeId(f"/guides/g{n}.md"): Node(NodeId(f"/guides/g{n}.md"), NodeKind.PAGE)
        for n in range(SITE_PAGES)
    }
    addresses = Addresses(UrlStyle.HTML, {n: OutPath(n[1:-3] + ".html") for n in nodes})
    return addresses, nodes


def federation_run(root: Path, files: list[Path]) -> tuple[float, float, float, int]:
    """Wall and CPU seconds to read, filter and merge every peer from a fresh store;
    seconds of the unchanged rebuild's reading; the backlinks found."""
    from sitegen.federation.ingest import site_prefix
    from sitegen.federation.step import federate, read_peers

    shutil.rmtree(root, ignore_errors=True)
    config = site_config(root, files)
    addresses, nodes = the_site()
    started, cpu = time.perf_counter(), time.process_time()
    reading = read_peers(config)  # type: ignore[arg-type]
    fed = federate(reading, site_prefix(SITE), addresses, nodes)  # type: ignore[arg-type]
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    started = time.perf_counter()
    again = read_peers(config)  # type: ignore[arg-type]
    unchanged = time.perf_counter() - started
    assert all(state == "unchanged" for _, _, state in again.peers)
    return elapsed, cpu, unchanged, sum(p.backlinks for p in fed.peers)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peers", type=int, default=20)
    parser.add_argument("--edges", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        files = write_peers(Path(tmp) / "peers", args.peers, args.edges)
        size = sum(f.stat().st_size for f in files)
        print(f"{args.peers} peers x {args.edges:,} edges, {size / 1e6:.1f} MB of graph.md")
        alone, alone_cpu, fed, fed_cpu, unchanged, found = [], [], [], [], [], 0
        for run in range(args.runs):  # alternated, so a load change hits both sides
            wall, cpu = parse_alone(files)
            alone.append(wall)
            alone_cpu.append(cpu)
            seconds, cpu, again, found = federation_run(Path(tmp) / "site", files)
            fed.append(seconds)
            fed_cpu.append(cpu)
            unchanged.append(again)
            print(
                f"  run {run + 1}: parse alone {alone[-1]:.2f} s ({alone_cpu[-1]:.2f} s CPU), "
                f"federation {seconds:.2f} s ({cpu:.2f} s CPU)"
            )
    a, ac, f, fc, u = (statistics.median(x) for x in (alone, alone_cpu, fed, fed_cpu, unchanged))
    print(f"graph parse alone (median of {args.runs}): {a:.2f} s wall, {ac:.2f} s CPU")
    print(f"federation read + filter + merge:        {f:.2f} s wall, {fc:.2f} s CPU")
    print(f"  ({found:,} backlinks)")
    print(
        f"ratio federation / parse alone:          {f / a:.2f} wall, {fc / ac:.2f} CPU (target <= 2)"
    )
    print(f"unchanged peers, second reading:         {u * 1000:.1f} ms (nothing re-read)")


if __name__ == "__main__":
    main()
