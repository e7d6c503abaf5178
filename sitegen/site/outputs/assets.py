"""The assets: every non-markdown file under the content folder (images, downloads, a
CNAME), copied to its own path in the site, and the files of VitePress's ``public/`` folder
to theirs in that folder (content/guides/site.md).

Copies bytes as they are; never reads outside the project root and never renders anything.
"""

from __future__ import annotations

from collections.abc import Sequence

from sitegen.paths import OutPath, SitePath
from sitegen.site.emitter import EmitRun, Emitter


class Assets(Emitter):
    """An asset whose content hash is the previous build's is linked from the previous site."""

    name = "assets"

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


def _assets(run: EmitRun) -> list[tuple[str, OutPath]]:
    """Each asset's repository path and its output path: its path inside the content folder,
    or inside the public folder for one of VitePress's ``public/`` (``Config.public_rel``)."""
    config = run.site.result.config
    content, public = config.content_rel, config.public_rel
    return [
        (asset, SitePath.asset(asset, content, public).raw)
        for asset in run.site.result.crawl.assets
    ]
