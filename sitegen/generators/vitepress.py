"""VitePress: a ``.vitepress`` configuration in the content folder or a folder above it.
Its scripts are only searched as text for a slugify of their own, never run.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sitegen.base.js_literals import NotLiteral, read_module
from sitegen.base.languages import LangId
from sitegen.base.paths import content_relative, is_within
from sitegen.generators.record import (
    Generator,
    Holds,
    NavSpec,
    OutputFolder,
    ReadText,
    SlugStyle,
)

#: Characters of a VitePress configuration script searched for its own slugify.
_SCRIPT_LIMIT = 1_000_000
#: The configuration files VitePress looks for in its ``.vitepress`` folder.
VITEPRESS_CONFIGS = tuple(
    name for ext in ("js", "ts", "mjs", "mts") for name in (f"config/index.{ext}", f"config.{ext}")
)


def find_vitepress(root: Path, content: str) -> Generator | None:
    """VitePress, when a ``.vitepress`` configuration sits in the content folder or a folder
    above it (up to the root), the nearest first."""
    folder = content
    while True:
        for name in VITEPRESS_CONFIGS:
            rel = posixpath.join(folder, ".vitepress", name)
            if (root / rel).is_file():
                public = posixpath.join(content, "public")
                return vitepress_generator(
                    rel,
                    folder,
                    content,
                    _vitepress_sources(root, rel, folder),
                    approximated=_own_slugify(root, posixpath.join(folder, ".vitepress")),
                    public=public if (root / public).is_dir() else "",
                )
        if not folder:
            return None
        folder = posixpath.dirname(folder)


def vitepress_generator(
    config_file: str,
    folder: str,
    content: str,
    sources: tuple[tuple[str, str], ...],
    approximated: str = "",
    public: str = "",
) -> Generator:
    """VitePress with the configuration ``config_file`` in ``folder``/.vitepress (the project
    root) and the texts ``sources`` it was read from (the main configuration first): each
    read here, once, as literals (sitegen/base/js_literals.py), never run."""
    configs = read_configs(sources)
    main = configs[0].data if configs and configs[0].path == config_file else {}
    given = main.get("rewrites")
    rewrites = tuple(
        (k, v) for k, v in (given.items() if isinstance(given, dict) else ()) if isinstance(v, str)
    )
    return Generator(
        "VitePress",
        config_file,
        SlugStyle.VITEPRESS,
        approximated=approximated,
        public=public,
        docs_dir=folder,
        sources=sources,
        project_dir=folder,
        locales=_locales(main, rewrites, folder, content),
        nav=VitePressNavSpec(tuple(configs)),
        route_root=_src_dir(configs[0].data if configs else {}, folder),
        rewrites=rewrites,
    )


@dataclass(frozen=True)
class ConfigFile:
    """What sitegen reads of one VitePress configuration file: its path, its text (for the
    lines of warnings) and its default export as literals (``themeConfig``, and in the main
    file ``locales``, ``rewrites`` and ``srcDir``)."""

    path: str
    text: str
    data: dict[str, Any]
    #: The first literal of the file sitegen could not read (sitegen/base/js_literals.py), for
    #: one warning.
    problem: NotLiteral | None = None


@dataclass(frozen=True)
class VitePressNavSpec(NavSpec):
    """VitePress's page tree (``themeConfig.sidebar`` and ``nav`` of every configuration
    file, read by sitegen/site/vitepress.py): the files as read, the main one first."""

    configs: tuple[ConfigFile, ...]


#: The extensions of a configuration script and the grammar each is read with.
_GRAMMAR = {".ts": LangId.TYPESCRIPT, ".mts": LangId.TYPESCRIPT}


def read_configs(sources: tuple[tuple[str, str], ...]) -> list[ConfigFile]:
    """Every configuration file of ``sources`` (path, text), as literals (a file that has no
    default object export gives an empty one)."""
    out = []
    for path, text in sources:
        lang = _GRAMMAR.get(posixpath.splitext(path)[1], LangId.JAVASCRIPT)
        # A text read with errors="replace" holds no surrogate, so it always encodes.
        read = read_module(text.encode("utf-8", "replace"), lang)
        value = read.default
        out.append(ConfigFile(path, text, value if isinstance(value, dict) else {}, read.problem))
    return out


def _src_dir(main: dict[str, Any], folder: str) -> str:
    """The folder routes are named from: ``srcDir``, relative to the project root."""
    src = main.get("srcDir")
    if not isinstance(src, str):
        return folder
    src_dir = posixpath.normpath(posixpath.join(folder, src.strip("/") or "."))
    return "" if src_dir == "." else src_dir


def _locales(
    main: dict[str, Any], rewrites: tuple[tuple[str, str], ...], folder: str, content: str
) -> tuple[tuple[str, str, str | None], ...]:
    """VitePress' ``locales``: each key a folder, ``root`` the root, which a rewrite such
    as ``'en/:rest*': ':rest*'`` moves into its folder; (folder relative to the content
    folder, tag, label or None)."""
    given = main.get("locales")
    if not isinstance(given, dict):
        return ()
    root_folder = _rewritten_root(rewrites)
    out = []
    for key, given_value in given.items():
        value = given_value if isinstance(given_value, dict) else {}
        given_tag, given_label = value.get("lang"), value.get("label")
        tag = given_tag if isinstance(given_tag, str) else str(key)
        label = str(given_label) if isinstance(given_label, str) else None
        sub = root_folder if key == "root" else key.strip("/")
        repo = posixpath.join(folder, sub) if sub else folder
        rel = content_relative(content, repo) if content else repo
        out.append((rel or "", str(tag), label))
    return tuple(out)


def _rewritten_root(rewrites: tuple[tuple[str, str], ...]) -> str:
    """The folder a ``'en/:rest*': ':rest*'`` rewrite publishes at the root, else ""."""
    for source, target in rewrites:
        found = re.fullmatch(r"([\w-]+)/:(\w+)\*", str(source))
        if found and target == f":{found.group(2)}*":
            return found.group(1)
    return ""


def vitepress_outputs(folder: str, holds: Holds, read: ReadText) -> list[OutputFolder]:
    """``outDir`` and ``cacheDir`` of a ``.vitepress`` configuration in a folder, relative to
    that folder (VitePress' project root), when written as string literals; VitePress'
    defaults otherwise."""
    if not holds(".vitepress"):
        return []
    text = next(
        (t for name in VITEPRESS_CONFIGS if (t := read(f".vitepress/{name}")) is not None), None
    )
    if text is None:
        return []
    out_dir = _script_string(text, "outDir") or ".vitepress/dist"
    cache_dir = _script_string(text, "cacheDir") or ".vitepress/cache"
    return [
        OutputFolder(out_dir, "VitePress", "output", "outDir"),
        OutputFolder(cache_dir, "VitePress", "cache", "cacheDir"),
    ]


def _script_string(text: str, key: str) -> str:
    """The string literal of ``key: '...'`` in a configuration script, "" when none."""
    found = re.search(rf"\b{key}\s*:\s*(['\"`])([^'\"`\n]*)\1", text)
    return found.group(2) if found else ""


def _vitepress_sources(root: Path, config: str, folder: str) -> tuple[tuple[str, str], ...]:
    """The texts the page tree is read from: the configuration ``config``, then the
    additional configurations of VitePress 2 (``config.ts`` in the source folder ``folder``
    and in each folder just below it: one per locale), by path. Read as text only."""
    real_root = root.resolve()
    found = [config]
    names = [f"config.{ext}" for ext in ("js", "ts", "mjs", "mts")]
    try:
        below = sorted(
            p.name for p in (root / folder).iterdir() if p.is_dir() and not p.name.startswith(".")
        )
    except OSError:
        below = []
    for sub in ["", *below]:
        for name in names:
            rel = posixpath.join(folder, sub, name)
            if (root / rel).is_file():
                found.append(rel)
    sources = []
    for rel in found:
        path = root / rel
        if not is_within(path.resolve(), real_root):
            continue
        try:
            sources.append(
                (rel, path.read_text(encoding="utf-8", errors="replace")[:_SCRIPT_LIMIT])
            )
        except OSError:
            continue
    return tuple(sources)


#: ``markdown: { anchor: { slugify … } }``: a VitePress site that makes its own ids.
_ANCHOR_SLUGIFY = re.compile(r"\banchor\s*:\s*\{[^{}]*\bslugify\b")
_SCRIPT_EXTENSIONS = (".js", ".ts", ".mjs", ".mts")


def _own_slugify(root: Path, vitepress: str) -> str:
    """What the warning names when a script of the ``.vitepress`` folder ``vitepress`` (or
    of its ``config/``) sets ``anchor: { slugify }``, else "". The scripts are searched as
    text, never run; one outside the root is not read."""
    real_root = root.resolve()
    for folder in (vitepress, posixpath.join(vitepress, "config")):
        try:
            names = sorted(p.name for p in (root / folder).iterdir())
        except OSError:
            continue
        for name in names:
            path = root / folder / name
            if not name.endswith(_SCRIPT_EXTENSIONS) or not is_within(path.resolve(), real_root):
                continue
            try:
                text = path.read_text(encoding="utf-8", errors="replace")[:_SCRIPT_LIMIT]
            except OSError:
                continue
            if _ANCHOR_SLUGIFY.search(text):
                return f"its own slugify (markdown.anchor.slugify in {folder}/{name})"
    return ""
