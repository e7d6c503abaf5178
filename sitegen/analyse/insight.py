"""The graph-core step of the build: one core over pages and source files, its figures,
related pages, missing links, and the snapshot ``sitegen explore`` answers from.

Runs after link and merge (it needs the whole graph and every text); reads the crawl's
bytes and ``git log``, never the file system otherwise; never mutates the graph.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

from sitegen.analyse.figures import core_of_graph, figures_of_core
from sitegen.analyse.locale_folders import Locales, site_locales
from sitegen.analyse.related import (
    Texts,
    co_change_matrix,
    link_dimensions,
    relatedness,
    text_dimension,
)
from sitegen.base.parallel import compute_in_background
from sitegen.base.paths import NodeId, SitePath
from sitegen.config import Config
from sitegen.docs.prose import page_language
from sitegen.graph.core import GraphCore
from sitegen.graph.history import History, read_history
from sitegen.graph.model import Edge, Graph
from sitegen.graph.semantic import TextIndex
from sitegen.graph.snapshot import Snapshot
from sitegen.records.analysis import Insight
from sitegen.records.crawl import Crawl
from sitegen.records.pages import PageRecord

if TYPE_CHECKING:
    from sitegen.records.result import BuildResult


def node_paths(result: BuildResult) -> dict[str, str]:
    """Node id -> repository path, for every page and source file crawled."""
    content = result.config.content_rel
    files = [SitePath.page(f.path, content) for f in result.crawl.pages]
    files += [SitePath.source(f.path) for f in result.crawl.code]
    paths: dict[str, str] = {f.node: f.repo for f in files}
    return paths


@dataclass
class TextJob:
    """The text dimension of the crawled files, being computed in the background: rows in
    ``paths`` order (pages, then source files, as crawled)."""

    paths: list[str]
    job: compute_in_background

    def for_core(self, core: GraphCore, path_of: dict[str, str]) -> tuple[TextIndex, sp.csr_matrix]:
        """The index and similarities with one row per core node, in the core's order."""
        text, similar = self.job.result()
        row = {p: i for i, p in enumerate(self.paths)}
        pick = [
            (i, row[path_of[name]]) for i, name in enumerate(core.names) if path_of.get(name) in row
        ]
        select = sp.csr_matrix(
            (np.ones(len(pick)), ([p[0] for p in pick], [p[1] for p in pick])),
            shape=(core.node_count, len(self.paths)),
        )
        vectors = sp.csr_matrix(select @ text.vectors)
        vectors.sort_indices()
        return (
            TextIndex(text.vocabulary, text.idf, vectors),
            sp.csr_matrix(select @ similar @ select.T),
        )


def start_text_job(
    crawl: Crawl, jobs: int, pages: Sequence[PageRecord] = (), config: Config | None = None
) -> TextJob:
    """Start the text index of every crawled page and source file, in a forked process when
    ``jobs > 1``, so it runs while the build links. A page with a record counts by the
    visible prose of its HTML, in its language (front matter ``lang``, else its locale's,
    else the ``lang`` option); other files by their bytes."""
    records = {rec.path: rec for rec in pages}
    lang = config.lang if config is not None else "en"
    content = config.content_rel if config is not None else ""
    nodes = {f.path: str(SitePath.page(f.path, content).node) for f in crawl.pages}
    locales = site_locales(config, nodes.values()) if config is not None else Locales()
    texts: list[str | bytes] = []
    is_html: list[bool] = []
    langs: list[str] = []
    for f in crawl.pages:
        rec = records.get(f.path)
        texts.append(rec.html if rec is not None else f.data)
        is_html.append(rec is not None)
        locale = locales.of(nodes[f.path])
        default = locale.lang if locale is not None else lang
        langs.append(page_language(rec.front_matter, default) if rec is not None else default)
    texts += [f.data for f in crawl.code]
    is_html += [False] * len(crawl.code)
    langs += ["en"] * len(crawl.code)
    paths = [str(f.path) for f in crawl.pages] + [str(f.path) for f in crawl.code]
    given = Texts(texts, is_html, langs)
    return TextJob(paths, compute_in_background(text_dimension, given, jobs > 1).start())


def analyse_graph(
    result: BuildResult,
    whole: Graph,
    fingerprint: str = "",
    history: History | None = None,
    text_job: TextJob | None = None,
) -> Insight:
    """Figures, related pages and the explore snapshot of the build's whole graph (the
    document graph plus the code's imports); the text dimension comes from ``text_job``
    (started here, in this process, when not given)."""
    core = core_of_graph(whole)
    path_of = node_paths(result)
    texts = text_job or start_text_job(result.crawl, 1)
    figures = figures_of_core(core)
    history = history if history is not None else read_history(result.config.root)
    dims = link_dimensions(core)
    dims["temporal"] = co_change_matrix(core, history, path_of)
    text, dims["semantic"] = texts.for_core(core, path_of)
    locales = site_locales(result.config, path_of)
    groups = [_group(locales, name) for name in core.names]
    found = relatedness(core, text, dims, set(core.names), groups)
    recency = np.array(
        [
            history.recency(path_of.get(name, ""), kind)
            for name, kind in zip(core.names, core.kinds, strict=True)
        ]
    )
    titles = tuple(whole.title_of(NodeId(name)) for name in core.names)
    snapshot = Snapshot(core, titles, text, recency, fingerprint)
    return Insight(figures, found, whole, snapshot)


def _group(locales: Locales, name: str) -> int:
    """The locale a node's related pages stay in (its index), -1 for none (a source file,
    a site without locales)."""
    if not name.startswith("/") or name.startswith("/code/"):
        return -1
    locale = locales.of(name)
    return locales.locales.index(locale) if locale is not None else -1


def whole_graph(result: BuildResult) -> Graph:
    """The document graph plus the code's file imports (as ``imports`` edges between source
    nodes): the one graph of docs and code that the graph page draws and ranks."""
    if result.code is None:
        return result.graph
    from sitegen.code.link import file_dependency_edges

    return result.graph.with_edges(
        Edge(SitePath.source(dep.src).node, SitePath.source(dep.dst).node, "imports")
        for dep in file_dependency_edges(result.code)
        if dep.kind == "import" and dep.src != dep.dst
    )
