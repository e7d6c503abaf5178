"""Link resolution: a destination as written, from a file, to a node and a fragment
(content/guides/linking.md, content/reference/urls.md).

The rule, in the order ``resolve`` applies it:

1. blank, ``mailto:``, ``tel:`` and other schemes are no edge (``IGNORED``); ``//host`` is https;
2. an absolute URL is an external node, normalized (``normalize_url``), unless its host is
   the author's machine or network (``LOOPBACK``: kept in the page, no edge);
3. the path part is percent-decoded; empty, it is the linking file itself (``SELF``);
4. ``/x`` is read from the content folder (a file of VitePress's ``public/`` folder first),
   anything else from the linking file's folder, as GitHub does; a path that climbs out of
   the root is ``OUTSIDE``;
5. the file, else a folder's ``index.md``/``README.md``, else ``x.md`` for ``x`` or ``x.html``
   (``SiteIndex.lookup``); none of them is ``MISSING``, a node named by the path looked up;
6. none of them: the URL a page is published at, or a redirect's old address, read from the
   site root or from the linking page's own URL (``Addresses.find``, content/guides/urls.md);
7. the fragment is checked against the target's heading ids or line count (``AnchorIndex``).

Where the generator leaves raw HTML as written and publishes pages as folders (MkDocs with
``use_directory_urls``: ``SiteIndex.raw_html_from_url``), a relative ``src``/``href`` of the
page's own HTML is first read as a browser reads it, from the page's URL (``a/b/`` for
``a/b.md``), ``..`` stopping at the site root (``from_page_url``); the rules above then
read the site-absolute path that gives.

A Docusaurus site (``SiteIndex.docusaurus``, sitegen/link/docusaurus.py) reads besides, as
Docusaurus does: a ``.md``/``.mdx`` path not found from the page from the docs folder (3b),
``@site/x`` from the site folder, ``pathname://x`` as the URL ``x`` left unchecked, files of
its static folders at the site root (4), and a relative URL from the page's URL without its
trailing slash (6).

Given a ``Trace``, the same code records each rule it applied and each candidate it rejected
(``sitegen explain``, content/guides/linking.md#why-a-link-resolved-as-it-did); without one
it records nothing. Works on the set of crawled paths only: never touches the file system.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from urllib.parse import unquote, urljoin, urlsplit, urlunsplit

from sitegen.addresses import Addresses
from sitegen.base.paths import (
    PAGE_SUFFIXES,
    NodeId,
    RepoPath,
    asset_node_of,
    content_relative,
    content_repo_path,
    normalize_repo_path,
    page_node_id,
    page_node_of,
    repo_path_within,
    source_node_id,
)
from sitegen.base.urlgate import is_private_url
from sitegen.graph.store.anchors import AnchorAlias, PageAnchors
from sitegen.link.docusaurus import (
    SITE_ALIAS,
    DocsLinks,
    from_docs_root,
    is_doc_file,
    pathname_url,
)
from sitegen.link.inventory import Inventories
from sitegen.link.vault import VaultFiles
from sitegen.records.api import ApiModel
from sitegen.records.linked import Outcome, Resolved
from sitegen.records.pages import PageRecord

_LINE_ANCHOR = re.compile(r"L(\d+)(?:-L(\d+))?")
_DEFAULT_PORTS = {"http": 80, "https": 443, "ftp": 21}


def _is_template(target: str) -> bool:
    """Whether a destination holds a template expression or tag (``{{ user.url }}``,
    ``{% url 'x' %}``): what mkdocs-macros, Jinja or Vue would have replaced before a
    browser saw the link (content/syntax/unsupported.md). Two ``find`` calls per kind,
    linear in the destination whatever it holds (a lazy regex rescans from every ``{{``)."""
    for start, end in (("{{", "}}"), ("{%", "%}")):
        at = target.find(start)
        if at >= 0 and target.find(end, at + 2) >= 0:
            return True
    return False


_URL_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


class Rule(StrEnum):
    """The rules a resolution may apply, in the words ``sitegen explain`` prints."""

    DESTINATION = "destination"  # the destination as written, split and decoded
    URL = "url"  # an absolute URL (a scheme, or //host)
    FRAGMENT_ONLY = "fragment-only"  # #x: the linking page itself
    RELATIVE = "relative"  # read from the linking file's folder
    PAGE_URL = "page-url"  # raw HTML read from the page's URL, as a browser reads it
    ABSOLUTE = "absolute"  # /x: read from the content folder
    PUBLIC = "public"  # VitePress's public/ folder, published at the site root
    DOCS_ROOT = "docs-root"  # a file path read from Docusaurus's docs folder
    SITE_FOLDER = "site-folder"  # @site/x: read from Docusaurus's site folder
    BY_NAME = "by-name"  # a file of an Obsidian vault found by its name
    FILE = "file"  # the file, a folder's index, x.md for x or x.html
    ADDRESS = "address"  # a page's published URL (permalink, url, slug, the URL style)
    REDIRECT = "redirect"  # a redirect's old address
    SELF = "self"  # the target is the linking file
    WIKILINK = "wikilink"  # Obsidian's rule of names
    API_ENTRY = "api-entry"  # an object's entry on an API page (::: blocks)
    AUTOREF = "autoref"  # a code symbol's dotted name
    INVENTORY = "inventory"  # a name of an objects.inv inventory
    ANCHOR = "anchor"  # the fragment among the target's ids or lines
    UNRESOLVED_NOTE = "unresolved-note"  # a vault's note not written yet (Obsidian)
    SUGGESTION = "suggestion"  # what "Did you mean" names


@dataclass(frozen=True, slots=True)
class Rejected:
    """A candidate a rule looked at and did not take, and why."""

    candidate: str
    why: str


@dataclass(frozen=True, slots=True)
class Step:
    """One rule applied to one link: what it did, what it found ("" for nothing) and the
    candidates it rejected on the way."""

    rule: Rule
    says: str
    found: str = ""
    rejected: tuple[Rejected, ...] = ()


class Trace:
    """The steps of one link's resolution, in order, when asked for; ``NO_TRACE`` (what the
    build passes) records nothing, so the build and ``sitegen explain`` run the same code."""

    def __init__(self, recording: bool = True) -> None:
        self.recording = recording
        self.steps: list[Step] = []

    def step(
        self, rule: Rule, says: str, found: str = "", rejected: Iterable[Rejected] = ()
    ) -> None:
        if self.recording:
            self.steps.append(Step(rule, says, found, tuple(rejected)))


#: The trace of a build: nothing recorded.
NO_TRACE = Trace(recording=False)


@dataclass
class SiteIndex:
    """What exists, as the resolver needs it: built once per build from the crawl."""

    content: str  # the content folder, repository-relative ("content")
    pages: set[str]  # repository paths of pages
    assets: set[str]  # repository paths of assets
    sources: set[str]  # repository paths of analysed source files
    dirs: set[str]  # repository paths of folders
    #: Where each page is published, for links written to a page's URL.
    addresses: Addresses = field(default_factory=Addresses)
    #: The folder published at the site root (VitePress's ``public/``), "" for none.
    public: str = ""
    #: More folders published at the site root (Docusaurus's ``staticDirectories``).
    static: tuple[str, ...] = ()
    #: How Docusaurus reads a link besides (sitegen/link/docusaurus.py); None for other sites.
    docusaurus: DocsLinks | None = None
    #: The folder of Docusaurus's blog (a repository path), wherever it lies: its images are
    #: published beside its posts (content/guides/docusaurus.md#blog); "" for none.
    blog: str = ""
    #: Whether a relative URL of a page's raw HTML is read from the page's URL, as a
    #: browser reads it (``Generator.raw_html_from_url``: MkDocs with directory URLs).
    raw_html_from_url: bool = False
    #: An Obsidian vault's files by name, for a path that names none as written
    #: (sitegen/link/vault.py); None for other sites.
    vault: VaultFiles | None = None
    #: Names of other projects' docs, from the ``inventories`` option (objects.inv files).
    inventories: Inventories = field(default_factory=Inventories)
    #: Each page's old anchors kept working by an alias or a notice
    #: (sitegen/link/anchor_aliases.py); empty without a store.
    old_anchors: Mapping[NodeId, PageAnchors] = field(default_factory=dict)
    #: The Python objects ``:::`` blocks show (sitegen/api/), for cross-references to their
    #: entries; None when no page has a block.
    api: ApiModel | None = None
    #: The pages the ``api`` option generated (no file holds them): a wikilink's name prefers
    #: a page written by hand (content/guides/api-reference.md).
    generated: frozenset[str] = frozenset()
    #: (destination, linking folder) -> resolution, filled by ``resolve``.
    cache: dict[tuple[str, str], tuple[Resolved, str | None]] = field(default_factory=dict)

    def node_for(self, repo_path: str) -> NodeId | None:
        """The node an existing repository path is published as, if it is published."""
        if repo_path in self.pages:  # one outside the content folder is a README beside the code
            return page_node_of(self.content, repo_path)
        if repo_path in self.assets and content_relative(self.content, repo_path) is not None:
            return asset_node_of(self.content, self.public, repo_path)
        found = self._static_node(repo_path) if repo_path in self.assets else None
        if found is not None:
            return found
        if self.blog and repo_path in self.assets and repo_path_within(repo_path, self.blog):
            return page_node_of(self.content, repo_path)  # beside the posts, published with them
        if repo_path in self.sources:
            return source_node_id(RepoPath(repo_path))
        return None

    def lookup(self, repo_path: str, trailing_slash: bool, trace: Trace = NO_TRACE) -> str | None:
        """The existing file a local link means: the file, a folder's index, x.html/x -> x.md."""
        candidates = [] if trailing_slash else [repo_path]
        if trailing_slash or repo_path in self.dirs or repo_path == self.content:
            candidates += [
                posixpath.join(repo_path, "index.md"),
                posixpath.join(repo_path, "README.md"),
            ]
        stem, ext = posixpath.splitext(repo_path)
        # .mdx pages exist only where the record reads them (Docusaurus's): elsewhere no
        # candidate is tried for them, and explain lists none.
        suffixes = PAGE_SUFFIXES if self.docusaurus is not None else (".md", ".markdown")
        if ext.lower() in (".html", ".htm"):
            candidates += [stem + suffix for suffix in suffixes]
        elif not ext:
            candidates += [repo_path + suffix for suffix in suffixes]
        found = None
        for cand in candidates:
            if self.node_for(cand) is not None:
                found = cand
                break
        if trace.recording:
            tried = candidates[: candidates.index(found)] if found else candidates
            trace.step(
                Rule.FILE,
                "the file as written, else a folder's index.md or README.md, else x.md for x "
                "or x.html: the first that exists",
                found or "",
                (Rejected(c, self._why_not(c)) for c in tried),
            )
        return found

    def _why_not(self, repo_path: str) -> str:
        if repo_path in self.dirs:
            return "a folder"
        if repo_path in self.assets:
            return "outside the content folder, not published"
        return "no such page, asset or source file"

    def public_asset(self, site_path: str) -> str | None:
        """The file of the public folder a site-absolute path names (``/search.png``), which
        VitePress serves at the site root, else of a static folder (Docusaurus's
        ``static/``, in its order); None when there is no such file."""
        for folder in (self.public, *self.static) if self.public else self.static:
            found = normalize_repo_path(posixpath.join(folder, site_path.lstrip("/")))
            if found is not None and repo_path_within(found, folder) and found in self.assets:
                return found
        return None

    def _static_node(self, repo_path: str) -> NodeId | None:
        """The node of a file of a static folder: its path in that folder, as the site
        publishes it at the root (``website/static/img/a.png`` -> ``img/a.png``)."""
        for folder in self.static:
            inner = content_relative(folder, repo_path)
            if inner is not None:
                return page_node_id(inner)
        return None

    def missing_node(self, repo_path: str) -> NodeId:
        return page_node_of(self.content, repo_path)


def normalize_url(url: str) -> str | None:
    """Scheme and host lower-cased, default port and trailing host dot removed, fragment dropped."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").rstrip(".")
    if not host:
        return None
    if ":" in host:
        host = f"[{host}]"
    netloc = host if port is None or _DEFAULT_PORTS.get(scheme) == port else f"{host}:{port}"
    if parts.username or parts.password:
        auth = parts.username or ""
        netloc = f"{auth}{':' + parts.password if parts.password else ''}@{netloc}"
    return urlunsplit((scheme, netloc, parts.path or "/", parts.query, ""))


#: Any host: only the path of a URL joined to it is kept (``from_page_url``).
_SOME_HOST = "https://site.invalid"


def from_page_url(href: str, page_folder: str, trace: Trace = NO_TRACE) -> str:
    """A relative URL of a page's raw HTML as a browser reads it on the page whose URL
    folder is ``page_folder`` (``/a/b/``): the site-absolute path it names, its query and
    fragment kept. ``..`` above the site root stays at the root, as RFC 3986's
    ``remove_dot_segments`` (``urljoin``) and every browser have it. A URL that is not a
    relative path (a scheme, ``//host``, ``/x``, ``#x``, ``?x``, a template) is returned as
    written (content/guides/linking.md#raw-html-read-from-the-pages-url)."""
    path = href.strip().partition("#")[0].partition("?")[0]
    if (
        not path
        or path.startswith(("/", "\\"))
        or _URL_SCHEME.match(path)
        or ("{" in href and _is_template(unquote(href)))
    ):
        return href
    joined = urljoin(_SOME_HOST + page_folder, href.strip())
    parts = urlsplit(joined)
    out = urlunsplit(("", "", parts.path or "/", parts.query, parts.fragment))
    trace.step(
        Rule.PAGE_URL,
        f"raw HTML, which the generator publishes as written: read from the page's URL "
        f"'{page_folder}' as a browser reads it ('..' stops at the site root)",
        out,
    )
    return out


def resolve(href: str, from_path: str, index: SiteIndex, trace: Trace = NO_TRACE) -> Resolved:
    """Resolve one destination from the repository file ``from_path``."""
    key = (href, posixpath.dirname(from_path))
    hit = None if trace.recording else index.cache.get(key)
    if hit is None:  # the same destination from the same folder resolves the same way
        hit = _resolve_from(href, key[1], index, trace)
        if not trace.recording:
            index.cache[key] = hit
    res, found = hit
    if res.outcome is Outcome.MISSING:  # rare: not worth a cache of its own
        res, found = _by_address(href, from_path, index, res, trace) or (res, found)
    if found == from_path:
        trace.step(Rule.SELF, "the target is the linking file itself: no edge", from_path)
        return Resolved(Outcome.SELF, fragment=res.fragment)
    return res


def _resolve_from(
    href: str, from_dir: str, index: SiteIndex, trace: Trace
) -> tuple[Resolved, str | None]:
    href = href.strip()
    if not href:
        trace.step(Rule.DESTINATION, "an empty destination: not a link")
        return Resolved(Outcome.IGNORED), None
    if ("{" in href or "%7B" in href.upper()) and _is_template(unquote(href)):
        trace.step(
            Rule.DESTINATION,
            "a template expression that the project's generator fills in (Jinja, "
            "mkdocs-macros, Vue); sitegen does not evaluate it: kept as written, not checked",
        )
        return Resolved(Outcome.TEMPLATE), None
    if href.startswith("//"):
        trace.step(Rule.URL, "a protocol-relative URL (//host): read as https")
        href = "https:" + href
    if index.docusaurus is not None and pathname_url(href) is not None:
        return _pathname(href, trace), None
    if _URL_SCHEME.match(href):
        return _resolve_absolute(href, trace), None
    path_part, _, fragment = href.partition("#")
    path_part = path_part.partition("?")[0]
    path_part, fragment = unquote(path_part), unquote(fragment)
    if trace.recording:  # the resolver's hot path: nothing formatted for a build
        trace.step(Rule.DESTINATION, f"path '{path_part}', fragment '{fragment}' (decoded)")
    if not path_part:
        trace.step(Rule.FRAGMENT_ONLY, "a fragment only: the linking page itself")
        return Resolved(Outcome.SELF, fragment=fragment), None
    absolute = path_part.startswith("/")
    rule, where, joined = _where(path_part, from_dir, index)
    repo_path = normalize_repo_path(joined)
    if trace.recording:
        _say_where(trace, rule, where, repo_path)
    if repo_path is None:
        return Resolved(Outcome.OUTSIDE, NodeId(href.partition("#")[0]), fragment), None
    found = index.public_asset(path_part) if path_part.startswith("/") else None
    if (index.public or index.static) and path_part.startswith("/"):
        folders = "', '".join(f for f in (index.public, *index.static) if f)
        trace.step(
            Rule.PUBLIC, f"a file of a folder published at the root '{folders}'", found or ""
        )
    found = found or index.lookup(repo_path, path_part.endswith("/"), trace)
    if found is None and index.docusaurus is not None and not absolute:
        found = _from_docs_root(path_part, index, trace)
    others: tuple[str, ...] = ()
    if found is None and index.vault is not None:
        found, others = _by_name(path_part, index.vault, trace)
    if found is None:
        return Resolved(Outcome.MISSING, index.missing_node(repo_path), fragment, repo_path), None
    node = index.node_for(found)
    assert node is not None
    return Resolved(Outcome.INTERNAL, node, fragment, others=others), found


def _by_name(path: str, vault: VaultFiles, trace: Trace) -> tuple[str | None, tuple[str, ...]]:
    """A path that names no file as written, in an Obsidian vault: the file of that name
    anywhere in the vault, the shortest path of several (sitegen/link/vault.py); the others
    come back too, since the link is then ambiguous."""
    named = vault.named(path)
    found = named[0] if named else None
    trace.step(
        Rule.BY_NAME,
        "a file of that name anywhere in the vault, the shortest path first (Obsidian)",
        found or "",
        (Rejected(p, f"a longer path than '{found}'") for p in named[1:]),
    )
    return found, tuple(named[1:])


def _where(path: str, from_dir: str, index: SiteIndex) -> tuple[Rule, str, str]:
    """Where a path is read from: the rule, its words and the repository path joined. A
    Docusaurus site reads ``/x.md`` from its docs folder and ``@site/x`` from its site folder
    (sitegen/link/docusaurus.py)."""
    docs = index.docusaurus
    if docs is not None and path.startswith(SITE_ALIAS):
        site = f"from the site folder '{docs.site_dir or '.'}' (@site/)"
        return Rule.SITE_FOLDER, site, posixpath.join(docs.site_dir, path[len(SITE_ALIAS) :])
    if docs is not None and path.startswith("/") and is_doc_file(path):
        where = f"a file path from the docs folder '{docs.docs_dir}'"
        return Rule.ABSOLUTE, where, content_repo_path(docs.docs_dir, path)
    if path.startswith("/"):  # from the site root, which is the content folder
        where = f"from the site root, the content folder '{index.content}'"
        return Rule.ABSOLUTE, where, content_repo_path(index.content, path)
    where = f"from the linking file's folder '{from_dir or '.'}'"
    return Rule.RELATIVE, where, posixpath.join(from_dir, path)


def _say_where(trace: Trace, rule: Rule, where: str, repo_path: str | None) -> None:
    """The step that reads a path from the site root or from the linking file's folder."""
    trace.step(rule, f"read {where}", repo_path or "")
    if repo_path is None:
        trace.step(rule, "the path climbs out of the project root: nothing there is read")


def _from_docs_root(path: str, index: SiteIndex, trace: Trace) -> str | None:
    """A ``.md``/``.mdx`` path not found from the page, read from Docusaurus's docs folder
    (``api/Store.md`` written in ``docs/faq/a.md`` is ``docs/api/Store.md``); any other path
    is a URL there, never read so."""
    docs = index.docusaurus
    assert docs is not None
    if not is_doc_file(path):
        trace.step(Rule.DOCS_ROOT, "not a .md or .mdx file: a URL, not read from the docs folder")
        return None
    candidate = from_docs_root(path, docs.docs_dir)
    found = candidate if candidate is not None and index.node_for(candidate) else None
    if trace.recording:
        why = () if found or candidate is None else [Rejected(candidate, index._why_not(candidate))]
        trace.step(
            Rule.DOCS_ROOT,
            f"a file path not found from the page, read from the docs folder '{docs.docs_dir}'",
            found or "",
            why,
        )
    return found


def _pathname(href: str, trace: Trace) -> Resolved:
    """``pathname:///x``: the URL ``/x``, published as written, never checked (Docusaurus's
    way out of its router and of its link checks)."""
    url = pathname_url(href) or ""
    trace.step(Rule.URL, "a pathname:// link: published as the URL after it, not checked", url)
    return Resolved(Outcome.IGNORED, url=url)


def _by_address(
    href: str, from_path: str, index: SiteIndex, missing: Resolved, trace: Trace
) -> tuple[Resolved, str] | None:
    """A destination written as the URL of a page or of a redirect's old address, read from
    the site root or from the URL the linking page is published at; or a page that is gone
    but for its redirect (mkdocs.yml's ``redirect_maps`` names old pages by their file)."""
    path_part, _, fragment = href.strip().partition("#")
    path_part, fragment = unquote(path_part.partition("?")[0]), unquote(fragment)
    here = index.node_for(from_path)
    addresses = index.addresses
    if path_part.lower().endswith(PAGE_SUFFIXES):
        urls = []  # a file, never an address: most broken links, so checked first
        trace.step(Rule.ADDRESS, "a .md file is never a published address: none looked up")
    elif path_part.startswith("/"):
        urls = [path_part]
    elif here is not None:
        folders = addresses.folder_urls(here)
        if index.docusaurus is not None:  # its page URLs end without '/'
            folders = (*index.docusaurus.url_folders(addresses.out(here)), *folders)
        urls = [posixpath.join(f, path_part) for f in dict.fromkeys(folders)]
    else:
        return None
    tried = list(map(addresses.find, urls))
    if urls and trace.recording:
        trace.step(
            Rule.ADDRESS,
            "the URL of a page or of a redirect's old address"
            + ("" if path_part.startswith("/") else ", from the linking page's own URL"),
            next((u for u, f in zip(urls, tried, strict=True) if f is not None), ""),
            (
                Rejected(u, "no page or redirect there")
                for u, f in zip(urls, tried, strict=True)
                if f is None
            ),
        )
    found = next(filter(None, tried), None)
    if found is None:
        found = addresses.moved(index.missing_node(missing.looked_up))
        if found is not None:
            trace.step(Rule.REDIRECT, f"a redirect is published where '{missing.looked_up}' was")
    if found is None:
        return None
    if found.via:
        trace.step(
            Rule.REDIRECT, f"the redirect at '{found.via}' sends to '{found.node}'", found.node
        )
    if found.node == here:
        return Resolved(Outcome.SELF, fragment=fragment or found.fragment), from_path
    return Resolved(Outcome.INTERNAL, found.node, fragment or found.fragment, via=found.via), ""


def _resolve_absolute(href: str, trace: Trace) -> Resolved:
    scheme = href.split(":", 1)[0].lower()
    if scheme not in ("http", "https", "ftp", "ftps"):
        trace.step(Rule.URL, f"a '{scheme}:' URL: not an edge")
        return Resolved(Outcome.IGNORED)
    if is_private_url(href):
        trace.step(Rule.URL, "a loopback or private host: kept in the page, no edge")
        return Resolved(Outcome.LOOPBACK, NodeId(href))
    url = normalize_url(href)
    if url is None:
        trace.step(Rule.URL, "an absolute URL without a usable host: not an edge")
        return Resolved(Outcome.IGNORED)
    trace.step(Rule.URL, "an absolute URL: an external node, normalized", url)
    return Resolved(Outcome.EXTERNAL, NodeId(url))


def first_line_anchor(fragment: str) -> str:
    """The id a source page gives the fragment's line: a source page has one id per line
    (``L12``), so a GitHub range ``L12-L20`` opens at its first line; any other fragment is
    returned as it is."""
    m = _LINE_ANCHOR.fullmatch(fragment)
    return f"L{m.group(1)}" if m else fragment


class AnchorIndex:
    """Every fragment a link may name, by node: a page's heading ids and its other anchors
    (``{#id}``, raw HTML ``id`` and ``<a name>``), its headings by text (``[[Page#Heading]]``),
    and a source file's lines (``#L12``, ``#L12-L20``). The one place a fragment is checked;
    a page's names are gathered the first time a link names the page."""

    def __init__(
        self,
        pages: Mapping[NodeId, PageRecord],
        line_counts: Mapping[NodeId, int],
        old_anchors: Mapping[NodeId, PageAnchors] | None = None,
    ) -> None:
        self._pages = pages
        self._line_counts = line_counts
        self._old = old_anchors or {}
        self._ids: dict[NodeId, frozenset[str]] = {}
        self._texts: dict[NodeId, dict[str, str]] = {}
        self._paths: dict[tuple[NodeId, tuple[str, ...]], str | None] = {}

    def ids(self, node: NodeId) -> frozenset[str]:
        """The ids of the page ``node``: its headings' and its other anchors (none for any
        other node)."""
        ids = self._ids.get(node)
        if ids is None:
            record = self._pages.get(node)
            found = [h.id for h in record.headings] + record.anchors if record else []
            ids = self._ids[node] = frozenset(found)
        return ids

    def moved(self, node: NodeId, fragment: str) -> AnchorAlias | None:
        """The alias or notice that keeps ``fragment``, an id the page ``node`` published
        once and has no more, working (content/syntax/anchors.md#anchors-that-last)."""
        page = self._old.get(node)
        return next((a for a in page.aliases if a.old == fragment), None) if page else None

    def by_text(self, node: NodeId, text: str) -> str | None:
        """The id of the page's first heading whose text is ``text``, compared as
        ``[[Page#Heading]]`` writes it (surrounding space and case ignored)."""
        texts = self._texts.get(node)
        if texts is None:
            texts = self._texts[node] = {}
            record = self._pages.get(node)
            for h in record.headings if record else ():
                texts.setdefault(h.text.strip().lower(), h.id)
        return texts.get(text.strip().lower())

    def by_heading_path(self, node: NodeId, parts: Sequence[str]) -> str | None:
        """The id of the page's first heading whose text is ``parts[-1]`` and that lies
        under headings of the texts before it, in that order, outermost first: Obsidian's
        ``[[Page#A#B]]`` (content/syntax/obsidian.md#nested-heading-links)."""
        wanted = [p.strip().lower() for p in parts]
        key = (node, tuple(wanted))
        if key not in self._paths:
            self._paths[key] = self._heading_under(node, wanted)
        return self._paths[key]

    def _heading_under(self, node: NodeId, wanted: list[str]) -> str | None:
        record = self._pages.get(node)
        chain: list[tuple[int, str]] = []  # (level, text) of the open headings, outermost first
        for h in record.headings if record else ():
            while chain and chain[-1][0] >= h.level:
                chain.pop()
            text = h.text.strip().lower()
            if text == wanted[-1] and _in_order(wanted[:-1], [t for _, t in chain]):
                return h.id
            chain.append((h.level, text))
        return None

    def has(self, node: NodeId, fragment: str) -> bool:
        """Whether ``fragment`` names a heading or anchor of the page ``node``, or a line or
        line range of the source file ``node``; an asset has nothing to check."""
        if not fragment:
            return True
        line_count = self._line_counts.get(node)
        if line_count is not None:
            m = _LINE_ANCHOR.fullmatch(fragment)
            if not m:
                return False
            first, last = int(m.group(1)), int(m.group(2) or m.group(1))
            return 1 <= first <= last <= line_count
        if node in self._pages:
            return fragment in self.ids(node)
        return True


def _in_order(wanted: Sequence[str], chain: Sequence[str]) -> bool:
    """Whether the texts ``wanted`` occur in ``chain`` in that order (others between them)."""
    rest = iter(chain)
    return all(any(text == seen for seen in rest) for text in wanted)
