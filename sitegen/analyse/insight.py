"""The graph-core step of the build: one core over pages and source files, its figures,
related pages, missing links, and the snapshot ``sitegen explore`` answers from.

Runs after link and merge (it needs the whole graph and every text); reads the crawl's
bytes and ``git log``, never the file system otherwise; never mutates the graph.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from sitegen.analyse.figures import Figures, core_of_graph, figures_of_core
from sitegen.analyse.related import (
    Relatedness,
    co_change_matrix,
    link_dimensions,
    relatedness,
    text_dimension,
)
from sitegen.graph.history import History, read_history
from sitegen.graph.model import Graph
from sitegen.graph.snapshot import Snapshot
from sitegen.parallel import compute_in_background
from sitegen.paths import NodeId, RepoPath, source_node_id

if TYPE_CHECKING:
    from sitegen.result import BuildResult


@dataclass(frozen=True)
class Insight:
    figures: Figures
    relatedness: Relatedness
    #: The graph the core was built from: documents plus the code's imports.
    whole: Graph
    snapshot: Snapshot


def node_paths(result: BuildResult) -> dict[str, str]:
    """Node id -> repository path, for every page and source file crawled."""
    content = result.config.content.strip("/")
    paths: dict[str, str] = {
        "/" + f.path[len(content) + 1 :] if content else "/" + f.path: f.path
        for f in result.crawl.pages
    }
    paths.update({source_node_id(RepoPath(f.path)): f.path for f in result.crawl.code})
    return paths


def analyse_graph(
    result: BuildResult,
    whole: Graph,
    fingerprint: str = "",
    history: History | None = None,
    jobs: int = 1,
) -> Insight:
    """Figures, related pages and the explore snapshot of the build's whole graph (the
    document graph plus the code's imports). The text index is made in a forked process
    while the core, its figures and the history are computed here."""
    core = core_of_graph(whole)
    path_of = node_paths(result)
    data: dict[str, bytes] = {f.path: f.data for f in result.crawl.pages}
    data.update((f.path, f.data) for f in result.crawl.code)
    texts = [
        whole.title_of(NodeId(name)).encode("utf-8") + b"\n" + data.get(path_of.get(name, ""), b"")
        for name in core.names
    ]
    with compute_in_background(text_dimension, texts, jobs > 1) as indexing:
        figures = figures_of_core(core)
        history = history if history is not None else read_history(result.config.root)
        dims = link_dimensions(core)
        dims["temporal"] = co_change_matrix(core, history, path_of)
        text, dims["semantic"] = indexing.result()
    found = relatedness(core, text, dims, set(core.names))
    recency = np.array(
        [
            history.recency(path_of.get(name, ""), kind)
            for name, kind in zip(core.names, core.kinds, strict=True)
        ]
    )
    titles = tuple(whole.title_of(NodeId(name)) for name in core.names)
    snapshot = Snapshot(core, titles, text, recency, fingerprint)
    return Insight(figures, found, whole, snapshot)
