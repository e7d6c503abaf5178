"""The pages: each markdown page's HTML (``<path>.html``) and its raw markdown at its own
path, rendered in forked workers on a large site (content/guides/site.md, "Pages").

Builds each page's view from the finished build; never resolves a link or changes the graph.
"""

from __future__ import annotations

import html as htmlmod
import re
from collections.abc import Sequence
from dataclasses import replace

from sitegen.addresses import Addresses
from sitegen.base.parallel import run_forked
from sitegen.base.paths import (
    NodeId,
    OutPath,
    href_between,
    is_source_node,
    raw_out_path,
    source_repo_path,
)
from sitegen.base.urlgate import allowed_url
from sitegen.graph.model import Graph, annotate
from sitegen.records.linked import Outcome, Resolved
from sitegen.records.pages import PageRecord
from sitegen.site.anchor_marks import with_old_anchors
from sitegen.site.api_backlinks import page_entry_backlinks, with_entry_backlinks
from sitegen.site.backlinks import backlink_groups, peer_groups
from sitegen.site.blog import post_header
from sitegen.site.embeds import embeds_key, with_embeds
from sitegen.site.emitter import EmitRun, Emitter
from sitegen.site.home import home_view
from sitegen.site.navigation import breadcrumbs
from sitegen.site.outputs.stale_docs import stale_notice
from sitegen.site.outputs.tags import tag_links
from sitegen.site.pagemeta import edit_href
from sitegen.site.related_view import related_items, related_key
from sitegen.site.state import SiteState, edge_source_href, href_for_node
from sitegen.site.views import CodeRef, Crumb, HomeView, PageView, TocEntry
from sitegen.site.writer import SiteWriter
from sitegen.state.remembered import digest

#: Headings deeper than this are left out of the table of contents.
TOC_MAX_LEVEL = 4


class Pages(Emitter):
    """Every page's HTML and raw markdown. A page whose inputs are all unchanged is taken
    from the previous site. Outputs are claimed in node order, so a clash is reported the
    same way for any --jobs; the workers compute keys and write."""

    name = "pages"
    options = ()

    def claim(self, run: EmitRun) -> list[OutPath]:
        won: list[OutPath] = []
        entry = run.site.blog.entry if run.site.blog is not None else None
        for node, rec in sorted(run.site.pages_by_node.items()):
            if node == entry:
                continue  # the blog's own page, with its posts (sitegen/site/outputs/blog.py)
            out = run.site.addresses.out(node)
            if run.claim(out, rec.path):
                won.append(out)
                if run.writer.claim(raw_out_path(node), rec.path):
                    won.append(raw_out_path(node))
        return won

    def emit(self, run: EmitRun, outputs: Sequence[OutPath]) -> None:
        site, writer = run.site, run.writer
        task = run.progress.task("Writing pages", len(site.pages_by_node))
        won = set(outputs)
        todo = [n for n in sorted(site.pages_by_node) if site.addresses.out(n) in won]
        writer.settle()  # no process is forked with writer threads in it
        for keys in run_forked(_write_pages, (site, writer, won), todo, run.jobs):
            writer.keys.update(keys)
            task.advance(len(keys) // 2)


def _write_pages(
    state: tuple[SiteState, SiteWriter, set[OutPath]], nodes: list[NodeId]
) -> dict[str, str]:
    """Raw markdown and HTML of ``nodes``; returns the key of each output for the parent."""
    site, writer, won = state
    data = site.page_bytes
    keys: dict[str, str] = {}
    for node in nodes:
        rec = site.pages_by_node[node]
        out, raw = site.addresses.out(node), raw_out_path(node)
        if raw in won:
            keys[raw] = rec.content_hash
            if not writer.reuse(raw, rec.content_hash):
                writer.write(raw, data[rec.path])
        keys[out] = page_key(node, rec, site)
        if not writer.reuse(out, keys[out]):
            writer.write(
                out, site.renderer.render_page(site.context(out), page_view(node, rec, site))
            )
    writer.settle(in_worker=True)  # every file written before the parent hears it is
    return keys


def page_key(node: NodeId, rec: PageRecord, site: SiteState) -> str:
    """Everything a page shows: its own content, where its links point, its backlinks (and
    their sources' titles and kinds), and the site around it (nav, templates, titles)."""
    graph = site.graph
    links = [
        (r.outcome, r.node, r.fragment, graph.nodes[r.node].kind if r.node in graph.nodes else "")
        for r in site.result.linked.resolutions.get(node, [])
    ]
    incoming = [
        (
            e.src,
            e.rel,
            e.label,
            e.anchor,
            e.count,
            e.occurrences[0].line if e.occurrences else 0,
            site.titles.get(e.src, ""),
        )
        for e in graph.backlinks_of(node)
    ]
    # the HTML is of the page's bytes and the raw_html mode it was rendered under
    return digest(
        _frame(node, site),
        rec.content_hash,
        rec.raw_html,
        links,
        incoming,
        site.dates.get(rec.path, ""),
        related_key(site, node),
        site.result.federation.key_of(node),
        stale_notice(site, rec.path, site.addresses.out(node)),
        _home(node, rec, site),
        site.result.old_anchors.of(node),  # the aliases come from the store, not the page
        page_entry_backlinks(site, node, site.addresses.out(node)),  # each API entry's
        embeds_key(
            node, site.result.linked.embeds, site.pages_by_node, site.result.linked.resolutions
        ),
        node in site.unlisted,
        _post_key(site, node),
    )


def _frame(node: NodeId, site: SiteState) -> object:
    """What a page shows of the site around it: the shared frame, the page tree as this page
    shows it (pruned on a large site: a new title elsewhere seldom changes it) and its
    breadcrumbs. A theme's own templates may show the tree otherwise: then the whole of it."""
    if site.renderer.has_theme_templates:
        return site.site_key
    out = site.addresses.out(node)
    crumbs = breadcrumbs(node, site.pages_by_node, site.folder_index, out, site.addresses)
    context = site.context(out)
    frame = (context.lang, context.languages, context.locale)  # its language and switcher
    return (site.frame_key, site.renderer.nav_key(context), crumbs, frame)


def page_view(node: NodeId, rec: PageRecord, site: SiteState) -> PageView:
    """What page.html shows of one page: its body with links published, the table of
    contents, the breadcrumbs, backlinks, code references, related pages and tags."""
    out = site.addresses.out(node)
    graph = site.graph
    resolutions = site.result.linked.resolutions.get(node, [])
    shown = with_embeds(  # the embeds' parts, published from this page's address
        rec,
        site.result.linked.embeds.by_host.get(node, {}),
        site.pages_by_node,
        site.result.linked.resolutions,
        lambda part, found: substitute_links(part, found, out, graph, site.addresses),
    )
    shown_rec = rec if shown is rec.html else replace(rec, html=shown)
    body = substitute_links(shown_rec, resolutions, out, graph, site.addresses)
    body = scrollable_boxes(body)
    body = with_old_anchors(body, site.result.old_anchors.of(node))
    body = with_entry_backlinks(
        body,
        page_entry_backlinks(site, node, out),
        lambda entry: site.renderer.render("entry_backlinks.html", entry=entry),
    )
    body = _with_post_header(site, node, out, body)
    incoming = graph.backlinks_of(node)
    # A blog post outside the content folder has a node beside the code's, but is a page.
    doc_edges = [e for e in incoming if not is_source_node(e.src) or _is_post(site, e.src)]
    code_edges = [e for e in incoming if is_source_node(e.src) and not _is_post(site, e.src)]
    groups = backlink_groups(
        doc_edges, site.titles, lambda e: edge_source_href(e, out, graph, site.addresses)
    ) + peer_groups(site.result.federation, node)
    code_refs = tuple(
        CodeRef(
            path=source_repo_path(e.src),
            line=e.occurrences[0].line if e.occurrences else 0,
            href=edge_source_href(e, out, graph, site.addresses),
            annotation=annotate(e),
        )
        for e in code_edges
    )
    toc = tuple(
        TocEntry(h.level, h.text, h.id) for h in rec.headings if 2 <= h.level <= TOC_MAX_LEVEL
    )
    return PageView(
        title=rec.title,
        body_html=body,
        toc=toc,
        crumbs=_crumbs(node, rec, site, out),
        backlinks=groups,
        code_refs=code_refs,
        related=related_items(site, node, out),
        raw_href=href_between(out, raw_out_path(node)),
        node_id=node,
        edit_href=_edit_href(site, rec),
        modified=site.dates.get(rec.path, ""),
        tags=() if _blog_tags(site, node) else tag_links(node, site, out),  # a post's: on top
        stale=stale_notice(site, rec.path, out),
        home=_home(node, rec, site),
        hide_title=rec.front_matter.get("hide_title") is True,
        unlisted=node in site.unlisted,
    )


def _post_key(site: SiteState, node: NodeId) -> object:
    """What a blog post shows of the blog: its date, authors and tags, the tags' pages and
    the blog's index (its breadcrumbs); None for another page."""
    post = site.blog.post(node) if site.blog is not None else None
    if site.blog is None or post is None:
        return None
    tags = [site.blog.tag_outs.get(t.permalink) for t in post.tags]
    return (post, tags, site.blog.title, site.blog.index_outs[:1])


def _is_post(site: SiteState, node: NodeId) -> bool:
    return site.blog is not None and site.blog.post(node) is not None


def _blog_tags(site: SiteState, node: NodeId) -> bool:
    """Whether the page is a post whose tags the blog shows (Docusaurus's; Material's are
    any page's)."""
    return site.blog is not None and site.blog.blog.tag_pages and _is_post(site, node)


def _crumbs(node: NodeId, rec: PageRecord, site: SiteState, out: OutPath) -> tuple[Crumb, ...]:
    """The breadcrumbs; a blog post's are the home page, the blog's index and the post."""
    crumbs = breadcrumbs(node, site.pages_by_node, site.folder_index, out, site.addresses)
    if site.blog is None or not _is_post(site, node) or not site.blog.index_outs:
        return crumbs
    index = Crumb(site.blog.title, href_between(out, site.blog.index_outs[0]))
    return (*crumbs[:1], index, Crumb(rec.title))


def _with_post_header(site: SiteState, node: NodeId, out: OutPath, body: str) -> str:
    """A blog post's date, authors and tags under its title: after the body's own h1, else
    first (the template's title goes before the body)."""
    post = site.blog.post(node) if site.blog is not None else None
    if site.blog is None or post is None:
        return body
    header = site.renderer.render("post_header.html", header=post_header(site.blog, post, out))
    end = body.find("</h1>")
    if end < 0:
        return header + body
    end += len("</h1>")
    return body[:end] + header + body[end:]


def _edit_href(site: SiteState, rec: PageRecord) -> str:
    """The "Edit this page" link; none for a generated page (the ``api`` option's), which no
    file holds."""
    if rec.path in site.result.crawl.generated:
        return ""
    return edit_href(site.result.config, rec.path)


def _home(node: NodeId, rec: PageRecord, site: SiteState) -> HomeView | None:
    """A ``layout: home`` page's hero and features (sitegen/site/home.py), else None."""
    if site.routes is None:
        return None
    return home_view(node, rec, site.routes, site.addresses, site.addresses.out(node))


def _link_href(
    res: Resolved, written: str, from_out: OutPath, graph: Graph, addresses: Addresses
) -> str:
    """The URL a link points at on the published site."""
    if res.url:
        return res.url
    if res.outcome is Outcome.INTERNAL and res.node is not None:
        node = graph.nodes.get(res.node)
        kind = node.kind if node else None
        return href_for_node(res.node, res.fragment, from_out, kind, addresses)
    if res.outcome is Outcome.SELF:
        return "#" + res.fragment if res.fragment else "#"
    return written


def substitute_links(
    rec: PageRecord,
    resolutions: list[Resolved],
    from_out: OutPath,
    graph: Graph,
    addresses: Addresses,
) -> str:
    """The page's HTML with every link placeholder replaced by its published URL.

    Every URL passes the one gate (sitegen/base/urlgate.py) here, whatever syntax made the link:
    one the gate refuses loses its ``href``/``src`` and stays text. A broken link keeps its
    URL and gets the ``broken-link`` class beside the classes its syntax gave it."""
    mark = rec.link_mark

    def repl(m: re.Match[str]) -> str:
        i = int(m.group(2))
        if m.group(1) != mark or i >= len(resolutions):
            return m.group(0)
        res, link = resolutions[i], rec.links[i]
        url = _link_href(res, link.href, from_out, graph, addresses)
        quote, classes = m.group(3) or "", m.group(4)
        allowed = allowed_url(url, image=link.is_image, href=not link.is_image)
        if res.outcome is Outcome.UNRESOLVED_NOTE and quote:
            return _UNRESOLVED + quote  # the link becomes its text (unresolved_spans)
        if res.outcome in (Outcome.UNRESOLVED, Outcome.UNRESOLVED_NOTE) or not allowed:
            written = _REFUSED if quote else "#"  # the link stays as its text
        else:
            written = htmlmod.escape(url, quote=True)
        if quote and res.outcome in (Outcome.MISSING, Outcome.OUTSIDE) and written != _REFUSED:
            classes = f"{classes} broken-link" if classes else "broken-link"
            return f'{written}" class="{classes}" title="Broken link: the target does not exist"'
        return written + quote + (f' class="{classes}"' if classes is not None else "")

    body = _LINK_MARK.sub(repl, rec.html)
    body = unresolved_spans(body) if _UNRESOLVED in body else body
    # A refused URL's attribute goes whole: the link stays as its text (rare, so a second
    # pass only then; the marks pattern starts with a literal, which keeps the first fast).
    return _REFUSED_ATTRIBUTE.sub("", body) if _REFUSED in body else body


# Every page's marks share one shape (``sglink-<16 hex>-<i>``): one compiled pattern for all.
# markdown-it writes a link's attributes in the order its syntax set them: the URL first,
# then the class a wikilink or an autoref carries, which a broken link's class joins.
_LINK_MARK = re.compile(r'(sglink-[0-9a-f]{16}-)(\d+)(")?(?: class="([^"]*)")?')
_REFUSED = "\ue002"
_REFUSED_ATTRIBUTE = re.compile(' (?:href|src)="\ue002"')


_UNRESOLVED = "\ue003"
_UNRESOLVED_HREF = ' href="\ue003"'
_LINK_INSIDE = re.compile(r"<a[\s>]", re.IGNORECASE)


def unresolved_spans(body: str) -> str:
    """Each link to a vault's note not written yet as its text in ``<span class="unresolved
    muted">``, with no href: Obsidian Publish's unresolved link, a placeholder, never a
    broken link (content/guides/obsidian.md#unresolved-links). The ``muted`` style is the
    theme's own (no new CSS: tests/site/test_budget.py). One pass of ``find`` calls, linear
    in the page; a label holding raw HTML ``<a>`` keeps its element, without the href."""
    out: list[str] = []
    pos = 0
    while (at := body.find(_UNRESOLVED_HREF, pos)) >= 0:
        start, tag_end = body.rfind("<a", pos, at), body.find(">", at)
        close = body.find("</a>", tag_end) if tag_end >= 0 else -1
        if start < 0 or close < 0 or ">" in body[start:at]:
            break  # not the element markdown-it writes: the href goes below, the text stays
        label = body[tag_end + 1 : close]
        if _LINK_INSIDE.search(label):
            out += [body[pos:at], body[at + len(_UNRESOLVED_HREF) : close + 4]]
        else:
            out += [body[pos:start], '<span class="unresolved muted">', label, "</span>"]
        pos = close + 4
    out.append(body[pos:])
    return "".join(out).replace(_UNRESOLVED_HREF, "").replace(_UNRESOLVED, "")


def scrollable_boxes(body: str) -> str:
    """Each table in a box that scrolls sideways, and each code block, focusable so a
    keyboard can scroll them too; each table box is a region with a label of its own."""
    count = iter(range(1, body.count("<table>") + 1))
    body = _TABLE.sub(
        lambda _: (
            f'<div class="table-scroll" tabindex="0" role="region" '
            f'aria-label="Table {next(count)}"><table>'
        ),
        body,
    )
    return body.replace("</table>", "</table></div>").replace("<pre>", '<pre tabindex="0">')


_TABLE = re.compile(r"<table>")
