"""The build: crawl -> extract -> link -> merge into the store -> analyse -> emit.

Each step is named below in the order it runs; ``build`` reads top to bottom. Steps hand
plain records to the next; only crawl reads input and only emit (and the store) write.
"""

from __future__ import annotations

import functools
import os
import resource
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from sitegen.addresses import Addresses
from sitegen.base.diagnostics import Diagnostic, Level, Sink
from sitegen.base.parallel import run_in_background
from sitegen.base.paths import NodeId, SitePath, page_node_of
from sitegen.base.plural import agrees, counted
from sitegen.base.progress import Progress
from sitegen.code.memory import long_lived_objects
from sitegen.config import Config
from sitegen.crawl import crawl
from sitegen.docs.includes import include_names
from sitegen.docs.sanitize import RawHtml
from sitegen.federation.ingest import site_prefix
from sitegen.federation.step import PEER, PeerReading, federate, read_peers
from sitegen.graph.model import Graph, NodeKind
from sitegen.graph.store import load_anchor_book, load_store, open_store
from sitegen.graph.store.anchors import AnchorBook
from sitegen.graph.store.base import GraphStore, GraphUpdate, SourceStatus, merge_graphs
from sitegen.layout import layout_diagnostics, with_default_title
from sitegen.link.anchor_aliases import aliases_of_build, kept_anchors
from sitegen.link.page_addresses import page_addresses, url_style
from sitegen.link.step import LinkInputs
from sitegen.records.analysis import CycleReport, Insight
from sitegen.records.api import ApiModel
from sitegen.records.code import CodeRecord
from sitegen.records.crawl import Crawl
from sitegen.records.federation import Federation
from sitegen.records.linked import Linked
from sitegen.records.pages import PageRecord
from sitegen.records.result import BuildContext, BuildOptions, BuildResult
from sitegen.records.stale import StaleReport
from sitegen.state.files import replayable
from sitegen.state.folder import build_lock, prepare_cache
from sitegen.state.ownership import OUTPUT_MARKER, check_output
from sitegen.state.remembered import (
    STATE_FILE,
    BuildState,
    SiteRecord,
    digest,
    finished_fingerprint,
    load_state,
    mark_finished,
    mark_unfinished,
    pages_key,
    save_state,
    site_fingerprint,
)

if TYPE_CHECKING:  # numpy and scipy are imported only when the analysis runs
    from sitegen.analyse.insight import TextJob
    from sitegen.docs.registry import Syntax
    from sitegen.plugins import Plugin
    from sitegen.site.emitter import Emitter

__all__ = ["BuildOptions", "BuildResult", "build"]


def raw_html_notice(config: Config) -> list[Diagnostic]:
    """``raw_html = "allow"`` is said once per build: the pages' HTML goes out unchecked."""
    if config.raw_html != RawHtml.ALLOW:
        return []
    name = "sitegen.toml" if (config.root / "sitegen.toml").is_file() else "pyproject.toml"
    return [
        Diagnostic(
            name,
            1,
            1,
            Level.INFO,
            'raw_html = "allow": raw HTML in pages is published unsanitized',
            "raw-html",
        )
    ]


def crawl_result(found: Crawl, linked: Linked, store_graph: Graph, config: Config) -> GraphUpdate:
    """What this crawl read, per source, for the store's merge (content/reference/store.md).

    Every stored source the crawl did not read is either gone (DELETED) or was seen but not
    readable (ERROR, it keeps its edges). When the crawl skipped nothing, there is no ERROR
    source, so the merge is the crawl's graph whatever the store holds: ``build`` then does
    not read the store at all (the merge of an empty stored graph is the same graph).
    """
    result = GraphUpdate(nodes=[n for _, n in sorted(linked.graph.nodes.items())])
    for src, edges in sorted(linked.edges_by_source.items()):
        result.sources[src] = (SourceStatus.READ, edges)
    # A diagnostic's path is a page's or a source file's: the node of either reading is skipped.
    skipped = {SitePath.source(d.path).node for d in found.diagnostics}
    skipped |= {SitePath.page(d.path, config.content_rel).node for d in found.diagnostics}
    local = {
        n
        for n, node in store_graph.nodes.items()
        if node.kind in (NodeKind.PAGE, NodeKind.SOURCE, NodeKind.ASSET)
    }
    for src in sorted({e.src for e in store_graph.edges()} | local):
        if src in result.sources:
            continue
        # A source the crawl saw but could not read keeps its edges; one that is gone has none.
        status = SourceStatus.ERROR if src in skipped else SourceStatus.DELETED
        result.sources[src] = (status, [])
    return result


class _Timings:
    """Phase timings on stderr with SITEGEN_TIMINGS=1: where a build's wall time goes."""

    def __init__(self) -> None:
        self.on = os.environ.get("SITEGEN_TIMINGS") == "1"
        self.last = time.perf_counter()

    def mark(self, phase: str) -> None:
        if self.on:
            now = time.perf_counter()
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
            print(
                f"sitegen timing: {phase} {now - self.last:.3f} s, peak RSS {peak} MB",
                file=sys.stderr,
            )
            self.last = now


def build(config: Config, options: BuildOptions = BuildOptions()) -> BuildResult:
    """One whole build. Diagnostics are collected, never raised: a bad file never stops it.

    Incremental: pages whose content hash is unchanged are not parsed again, outputs whose
    inputs are unchanged are linked from the previous site, and when the whole input is the
    previous build's, nothing is redone at all. The result is the same bytes either way.
    """
    started = time.perf_counter()
    # 0. safety, before anything is written: the output must be ours to replace, the cache a
    # real folder made here, and no other build of this project running (content/guides/safety.md)
    check_output(config, writing=options.write_site)
    cache = prepare_cache(config.cache_dir)
    # The page cache holds rendered HTML: it is used only in the folder it was made in.
    # Shards and the store hold plain data, validated on load, and are used wherever they
    # come from (a CI cache restored into a fresh checkout).
    clean_pages = options.clean or not cache.trusted
    sink = Sink()  # the one every step reports into (content/reference/cli.md#diagnostics)
    with build_lock(config.cache_dir, _announce):
        result = _build_locked(config, options, sink, clean_pages, started)
    # What prepare_cache set aside: said by this build only, never replayed by the next.
    sink.extend(cache.diagnostics)
    said = sink.sorted()  # the one sort: every step's diagnostics, each once, in order
    if not cache.trusted and not cache.fresh and not cache.origin_unreadable and not options.clean:
        said.append(  # said after the others, as it always was
            Diagnostic(
                ".sitegen",
                1,
                1,
                Level.INFO,
                "the page cache was not made in this folder (committed or copied); it was ignored "
                "and every page parsed again",
                "cache",
            )
        )
    return replace(result, diagnostics=tuple(said), seconds=time.perf_counter() - started)


def _announce(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _build_locked(
    config: Config, options: BuildOptions, sink: Sink, clean_pages: bool, started: float
) -> BuildResult:
    jobs = options.jobs or config.jobs or _cores()
    # 0b. the plugins the configuration names, and only those (content/guides/plugins.md);
    # one that is not fork-safe keeps every step of the build in this process
    plugins, jobs, plugin_diags = _plugins_step(config, jobs)
    progress = Progress(enabled=not options.quiet)
    # what every step is handed: each reports into its sink, none into the result
    ctx = BuildContext(config, options, progress, sink, jobs)
    with progress, long_lived_objects():
        # 1. crawl: the only step that reads the project
        timings = _Timings()
        # an MDX page's partials are includes too (content/syntax/docusaurus.md)
        dialect = config.dialect
        found = crawl(config, includes=functools.partial(include_names, dialect=dialect))
        # 1b. the peers' graph.md (or their stored copies): part of the input
        peers = read_peers(config, options.offline)
        # with the plugins' names and versions: a new version writes the site again
        loaded = _plugins_key(plugins)
        fingerprint = build_fingerprint(config, found, loaded)
        if peers.peers:
            fingerprint = digest(fingerprint, peers.fingerprint)
        timings.mark("crawl")
        previous = SiteRecord.read(config.out_dir / OUTPUT_MARKER)
        if options.write_site and not clean_pages and _unchanged(config, previous, fingerprint):
            # what it reported is reported again, but what reading the peers found is this
            # build's (content/guides/federation.md)
            sink.extend(d for d in replayable(previous.diagnostics) if d.code != PEER)
            sink.extend(peers.diagnostics)
            return _previous_result(config, found, previous, started)
        unfinished = mark_unfinished(config.cache_dir)
        # records extracted under other options declared PAGES, or other plugins, are not reused
        state = load_state(config.cache_dir, clean_pages, pages_key(config, loaded))
        state.diagnostics += unfinished
        # 2. extract, per file and pure (unchanged pages come from the cache)
        sink.extend(plugin_diags)
        syntaxes = tuple(s for p in plugins for s in p.syntaxes)
        pages, api = _extract_pages_step(ctx, found, state, syntaxes)
        texts = start_text_index(found, jobs, pages, config)  # runs while code is linked
        # the home page's title names the site when nothing else does
        config = with_default_title(config, pages)
        ctx = replace(ctx, config=config)
        timings.mark("extract pages")
        code_records = extract_code(ctx, found)
        timings.mark("extract code")
        # 3. link: the code's imports and names into the code graph, then where each page
        # is published, and every link and relation of every page and source file against
        # the whole set of files and those addresses
        code = link_code(ctx, found, code_records)
        timings.mark("code graph")
        # the anchors each page published before, and the aliases that keep them working
        store = open_store(config.store, config.cache_dir)
        stored_anchors, anchor_diags = load_anchor_book(store)
        sink.extend(anchor_diags)
        old_anchors = aliases_of_build(pages, stored_anchors, _page_node(config))
        sink.extend(old_anchors.diagnostics)
        addresses, linked = _link_step(ctx, found, pages, code_records, old_anchors.book, api)
        timings.mark("link")
        # 4. merge into the store, last crawl wins per source
        graph = _store_step(ctx, found, linked, store)
        federation = _federation_step(config, peers, addresses, graph)
        sink.extend(federation.diagnostics)
        result = BuildResult(
            config,
            found,
            pages,
            code_records,
            linked,
            graph,
            code,
            addresses=addresses,
            federation=federation,
            old_anchors=old_anchors,
        )
        timings.mark("store merge")
        # The store is written (atomically) by a forked process while the site is made.
        kept = kept_anchors(stored_anchors, old_anchors.book, _pages_of(graph))
        with run_in_background(_save_store, (store, graph, kept), jobs > 1):
            # 5. analyse: figures over the finished graphs, which are never mutated
            result = replace(result, cycles=cycles_step(result))
            result = replace(result, stale=stale_step(result, sink))
            sink.extend(_dropped(state))
            _records_said(ctx, result)
            timings.mark("analyse")
            result = replace(result, insight=insight_step(result, fingerprint, texts))
            timings.mark("graph core")
            # 6. emit: the site, written into a temporary folder and swapped in whole. The
            # result is complete here, and frozen: the emitters read it and report into the
            # sink; how many files they wrote goes into a new result
            if options.write_site:
                outputs = tuple(e for p in plugins for e in p.outputs)
                result = replace(result, written=_emit_step(ctx, result, fingerprint, outputs))
            timings.mark("emit")
        # 7. remember: the page cache, the graph-core snapshot, and that this input is done
        _save_step(config, state, result, fingerprint, options.write_site)
        timings.mark("save state")
    return result


def _plugins_step(config: Config, jobs: int) -> tuple[tuple[Plugin, ...], int, list[Diagnostic]]:
    """The plugins ``config.plugins`` names, the number of processes the build may use with
    them (one when one is not fork-safe), and what loading them said. Nothing is imported
    when no plugin is named (content/guides/plugins.md)."""
    if not config.plugins:
        return (), jobs, []
    from sitegen.plugins import jobs_for, load_plugins, plugins_place

    place = plugins_place(config)  # the option's file, read once for both
    plugins, said = load_plugins(config.plugins, place)
    jobs, one_process = jobs_for(jobs, plugins, place)
    return plugins, jobs, said + one_process


def _plugins_key(plugins: tuple[Plugin, ...]) -> str:
    if not plugins:
        return ""
    from sitegen.plugins import plugins_key

    return plugins_key(plugins)


def _extract_pages_step(
    ctx: BuildContext, found: Crawl, state: BuildState, syntaxes: tuple[Syntax, ...] = ()
) -> tuple[list[PageRecord], ApiModel | None]:
    """Every page's record (each carries what reading it reported: ``_records_said``), and
    the API model the pages' ``:::`` blocks are rendered from."""
    # imported here: a build that finds its input unchanged never loads the parser
    from sitegen.docs.pipeline import PageInputs, extract_pages

    # with the plugins' syntaxes and the project's shortcodes
    inputs = PageInputs.of(ctx.config, syntaxes, found.shortcodes)
    api, api_options = _api_step(ctx, found)
    pages = extract_pages(
        found.pages,
        ctx.jobs,
        ctx.progress,
        state.page,
        inputs.raw_html,
        found.snippets,
        unread_snippets=found.unread_snippets,
        snippet_paths=found.snippet_paths,
        slugs=inputs.slugs,
        api=api,
        api_options=api_options,
        # show_source lists an object's lines from the bytes the crawl read, never the disk
        api_sources={f.path: f.data for f in found.code} if api is not None else None,
        dialect=inputs.dialect,
        extra=inputs.extra,
        shortcodes=inputs.shortcodes,
    )
    return pages, api


def _api_step(ctx: BuildContext, found: Crawl) -> tuple[ApiModel | None, dict[str, Any]]:
    """The Python objects the pages' ``:::`` blocks and the ``api`` option name, loaded
    statically (only their packages), and the global options of mkdocs.yml's mkdocstrings
    handler; no model when nothing names one (content/guides/api-reference.md). The ``api``
    option's pages are generated here and join the crawl's pages, before any is extracted
    (content/guides/configuration.md#api)."""
    from sitegen.api.pages import api_pages, named_packages, written_blocks

    config = ctx.config
    written = written_blocks(found.pages)
    needed = {**named_packages(config), **written}
    if not needed:
        return None, {}
    from sitegen.api.load import load_api, python_handler  # griffe: only when a page needs it

    model, diagnostics = load_api(config, found, needed, config.cache_dir)
    ctx.sink.extend(diagnostics)
    found_options = python_handler(config).get("options")
    # sitegen's own api_options over mkdocs.yml's handler options; each block's over both
    options = {**(found_options if isinstance(found_options, dict) else {}), **config.api_options}
    if config.api:
        generated, said = api_pages(config, model, found.pages, written, options)
        found.add_generated(generated)
        ctx.sink.extend(said)
    return model, options


def _link_step(
    ctx: BuildContext,
    found: Crawl,
    pages: list[PageRecord],
    code: list[CodeRecord],
    old_anchors: AnchorBook,
    api: ApiModel | None = None,
) -> tuple[Addresses, Linked]:
    """Where each page is published (the URL style, the front matter's addresses and the
    redirects: sitegen/link/page_addresses.py), then the document graph of every link against the
    files, those addresses and the pages' old anchors. What is wrong with an address is
    reported with the links (``_records_said``), what is wrong with an address or an
    inventory into the sink."""
    config = ctx.config
    texts: dict[str, bytes] = {f.path: f.data for f in found.pages}  # a key's line
    addresses, problems = page_addresses(config, pages, found.manifests, texts)
    inputs = LinkInputs.of_crawl(config, found, pages, code, addresses, old_anchors, api)
    linked = inputs.link_all()
    ctx.sink.extend(problems)
    ctx.sink.extend(inputs.index.inventories.diagnostics)
    return addresses, linked


def _federation_step(
    config: Config, peers: PeerReading, addresses: Addresses, graph: Graph
) -> Federation:
    """Backlinks from the peers' pages into this site's (content/guides/federation.md)."""
    return federate(peers, site_prefix(config.base_url), addresses, graph.nodes)


def _store_step(ctx: BuildContext, found: Crawl, linked: Linked, store: GraphStore) -> Graph:
    """The merged graph; what reading the store reported goes into the sink."""
    config = ctx.config
    stored, diagnostics = load_store(store, config, needed=bool(found.diagnostics))
    ctx.sink.extend(diagnostics)
    if found.diagnostics:
        return merge_graphs(stored, crawl_result(found, linked, stored, config))
    # nothing skipped: the merge is the crawl's own graph (see crawl_result)
    return linked.graph


def _page_node(config: Config) -> Callable[[str], NodeId]:
    return lambda path: page_node_of(config.content_rel, path)


def _pages_of(graph: Graph) -> list[NodeId]:
    """The pages the merged graph holds: this crawl's, and those it saw but could not read."""
    return [n for n, node in graph.nodes.items() if node.kind == NodeKind.PAGE]


def _save_store(job: tuple[GraphStore, Graph, AnchorBook]) -> None:
    """The merged graph and every page's anchors, each saved atomically."""
    store, graph, anchors = job
    store.save(graph)
    store.save_anchors(anchors)


def _records_said(ctx: BuildContext, result: BuildResult) -> None:
    """What the records carry into the sink: the crawl's, each page's (a cached page keeps
    what reading it said) and the link step's, and what the configuration's layout says."""
    sink = ctx.sink
    sink.extend(result.crawl.diagnostics)
    sink.extend(result.linked.diagnostics)
    sink.extend(raw_html_notice(ctx.config))
    sink.extend(layout_diagnostics(ctx.config, result.crawl))
    for page in result.pages:
        sink.extend(page.diagnostics)


def _emit_step(
    ctx: BuildContext, result: BuildResult, fingerprint: str, extra: tuple[Emitter, ...] = ()
) -> int:
    from sitegen.site.emit import emit_site

    reuse = not ctx.options.clean
    return emit_site(result, ctx.progress, ctx.jobs, fingerprint, reuse, extra, sink=ctx.sink)


def _save_step(
    config: Config, state: BuildState, result: BuildResult, fingerprint: str, site: bool
) -> None:
    state.pages = {p.path: p for p in result.pages}
    save_state(config.cache_dir, state)
    if site:  # the store, the state and the site all hold this input now
        save_core_snapshot(config, result)
        mark_finished(config.cache_dir, fingerprint)


def _dropped(state: BuildState) -> list[Diagnostic]:
    """What reading the page cache (and the mark of the last finished build) reported."""
    if not state.dropped:
        return state.diagnostics
    n = state.dropped
    pages = agrees(n, "that page was", "those pages were")
    return state.diagnostics + [
        Diagnostic(
            f".sitegen/{STATE_FILE}",
            1,
            1,
            Level.INFO,
            f"{counted(n, 'page cache entry')} failed validation and "
            f"{agrees(n, 'was', 'were')} dropped; {pages} parsed again",
            "cache",
        )
    ]


def build_fingerprint(config: Config, found: Crawl, plugins: str = "") -> str:
    """The whole input of a site build (``site_fingerprint``, sitegen/state/remembered.py),
    with the two facts only the site layer knows, the templates and the commit the pages'
    dates come from, and the URL style, which mkdocs.yml may decide; ``plugins`` is the
    loaded plugins' key (``sitegen.plugins.plugins_key``, "" with none)."""
    from sitegen.site.pagemeta import git_head  # the pages' dates change with the commit
    from sitegen.site.render import template_files

    return site_fingerprint(
        config,
        found,
        template_files(config.root, config.theme_dir),
        git_head(config.root),
        url_style(config, found.manifests),
        plugins,
    )


def _unchanged(config: Config, site: SiteRecord, fingerprint: str) -> bool:
    """The site on disk and the finished cache are both of exactly this input."""
    return (
        bool(fingerprint)
        and site.fingerprint == fingerprint
        and finished_fingerprint(config.cache_dir) == fingerprint
    )


def _previous_result(config: Config, found: Crawl, site: SiteRecord, started: float) -> BuildResult:
    """Nothing changed since the last build: its site stands (the driver reports what it
    reported, but what it set right in .sitegen/)."""
    seconds = time.perf_counter() - started
    linked = Linked(Graph(), {}, {})
    return BuildResult(
        config, found, [], [], linked, Graph(), unchanged=site.summary, seconds=seconds
    )


def extract_code(ctx: BuildContext, found: Crawl) -> list[CodeRecord]:
    """One record per source file (content/reference/code-graph.md); shards skip unchanged
    files. What reading the shards and each file said goes into the sink."""
    if not found.code:
        return []
    from sitegen.code.pipeline import extract_records

    options = ctx.options
    records, diags = extract_records(found, ctx.config, ctx.jobs, options.clean, ctx.progress)
    ctx.sink.extend(diags)
    for record in records:
        ctx.sink.extend(record.diagnostics)
    return records


def link_code(ctx: BuildContext, found: Crawl, records: list[CodeRecord]) -> Any:
    """The code graph: every record's imports and names resolved (sitegen/code/link.py);
    what resolving them said goes into the sink."""
    if not found.code:
        return None
    from sitegen.code.link import build_code_graph

    # The crawl already read the manifests (go.mod) the resolver asks for by name.
    paths = set(found.all_paths)
    graph, diags = build_code_graph(records, ctx.config, paths, found.manifests.get)
    ctx.sink.extend(diags)
    return graph


def cycles_step(result: BuildResult) -> CycleReport:
    from sitegen.analyse.step import cycles_of_build

    return cycles_of_build(result)


def stale_step(result: BuildResult, sink: Sink) -> StaleReport:
    """Stale pages, from git (content/guides/stale-pages.md); their notices go into the sink."""
    from sitegen.analyse.stale import stale_diagnostics, stale_of_build

    report = stale_of_build(result)
    sink.extend(stale_diagnostics(report))
    return report


def start_text_index(found: Crawl, jobs: int, pages: list[PageRecord], config: Config) -> TextJob:
    from sitegen.analyse.insight import start_text_job

    return start_text_job(found, jobs, pages, config)


def insight_step(result: BuildResult, fingerprint: str, texts: TextJob) -> Insight:
    """The graph core's figures, related pages and missing links (content/guides/related-pages.md)."""
    from sitegen.analyse.insight import analyse_graph, whole_graph

    return analyse_graph(result, whole_graph(result), fingerprint, text_job=texts)


def save_core_snapshot(config: Config, result: BuildResult) -> None:
    from sitegen.graph.snapshot import SNAPSHOT_FILE, save_snapshot

    assert result.insight is not None, "the analysis runs before the snapshot is saved"
    save_snapshot(config.cache_dir / SNAPSHOT_FILE, result.insight.snapshot)


def _cores() -> int:
    import os

    return max(
        1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    )
