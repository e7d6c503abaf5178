"""``sitemap.xml``: every HTML file of the site as an absolute URL, when ``base_url`` is set
(content/guides/site.md, "Index, graph view and reports").

Lists the files every emitter claimed; without ``base_url`` it writes nothing and says so
in one info line (the protocol forbids relative URLs).
"""

from __future__ import annotations

import html as htmlmod
from collections.abc import Iterable

from sitegen.defaults import no_sitemap
from sitegen.paths import OutPath
from sitegen.site.emitter import EmitRun, OneFile
from sitegen.site.state import SiteState

SITEMAP = OutPath("sitemap.xml")


class Sitemap(OneFile):
    name = "sitemap"

    def path(self, site: SiteState) -> OutPath | None:
        return SITEMAP if site.result.config.base_url else None

    def claim(self, run: EmitRun) -> list[OutPath]:
        if self.path(run.site) is None:
            run.site.result.diagnostics.append(no_sitemap(run.site.result.config))
        return super().claim(run)

    def render(self, run: EmitRun, out: OutPath) -> str:
        # Every emitter claims its files before any writes, so the list is whole here.
        html_outs = [o for o in run.writer.outputs if o.endswith(".html")]
        return sitemap_xml(run.site.result.config.base_url, html_outs)


def sitemap_xml(base_url: str, outs: Iterable[str]) -> str:
    """The sitemap of ``outs`` (paths relative to the site root) under ``base_url``."""
    base = base_url.rstrip("/") + "/" if base_url else ""
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ]
    for out in sorted(outs):
        lines.append(f"  <url><loc>{htmlmod.escape(base + out)}</loc></url>")
    lines.append("</urlset>")
    return "\n".join(lines) + "\n"
