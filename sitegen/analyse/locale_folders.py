"""Locales: the folders of the content that hold one language each, and the root's language
(content/guides/locales.md). From the ``locales`` option, else the generator record's
(VitePress' ``locales`` read as literals, never run, or mkdocs-static-i18n's ``languages``
in ``mkdocs.yml``: sitegen/generators/).

Pure functions of the configuration and the page nodes; never reads files and never changes
the graph.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from dataclasses import dataclass

from sitegen.base.paths import NodeId
from sitegen.config import Config
from sitegen.generators import Generator


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
    found = _from_option(config) or _from_generator(config.generator)
    kept = [loc for loc in found if not loc.folder or loc.folder in folders]
    if not any(not loc.folder for loc in kept):
        kept.append(Locale("", config.lang, _label(config.lang)))
    kept.sort(key=lambda loc: (not loc.folder, loc.folder))
    return Locales(tuple(kept)) if len(kept) > 1 else Locales()


def _from_option(config: Config) -> list[Locale]:
    return [Locale(folder, folder, _label(folder)) for folder in config.locales]


def _from_generator(found: Generator | None) -> list[Locale]:
    """The languages the generator's configuration names (VitePress' ``locales``,
    mkdocs-static-i18n's ``languages``: read by sitegen/generators/)."""
    if found is None:
        return []
    return [
        Locale(folder, lang, _label(lang) if label is None else label)
        for folder, lang, label in found.locales
    ]


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
