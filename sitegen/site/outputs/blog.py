"""The blog's own pages (content/guides/docusaurus.md#blog, content/guides/mkdocs.md#blog):
its index at the route base (``blog/``, then ``blog/page/2/`` ...), each tag's page
(``blog/tags/<tag>/``) and the page of every tag (``blog/tags/``), Material's archive
(``blog/archive/2024/``) and category pages (``blog/category/<slug>/``), posts newest first
with their summaries. The index's first page is the blog's own page when the content has
one (Material's ``blog/index.md``): the pages emitter writes it, with ``blog_listing``.

Built from the finished SiteState (sitegen/site/blog.py); never reads files.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from markupsafe import Markup

from sitegen.base.paths import NodeId, OutPath, href_between, raw_out_path
from sitegen.base.plural import counted
from sitegen.generators import SlugStyle
from sitegen.records.linked import Outcome, Resolved
from sitegen.site.blog import BlogSite, Listing, Post, post_header, post_summary, summary_shortcodes
from sitegen.site.emitter import SITEGEN, EmitRun, Emitter
from sitegen.site.outputs.pages import page_view, substitute_links
from sitegen.site.state import SiteState
from sitegen.site.views import (
    BlogView,
    Crumb,
    IndexEntry,
    IndexSection,
    IndexView,
    LinkItem,
    PostSummary,
)


class BlogPages(Emitter):
    """The blog's index pages, its tag pages and the page of every tag (none without a
    blog); claimed before the pages, as sitegen's own files are."""

    name = "blog pages"
    options = ("slugs",)

    def claim(self, run: EmitRun) -> list[OutPath]:
        blog = run.site.blog
        if blog is None:
            return []
        won = _claim_entry(run, blog)
        outs = [*blog.index_outs[1 if blog.entry is not None else 0 :], *blog.tag_outs.values()]
        outs += [blog.tags_out] if blog.tags_out is not None else []
        outs += blog.listing_outs()
        return won + [out for out in outs if run.writer.claim(out, SITEGEN)]

    def emit(self, run: EmitRun, outputs: Sequence[OutPath]) -> None:
        site, blog, won = run.site, run.site.blog, set(outputs)
        if blog is None:
            return
        summaries = _Summaries(site)
        listed = blog.listed
        per_page = blog.blog.posts_per_page or max(len(listed), 1)
        if blog.entry is not None:
            _write_entry(run, blog.entry, won, summaries.of(listed[:per_page], blog.index_outs[0]))
        for i, out in enumerate(blog.index_outs):
            if out in won and (i > 0 or blog.entry is None):  # the first: the entry's
                shown = summaries.of(listed[i * per_page : (i + 1) * per_page], out)
                view = replace(_index_view(blog, i, out), posts=shown)
                run.writer.write(out, _render(site, out, view))
        for listing in blog.listings:
            for i, out in enumerate(listing.outs):
                if out in won:
                    view = _listing_view(blog, listing, i, out)
                    per = listing.per_page or max(len(listing.posts), 1)
                    shown = summaries.of(listing.posts[i * per : (i + 1) * per], out)
                    run.writer.write(out, _render(site, out, replace(view, posts=shown)))
        for permalink, (tag, posts) in blog.tags().items():
            tag_out = blog.tag_outs.get(permalink)
            if tag_out is not None and tag_out in won:
                view = BlogView(
                    title=f"{counted(len(posts), 'post')} tagged with “{tag.label}”",
                    posts=summaries.of(posts, tag_out),
                    crumbs=_crumbs(blog, tag_out, Crumb(tag.label)),
                    tags_href=href_between(tag_out, blog.tags_out) if blog.tags_out else "",
                )
                run.writer.write(tag_out, _render(site, tag_out, view))
        if blog.tags_out is not None and blog.tags_out in won:
            run.writer.write(blog.tags_out, _tags_page(site, blog, blog.tags_out))


def _index_view(blog: BlogSite, page: int, out: OutPath) -> BlogView:
    outs = blog.index_outs
    return BlogView(
        title=blog.title,
        posts=(),
        intro=f"Page {page + 1} of {len(outs)}" if len(outs) > 1 else "",
        crumbs=_crumbs(blog, out, Crumb(f"Page {page + 1}")) if page else (),
        newer_href=href_between(out, outs[page - 1]) if page else "",
        older_href=href_between(out, outs[page + 1]) if page + 1 < len(outs) else "",
        tags_href=href_between(out, blog.tags_out) if blog.tags_out else "",
        archive=_links(blog, "archive", out),
        categories=_links(blog, "category", out),
    )


def _listing_view(blog: BlogSite, listing: Listing, page: int, out: OutPath) -> BlogView:
    """A page of Material's archive of a year or of a category."""
    outs = listing.outs
    return BlogView(
        title=listing.title,
        posts=(),
        intro=f"Page {page + 1} of {len(outs)}" if len(outs) > 1 else "",
        crumbs=_crumbs(blog, out, Crumb(listing.title)),
        newer_href=href_between(out, outs[page - 1]) if page else "",
        older_href=href_between(out, outs[page + 1]) if page + 1 < len(outs) else "",
        archive=_links(blog, "archive", out),
        categories=_links(blog, "category", out),
    )


def _links(blog: BlogSite, kind: str, out: OutPath) -> tuple[LinkItem, ...]:
    return tuple(
        LinkItem(x.title, href_between(out, x.outs[0]))
        for x in blog.listings
        if x.kind == kind and x.outs
    )


def _claim_entry(run: EmitRun, blog: BlogSite) -> list[OutPath]:
    """The blog's own page (Material's ``blog/index.md``) and its raw markdown, claimed for
    the page's file: the pages emitter leaves it to this one."""
    if blog.entry is None:
        return []
    rec = run.site.pages_by_node[blog.entry]
    outs = (blog.index_outs[0], raw_out_path(blog.entry))
    return [out for out in outs if run.claim(out, rec.path)]


def _write_entry(
    run: EmitRun, node: NodeId, won: set[OutPath], posts: tuple[PostSummary, ...]
) -> None:
    """The blog's own page as any page shows it, the first index page's posts after its
    body; and its raw markdown."""
    site, blog = run.site, run.site.blog
    assert blog is not None
    rec, out = site.pages_by_node[node], blog.index_outs[0]
    if raw_out_path(node) in won:
        run.writer.write(raw_out_path(node), site.page_bytes[rec.path])
    if out not in won:
        return
    view = replace(_index_view(blog, 0, out), intro="", posts=posts)
    listing = site.renderer.render("blog_posts.html", site=site.context(out), blog=view)
    page = page_view(node, rec, site)
    page = replace(page, body_html=Markup(page.body_html) + Markup(listing))
    run.writer.write(out, site.renderer.render_page(site.context(out), page))


def _crumbs(blog: BlogSite, out: OutPath, last: Crumb) -> tuple[Crumb, ...]:
    return (Crumb(blog.title, href_between(out, blog.index_outs[0])), last)


def _tags_page(site: SiteState, blog: BlogSite, out: OutPath) -> str:
    entries = tuple(
        IndexEntry(tag.label, href_between(out, blog.tag_outs[k]), note=counted(len(posts), "post"))
        for k, (tag, posts) in blog.tags().items()
        if k in blog.tag_outs
    )
    view = IndexView(
        title="Tags",
        sections=(IndexSection("All tags", entries),),
        intro=f"{counted(len(entries), 'tag')} of the blog's posts.",
        crumbs=_crumbs(blog, out, Crumb("Tags")),
    )
    return site.renderer.render_index(site.context(out), view)


def _render(site: SiteState, out: OutPath, view: BlogView) -> str:
    return site.renderer.render("blog.html", site=site.context(out), blog=view, title=view.title)


class _Summaries:
    """Each post's summary, cut once and published from each page that shows it."""

    def __init__(self, site: SiteState) -> None:
        self.site = site
        self.cut: dict[NodeId, tuple[str, bool]] = {}

    def of(self, posts: Sequence[Post], out: OutPath) -> tuple[PostSummary, ...]:
        site, blog = self.site, self.site.blog
        assert blog is not None
        found = []
        for post in posts:
            rec = site.pages_by_node[post.node]
            if post.node not in self.cut:
                slugs = SlugStyle(site.result.config.slugs)
                data = site.page_bytes.get(rec.path, b"")
                self.cut[post.node] = post_summary(
                    rec, data, site.result.config.generator, slugs, summary_shortcodes(site.result)
                )
            html, truncated = self.cut[post.node]
            resolutions = _from_elsewhere(site.result.linked.resolutions.get(post.node, []), post)
            body = substitute_links(
                replace(rec, html=html), resolutions, out, site.graph, site.addresses
            )
            found.append(
                PostSummary(
                    post.title,
                    site.page_href(out, post.node),
                    post_header(blog, post, out),
                    body,
                    truncated,
                )
            )
        return tuple(found)


def _from_elsewhere(resolutions: list[Resolved], post: Post) -> list[Resolved]:
    """A post's links as its summary publishes them on another page: one to a heading of
    the post itself (``#usage``) points at the post, as Material's excerpts do."""
    return [
        replace(r, outcome=Outcome.INTERNAL, node=post.node) if r.outcome is Outcome.SELF else r
        for r in resolutions
    ]
