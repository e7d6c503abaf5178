"""The redirect pages: at each old address a page declares (``aliases``, ``redirect_from``) or
mkdocs.yml maps (``redirect_maps``), a small page with a meta refresh, a canonical link and a
visible link to the page (content/guides/urls.md#redirects).

Writes what sitegen/link/page_addresses.py placed; never decides an address. Nothing of the old
address is written into the page: only the target's href, title and address.
"""

from __future__ import annotations

from collections.abc import Sequence

from sitegen.addresses import Redirect, public_url
from sitegen.base.paths import NodeId, OutPath, url_path
from sitegen.site.emitter import EmitRun, Emitter
from sitegen.site.state import SiteState
from sitegen.state.remembered import digest


class Redirects(Emitter):
    """Claimed after every other output: a page, an asset or sitegen's own file at an old
    address keeps it, and the clash is reported."""

    name = "redirects"
    options = ("base_url", "lang")

    def claim(self, run: EmitRun) -> list[OutPath]:
        site = run.site
        return [
            out
            for out, r in site.addresses.redirects.items()
            if _target_exists(site, r.target) and run.claim(out, r.source)
        ]

    def emit(self, run: EmitRun, outputs: Sequence[OutPath]) -> None:
        site, writer = run.site, run.writer
        for out in outputs:
            view = redirect_view(site, site.addresses.redirects[out])
            key = digest(site.frame_key, sorted(view.items()))
            writer.keys[out] = key
            if not writer.reuse(out, key):
                writer.write(out, site.renderer.render("redirect.html", **view))


def _target_exists(site: SiteState, target: NodeId) -> bool:
    return not target.startswith("/") or target in site.pages_by_node


def redirect_view(site: SiteState, redirect: Redirect) -> dict[str, str]:
    """What redirect.html shows: the target's title, the href to it from the old address,
    and its address (absolute with ``base_url``)."""
    config = site.result.config
    target = redirect.target
    if not target.startswith("/"):  # an absolute URL that redirect_maps names
        return {"lang": config.lang, "title": target, "href": target, "canonical": target}
    out = site.addresses.out(target)
    href = site.page_href(redirect.out, target, redirect.fragment)
    canonical = site.page_href(redirect.out, target)
    if config.base_url:
        canonical = config.base_url.rstrip("/") + "/" + public_url(out, site.addresses.style)
    title = site.titles.get(target) or url_path(out)
    return {"lang": config.lang, "title": title, "href": href, "canonical": canonical}
