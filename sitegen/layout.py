"""Defaults that announce themselves: which content folder and source roots a build reads and
why, what it looked for when it found nothing, and the default site title.

Works from the configuration and the finished crawl; never reads the file system itself
(but for the two folder checks of ``layout_diagnostics``) and never changes what is built.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.base.languages import LangId, language_for_path
from sitegen.base.paths import page_node_of, repo_path_within
from sitegen.config import Config
from sitegen.records.crawl import Crawl
from sitegen.records.pages import PageRecord

#: Folders tried in order when ``content`` is not set (content/guides/configuration.md#content).
DEFAULT_CONTENT = ("content", "docs")


def _folder(rel: str) -> str:
    return f"{rel}/" if rel else "the project root"


def _config_file(config: Config) -> str:
    """The file a new option belongs in: the one read, else sitegen.toml."""
    read = {w for w in config.set_by.values() if w != "the command line"}
    return min(read) if read else "sitegen.toml"


def content_reason(config: Config) -> str:
    """Where the pages come from and why: ``pages from docs/ (no content/ folder)``."""
    where = _folder(config.content_rel)
    if "content" in config.set_by:
        return f"pages from {where} (content set in {config.set_by['content']})"
    if config.content_rel == "content":
        return f"pages from {where} (the default)"
    if (config.root / config.content_rel).is_dir():
        return f"pages from {where} (no content/ folder)"
    return "no pages (neither content/ nor docs/ exists)"


def source_reason(config: Config) -> str:
    """Why the code comes from where it does: ``the project root (no source option)``."""
    if config.source:
        roots = ", ".join(_folder(s.strip("/")) for s in config.source)
        return f"{roots} (source set in {config.set_by.get('source', 'the configuration')})"
    return "the project root (no source option)"


def sources_part(config: Config) -> str:
    """The layout line's part about code: ``source files from …``, or for a vault read alone
    ``no source files: the content is an Obsidian vault (found en/publish.css); set source
    to read code`` (content/guides/obsidian.md)."""
    found = config.generator
    if not config.source and found is not None and found.own_folders:
        return f"no source files: {found.own_folders}; set source to read code"
    return f"source files from {source_reason(config)}"


def layout_line(config: Config, urls: str = "") -> str:
    """The line a build prints before its summary: where it read pages and code, and why;
    ``urls`` says how pages are published when a generator's configuration decided it."""
    line = f"{content_reason(config)}; {sources_part(config)}"
    if set(config.languages) != set(LangId):
        read = f"languages {', '.join(config.languages)} only" if config.languages else "no code"
        line += f"; {read} ({language_setting(config)})"
    slugs = slugs_reason(config)
    line = f"{line}; {slugs}" if slugs else line
    return f"{line}; {urls}" if urls else line


def slugs_reason(config: Config) -> str:
    """How heading ids are made and why, when not simply GitHub's by default:
    ``heading ids in the vitepress style (found docs/.vitepress/config.ts)``."""
    found = config.generator
    if "slugs" in config.set_by:
        why = f"slugs set in {config.set_by['slugs']}"
    elif found is not None and found.decides_slugs:  # Jekyll's decides addresses only
        why = f"found {found.config_file}"
    else:
        return ""
    # VitePress's public/ and Docusaurus's static/ folders.
    roots = [f"{f}/" for f in (found.public, *found.static) if f] if found else []
    public = f", {' and '.join(roots)} published at the site root" if roots else ""
    return f"heading ids in the {config.slugs} style ({why}){public}"


def language_setting(config: Config) -> str:
    """How the language choice was made, as the user would repeat or undo it."""
    by = config.set_by.get("languages", "")
    if by == "the command line":
        return " ".join(f"--language {lang}" for lang in config.languages)
    names = ", ".join(f'"{lang}"' for lang in config.languages)
    return f"languages = [{names}] in {by or 'the configuration'}"


def layout_diagnostics(config: Config, found: Crawl) -> list[Diagnostic]:
    """An info line when both default content folders exist, and one naming the other
    generators' outputs left out; a warning when nothing was found."""
    out: list[Diagnostic] = []
    both = all((config.root / d).is_dir() for d in DEFAULT_CONTENT)
    if "content" not in config.set_by and both:
        out.append(
            Diagnostic(
                "docs",
                1,
                1,
                Level.INFO,
                f"both content/ and docs/ exist; pages are read from content/ (set content = "
                f'"docs" in {_config_file(config)} to build docs/ instead)',
                "layout",
            )
        )
    if found.foreign_outputs:
        out.append(_other_outputs_left_out(found))
    if not found.pages and not found.code:
        out.append(Diagnostic(".", 1, 1, Level.WARNING, _nothing_found(config), "layout"))
    found_by = list(config.generator.diagnostics) if config.generator is not None else []
    return out + _approximated_slugs(config) + found_by


def _other_outputs_left_out(found: Crawl) -> Diagnostic:
    """One info line for every other generator's output the crawl left out, and why
    (content/guides/safety.md#nothing-outside-the-project)."""
    said = "; ".join(out.describe() for out in found.foreign_outputs)
    return Diagnostic(
        found.foreign_outputs[0].folder,
        1,
        1,
        Level.INFO,
        f"{said}: not read (name it as content or in source to read it all the same)",
        "layout",
    )


def _approximated_slugs(config: Config) -> list[Diagnostic]:
    """A warning when the generator's configuration asks for heading ids sitegen can only
    come near (another slugify, other options), unless ``slugs`` settles it."""
    found = config.generator
    if found is None or not found.approximated or "slugs" in config.set_by:
        return []
    return [
        Diagnostic(
            found.config_file,
            1,
            1,
            Level.WARNING,
            f"heading ids: {found.config_file} asks for {found.approximated}, which "
            f"sitegen does not make; ids are made in the '{found.slugs}' style instead "
            f"(set slugs in {_config_file(config)} to choose another)",
            "slugs",
        )
    ]


def _nothing_found(config: Config) -> str:
    if "content" in config.set_by:
        pages = f"markdown pages in {_folder(config.content_rel)}"
    else:
        pages = "markdown pages in content/ or docs/"
    roots = ", ".join(_folder(s.strip("/")) for s in config.source) or "the project root"
    langs = (
        "source files"
        if set(config.languages) == set(LangId)
        else f"{', '.join(config.languages)} files"
    )
    return (
        f"nothing to build: looked for {pages} and for {langs} in {roots}, and found none; "
        f"set content and source in {_config_file(config)}"
    )


def home_page_title(config: Config, pages: Iterable[PageRecord]) -> str:
    """The title the home page gives itself (front matter or its h1), or ""."""
    homes = {str(page_node_of(config.content_rel, p.path)): p for p in pages}
    # A page whose front matter makes it the front page (permalink: /, sitegen/site/home.py).
    declared = sorted(n for n, p in homes.items() if _claims_root(p))
    for node in ("/index.md", "/README.md", "/readme.md", *declared):
        page = homes.get(node)
        if page is not None and (
            page.front_matter.get("title") or any(h.level == 1 for h in page.headings)
        ):
            return page.title
    return ""


def _claims_root(page: PageRecord) -> bool:
    """Whether the page's front matter gives it the site's root address (``permalink: /``)."""
    return any(page.front_matter.get(key) == "/" for key in ("url", "permalink"))


def with_default_title(config: Config, pages: Iterable[PageRecord]) -> Config:
    """The site title: ``title``, else ``[project] name`` of pyproject.toml (both read with
    the configuration), else the generator's (Quartz's ``pageTitle``), else the home page's
    title, else the folder's name (``site_title``)."""
    if config.title:
        return config
    found = config.generator.title if config.generator is not None else ""
    return dataclasses.replace(config, title=found or home_page_title(config, pages))


def no_sitemap(config: Config) -> Diagnostic:
    """Why a build without ``base_url`` writes no sitemap.xml, and how to get one."""
    return Diagnostic(
        _config_file(config),
        1,
        1,
        Level.INFO,
        "sitemap.xml not written: a sitemap holds absolute URLs, and base_url is not set "
        '(base_url = "https://docs.example.com/" publishes one)',
        "sitemap",
    )


class UnreadFiles:
    """Why a file that exists was not read: the end of a link message such as "is a python
    file, not analysed (--language rust)"; None for a path that does not exist."""

    def __init__(self, config: Config, found: Crawl) -> None:
        self.config = config
        self.seen = found.all_paths
        self.read = {f.path for f in found.pages} | set(found.assets) | {f.path for f in found.code}

    def __call__(self, path: str) -> str | None:
        if path not in self.seen:
            return None
        if path in self.read:  # only a trailing slash makes a read file unresolvable
            return "is a file, not a folder: drop the trailing '/'"
        config = self.config
        lang = language_for_path(path)
        if lang is not None and lang not in config.languages:
            return f"is a {lang} file, not analysed ({language_setting(config)})"
        roots = [s.strip("/") for s in config.source]
        if lang is not None and roots and not any(repo_path_within(path, r) for r in roots):
            return (
                f"is not under the source roots ({', '.join(_folder(r) for r in roots)}), "
                "so it is not analysed"
            )
        vault = config.generator.own_folders if config.generator is not None else ""
        if lang is not None and not roots and vault:
            return f"is not analysed: {vault}; set source to read code"
        if lang is not None:
            return "was skipped when the project was read (see the warning about it)"
        where = _folder(config.content_rel)
        return f"is not published: only pages and assets under {where} and source files are"
