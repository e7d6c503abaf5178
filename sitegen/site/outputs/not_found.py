"""``404.html``: what hosts (and ``sitegen serve``) show for a missing address, with the search
box and the site's sections (content/guides/site.md, "The 404 page").

Rendered from the nav and the config alone; never lists a page the nav does not.
"""

from __future__ import annotations

from sitegen.base.paths import OutPath
from sitegen.site.emitter import EmitRun, OneFile
from sitegen.site.views import LinkItem

NOT_FOUND = OutPath("404.html")


class NotFound(OneFile):
    """Its links are relative to the site root, and a ``<base>`` makes them work at any
    depth: ``base_url``, or without it the host's root, as MkDocs assumes (written only when
    the page is served: from disk it sits at the site root itself)."""

    name = "404 page"
    options = ("base_url",)
    file = NOT_FOUND

    def render(self, run: EmitRun, out: OutPath) -> str:
        site = run.site
        sections = tuple(LinkItem(item.title, item.href) for item in site.nav if item.href)
        config = site.result.config
        return site.renderer.render(
            "404.html",
            site=site.context(out),
            title="Page not found",
            sections=sections,
            base_href=config.base_url.rstrip("/") + "/" if config.base_url else "",
        )
