"""A saved page shown before its build has finished: `sitegen serve`'s preview
(content/guides/site.md, "Serve").

A build of a large site takes seconds, most of them for what the page being written does not
show. So when a saved page is one the last build published, serve extracts that page alone,
links it against the last build's files, and renders it in the last build's site (its nav,
backlinks and related pages). The bytes are served from memory, never written: the site
folder only ever holds whole builds. The build that follows replaces the preview; the open
page reloads again only if that build shows it differently.
"""

from __future__ import annotations

import dataclasses

from sitegen.base.diagnostics import Sink
from sitegen.base.paths import OutPath, SitePath
from sitegen.docs.includes import include_names
from sitegen.docs.pipeline import PageInputs
from sitegen.link.anchor_aliases import lasting_anchors
from sitegen.link.page_addresses import ADDRESS_KEYS, ALIAS_KEYS, SLUG_KEY
from sitegen.link.step import LinkInputs
from sitegen.records.pages import PageRecord
from sitegen.records.result import BuildResult
from sitegen.site.emit import site_state
from sitegen.site.outputs.pages import page_view
from sitegen.site.state import SiteState


@dataclasses.dataclass(frozen=True)
class Preview:
    """The last finished build, ready to render one changed page in it."""

    site: SiteState
    #: What the link step read in that build (``LinkInputs.of``), to link the page again.
    inputs: LinkInputs

    @classmethod
    def of(cls, result: BuildResult) -> Preview | None:
        """The preview context of a finished build; None for a build that kept the previous
        site (it has no records: the previous context still holds)."""
        if not result.pages:
            return None
        # what reading the theme and the page tree says again is not the preview's to
        # print: the build that follows reports it, so it goes into a sink of its own
        return cls(site_state(result, Sink()), LinkInputs.of(result))

    def render(self, path: str, data: bytes) -> tuple[OutPath, bytes] | None:
        """The HTML of the page at repository path ``path`` with the bytes ``data``, in the
        last build's site; None when the build must decide (a page that was not published,
        or one with snippets or includes, whose files the preview does not read)."""
        site = self.site
        node = SitePath.page(path, site.result.config.content_rel).node
        old = site.pages_by_node.get(node)
        config = site.result.config
        # read as the build reads it: in the generator record's dialect (a Docusaurus page
        # as MDX, content/syntax/docusaurus.md), whose partials are includes too
        dialect = config.dialect
        if old is None or old.path != path or include_names(path, data, dialect):
            return None
        if config.plugins:  # their syntaxes are loaded by the build (content/guides/plugins.md)
            return None
        if site.blog is not None and (site.blog.post(node) or node == site.blog.entry):
            return None  # a post's date, title or categories move it and the blog's pages
        # the shortcode templates the build read (content/syntax/shortcodes.md)
        rec = PageInputs.of(config, shortcodes=site.result.crawl.shortcodes).extract(path, data)
        shown = self._with(rec)
        if _addressed(rec) != _addressed(old):
            return None  # a new address moves files and links: the build decides
        out = site.addresses.out(node)
        html = shown.renderer.render_page(shown.context(out), page_view(node, rec, shown))
        return out, html.encode("utf-8")

    def _with(self, rec: PageRecord) -> SiteState:
        """The last build's site with ``rec`` in place of its page and its links resolved."""
        site = self.site
        node = SitePath.page(rec.path, site.result.config.content_rel).node
        resolved = self.inputs.link_one(rec)
        last = site.result
        linked = dataclasses.replace(
            last.linked, resolutions={**last.linked.resolutions, node: resolved}
        )
        # The store holds the anchors the last build published: the build that follows
        # gives the page the aliases they give it now (sitegen/link/anchor_aliases.py).
        book = last.old_anchors.book
        anchors = lasting_anchors(book.get(node), rec.headings, set(rec.anchors))
        old_anchors = dataclasses.replace(last.old_anchors, book={**book, node: anchors})
        result = dataclasses.replace(last, linked=linked, old_anchors=old_anchors)
        return dataclasses.replace(
            site, result=result, pages_by_node={**site.pages_by_node, node: rec}
        )


def _addressed(rec: PageRecord) -> list[object]:
    """What a page's front matter says about its address and its redirects."""
    return [rec.front_matter.get(k) for k in (*ADDRESS_KEYS, SLUG_KEY, *ALIAS_KEYS)]
