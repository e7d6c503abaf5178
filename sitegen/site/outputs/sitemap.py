"""``sitemap.xml``: every HTML file of the site as an absolute URL, when ``base_url`` is set
(content/guides/site.md, "Index, graph view and reports").

Lists the files every emitter claimed (a folder's ``index.html`` as the folder in the
directory style) but the redirect pages, whose targets are listed, and the 404 page; without
``base_url`` it writes nothing and says so in one info line (the protocol forbids relative
URLs).
"""

from __future__ import annotations

import html as htmlmod
from collections.abc import Iterable

from sitegen.addresses import UrlStyle, public_url
from sitegen.base.paths import OutPath
from sitegen.layout import no_sitemap
from sitegen.site.emitter import EmitRun, OneFile
from sitegen.site.outputs.not_found import NOT_FOUND
from sitegen.site.state import SiteState

SITEMAP = OutPath("sitemap.xml")


class Sitemap(OneFile):
    name = "sitemap"
    options = ("base_url",)

    def path(self, site: SiteState) -> OutPath | None:
        return SITEMAP if site.result.config.base_url else None

    def claim(self, run: EmitRun) -> list[OutPath]:
        if self.path(run.site) is None:
            run.sink.add(no_sitemap(run.site.result.config))
        return super().claim(run)

    def render(self, run: EmitRun, out: OutPath) -> str:
        # Every emitter claims its files before any writes, so the list is whole here.
        moved = run.site.addresses.redirects.keys() | run.site.unlisted_outs  # unlisted too
        html_outs = [
            OutPath(o)
            for o in run.writer.outputs
            if o.endswith(".html") and o not in moved and o != NOT_FOUND
        ]
        return sitemap_xml(run.site.result.config.base_url, html_outs, run.site.addresses.style)


def sitemap_xml(base_url: str, outs: Iterable[OutPath], style: UrlStyle = UrlStyle.HTML) -> str:
    """The sitemap of ``outs`` (paths relative to the site root) under ``base_url``: each as
    its address in ``style`` (``guides/a/index.html`` is ``guides/a/`` in the directory
    style), percent-encoded."""
    base = base_url.rstrip("/") + "/" if base_url else ""
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ]
    for url in sorted(public_url(out, style) for out in outs):
        lines.append(f"  <url><loc>{htmlmod.escape(base + url)}</loc></url>")
    lines.append("</urlset>")
    return "\n".join(lines) + "\n"
