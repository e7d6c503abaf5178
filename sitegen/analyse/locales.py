"""Locales: the folders of the content that hold one language each, and the root's language
(content/guides/locales.md). From the ``locales`` option, VitePress' ``locales`` (read as
literals, never run) or mkdocs-static-i18n's ``languages`` in ``mkdocs.yml``.

Pure functions of the configuration and the page nodes; never reads files and never changes
the graph.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import yaml

from sitegen.config import Config
from sitegen.generators import Generator, read_mkdocs_yml
from sitegen.languages import LangId
from sitegen.literals import read_module
from sitegen.paths import NodeId, content_relative


@dataclass(frozen=True)
class Locale:
    """One language of the site: its folder in the content ("" for pages outside every
    locale folder), its language tag and the label of the language switcher."""

    folder: str
    lang: str
    label: str


@dataclass(frozen=True)
class Locales:
    """The site's locales, the root's last (it holds what no other folder does)."""

    locales: tuple[Locale, ...] = ()

    def __bool__(self) -> bool:
        return len(self.locales) > 1

    def of(self, node: str) -> Locale | None:
        """The locale of a page node (``/es/guide/a.md``), None on a site without locales."""
        if not self:
            return None
        path = node.lstrip("/")
        for locale in self.locales:
            if not locale.folder or path.startswith(locale.folder + "/"):
                return locale
        return None

    def counterpart(self, node: NodeId, other: Locale) -> NodeId:
        """The node of the same page in the locale ``other`` (which may not exist)."""
        here = self.of(node)
        path = node.lstrip("/")
        if here is not None and here.folder:
            path = path[len(here.folder) + 1 :]
        return NodeId("/" + posixpath.join(other.folder, path))


def site_locales(config: Config, nodes: Iterable[str]) -> Locales:
    """The locales of the build: the ``locales`` option, else the generator's; only
    folders that hold a page count."""
    folders = {n.lstrip("/").split("/", 1)[0] for n in nodes if "/" in n.lstrip("/")}
    found = _from_option(config) or _from_generator(config.generator, config)
    kept = [loc for loc in found if not loc.folder or loc.folder in folders]
    if not any(not loc.folder for loc in kept):
        kept.append(Locale("", config.lang, _label(config.lang)))
    kept.sort(key=lambda loc: (not loc.folder, loc.folder))
    return Locales(tuple(kept)) if len(kept) > 1 else Locales()


def _from_option(config: Config) -> list[Locale]:
    return [Locale(folder, folder, _label(folder)) for folder in config.locales]


def _from_generator(found: Generator | None, config: Config) -> list[Locale]:
    if found is None:
        return []
    text = found.source(found.config_file)
    if text is None:
        return []
    if found.name == "VitePress":
        return _vitepress(text, found, config)
    return _static_i18n(text) if found.name == "MkDocs" else []


def _vitepress(text: str, found: Generator, config: Config) -> list[Locale]:
    """VitePress' ``locales``: each key a folder, ``root`` the root, which a rewrite such
    as ``'en/:rest*': ':rest*'`` moves into its folder."""
    lang = LangId.TYPESCRIPT if found.config_file.endswith("ts") else LangId.JAVASCRIPT
    data = read_module(text.encode("utf-8"), lang).default
    given = data.get("locales") if isinstance(data, dict) else None
    if not isinstance(given, dict):
        return []
    rewrites = data.get("rewrites") if isinstance(data, dict) else None
    root_folder = _rewritten_root(rewrites if isinstance(rewrites, dict) else {})
    out = []
    for key, given_value in given.items():
        value = given_value if isinstance(given_value, dict) else {}
        given_tag, given_label = value.get("lang"), value.get("label")
        tag = given_tag if isinstance(given_tag, str) else str(key)
        label = given_label if isinstance(given_label, str) else _label(tag)
        folder = root_folder if key == "root" else key.strip("/")
        repo = posixpath.join(found.docs_dir, folder) if folder else found.docs_dir
        rel = content_relative(config.content_rel, repo) if config.content_rel else repo
        out.append(Locale(rel or "", str(tag), str(label)))
    return out


def _rewritten_root(rewrites: dict[str, Any]) -> str:
    """The folder a ``'en/:rest*': ':rest*'`` rewrite publishes at the root, else ""."""
    for source, target in rewrites.items():
        found = re.fullmatch(r"([\w-]+)/:(\w+)\*", source)
        if found and isinstance(target, str) and target == f":{found.group(2)}*":
            return found.group(1)
    return ""


def _static_i18n(text: str) -> list[Locale]:
    """mkdocs-static-i18n's ``plugins: - i18n: languages: [{locale, name, default}]`` with
    the folder structure (its default, ``docs_structure: folder``)."""
    try:
        data = read_mkdocs_yml(text)
    except yaml.YAMLError:
        return []
    plugins = data.get("plugins") if isinstance(data, dict) else None
    items = plugins if isinstance(plugins, list) else [plugins]
    for item in items:
        options = item.get("i18n") if isinstance(item, dict) else None
        if not isinstance(options, dict) or options.get("docs_structure", "folder") != "folder":
            continue
        languages = options.get("languages")
        return [
            Locale(str(lang["locale"]), str(lang["locale"]), str(lang.get("name") or ""))
            for lang in (languages if isinstance(languages, list) else [])
            if isinstance(lang, dict) and isinstance(lang.get("locale"), str)
        ]
    return []


_NAMES = {
    "en": "English",
    "es": "Español",
    "pt": "Português",
    "fr": "Français",
    "de": "Deutsch",
    "ru": "Русский",
    "zh": "中文",
    "ja": "日本語",
    "ko": "한국어",
}


def _label(tag: str) -> str:
    """A language's own name for the switcher, else its tag."""
    return _NAMES.get(tag.split("-", 1)[0].lower(), tag)
