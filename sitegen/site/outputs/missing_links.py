"""``missing-links.html``: pairs of strongly related pages that link neither way
(content/guides/related-pages.md, "Missing links").

Shows the graph core's findings (sitegen.site.related_view); never scores a pair itself.
"""

from __future__ import annotations

from sitegen.base.paths import OutPath
from sitegen.site.emitter import EmitRun, OneFile
from sitegen.site.related_view import missing_links_view


class MissingLinks(OneFile):
    name = "missing links"
    options = ()
    file = OutPath("missing-links.html")
    background = True

    def render(self, run: EmitRun, out: OutPath) -> str:
        return run.site.renderer.render_report(
            run.site.context(out), missing_links_view(run.site, out)
        )
