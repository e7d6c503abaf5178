"""``sitegen explore "query"``: the pages most related to a query, by spreading activation
from the pages that match it (SPEC §10, a first version: structural and causal dimensions).

Reads the finished graph; never writes anything.
"""

from __future__ import annotations

import re
from collections import defaultdict

from sitegen.analyse.figures import compute_figures
from sitegen.build import BuildOptions, build
from sitegen.config import Config
from sitegen.graph.model import Graph, NodeKind
from sitegen.paths import NodeId, page_node_of

MAX_SEEDS = 200
MAX_DEPTH = 20
DECAY = 0.5
BACKWARD = 0.7  # typed relations spread backwards at this fraction
PAGERANK_BOOST = 0.1
_WORD = re.compile(r"\w+", re.UNICODE)


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


def seeds(graph: Graph, texts: dict[str, str], query: str) -> dict[str, float]:
    """Pages (or page ids) that match the query, scored by the share of query words they hold."""
    wanted = _words(query)
    out: dict[str, float] = {}
    for node, text in texts.items():
        if node == query.strip():
            out[node] = 1.0
            continue
        have = _words(text)
        if wanted and have:
            score = len(wanted & have) / len(wanted)
            if score:
                out[node] = score
    best = sorted(out.items(), key=lambda kv: (-kv[1], kv[0]))[:MAX_SEEDS]
    return dict(best)


def activate(graph: Graph, start: dict[str, float], budget: int = 10_000) -> dict[str, float]:
    """Spread activation along links (both directions; typed relations backwards at 0.7),
    halving per hop, at most 20 hops, at most ``budget`` visits."""
    neighbours: dict[str, list[tuple[str, float]]] = defaultdict(list)
    for e in graph.edges():
        neighbours[e.src].append((e.dst, 1.0))
        neighbours[e.dst].append((e.src, BACKWARD if e.rel else 1.0))
    level = dict(start)
    total = dict(start)
    visits = 0
    for _ in range(MAX_DEPTH):
        nxt: dict[str, float] = defaultdict(float)
        for node, value in sorted(level.items()):
            for other, factor in neighbours.get(node, ()):
                nxt[other] += value * DECAY * factor / max(1, len(neighbours[node]))
                visits += 1
        level = {n: v for n, v in nxt.items() if v > 1e-4}
        for n, v in level.items():
            total[n] = total.get(n, 0.0) + v
        if not level or visits > budget:
            break
    return total


def explore(config: Config, query: str, limit: int = 10) -> str:
    result = build(config, BuildOptions(write_site=False, quiet=True))
    graph = result.graph
    texts = {}
    for rec in result.pages:
        node = page_node_of(config.content_rel, rec.path) or "/" + rec.path
        texts[node] = " ".join([rec.title, *(h.text for h in rec.headings), *(l.label for l in rec.links)])
    ranks = compute_figures(graph).pagerank
    scores = activate(graph, seeds(graph, texts, query))
    pages = {n for n, node in graph.nodes.items() if node.kind in (NodeKind.PAGE, NodeKind.SOURCE)}
    ranked = sorted(((v + PAGERANK_BOOST * ranks.get(n, 0.0), n) for n, v in scores.items() if n in pages),
                    key=lambda t: (-t[0], t[1]))[:limit]
    if not ranked:
        return f"No page matches '{query}'.\n"
    return "".join(f"{score:6.3f}  {graph.title_of(NodeId(node))}  {node}\n" for score, node in ranked)
