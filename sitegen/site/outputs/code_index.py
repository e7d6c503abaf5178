"""``code/index.html``: every analysed source file by folder, each linking to its source page
(content/guides/code-graph.md).

Lists the code records; never reads a source file.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from sitegen.base.paths import OutPath, href_between
from sitegen.base.plural import counted
from sitegen.site.code_pages import source_out
from sitegen.site.emitter import EmitRun, OneFile
from sitegen.site.state import SiteState
from sitegen.site.views import IndexEntry, IndexSection, IndexView

CODE_INDEX = OutPath("code/index.html")


class CodeIndex(OneFile):
    """Claimed whenever code is analysed, so no content page takes its place; written when
    there is at least one source file."""

    name = "code index"
    options = ()

    def path(self, site: SiteState) -> OutPath | None:
        return CODE_INDEX if site.result.code is not None else None

    def emit(self, run: EmitRun, outputs: Sequence[OutPath]) -> None:
        if run.site.result.code_records:
            super().emit(run, outputs)

    def render(self, run: EmitRun, out: OutPath) -> str:
        site = run.site
        by_folder: dict[str, list[IndexEntry]] = defaultdict(list)
        for rec in site.result.code_records:
            folder = rec.path.rsplit("/", 1)[0] if "/" in rec.path else "."
            by_folder[folder].append(
                IndexEntry(
                    title=rec.path,
                    href=href_between(out, source_out(rec.path)),
                    note=str(rec.language),
                )
            )
        sections = tuple(
            IndexSection(folder, tuple(sorted(entries, key=lambda e: e.title)))
            for folder, entries in sorted(by_folder.items())
        )
        view = IndexView(
            title="Source files",
            sections=sections,
            intro=f"{counted(len(site.result.code_records), 'source file')} analysed.",
        )
        return site.renderer.render_index(site.context(out), view)
