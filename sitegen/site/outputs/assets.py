"""The assets: the files of the content folder that a page links to (images, downloads) and the
site's own files at its top (a CNAME, robots.txt), copied to their own path in the site, and
every file of VitePress's ``public/`` folder (and of Docusaurus's ``static/`` folders) to
theirs in that folder (content/guides/site.md).
A file no page links to (``package.json``, ``config.ts``) is not published.

Copies bytes as they are; never reads outside the project root and never renders anything.
"""

from __future__ import annotations

from collections.abc import Sequence

from sitegen.base.paths import OutPath, SitePath, repo_path_within
from sitegen.site.emitter import EmitRun, Emitter


class Assets(Emitter):
    """An asset whose content hash is the previous build's is linked from the previous site."""

    name = "assets"
    options = ("content",)

    def claim(self, run: EmitRun) -> list[OutPath]:
        return [out for asset, out in _assets(run) if run.claim(out, asset)]

    def emit(self, run: EmitRun, outputs: Sequence[OutPath]) -> None:
        crawl, won = run.site.result.crawl, set(outputs)
        for asset, out in _assets(run):
            if out not in won:
                continue
            key = crawl.asset_hashes.get(asset, "")
            if not (key and run.writer.reuse(out, key)):
                run.writer.copy(out, run.site.result.config.root / asset)


#: Files a host reads at the top of a site, published though no page links to them.
SITE_FILES = frozenset(
    {"CNAME", "robots.txt", "favicon.ico", "favicon.svg", "_redirects", "_headers", "404.html"}
)


def _assets(run: EmitRun) -> list[tuple[str, OutPath]]:
    """Each published asset's repository path and its output path: its path inside the
    content folder, or inside the public folder for one of VitePress's ``public/``
    (``Config.public_rel``) or of a static folder (``Generator.static``). A stylesheet of
    the content (Obsidian Publish's ``publish.css``) is published as if linked."""
    result = run.site.result
    content, public = result.config.content_rel, result.config.public_rel
    found = result.config.generator
    static = found.static if found is not None else ()  # Docusaurus's static/, at the root
    linked = {edge.dst for edge in result.graph}
    # The content's own stylesheets (publish.css): every page links them (SiteState).
    linked |= {SitePath.asset(css, content, public).node for css in _stylesheets(run)}
    out: list[tuple[str, OutPath]] = []
    for asset in result.crawl.assets:
        where = SitePath.asset(asset, content, public, static)
        in_public = any(f and repo_path_within(asset, f) for f in (public, *static))
        if in_public or where.node in linked or where.raw in SITE_FILES:
            out.append((asset, where.raw))
    return out


def _stylesheets(run: EmitRun) -> tuple[str, ...]:
    found = run.site.result.config.generator
    return found.stylesheets if found is not None else ()
