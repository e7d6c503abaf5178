"""The blog's feeds, as MkDocs' ``rss`` plugin writes them (``feed_rss_created.xml``,
``feed_rss_updated.xml``; content/guides/mkdocs.md#blog): RSS 2.0, the newest posts first
by their front matter's dates.

Deterministic: every date is a post's, never the build's (the channel's ``lastBuildDate`` is
its newest post's). Built from the finished SiteState; never reads files.
"""

from __future__ import annotations

import datetime
import email.utils
import html
import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from urllib.parse import urljoin

from sitegen.addresses import public_url
from sitegen.base.paths import OutPath
from sitegen.generators import SlugStyle
from sitegen.generators.record import Feed
from sitegen.site.blog import BlogSite, Post, post_summary, summary_shortcodes
from sitegen.site.emitter import SITEGEN, EmitRun, Emitter
from sitegen.site.state import SiteState

ATOM = "http://www.w3.org/2005/Atom"
ET.register_namespace("atom", ATOM)
#: Tags that end a block of text (a space between two blocks' words), and any other tag.
_BLOCK_TAG = re.compile(
    r"</?(?:p|div|li|ul|ol|dl|dt|dd|h[1-6]|br|hr|tr|td|th|table|blockquote|pre|figure)\b[^>]*>",
    re.IGNORECASE,
)
_TAG = re.compile(r"<[^>]*>")
#: The ``feed_ttl`` the rss plugin writes by default: minutes a reader may cache the feed.
TTL = "1440"


class BlogFeeds(Emitter):
    """Each feed of the blog's posts (none without one)."""

    name = "blog feeds"
    options = ("base_url", "title", "slugs")

    def claim(self, run: EmitRun) -> list[OutPath]:
        blog = run.site.blog
        feeds = blog.blog.feeds if blog is not None else ()
        outs = [OutPath(f.path.strip("/")) for f in feeds]
        return [out for out in outs if run.writer.claim(out, SITEGEN)]

    def emit(self, run: EmitRun, outputs: Sequence[OutPath]) -> None:
        blog = run.site.blog
        abstracts: dict[str, str] = {}  # by post path: the feeds share them
        for feed in blog.blog.feeds if blog is not None else ():
            out = OutPath(feed.path.strip("/"))
            if out in outputs and blog is not None:
                run.writer.write(out, rss(run.site, blog, feed, abstracts))


def _moment(post: Post, order: str, updated: dict[str, str]) -> datetime.datetime:
    given = (updated.get(post.path) if order == "updated" else "") or post.created
    if not given:
        return datetime.datetime.fromisoformat(post.date or "1970-01-01").replace(
            tzinfo=datetime.UTC
        )
    return datetime.datetime.fromisoformat(given)


def rss(site: SiteState, blog: BlogSite, feed: Feed, abstracts: dict[str, str]) -> bytes:
    """The RSS 2.0 document of ``feed``: its ``length`` newest listed posts (``abstracts``:
    their texts by path, filled as they are made)."""
    updated = _updated_dates(site, blog)
    ordered = sorted(
        blog.listed,
        key=lambda p: (_moment(p, feed.order, updated).astimezone(datetime.UTC), p.path),
        reverse=True,
    )[: feed.length]
    base = feed.site_url or site.result.config.base_url
    root = ET.Element("rss", {"version": "2.0"})
    channel = ET.SubElement(root, "channel")
    ET.SubElement(channel, "title").text = feed.title or site.result.config.site_title
    ET.SubElement(channel, "description").text = feed.description or blog.title
    ET.SubElement(channel, "link").text = base
    self_link = {"href": urljoin(base, feed.path), "rel": "self", "type": "application/rss+xml"}
    ET.SubElement(channel, f"{{{ATOM}}}link", self_link)
    if ordered:
        newest = email.utils.format_datetime(_moment(ordered[0], feed.order, updated))
        ET.SubElement(channel, "pubDate").text = newest
        ET.SubElement(channel, "lastBuildDate").text = newest
    ET.SubElement(channel, "ttl").text = TTL
    ET.SubElement(channel, "generator").text = "sitegen"
    style = site.addresses.style
    for post in ordered:
        item = ET.SubElement(channel, "item")
        ET.SubElement(item, "title").text = post.title
        if post.path not in abstracts:
            abstracts[post.path] = _abstract(site, post, feed.abstract_chars)
        ET.SubElement(item, "description").text = abstracts[post.path]
        link = urljoin(base, public_url(site.addresses.out(post.node), style))
        ET.SubElement(item, "link").text = link
        moment = _moment(post, feed.order, updated)
        ET.SubElement(item, "pubDate").text = email.utils.format_datetime(moment)
        for name in post.categories:
            ET.SubElement(item, "category").text = name
        ET.SubElement(item, "guid", {"isPermaLink": "true"}).text = link
    ET.indent(root)
    data: bytes = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return data + b"\n"


def _updated_dates(site: SiteState, blog: BlogSite) -> dict[str, str]:
    """Each post's ``date.updated`` (an ISO date or datetime), by path; none when absent."""
    found: dict[str, str] = {}
    for post in blog.listed:
        given = site.pages_by_node[post.node].front_matter.get("date")
        value = given.get("updated") if isinstance(given, dict) else None
        if isinstance(value, str) and value[:10].count("-") == 2:
            try:
                moment = datetime.datetime.fromisoformat(value.strip()[:40])
            except ValueError:
                continue
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=datetime.UTC)
            found[post.path] = moment.isoformat()
    return found


def _abstract(site: SiteState, post: Post, chars: int) -> str:
    """The post's front matter ``description``, else its excerpt's text, cut at ``chars``
    characters as the rss plugin cuts its abstracts."""
    rec = site.pages_by_node[post.node]
    given = rec.front_matter.get("description")
    if isinstance(given, str) and given.strip():
        return " ".join(given.split())
    data = site.page_bytes.get(rec.path, b"")
    slugs = SlugStyle(site.result.config.slugs)
    shortcodes = summary_shortcodes(site.result)
    summary, _ = post_summary(rec, data, site.result.config.generator, slugs, shortcodes)
    text = " ".join(html.unescape(_TAG.sub("", _BLOCK_TAG.sub(" ", summary))).split())
    return text if len(text) <= chars else text[:chars].rstrip() + "..."
