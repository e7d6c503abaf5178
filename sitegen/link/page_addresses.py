"""Each page's address: the URL style, the front matter's ``url``, ``permalink`` or ``slug``, and
the redirects at old addresses (``aliases``, ``redirect_from``, mkdocs.yml's ``redirect_maps``),
decided once for the link step and the site (content/guides/urls.md).

Runs after extraction, since it reads front matter, and before the link step, which resolves
a link written to an address by it. Never reads files: mkdocs.yml comes from the crawl, and
Jekyll's _config.yml (collections, defaults, the permalink style: ``jekyll.py``) from the
configuration.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from sitegen.addresses import Addresses, Redirect, UrlStyle, address_out, style_out_path
from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.base.paths import (
    NodeId,
    OutPath,
    content_relative,
    content_repo_path,
    html_out_path,
    normalize_repo_path,
    page_node_id,
    page_node_of,
    repo_path_within,
)
from sitegen.base.urlgate import url_scheme
from sitegen.config import Config
from sitegen.generators import (
    MKDOCS_FILE,
    Dialect,
    Generator,
)
from sitegen.generators.record import Blog
from sitegen.link.blog import blog_post_route, site_blog
from sitegen.link.docusaurus import DRAFT_KEY, DocRoutes, doc_route, doc_routes, is_draft
from sitegen.link.jekyll import JekyllSite, read_jekyll
from sitegen.records.pages import PageRecord

#: Front-matter keys that give a page's whole address from the site root, in the order they
#: win: Hugo's ``url``, Jekyll's ``permalink``; then Hugo's ``slug``, its last segment only.
ADDRESS_KEYS = ("url", "permalink")
SLUG_KEY = "slug"
#: Front-matter keys that list a page's old addresses: Hugo's and Jekyll's.
ALIAS_KEYS = ("aliases", "redirect_from")
BAD_ADDRESS = "bad-address"
DUPLICATE_OUTPUT = "duplicate-output"
DRAFT = "draft"


def url_style(config: Config, manifests: Mapping[str, str]) -> UrlStyle:
    """The ``urls`` option when set; else the generator's configuration decides: Docusaurus
    publishes each doc as a folder, an ``mkdocs.yml`` by its ``use_directory_urls`` (true
    unless it says false, as in MkDocs: the record's ``directory_urls``), Jekyll's
    ``_config.yml`` by its ``permalink`` style (``pretty``: directory); else ``html``.
    ``manifests`` is not read: the record holds what the configuration says."""
    if config.urls:
        return UrlStyle(config.urls)
    if doc_routes(config.generator) is not None:
        return UrlStyle.DIRECTORY  # Docusaurus writes faq/a/index.html for /faq/a
    found = config.generator
    if found is None or found.directory_urls is None:
        jekyll = read_jekyll(found)
        return jekyll.page_style() if jekyll is not None else UrlStyle.HTML
    return UrlStyle.DIRECTORY if found.directory_urls else UrlStyle.HTML


def url_style_reason(config: Config, manifests: Mapping[str, str]) -> str:
    """Why pages are published as they are, when the generator's configuration decided it
    (the build's layout line says so): ``directory URLs (use_directory_urls of
    mkdocs.yml)``; else ""."""
    if config.urls:
        return ""
    if doc_routes(config.generator) is not None:
        return f"directory URLs (each doc a folder, as Docusaurus publishes it: {_config_file(config)})"
    jekyll = read_jekyll(config.generator)
    if jekyll is not None and jekyll.page_style() is UrlStyle.DIRECTORY:
        return f"directory URLs (permalink: {jekyll.style} in {jekyll.config_file})"
    found = config.generator
    if found is None or found.directory_urls is None:
        return ""
    return f"{url_style(config, manifests)} URLs ({found.urls_option})"


def _config_file(config: Config) -> str:
    return config.generator.config_file if config.generator is not None else ""


@dataclass(frozen=True)
class _Claim:
    node: NodeId
    out: OutPath
    rec: PageRecord
    key: str  # the front-matter key that gave the address, "" for the style's file


def page_addresses(
    config: Config,
    pages: list[PageRecord],
    manifests: Mapping[str, str],
    texts: Mapping[str, bytes],
) -> tuple[Addresses, list[Diagnostic]]:
    """Every page's HTML file and every redirect, with what is wrong with them.

    ``texts`` are the pages' bytes by repository path, read only to give a diagnostic the
    line of its front-matter key. Two pages claiming one file: the one published is chosen
    as the site always chose (``.md`` before ``.markdown``, ``index.md`` before
    ``README.md``, then by path) and the other is reported (``duplicate-output``)."""
    style = url_style(config, manifests)
    found = _Found(config.content_rel, texts, read_jekyll(config.generator))
    found.docs = doc_routes(config.generator)
    found.alias_keys = redirect_keys(config.generator)
    found.blog = site_blog(config.generator)
    claims = [found.claim(rec, style) for rec in sorted(pages, key=lambda r: r.path)]
    claims = found.without_drafts(claims)
    published = found.decide(claims)
    redirects = found.redirects(claims, published, style)
    redirects += found.redirect_maps(config.generator, style)
    addresses = Addresses(style, published, found.place(redirects, published))
    jekyll = found.jekyll.diagnostics if found.jekyll is not None else []
    return addresses, sorted(found.diagnostics + jekyll)


class _Found:
    """What one build's front matter says about addresses, and what is wrong with it."""

    def __init__(
        self, content: str, texts: Mapping[str, bytes], jekyll: JekyllSite | None = None
    ) -> None:
        self.content = content
        self.texts = texts
        self.jekyll = jekyll
        self.diagnostics: list[Diagnostic] = []
        #: Docusaurus's routes, when its docs are published so (sitegen/link/docusaurus.py).
        self.docs: DocRoutes | None = None
        #: The blog whose posts are published at their routes (sitegen/link/blog.py).
        self.blog: Blog | None = None
        #: The front-matter keys that list a page's old addresses (``redirect_keys``).
        self.alias_keys: tuple[str, ...] = ALIAS_KEYS

    def warn(self, path: str, key: str, message: str, code: str = BAD_ADDRESS) -> None:
        line = _key_line(self.texts.get(path, b""), key)
        self.diagnostics.append(Diagnostic(path, line, 1, Level.WARNING, message, code))

    def claim(self, rec: PageRecord, style: UrlStyle) -> _Claim:
        """The file a page asks for: its front matter's address, else the one Jekyll's
        _config.yml gives it, else its style's file."""
        node = page_node_of(self.content, rec.path)
        post = self.blog.post_path(rec.path) if self.blog is not None else None
        if self.blog is not None and post is not None:
            return self._post_route(rec, node, post, self.blog, style)
        if self.docs is not None and repo_path_within(rec.path, self.docs.docs_dir):
            return self._doc_route(rec, node, self.docs, style)
        for key in (*ADDRESS_KEYS, SLUG_KEY):
            value = rec.front_matter.get(key)
            if value is None or value == "":
                continue
            out = self._declared(rec, node, key, value, style)
            if out is not None:
                return _Claim(node, out, rec, key)
            break
        else:
            given = self.jekyll.address(rec.path, rec.front_matter) if self.jekyll else None
            out = address_out(given, style) if given is not None else None
            if out is not None:
                return _Claim(node, out, rec, "")
        return _Claim(node, style_out_path(node, style), rec, "")

    def _doc_route(self, rec: PageRecord, node: NodeId, docs: DocRoutes, style: UrlStyle) -> _Claim:
        """A doc's route, as Docusaurus gives it (front matter ``slug`` and ``id``, the
        folders without their number prefixes); what Docusaurus would refuse is reported."""
        rel = posixpath.relpath(rec.path, docs.docs_dir) if docs.docs_dir else rec.path
        route = doc_route(rel, rec.front_matter, docs.route_base)
        for key, message in route.problems:
            self.warn(rec.path, key, message)
        out = address_out(route.url, style)
        if out is None:
            said = f"{route.key} '{rec.front_matter.get(route.key)}'" if route.key else "its path"
            self.warn(
                rec.path, route.key, f"{said} gives '{route.url}', no path of the site; ignored"
            )
            return _Claim(node, style_out_path(node, style), rec, "")
        return _Claim(node, out, rec, route.key)

    def _post_route(
        self, rec: PageRecord, node: NodeId, rel: str, blog: Blog, style: UrlStyle
    ) -> _Claim:
        """A blog post's route, as the blog's plugin gives it (sitegen/link/blog.py); a post
        it gives none (a Material post without a date) keeps its file's address."""
        text = self.texts.get(rec.path, b"").decode("utf-8", "replace")
        route = blog_post_route(blog, rel, rec.front_matter, text)
        for key, message in route.problems:
            self.warn(rec.path, key, message)
        if not route.url:
            return _Claim(node, style_out_path(node, style), rec, "")
        out = address_out(route.url, style)
        if out is None:
            self.warn(rec.path, route.key, f"'{route.url}' is no path of the site; ignored")
            return _Claim(node, style_out_path(node, style), rec, "")
        return _Claim(node, out, rec, route.key)

    def _declared(
        self, rec: PageRecord, node: NodeId, key: str, value: Any, style: UrlStyle
    ) -> OutPath | None:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str):
            self.warn(rec.path, key, f"'{key}' must be a text such as '/guide/install/'; ignored")
            return None
        if key == SLUG_KEY:
            if "/" in value.strip("/") or value.strip("/") in ("", ".", "..") or ":" in value:
                self.warn(rec.path, key, f"slug '{value}' must be one path segment; ignored")
                return None
            folder = posixpath.dirname(node)
            value = posixpath.join(folder, value.strip("/")) + ("/" if value.endswith("/") else "")
        if any(part.startswith(":") for part in value.split("/")):
            self.warn(
                rec.path,
                key,
                f"{key} '{value}' holds placeholders (':title'), which sitegen does not fill "
                "in; the page keeps the address of its file",
            )
            return None
        out = address_out(value, style)
        if out is None:
            self.warn(rec.path, key, f"{key} '{value}' is not a path of the site; ignored")
        return out

    def without_drafts(self, claims: list[_Claim]) -> list[_Claim]:
        """The claims but those of Docusaurus docs and blog posts with ``draft: true``, which Docusaurus
        leaves out of a production build: left out of the site, one info line each."""
        if self.docs is None and self.blog is None:
            return claims
        docs_dir, kept = self.docs.docs_dir if self.docs is not None else None, []
        for claim in claims:
            path = claim.rec.path
            ours = (docs_dir is not None and repo_path_within(path, docs_dir)) or (
                self.blog is not None
                and not self.blog.drafts
                and self.blog.post_path(path) is not None
            )
            if not (ours and is_draft(claim.rec.front_matter)):
                kept.append(claim)
                continue
            line = _key_line(self.texts.get(claim.rec.path, b""), DRAFT_KEY)
            tool = (
                "Material's blog"
                if self.blog is not None and self.blog.post_url_format
                else "Docusaurus"
            )
            msg = f"draft: true: left out of the site, as {tool} leaves a draft out of a build"
            self.diagnostics.append(Diagnostic(claim.rec.path, line, 1, Level.INFO, msg, DRAFT))
        return kept

    def decide(self, claims: list[_Claim]) -> dict[NodeId, OutPath]:
        """One page per file: the published pages' files, by node."""
        by_out: dict[OutPath, list[_Claim]] = {}
        for claim in claims:
            by_out.setdefault(claim.out, []).append(claim)
        published: dict[NodeId, OutPath] = {}
        for out, claimants in sorted(by_out.items()):
            claimants.sort(key=lambda c: (not c.node.endswith(".md"), _is_readme(c.node), c.node))
            winner = claimants[0]
            published[winner.node] = out
            for loser in claimants[1:]:
                self._clash(loser, winner, out)
        return dict(sorted(published.items()))

    def _clash(self, loser: _Claim, winner: _Claim, out: OutPath) -> None:
        """Two pages at one address: an error when an address or the URL style made the clash
        (the pages have files of their own otherwise), else the warning it always was."""
        new = html_out_path(loser.node) != html_out_path(winner.node)
        message = (
            f"'{loser.rec.path}' and '{winner.rec.path}' are both published as '{out}'"
            f"{_because(loser, winner)}; only '{winner.rec.path}' is published "
            "(give one of them another address)"
        )
        level = Level.ERROR if new else Level.WARNING
        line = _key_line(self.texts.get(loser.rec.path, b""), loser.key) if loser.key else 1
        self.diagnostics.append(
            Diagnostic(loser.rec.path, line, 1, level, message, DUPLICATE_OUTPUT)
        )

    def redirects(
        self, claims: list[_Claim], published: Mapping[NodeId, OutPath], style: UrlStyle
    ) -> list[Redirect]:
        """The redirects a published page's ``aliases`` and ``redirect_from`` declare."""
        found: list[Redirect] = []
        for claim in claims:
            if published.get(claim.node) != claim.out:
                continue
            for key, written in self._aliases(claim.rec):
                where = written if written.startswith("/") else _join(claim.node, written)
                out = address_out(where, style) if url_scheme(written) is None else None
                if out is None:
                    msg = f"{key} '{written}' is not a path of the site; no redirect is written"
                    self.warn(claim.rec.path, key, msg)
                elif out != claim.out:
                    line = _key_line(self.texts.get(claim.rec.path, b""), key)
                    found.append(Redirect(out, claim.node, "", claim.rec.path, line, written))
        return found

    def _aliases(self, rec: PageRecord) -> Iterator[tuple[str, str]]:
        for key in self.alias_keys:
            value = rec.front_matter.get(key)
            values = [value] if isinstance(value, str) else value
            if value is None:
                continue
            if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
                self.warn(rec.path, key, f"'{key}' must be a text or a list of texts; ignored")
                continue
            yield from ((key, v.strip()) for v in values if v.strip())

    def redirect_maps(self, generator: Generator | None, style: UrlStyle) -> list[Redirect]:
        """The redirects the generator's configuration names (mkdocs-redirects'
        ``redirect_maps``: ``old.md: new.md`` or a URL), from its ``docs_dir``."""
        if generator is None:
            return []
        file, docs_dir = generator.config_file, generator.docs_dir
        found: list[Redirect] = []
        for old, new, line in generator.redirect_maps:
            out = self._old_out(old, docs_dir, style)
            target = self._map_target(docs_dir, new)
            if out is None or target is None:
                self.diagnostics.append(
                    Diagnostic(
                        file,
                        line,
                        1,
                        Level.WARNING,
                        f"redirect_maps: '{old}: {new}' names no page of the content folder "
                        "(or an old address that is no path of the site); no redirect is written",
                        BAD_ADDRESS,
                    )
                )
                continue
            node, fragment = target
            found.append(Redirect(out, node, fragment, file, line, old))
        return found

    def _map_target(self, docs_dir: str, new: str) -> tuple[NodeId, str] | None:
        """A ``redirect_maps`` value: a page of the docs folder (with a fragment), or an
        absolute http(s) URL."""
        if url_scheme(new) in ("http", "https"):
            return NodeId(new), ""
        path, _, fragment = new.partition("#")
        repo = posixpath.normpath(posixpath.join(docs_dir, path.lstrip("/")))
        rel = content_relative(self.content, repo)
        if rel is None or not path.lower().endswith((".md", ".markdown")):
            return None
        node = page_node_id(rel)
        return (node, fragment) if repo in self.texts else None

    def _old_out(self, old: str, docs_dir: str, style: UrlStyle) -> OutPath | None:
        """Where a ``redirect_maps`` key is published: an ``.md`` key where MkDocs would have
        published that page, any other key as the address it is."""
        if not old.lower().endswith((".md", ".markdown")):
            return address_out("/" + old.lstrip("/"), style)
        if url_scheme(old) is not None:
            return None
        repo = normalize_repo_path(posixpath.join(docs_dir, old.lstrip("/")))
        rel = content_relative(self.content, repo) if repo is not None else None
        return style_out_path(page_node_id(rel), style) if rel is not None else None

    def place(
        self, redirects: list[Redirect], published: Mapping[NodeId, OutPath]
    ) -> dict[OutPath, Redirect]:
        """One redirect per file, never where a page is published: mkdocs.yml's first, then
        by the declaring page's path. A redirect that loses its file is reported."""
        pages = {out: node for node, out in published.items()}
        placed: dict[OutPath, Redirect] = {}
        for r in sorted(
            redirects, key=lambda r: (r.out, posixpath.basename(r.source) != MKDOCS_FILE, r.source)
        ):
            holder = pages.get(r.out)
            taken = placed.get(r.out)
            if holder is None and taken is None:
                placed[r.out] = r
            elif holder is not None:
                self._lost(r, f"the page '{content_repo_path(self.content, holder)}'")
            elif taken is not None and taken.target != r.target:  # not the same one twice
                self._lost(r, f"the redirect that {taken.source} declares")
        return dict(sorted(placed.items()))

    def _lost(self, r: Redirect, holder: str) -> None:
        message = f"no redirect is written at '{r.written}': {holder} is published at '{r.out}'"
        self.diagnostics.append(
            Diagnostic(r.source, r.line, 1, Level.WARNING, message, DUPLICATE_OUTPUT)
        )


def redirect_keys(generator: Generator | None) -> tuple[str, ...]:
    """The front-matter keys whose values are old addresses: Hugo's ``aliases`` and Jekyll's
    ``redirect_from``; in an Obsidian vault, ``aliases`` are other names of a note, which a
    wikilink may use (sitegen/link/wiki.py), never addresses (content/syntax/obsidian.md#aliases)."""
    if generator is not None and Dialect.OBSIDIAN in generator.dialect:
        return tuple(key for key in ALIAS_KEYS if key != "aliases")
    return ALIAS_KEYS


def _because(loser: _Claim, winner: _Claim) -> str:
    keys = [f"{c.rec.path}'s {c.key}" for c in (loser, winner) if c.key]
    return f" (by {' and '.join(keys)})" if keys else ""


def _is_readme(node: str) -> bool:
    return posixpath.splitext(posixpath.basename(node))[0].lower() == "readme"


def _join(node: NodeId, written: str) -> str:
    """A relative old address, read from the page's folder (as Hugo reads an alias)."""
    return posixpath.join(posixpath.dirname(node), written)


def _key_line(data: bytes, key: str) -> int:
    """The line of ``key:`` in a page's front matter (1 when it cannot be found)."""
    if not key:
        return 1
    at = data.find(b"\n" + key.encode() + b":")
    return data.count(b"\n", 0, at + 1) + 1 if at >= 0 else 1
