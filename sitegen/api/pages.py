"""API pages without writing them: for each package the ``api`` option names, one page per
public module (``# pkg.mod`` and ``::: pkg.mod``, the markdown a person would write), in a
folder of the content that mirrors the package tree, with an index page titled "API
reference" (content/guides/configuration.md#api).

The pages join the crawl's pages (``Crawl.add_generated``), so the docs step expands their
blocks, the link step resolves them and the site publishes them like any page. Pure: reads
the model and the pages' bytes, never a file; it never renders an object itself, but an
object a page written by hand shows (a ``:::`` block of the same object) is not shown again:
the generated page links to that entry.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sitegen.api.blocks import find_blocks, merged_options
from sitegen.api.render import render_block
from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.base.paths import RepoPath, content_repo_path
from sitegen.config import Config
from sitegen.records.api import ApiKind, ApiModel, ApiObject
from sitegen.records.crawl import SourceFile

#: The title of the section's index page, which the page tree shows for the folder.
SECTION_TITLE = "API reference"
#: Pages generated at most (a package of more modules is cut, said once).
MAX_PAGES = 5_000
#: Where a dotted path is named: a page (repository path) and its line.
Where = tuple[str, int]
_CODE = "api"
#: A module whose page would be its folder's page (``index.md``) gets this file name suffix:
#: a hyphen is in no Python name, so it never meets another module's page.
_INDEX_NAMES = ("index", "readme")
_ID_LINE = re.compile(r'^\{id="(?P<id>[^"]+)"\}$', re.MULTILINE)
_FRONT_TITLE = re.compile(r"^title:[ \t]*['\"]?(?P<title>[^'\"\r\n]+?)['\"]?[ \t]*\r?$", re.M)
_H1 = re.compile(r"^# +(?P<title>[^\r\n]+?)[ #]*\r?$", re.MULTILINE)
_PUNCTUATION = re.compile(r"([\\`*_\[\]<>&#!|])")


@dataclass(frozen=True)
class ModulePage:
    """One module's generated page: the module, its page's repository path, its depth in the
    package tree named by the option (0 for that package)."""

    module: ApiObject
    path: RepoPath
    depth: int


@dataclass(frozen=True)
class ByHand:
    """The first ``:::`` block written in a page for an object: its target as written (the
    entry's id), the page and its line."""

    target: str
    page: str
    line: int


def named_packages(config: Config) -> dict[str, Where]:
    """The ``api`` option's names, each where it is set (the configuration file)."""
    return dict.fromkeys(config.api, (_origin(config), 1))


def written_blocks(pages: Iterable[SourceFile]) -> dict[str, Where]:
    """Each ``:::`` target the pages name, with the page and line that name it first."""
    found: dict[str, Where] = {}
    for page in pages:
        for block in find_blocks(page.data):
            found.setdefault(block.target, (page.path, block.line))
    return found


def api_pages(
    config: Config,
    model: ApiModel,
    pages: Iterable[SourceFile],
    written: Mapping[str, Where],
    global_options: Mapping[str, Any],
) -> tuple[list[tuple[SourceFile, str]], list[Diagnostic]]:
    """The generated pages (each with the module it documents, "" for the index), sorted by
    path, and what was said: a name that is no project package (a warning), a page written
    by hand at a generated page's path (which wins, an info line)."""
    diagnostics: list[Diagnostic] = []
    modules = _module_pages(config, model, diagnostics)
    if not modules:
        return [], diagnostics
    texts: dict[str, bytes] = {f.path: f.data for f in pages}
    by_hand = _by_hand(model, written)
    made: list[tuple[SourceFile, str]] = []
    index = content_repo_path(config.content_rel, f"{config.api_folder}/index.md")
    candidates = [(index, "", _index_page(config, modules).encode())]
    for page in modules:
        text = _module_page(model, page, by_hand, texts, global_options)
        candidates.append((page.path, page.module.canonical, text.encode()))
    for path, module, data in candidates:
        if path in texts:
            diagnostics.append(_written_wins(path, module))
        else:
            made.append((SourceFile(path, data), module))
    return sorted(made, key=lambda m: m[0].path), diagnostics


# --- the modules ---------------------------------------------------------------------------


def _module_pages(config: Config, model: ApiModel, said: list[Diagnostic]) -> list[ModulePage]:
    """The public modules of each named package, in module order (a package, then its
    subpackages, then its modules, each by name), each once."""
    out: list[ModulePage] = []
    seen: set[str] = set()
    origin = _origin(config)
    for name in config.api:
        root = _named_package(model, name, origin, said)
        if root is None:
            continue
        stack = [(root, 0)]
        while stack:
            obj, depth = stack.pop()
            if obj.canonical in seen:
                continue
            if len(out) >= MAX_PAGES:
                said.append(_said(origin, f"api: over {MAX_PAGES} modules; the rest get no page"))
                return out
            seen.add(obj.canonical)
            out.append(ModulePage(obj, module_page_path(config, obj), depth))
            stack += [(child, depth + 1) for child in reversed(submodules(model, obj))]
    return out


def _named_package(
    model: ApiModel, name: str, origin: str, said: list[Diagnostic]
) -> ApiObject | None:
    """The module ``name`` stands for, when it is one of the project's own."""
    obj = model.get(name)
    if obj is None:
        if name.partition(".")[0] in model.objects:  # a missing package was said by the loader
            said.append(_said(origin, f"api: no module {name} in the package's code"))
        return None
    if obj.kind is not ApiKind.MODULE:
        said.append(_said(origin, f"api: {name} is a {obj.kind.value}, not a module or package"))
        return None
    if obj.external:
        said.append(
            _said(
                origin,
                f"api: {name} is an installed package, not one of the project's source files; "
                "API pages are generated for the project's own code only",
            )
        )
        return None
    return obj


def submodules(model: ApiModel, obj: ApiObject) -> list[ApiObject]:
    """The public submodules of a package defined in it (not imported from elsewhere), the
    subpackages first, each group by name: the order of the page tree."""
    found = []
    for name, canonical in obj.members:
        child = model.objects.get(canonical)
        if (
            canonical == f"{obj.canonical}.{name}"
            and child is not None
            and child.kind is ApiKind.MODULE
            and child.is_public
            and not name.startswith("_")
            and not child.external
        ):
            found.append(child)
    return sorted(found, key=lambda m: (not is_package(m), m.name))


def is_package(obj: ApiObject) -> bool:
    """A package has an ``__init__`` file, or none at all (a namespace package)."""
    return not obj.file or posixpath.basename(obj.file) in ("__init__.py", "__init__.pyi")


def module_page_path(config: Config, obj: ApiObject) -> RepoPath:
    """Where a module's page is generated: ``<api_folder>/pkg/sub/mod.md``, a package's as
    its folder's page, ``<api_folder>/pkg/sub/index.md`` (as mkdocs-api-autonav lays them
    out). A module named ``index`` or ``readme`` is ``index-module.md``."""
    parts = obj.canonical.split(".")
    if is_package(obj):
        rel = "/".join([*parts, "index.md"])
    else:
        last = parts[-1] + ("-module" if parts[-1].lower() in _INDEX_NAMES else "")
        rel = "/".join([*parts[:-1], last + ".md"])
    return content_repo_path(config.content_rel, f"{config.api_folder}/{rel}")


# --- the pages ----------------------------------------------------------------------------


def _index_page(config: Config, modules: list[ModulePage]) -> str:
    """The section's page: every module, as a tree of links."""
    index_dir = posixpath.dirname(
        content_repo_path(config.content_rel, f"{config.api_folder}/index.md")
    )
    lines = [
        f"# {SECTION_TITLE}",
        "",
        "The public modules of "
        + ", ".join(f"`{p.module.canonical}`" for p in modules if p.depth == 0)
        + ", generated from their code (the `api` option).",
        "",
    ]
    for page in modules:
        href = _destination(posixpath.relpath(page.path, index_dir))
        lines.append(f"{'    ' * page.depth}- [`{page.module.canonical}`]({href})")
    return "\n".join(lines) + "\n"


#: The options of every generated block: the module's own heading is the page's title (``#``,
#: with the module's id, as mkdocstrings gives it), its members the page's sections.
PAGE_OPTIONS: Mapping[str, Any] = {
    "show_root_heading": True,
    "show_root_full_path": True,
    "heading_level": 1,
}


def _module_page(
    model: ApiModel,
    page: ModulePage,
    by_hand: Mapping[str, ByHand],
    texts: Mapping[str, bytes],
    global_options: Mapping[str, Any],
) -> str:
    """``::: pkg.mod`` with ``PAGE_OPTIONS``; without the members (or the module) a page
    written by hand shows, which are listed with a link to their entry instead."""
    module = page.module
    own = by_hand.get(module.canonical)
    if own is not None:
        return f"# {module.canonical}\n\nDocumented in {_entry_link(page.path, own, texts)}.\n"
    moved = _moved_members(model, page, by_hand, global_options)
    if moved is None:
        return _block(module.canonical, PAGE_OPTIONS)
    shown, elsewhere = moved
    tail = "".join(
        f"- `{name}`: documented in {_entry_link(page.path, entry, texts)}\n"
        for name, entry in elsewhere
    )
    block = _block(module.canonical, {**PAGE_OPTIONS, "members": shown})
    return block + "\n## Documented on other pages\n\n" + tail


def _block(target: str, options: Mapping[str, Any]) -> str:
    """A ``:::`` block with its options, as a person writes one (names and booleans only)."""
    lines = [f"::: {target}", "    options:"]
    for key, value in options.items():
        if isinstance(value, list):
            lines.append(f"      {key}:" + ("" if value else " []"))
            lines += [f"        - {name}" for name in value]
        else:
            lines.append(f"      {key}: {str(value).lower() if isinstance(value, bool) else value}")
    return "\n".join(lines) + "\n"


def _moved_members(
    model: ApiModel,
    page: ModulePage,
    by_hand: Mapping[str, ByHand],
    global_options: Mapping[str, Any],
) -> tuple[list[str], list[tuple[str, ByHand]]] | None:
    """The module's members the block shows but a page written by hand, and those that
    page shows (with its entry); None when no page shows any. The members shown are read
    from the rendered block itself, so the filters, the order and every other option stay
    render.py's."""
    module = page.module
    members = (model.target(f"{module.canonical}.{n}") or "" for n, _ in module.members)
    if not any(m in by_hand for m in members):
        return None
    options, _ = merged_options(global_options, PAGE_OPTIONS)
    text, _ = render_block(model, module.canonical, options, page.path)
    shown, elsewhere = [], []
    for name in _root_members(text, module.canonical):
        entry = by_hand.get(model.target(f"{module.canonical}.{name}") or "")
        if entry is None:
            shown.append(name)
        else:
            elsewhere.append((name, entry))
    return (shown, elsewhere) if elsewhere else None


def _root_members(markdown: str, module: str) -> list[str]:
    """The names of a rendered block's top members, in order: the headings whose id is the
    module's path and one name more (mkdocstrings' ids, content/guides/api-reference.md)."""
    names: dict[str, None] = {}
    for found in _ID_LINE.finditer(markdown):
        head, dot, name = found.group("id").rpartition(".")
        if dot and head == module and name.isidentifier():
            names.setdefault(name)
    return list(names)


def _by_hand(model: ApiModel, written: Mapping[str, Where]) -> dict[str, ByHand]:
    """The objects pages written by hand show, by canonical path: the first block of each."""
    out: dict[str, ByHand] = {}
    for target, (page, line) in written.items():
        canonical = model.target(target)
        if canonical is not None:
            out.setdefault(canonical, ByHand(target, page, line))
    return out


def _entry_link(page: str, entry: ByHand, texts: Mapping[str, bytes]) -> str:
    """A markdown link from the generated ``page`` to a block written by hand."""
    href = posixpath.relpath(entry.page, posixpath.dirname(page)) + "#" + entry.target
    title = _PUNCTUATION.sub(r"\\\1", _title_of(entry.page, texts.get(entry.page, b"")))
    return f"[{title}]({_destination(href)})"


def _title_of(path: str, data: bytes) -> str:
    """A page's title for a link's text: its front matter's, its first heading's, else its
    file name."""
    text = data[:65536].decode("utf-8", "replace")
    if text.startswith("---"):
        end = text.find("\n---", 3)
        found = _FRONT_TITLE.search(text, 0, end if end > 0 else 0)
        if found:
            return found.group("title").strip()
        text = text[end + 4 :] if end > 0 else text
    heading = _H1.search(text)
    if heading:
        return heading.group("title").strip()
    return posixpath.splitext(posixpath.basename(path))[0]


def _destination(href: str) -> str:
    return f"<{href}>" if any(c in href for c in " ()") else href


def _written_wins(path: str, module: str) -> Diagnostic:
    what = f"the API page of {module}" if module else "the API reference's index page"
    return Diagnostic(
        path,
        1,
        1,
        Level.INFO,
        f"a page written here wins over {what}, which is not generated",
        _CODE,
    )


def _origin(config: Config) -> str:
    return config.set_by.get("api") or "sitegen.toml"


def _said(origin: str, message: str) -> Diagnostic:
    return Diagnostic(origin, 1, 1, Level.WARNING, message, _CODE)
