"""Link: resolve every extracted link and relation against the whole set of files, into one graph.

Runs only after every page and source file is extracted, since resolution needs them all.
Never reads files and never renders; the merge rules themselves live in ``graph.model``.
"""

from __future__ import annotations

import functools
import posixpath
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from urllib.parse import unquote

from sitegen.addresses import Addresses, UrlStyle, public_url, style_out_path
from sitegen.base.diagnostics import Diagnostic, Level, Suggester, closest_anchor
from sitegen.base.paths import (
    NodeId,
    RepoPath,
    content_relative,
    content_repo_path,
    source_node_id,
)
from sitegen.base.urlgate import allowed_url, refusal
from sitegen.config import Config
from sitegen.docs.autorefs import CODE_PREFIX as AUTOREF_PREFIX
from sitegen.generators import Dialect
from sitegen.graph.model import Edge, Graph, Node, NodeKind, Occurrence
from sitegen.graph.store.anchors import PageAnchors
from sitegen.layout import UnreadFiles
from sitegen.link.anchor_aliases import ANCHOR_MOVED
from sitegen.link.api_entries import api_entries, symbol_node
from sitegen.link.broken import loopback_message, names_a_note, unresolved_message
from sitegen.link.docusaurus import docs_links
from sitegen.link.embeds import plan_embeds
from sitegen.link.inventory import load_inventories
from sitegen.link.rules import (
    NO_TRACE,
    AnchorIndex,
    Rule,
    SiteIndex,
    Step,
    Trace,
    from_page_url,
    normalize_url,
    resolve,
)
from sitegen.link.symbols import SymbolIndex, SymbolPlace, symbol_index
from sitegen.link.vault import VaultFiles
from sitegen.link.wiki import (
    AMBIGUOUS_NAME,
    WikiNames,
    page_aliases,
    resolve_wikilink,
    wiki_names,
)
from sitegen.records.api import ApiKind, ApiModel
from sitegen.records.code import CodeRecord
from sitegen.records.crawl import CodeFile, Crawl
from sitegen.records.linked import (
    AMBIGUOUS_WIKILINK,
    BROKEN_ANCHOR,
    BROKEN_AUTOREF,
    BROKEN_LINK,
    LOOPBACK_LINK,
    MISSING_REL_TARGET,
    UNRESOLVED_NOTE,
    ApiEntries,
    ApiEntry,
    BrokenLink,
    Linked,
    Outcome,
    Resolved,
    Via,
)
from sitegen.records.pages import Link, LinkKind, PageRecord
from sitegen.records.result import BuildResult

#: The info line of an autoref that names nothing the build knows.
UNRESOLVED_AUTOREF = "unresolved-autoref"

#: Why an existing repository path was not read, or None when it does not exist.
_WhyUnread = Callable[[str], str | None]

_OUTCOME_KIND = {
    Outcome.EXTERNAL: NodeKind.EXTERNAL,
    Outcome.MISSING: NodeKind.MISSING,
    Outcome.OUTSIDE: NodeKind.MISSING,
    # A vault's note not written yet stays a node with its edges, as Obsidian's graph view
    # draws it: kind "missing" (no file holds it), so graph.md keeps its kinds.
    Outcome.UNRESOLVED_NOTE: NodeKind.MISSING,
}
#: The kinds of link an Obsidian vault resolves as notes: a markdown link or a wikilink.
_NOTE_LINKS = frozenset({LinkKind.INLINE, LinkKind.REFERENCE, LinkKind.WIKILINK, LinkKind.EMBED})
#: The links of a page's own HTML, which MkDocs publishes as written (never rewritten).
_RAW_HTML = frozenset({LinkKind.HTML, LinkKind.HTML_IMAGE})


class _Linker:
    def __init__(
        self,
        index: SiteIndex,
        pages: list[PageRecord],
        line_counts: dict[str, int],
        why_unread: _WhyUnread | None = None,
    ) -> None:
        self.index = index
        self.why_unread = why_unread
        self.by_path = {p.path: p for p in pages}
        self.page_of_node = {self._node_of_page(p): p for p in self.by_path}
        self.anchors = AnchorIndex(
            {node: self.by_path[p] for node, p in self.page_of_node.items()},
            {source_node_id(RepoPath(p)): n for p, n in line_counts.items()},
            index.old_anchors,
        )
        self.code: list[CodeRecord] = []
        self.graph = Graph()
        self.out = Linked(self.graph, {}, {})
        self.suggester = Suggester(_as_written(index.content, p) for p in index.pages)
        #: What the rules record while they resolve: nothing in a build, one link's steps
        #: for ``sitegen explain`` (``explain_link``).
        self.trace: Trace = NO_TRACE

    def add_nodes(self, code: Iterable[CodeRecord]) -> None:
        for rec in self.by_path.values():
            self.graph.add_node(Node(self._node_of_page(rec.path), NodeKind.PAGE, rec.title))
        for asset in sorted(self.index.assets):
            node = self.index.node_for(asset)
            assert node is not None
            self.graph.add_node(Node(node, NodeKind.ASSET, asset.rsplit("/", 1)[-1]))
        for c in code:
            self.graph.add_node(Node(source_node_id(RepoPath(c.path)), NodeKind.SOURCE, c.path))

    def _node_of_page(self, repo_path: str) -> NodeId:
        node = self.index.node_for(repo_path)
        assert node is not None, repo_path
        return node

    def diag(
        self, path: str, line: int, col: int, message: str, code: str, level: Level = Level.WARNING
    ) -> None:
        self.out.diagnostics.append(Diagnostic(path, line, col, level, message, code))

    def report(self, broken: BrokenLink) -> None:
        """Record a link that does not resolve, and the warning that says so."""
        self.out.broken.append(broken)
        self.out.diagnostics.append(broken.diagnostic())

    def link_page(self, rec: PageRecord) -> None:
        src = self._node_of_page(rec.path)
        edges: list[Edge] = []
        resolutions: list[Resolved] = []
        for link in rec.links:
            res, edge = self.link_one(rec.path, src, link)
            resolutions.append(res)
            if edge is not None:
                edges += [edge, *self._to_object(res, edge)]
        self._templates(rec, resolutions)
        for rel in rec.relations:
            res = resolve(rel.ref, rec.path, self.index)
            edge = self._edge_for(rec.path, src, res, rel.ref, rel.line, 1, rel.predicate)
            if edge is not None:
                edges.append(edge)
        self.out.resolutions[src] = resolutions
        self._commit(src, edges)

    def _templates(self, rec: PageRecord, resolutions: list[Resolved]) -> None:
        """Links whose target is a template expression: one unsupported-syntax warning per
        page, at the first (as for the expressions in the text), never a broken link each."""
        found = [
            link
            for link, res in zip(rec.links, resolutions, strict=True)
            if res.outcome is Outcome.TEMPLATE
        ]
        if not found or any(_says_template(d) for d in rec.diagnostics):
            return  # the page already says its template syntax is not run (HTML blocks)
        first = found[0]
        more = f" ({len(found) - 1} more on this page)" if len(found) > 1 else ""
        self.diag(
            rec.path,
            first.line,
            first.column,
            f"link target '{unquote(first.href)}' is a template expression, which sitegen does "
            f"not evaluate; the link is kept as written and not checked{more}",
            "unsupported-syntax",
        )

    def link_one(self, path: str, src: NodeId, link: Link) -> tuple[Resolved, Edge | None]:
        """How one link of the page ``path`` resolves, and the edge it makes (None for none),
        reporting what is broken, redirected or unsafe about it."""
        if link.kind in (LinkKind.WIKILINK, LinkKind.EMBED):
            res = self._wikilink(path, link)
        elif link.kind is LinkKind.AUTOREF:
            res = self._autoref(path, link)
        else:
            written = self._as_browser_reads(path, src, link)
            res = self._api_anchor(resolve(written, path, self.index, self.trace), path)
        if res.via:
            self._through_redirect(path, link, res)
        if res.others:
            self._ambiguous_name(path, link, res)
        if res.outcome is Outcome.MISSING and self._unresolved_note(link, res):
            res = replace(res, outcome=Outcome.UNRESOLVED_NOTE)
            msg = unresolved_message(_note_written(link))
            self.diag(path, link.line, link.column, msg, UNRESOLVED_NOTE, Level.INFO)
        href = not link.is_image  # every other kind of link is an href (LinkKind)
        if res.outcome is Outcome.IGNORED and not allowed_url(  # pathname:// is its url
            res.url or link.href, image=link.is_image, href=href
        ):
            self.diag(
                path,
                link.line,
                link.column,
                f"link '{link.href}': {refusal(link.href)}",
                "unsafe-url",
            )
        edge = self._edge_for(path, src, res, link.href, link.line, link.column, "")
        if edge is not None:
            occ = Occurrence(link.offset, link.line, link.column, res.fragment)
            edge.label, edge.anchor, edge.occurrences = link.label, link.anchor, [occ]
        return res, edge

    def _as_browser_reads(self, path: str, src: NodeId, link: Link) -> str:
        """The destination to resolve: as written, but a relative URL of the page's own HTML
        read from the page's URL where the generator publishes raw HTML as written and pages
        as folders (MkDocs with directory URLs): ``<img src="../img/x.png">`` in ``a/b.md``
        names ``/a/img/x.png``, as a browser on ``a/b/`` reads it
        (content/guides/linking.md#raw-html-read-from-the-pages-url)."""
        if not self.index.raw_html_from_url or link.kind not in _RAW_HTML:
            return link.href
        if content_relative(self.index.content, path) is None:
            return link.href  # a README beside the code: not a page of the generator's site
        return from_page_url(link.href, self._url_folder(src), self.trace)

    def _url_folder(self, node: NodeId) -> str:
        """The folder of the URL the generator publishes the page at (``/a/b/`` for
        ``a/b.md``): its own address when it has one (a blog post's), else its file in the
        directory style, whatever style sitegen's own output takes."""
        addresses = self.index.addresses
        out = addresses.pages.get(node)
        if out is None or out == style_out_path(node, addresses.style):
            out = style_out_path(node, UrlStyle.DIRECTORY)
        folder = posixpath.dirname(out)
        return f"/{folder}/" if folder else "/"

    def _unresolved_note(self, link: Link, res: Resolved) -> bool:
        """Whether a missing target is a vault's unresolved link: a note (not an attachment)
        that no file of the vault holds, after every lookup (path, name, title, aliases). Such
        a link is Obsidian's placeholder for a note to write, never an error
        (content/guides/obsidian.md#unresolved-links); outside a vault, it is broken."""
        if self.index.vault is None or link.kind not in _NOTE_LINKS:
            return False
        if self.why_unread is not None and self.why_unread(res.looked_up):
            return False  # the file is there, only not published: the broken link says why
        is_note = names_a_note(_note_written(link))
        said = (
            "a note no file of the vault holds: an unresolved link, shown as its text"
            if is_note
            else "not a note (a file, a folder): a missing target"
        )
        self.trace.step(Rule.UNRESOLVED_NOTE, said, res.looked_up if is_note else "")
        return is_note

    def _ambiguous_name(self, path: str, link: Link, res: Resolved) -> None:
        """A vault's file found by a name that several files have: the shortest path is
        linked, and the warning says which others there are (sitegen/link/vault.py)."""
        assert res.node is not None
        chosen = content_repo_path(self.index.content, res.node)  # a page's or a file's
        msg = (
            f"link '{unquote(link.href)}' names no file from its page; "
            f"{len(res.others) + 1} files of the vault have that name "
            f"({', '.join(sorted((chosen, *res.others)))}); it links to the shortest path, "
            f"'{chosen}'. Write more of the path to choose."
        )
        self.report(BrokenLink(path, link.line, link.column, AMBIGUOUS_NAME, link.href, msg))

    def _through_redirect(self, path: str, link: Link, res: Resolved) -> None:
        """A link to an old address works (its redirect page is published), but it costs the
        reader a hop: one info line names the address to write instead."""
        assert res.node is not None
        target = self.page_of_node.get(res.node, res.node)
        new = "/" + public_url(self.index.addresses.out(res.node))
        self.diag(
            path,
            link.line,
            link.column,
            f"link '{link.href}' reaches '{target}' through the redirect at '{res.via}'; "
            f"the page's address is '{new}'",
            "redirect-link",
            Level.INFO,
        )

    @functools.cached_property
    def wiki(self) -> WikiNames:
        titles = {p: rec.title for p, rec in self.by_path.items()}
        if self.index.vault is None:
            return wiki_names(self.index, titles)
        # In an Obsidian vault, aliases are other names of a page (never redirects).
        aliases = {p: page_aliases(rec.front_matter) for p, rec in self.by_path.items()}
        return wiki_names(self.index, titles, aliases)

    def _wikilink(self, path: str, link: Link) -> Resolved:
        """``[[Page]]`` by name or title (content/syntax/wikilinks.md); several matches are
        reported like a broken link, and the nearest one is linked."""
        target = resolve_wikilink(link.href, path, self.wiki, self.index, self.trace)
        if target.others:
            names = ", ".join(sorted((target.found, *target.others)))
            msg = (
                f"wikilink '[[{link.href}]]' matches {len(target.others) + 1} files ({names}); "
                f"it links to the nearest, '{target.found}'. Write more of the path to choose."
            )
            self.report(
                BrokenLink(path, link.line, link.column, AMBIGUOUS_WIKILINK, link.href, msg)
            )
        heading = link.href.partition("#")[2]
        res = target.resolved
        page = self.index.node_for(target.found or path)
        if heading.strip() and res.outcome in (Outcome.INTERNAL, Outcome.SELF) and page:
            nested = "#" in heading and not heading.strip().startswith("^")
            by_text = (
                self.anchors.by_heading_path(page, heading.split("#"))
                if nested  # [[Page#A#B]]: the heading B under A, as Obsidian reads it
                else self.anchors.by_text(page, heading)
            )
            if by_text is not None:  # [[Page#Heading]] names the heading by its text
                self.trace.step(
                    Rule.ANCHOR, f"the heading '{heading.strip()}' by its text", by_text
                )
                res = replace(res, fragment=by_text)
        return res

    @functools.cached_property
    def symbols(self) -> SymbolIndex:
        return symbol_index(self.code)

    @functools.cached_property
    def api_entries(self) -> ApiEntries:
        """Which page shows which object (sitegen/link/api_entries.py): only after every page
        is extracted, since any page may show any object."""
        return api_entries(
            {node: self.by_path[p] for node, p in self.page_of_node.items()}, self.index.api
        )

    def _api_entry(self, dotted: str) -> ApiEntry | None:
        """The entry of the object ``dotted`` names on the site's API pages, by its id, an
        alias or its canonical path (content/syntax/autorefs.md); a site without ``:::``
        blocks has no such step."""
        if self.index.api is None:
            return None
        entry, via, canonical = self.api_entries.find(dotted)
        if self.trace.recording:
            said = "an object's entry on the site's API pages"
            if entry is not None:
                said += f": {via}" + (f" '{canonical}'" if via != Via.ID else "")
            elif canonical:
                said += f": '{canonical}' is loaded but no page shows it"
            self.trace.step(Rule.API_ENTRY, said, entry.where if entry is not None else "")
        return entry

    def _entry(self, entry: ApiEntry, from_path: str) -> Resolved:
        if entry.page == self.index.node_for(from_path):
            return Resolved(Outcome.SELF, fragment=entry.id)
        return Resolved(Outcome.INTERNAL, entry.page, entry.id)

    def _symbol(self, place: SymbolPlace, from_path: str) -> Resolved:
        if place.path == from_path:
            return Resolved(Outcome.SELF)
        return Resolved(Outcome.INTERNAL, source_node_id(RepoPath(place.path)), f"L{place.line}")

    def _autoref(self, path: str, link: Link) -> Resolved:
        """``[Model][pkg.Model]`` in a page: the object's entry on an API page, else the
        symbol's line on its source page, else the name's URL in an inventory
        (content/syntax/autorefs.md); a name of one of the project's packages that names
        nothing is reported, any other is its text, said once."""
        target = link.href
        entry = self._api_entry(target)
        if entry is not None:
            return self._entry(entry, path)
        place = self.symbols.find(target)
        where = f"{place.path}:{place.line}" if place is not None else ""
        self.trace.step(Rule.AUTOREF, "a symbol of the code graph by its dotted name", where)
        if place is not None:
            return self._symbol(place, path)
        known = self.index.inventories.find(target)
        said = f"a name of the inventories ({len(self.index.inventories.by_name)} names)"
        self.trace.step(Rule.INVENTORY, said, f"{known[0]} ({known[1]})" if known else "")
        if known is not None:
            url = known[0]
            return Resolved(Outcome.EXTERNAL, NodeId(normalize_url(url) or url), url=url)
        if target.split(".")[0] in self.symbols.packages and not self.symbols.is_imported(target):
            msg = f"cross-reference '{target}' names no symbol of the code graph"
            self.report(BrokenLink(path, link.line, link.column, BROKEN_AUTOREF, target, msg))
        else:
            self.diag(
                path,
                link.line,
                link.column,
                f"cross-reference '{target}' names nothing of the code graph or an inventory; "
                f"it is shown as its text, '{link.label}'",
                UNRESOLVED_AUTOREF,
                Level.INFO,
            )
        return Resolved(Outcome.UNRESOLVED)

    def _api_anchor(self, res: Resolved, path: str) -> Resolved:
        """``api/config.md#pkg.config.ConfigDict`` names an anchor that mkdocstrings writes
        on the API page; when the page lacks it, such a link goes to the object's entry on
        the page that shows it, else to the symbol's source line (content/syntax/autorefs.md)."""
        if res.outcome is not Outcome.INTERNAL or "." not in res.fragment:
            return res
        if res.node is not None and self.anchors.has(res.node, res.fragment):
            return res
        entry = self._api_entry(res.fragment)
        if entry is not None:
            return self._entry(entry, path)
        if not self.code:
            return res
        place = self.symbols.find(res.fragment)
        if place is None:
            return res
        self.trace.step(
            Rule.AUTOREF,
            f"the page lacks '#{res.fragment}', a symbol's name: its source line instead",
            f"{place.path}:{place.line}",
        )
        return self._symbol(place, path)

    def _from_code(self, href: str, path: str) -> Resolved:
        """A docstring link is often written for the API page mkdocstrings renders it on, not
        for the source file: when ``../concepts/x.md`` does not resolve from the file, it is
        read from the content root, its leading ``../`` dropped (content/syntax/autorefs.md)."""
        res = resolve(href, path, self.index)
        if res.outcome is not Outcome.MISSING or not href.startswith("../"):
            return res
        rest = href
        while rest.startswith(("../", "./")):
            rest = rest.partition("/")[2]
        again = resolve(rest, posixpath.join(self.index.content, "_"), self.index)
        return again if again.outcome is Outcome.INTERNAL else res

    def _code_autoref(self, dotted: str, path: str) -> Resolved | None:
        """A docstring's ``[text][pkg.Name]`` in a source file: the object's API entry, else
        the symbol's line; None for a name of neither."""
        entry = self._api_entry(dotted)
        if entry is not None:
            return self._entry(entry, path)
        place = self.symbols.find(dotted)
        return self._symbol(place, path) if place is not None else None

    def link_code(self, rec: CodeRecord) -> None:
        src = source_node_id(RepoPath(rec.path))
        edges = []
        for link in rec.links:
            if link.href.startswith(AUTOREF_PREFIX):
                res_or_none = self._code_autoref(link.href[len(AUTOREF_PREFIX) :], rec.path)
                if res_or_none is None:
                    continue  # a name of another project, or not code at all
                res = res_or_none
            else:
                res = self._from_code(link.href, rec.path)
            if res.outcome not in (Outcome.INTERNAL, Outcome.MISSING, Outcome.SELF):
                continue  # code comments are full of URLs; only links into the site count
            edge = self._edge_for(rec.path, src, res, link.href, link.line, link.column, "")
            if edge is not None:
                edge.label = link.label
                edge.occurrences = [Occurrence(link.offset, link.line, link.column, res.fragment)]
                edges += [edge, *self._to_object(res, edge)]
        self._commit(src, edges)

    def _to_object(self, res: Resolved, edge: Edge) -> list[Edge]:
        """A link that lands on an API entry links the object too: one more edge, to the
        object's node, with the link's label, section and place (a backlink of the entry)."""
        if res.outcome is not Outcome.INTERNAL or not res.fragment or self.index.api is None:
            return []
        entry = self.api_entries.by_place.get((edge.dst, res.fragment))
        if entry is None:
            return []
        to = edge.copy()
        to.dst = symbol_node(self.index.api, entry.canonical)
        return [to]

    def link_api(self) -> None:
        """The objects the API pages show, as nodes of kind ``symbol`` (only after every page
        is linked): the page that shows each ``documents`` it, and a class ``inherits`` from
        each loaded base (content/guides/api-reference.md)."""
        model = self.index.api
        if model is None:
            return
        by_source: dict[NodeId, list[Edge]] = {}
        for entry in self.api_entries.entries():
            node = symbol_node(model, entry.canonical)
            self.graph.add_node(Node(node, NodeKind.SYMBOL, entry.canonical))
            documents = Edge(entry.page, node, "documents", entry.canonical, entry.id)
            by_source.setdefault(entry.page, []).append(documents)
            obj = model.objects[entry.canonical]
            for base in model.bases_of(obj) if obj.kind is ApiKind.CLASS else ():
                base_node = symbol_node(model, base.canonical)
                self.graph.add_node(Node(base_node, NodeKind.SYMBOL, base.canonical))
                by_source.setdefault(node, []).append(Edge(node, base_node, "inherits"))
        for src, edges in sorted(by_source.items()):
            for edge in {e.key: e for e in edges}.values():  # an object shown twice: one edge
                self.graph.add_edge(edge)
            self.out.edges_by_source[src] = self.graph.edges_from(src)

    def _commit(self, src: NodeId, edges: list[Edge]) -> None:
        for e in edges:
            self.graph.add_edge(e)
        self.out.edges_by_source[src] = self.graph.edges_from(src)

    def _edge_for(
        self, path: str, src: NodeId, res: Resolved, written: str, line: int, col: int, rel: str
    ) -> Edge | None:
        """The edge a resolved destination makes, reporting what is broken or dropped."""
        what = f"relation 'rel-{rel}'" if rel else "link"
        if res.outcome in (Outcome.IGNORED, Outcome.UNRESOLVED, Outcome.TEMPLATE):
            return None
        if res.outcome is Outcome.LOOPBACK:
            self.out.loopback.append(
                BrokenLink(path, line, col, LOOPBACK_LINK, written, loopback_message(what, written))
            )
            return None
        if res.outcome is Outcome.SELF:
            here = self.index.node_for(path)
            if not rel and here is not None:
                self._check_anchor(path, line, col, written, res.fragment, here)
            return None  # self links and self-references are not edges
        assert res.node is not None
        if res.outcome is Outcome.INTERNAL:
            self._check_anchor(path, line, col, written, res.fragment, res.node)
        if res.outcome in _OUTCOME_KIND:
            self.graph.add_node(Node(res.node, _OUTCOME_KIND[res.outcome]))
        if res.outcome in (Outcome.MISSING, Outcome.OUTSIDE):
            self._broken(path, line, col, written, res, rel)
        return Edge(src, res.node, rel)

    def _anchor_ok(self, node: NodeId, fragment: str) -> bool:
        """Whether the fragment names something on ``node`` (the anchor index's rule)."""
        ok = self.anchors.has(node, fragment)
        if fragment:
            is_one = "is" if ok else "is not"
            self.trace.step(
                Rule.ANCHOR,
                f"'#{fragment}' {is_one} an id or line of '{node}'",
                fragment if ok else "",
            )
        return ok

    def _check_anchor(
        self, path: str, line: int, col: int, written: str, fragment: str, node: NodeId
    ) -> None:
        """A fragment names an id of ``node``, or an old one an alias keeps working, or it
        is a broken anchor."""
        if self._anchor_ok(node, fragment) or self._old_anchor(
            path, line, col, written, fragment, node
        ):
            return
        self._broken_anchor(path, line, col, written, fragment, node)

    def _old_anchor(
        self, path: str, line: int, col: int, written: str, fragment: str, node: NodeId
    ) -> bool:
        """Whether the fragment is an old anchor of ``node`` that an alias or a notice keeps
        working: then the link lands there, and one info line says what to write instead."""
        moved = self.anchors.moved(node, fragment)
        if moved is None:
            return False
        if moved.removed:
            self.trace.step(Rule.ANCHOR, f"'#{fragment}' was removed: a notice holds it", fragment)
            msg = (
                f"link '{written}' names '#{fragment}', the section \"{moved.text}\" that was "
                "removed from its page; it lands on the notice that says so"
            )
        else:
            self.trace.step(
                Rule.ANCHOR, f"'#{fragment}' is an alias of '#{moved.target}'", moved.target
            )
            msg = (
                f"link '{written}' names '#{fragment}', the old anchor of '#{moved.target}' "
                f"(\"{moved.text}\"); it lands there through an alias; write '#{moved.target}'"
            )
        self.diag(path, line, col, msg, ANCHOR_MOVED, Level.INFO)
        return True

    def _broken(
        self, path: str, line: int, col: int, written: str, res: Resolved, rel: str
    ) -> None:
        check = MISSING_REL_TARGET if rel else BROKEN_LINK
        what = f"relation 'rel-{rel}' target" if rel else "link target"
        unread = self.why_unread(res.looked_up) if self.why_unread and res.looked_up else None
        if res.outcome is Outcome.OUTSIDE:
            msg = f"{what} '{written}' is outside the project root; nothing there is read"
        elif unread:  # the file is there, only not analysed or published: say so
            msg = f"{what} '{written}' {unread}"
        else:
            near = self.suggester.closest(_as_written(self.index.content, res.looked_up))
            said = "the existing file nearest to it" if near else "no existing file is close to it"
            self.trace.step(Rule.SUGGESTION, said, near or "")
            hint = f" Did you mean '{near}'?" if near else ""
            msg = f"{what} '{written}' does not exist (looked for '{res.looked_up}').{hint}"
        self.report(BrokenLink(path, line, col, check, written, msg))

    def _broken_anchor(
        self,
        path: str,
        line: int,
        col: int,
        written: str,
        fragment: str,
        target: NodeId,
    ) -> None:
        # The closest heading id of the target page, as broken files get the closest file.
        near = closest_anchor(fragment, self.anchors.ids(target))
        said = (
            "the id of the target nearest to it" if near else "no id of the target is close to it"
        )
        self.trace.step(Rule.SUGGESTION, said, near or "")
        msg = f"link '{written}': no heading or line '#{fragment}' in the target"
        msg += f". Did you mean '#{near}'?" if near else ""
        self.report(BrokenLink(path, line, col, BROKEN_ANCHOR, written, msg))


def _note_written(link: Link) -> str:
    """The note a link names, as written: a wikilink's name, a markdown link's decoded path
    (the heading or fragment left out)."""
    target = link.href.partition("#")[0]
    if link.kind in (LinkKind.WIKILINK, LinkKind.EMBED):
        return target.strip()
    return unquote(target.partition("?")[0]).strip()


def _as_written(content: str, repo_path: str) -> str:
    """A path as a link from the content root writes it: inside the content folder relative
    to it, outside it from the project root (how broken-link suggestions name files)."""
    rel = content_relative(content, repo_path)
    return repo_path if rel is None else rel


def link_all(
    index: SiteIndex,
    pages: list[PageRecord],
    code: list[CodeRecord],
    line_counts: dict[str, int],
    why_unread: _WhyUnread | None = None,
) -> Linked:
    """The document graph of every page and source file (pages sorted by path).

    ``why_unread`` says why a file that exists was not read (a language not analysed, outside
    the source roots), so a link to it is not reported as missing (sitegen/layout.py)."""
    linker = _Linker(index, pages, line_counts, why_unread)
    linker.code = code
    linker.add_nodes(code)
    for rec in sorted(pages, key=lambda p: p.path):
        linker.link_page(rec)
    for c in sorted(code, key=lambda c: c.path):
        linker.link_code(c)
    linker.link_api()
    linker.out.api, linker.out.entries = index.api, linker.api_entries
    linker.out.embeds = plan_embeds(
        {node: linker.by_path[p] for node, p in linker.page_of_node.items()},
        linker.out.resolutions,
    )
    linker.out.diagnostics += linker.out.embeds.diagnostics
    return linker.out


def link_one(
    index: SiteIndex,
    pages: list[PageRecord],
    code: list[CodeRecord],
    line_counts: dict[str, int],
    why_unread: _WhyUnread | None,
    rec: PageRecord,
) -> list[Resolved]:
    """How each link of ``rec`` resolves among ``pages`` (``rec`` in place of the page of
    its path): one page's share of ``link_all``, for `sitegen serve`'s preview of a saved
    page (sitegen/site/preview.py)."""
    linker = _linker_with(index, pages, code, line_counts, why_unread, rec)
    linker.link_page(rec)
    return linker.out.resolutions[linker._node_of_page(rec.path)]


@dataclass(frozen=True)
class TracedLink:
    """One link resolved by the link step with its trace: every rule applied and candidate
    rejected, the resolution, and what the step reported about the link."""

    steps: tuple[Step, ...]
    resolved: Resolved
    #: Whether the link is an edge of the graph.
    edge: bool
    diagnostics: tuple[Diagnostic, ...]


def trace_link(
    index: SiteIndex,
    pages: list[PageRecord],
    code: list[CodeRecord],
    line_counts: dict[str, int],
    why_unread: _WhyUnread | None,
    rec: PageRecord,
    link: Link,
) -> TracedLink:
    """How ``link`` of ``rec`` resolves, step by step (``sitegen explain``): the build's own
    code, run for one link with a recording trace, so what it prints is what the build did."""
    linker = _linker_with(index, pages, code, line_counts, why_unread, rec)
    linker.trace = Trace()
    res, edge = linker.link_one(rec.path, linker._node_of_page(rec.path), link)
    out = linker.out.diagnostics
    return TracedLink(tuple(linker.trace.steps), res, edge is not None, tuple(out))


@dataclass(frozen=True)
class LinkInputs:
    """What the link step reads: the index of what exists (``crawl_index``), every page and
    source file record, each source file's line count, and why a file that exists was not
    read (sitegen/layout.py). Made by one constructor, ``of``, in every driver (the build,
    ``sitegen explain``, serve's preview of a saved page), so they link alike
    (content/guides/linking.md)."""

    index: SiteIndex
    pages: list[PageRecord]
    code: list[CodeRecord]
    line_counts: dict[str, int]
    why_unread: _WhyUnread | None = None

    @classmethod
    def of(cls, result: BuildResult) -> LinkInputs:
        """The inputs of the build that made ``result``: its records, against its crawl, its
        addresses, the old anchors it kept and the API model its pages show."""
        return cls.of_crawl(
            result.config,
            result.crawl,
            result.pages,
            result.code_records,
            result.addresses,
            result.old_anchors.book,
            result.linked.api,
        )

    @classmethod
    def of_crawl(
        cls,
        config: Config,
        found: Crawl,
        pages: list[PageRecord],
        code: list[CodeRecord],
        addresses: Addresses,
        old_anchors: Mapping[NodeId, PageAnchors],
        api: ApiModel | None,
    ) -> LinkInputs:
        """The inputs from what a build holds before it has a result (``of`` reads them from
        one)."""
        index = crawl_index(config, found, addresses, old_anchors, api)
        return cls(index, pages, code, line_counts(found.code), UnreadFiles(config, found))

    def link_all(self) -> Linked:
        """The document graph of every page and source file (``link_all``)."""
        return link_all(self.index, self.pages, self.code, self.line_counts, self.why_unread)

    def link_one(self, rec: PageRecord) -> list[Resolved]:
        """How each link of ``rec`` resolves, ``rec`` in place of its page (``link_one``)."""
        return link_one(self.index, self.pages, self.code, self.line_counts, self.why_unread, rec)

    def trace(self, rec: PageRecord, link: Link) -> TracedLink:
        """How ``link`` of ``rec`` resolves, step by step (``trace_link``)."""
        return trace_link(
            self.index, self.pages, self.code, self.line_counts, self.why_unread, rec, link
        )


def _linker_with(
    index: SiteIndex,
    pages: list[PageRecord],
    code: list[CodeRecord],
    line_counts: dict[str, int],
    why_unread: _WhyUnread | None,
    rec: PageRecord,
) -> _Linker:
    """A linker of every page and source file, with ``rec`` in place of its page."""
    linker = _Linker(
        index, [rec if p.path == rec.path else p for p in pages], line_counts, why_unread
    )
    linker.code = code
    linker.add_nodes(code)
    return linker


def crawl_index(
    config: Config,
    found: Crawl,
    addresses: Addresses | None = None,
    old_anchors: Mapping[NodeId, PageAnchors] | None = None,
    api: ApiModel | None = None,
) -> SiteIndex:
    """What a link may name: every file the crawl found, by kind, where each page is
    published (sitegen/link/page_addresses.py), the old anchors each page keeps working
    (sitegen/link/anchor_aliases.py), and the objects API pages show (sitegen/api/)."""
    return SiteIndex(
        content=config.content_rel,
        pages={f.path for f in found.pages},
        assets=set(found.assets),
        sources={f.path for f in found.code},
        dirs=found.all_dirs,
        addresses=addresses or Addresses(),
        public=config.public_rel,
        # Docusaurus's static/ folders, published at the site root.
        static=config.generator.static if config.generator is not None else (),
        docusaurus=docs_links(config.generator),  # how Docusaurus reads links besides
        # MkDocs with directory URLs: raw HTML read from the page's URL, as a browser does.
        raw_html_from_url=config.generator is not None and config.generator.raw_html_from_url,
        blog=config.generator.blog.folder if config.generator and config.generator.blog else "",
        inventories=load_inventories(config.inventories, found.inventories),
        old_anchors=old_anchors or {},
        api=api,
        generated=frozenset(found.generated),
        vault=_vault(config, found),
    )


def _vault(config: Config, found: Crawl) -> VaultFiles | None:
    """An Obsidian vault's files by name (content/syntax/obsidian.md#files-found-by-name);
    None for any other project, whose links name files by their path only."""
    generator = config.generator
    if generator is None or Dialect.OBSIDIAN not in generator.dialect:
        return None
    return VaultFiles.of(config.content_rel, [f.path for f in found.pages] + list(found.assets))


def line_counts(code: list[CodeFile]) -> dict[str, int]:
    """Lines of each source file: a ``#L<n>`` fragment is checked against them."""
    return {
        f.path: f.data.count(b"\n") + (0 if f.data.endswith(b"\n") or not f.data else 1)
        for f in code
    }


def _says_template(diagnostic: Diagnostic) -> bool:
    """Whether a page's own diagnostic already says that its template syntax is not run
    (sitegen/docs/unsupported.py): then a link to a template expression adds no second line."""
    return diagnostic.code == "unsupported-syntax" and "the template " in diagnostic.message
