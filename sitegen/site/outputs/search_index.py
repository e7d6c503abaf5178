"""``search-index.js`` and ``search-index/``: the data of the header's search box, cut into
scripts the box loads when a query needs them (content/guides/site.md#search; the format is
sitegen.site.search_shards').

Written from the page and code records; never emits markup.
"""

from __future__ import annotations

from collections.abc import Sequence

from sitegen.base.paths import OutPath
from sitegen.site.emitter import SITEGEN, EmitRun, Emitter
from sitegen.site.search import search_data
from sitegen.site.search_shards import search_index_files
from sitegen.site.state import SiteState


class SearchIndex(Emitter):
    """The manifest and every shard. The files are made once per build, at the claim (their
    names depend on the index's size), and written unchanged files and all: the writer
    links a file whose bytes are the previous site's."""

    name = "search index"
    options = ()

    def __init__(self) -> None:
        self._made: tuple[SiteState, dict[str, str]] | None = None

    def _files(self, site: SiteState) -> dict[str, str]:
        if self._made is None or self._made[0] is not site:
            data = search_data(
                site.listed_pages, site.result.code_records, site.addresses, site.locale_number
            )
            self._made = (site, search_index_files(data))
        return self._made[1]

    def claim(self, run: EmitRun) -> list[OutPath]:
        outs = [OutPath(name) for name in self._files(run.site)]
        return [out for out in outs if run.writer.claim(out, SITEGEN)]

    def emit(self, run: EmitRun, outputs: Sequence[OutPath]) -> None:
        files = self._files(run.site)
        self._made = None  # the next build makes its own; this one's text is not kept
        for out in outputs:
            run.writer.write(out, files[out])
