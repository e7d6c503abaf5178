"""The source pages: each analysed file's page (``code/<path>.html``) and its raw text at
``code/<path>``; highlighting and rendering run in forked workers on a large site.

Writes the views of sitegen.site.code_pages; never parses or analyses code.
"""

from __future__ import annotations

from collections.abc import Sequence

from sitegen.base.parallel import run_forked
from sitegen.base.paths import OutPath, SitePath
from sitegen.records.code import CodeRecord
from sitegen.site.code_pages import code_index_of, source_out, source_view
from sitegen.site.emitter import EmitRun, Emitter
from sitegen.site.related_view import related_key
from sitegen.site.state import SiteState
from sitegen.site.writer import SiteWriter
from sitegen.state.remembered import digest


class SourcePages(Emitter):
    """Outputs are claimed in record order before any worker starts, so a clash (a content
    page at ``code/x.py.html``) goes the same way for any --jobs; the source page then
    gives way silently, its raw text too."""

    name = "source pages"
    options = ()

    def claim(self, run: EmitRun) -> list[OutPath]:
        won: list[OutPath] = []
        for rec in run.site.result.code_records:
            for out in (source_out(rec.path), _raw_out(rec.path)):
                if run.writer.claim(out, rec.path):
                    won.append(out)
        return won

    def emit(self, run: EmitRun, outputs: Sequence[OutPath]) -> None:
        if not run.site.result.code_records:
            return
        job, writer, won = _SourceJob(run.site, run.writer), run.writer, set(outputs)
        task = run.progress.task("Writing source pages", len(job.records))
        todo: list[int] = []
        for i, rec in enumerate(job.records):
            if source_out(rec.path) in won:
                todo.append(i)
            raw = _raw_out(rec.path)
            if raw in won and not writer.reuse(raw, rec.content_hash):
                writer.write(raw, job.data[rec.path])
        task.advance(len(job.records) - len(todo))
        writer.settle()  # no process is forked with writer threads in it
        for keys in run_forked(_write_sources, job, todo, run.jobs):
            writer.keys.update(keys)
            task.advance(len(keys))


def _raw_out(path: str) -> OutPath:
    return SitePath.source(path).raw


class _SourceJob:
    """What the forked page workers share (inherited, never pickled)."""

    def __init__(self, site: SiteState, writer: SiteWriter) -> None:
        from sitegen.analyse.reports import membership

        result = site.result
        self.site, self.writer = site, writer
        self.index = code_index_of(result.code)
        self.cycles_of = membership(result.cycles) if result.cycles is not None else {}
        self.data: dict[str, bytes] = {f.path: f.data for f in result.crawl.code}
        self.records = result.code_records
        # A source page shows the whole code graph around it (imports, references, cycles).
        self.code_key = digest(
            site.site_key, [(r.path, r.content_hash) for r in self.records], result.cycles
        )


def _write_sources(job: _SourceJob, indexes: list[int]) -> dict[str, str]:
    """Highlight and render the source pages of ``indexes``; returns each output's key."""
    keys: dict[str, str] = {}
    for i in indexes:
        rec = job.records[i]
        out = source_out(rec.path)
        keys[out] = _source_key(rec, job.site, job.code_key)
        if not job.writer.reuse(out, keys[out]):
            text = job.data[rec.path].decode("utf-8", errors="replace")
            view = source_view(rec, text, job.site, job.index, job.cycles_of)
            job.writer.write(out, job.site.renderer.render_source(job.site.context(out), view))
    job.writer.settle(in_worker=True)  # every file written before the parent hears it is
    return keys


def _source_key(rec: CodeRecord, site: SiteState, code_key: str) -> str:
    """Everything a source page shows beyond the code graph: the file, its backlinks (with
    their sources' titles) and its related pages."""
    node = SitePath.source(rec.path).node
    incoming = [
        (e.src, e.rel, e.label, e.anchor, e.count, e.occurrences[:1], site.titles.get(e.src, ""))
        for e in site.graph.backlinks_of(node)
    ]
    return digest(code_key, rec.content_hash, incoming, related_key(site, node))
