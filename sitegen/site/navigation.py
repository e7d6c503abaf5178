"""The order the author gives the page tree: an ``order`` key in front matter (``nav_order`` and
``weight`` accepted), and an ``mkdocs.yml`` ``nav:`` followed as MkDocs does (content/guides/site.md).

Pure functions of page records and the text of ``mkdocs.yml``; never reads files and never
renders anything.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import yaml

from sitegen.diagnostics import Diagnostic, Level
from sitegen.docs.records import PageRecord
from sitegen.paths import NodeId, html_out_path
from sitegen.site.views import NavItem

#: The front-matter key sitegen documents, then the names other generators use for it.
ORDER_KEYS = ("order", "nav_order", "weight")
MKDOCS_FILE = "mkdocs.yml"


def page_order(rec: PageRecord | None) -> float | None:
    """The page's place among its siblings, if its front matter gives one (a number)."""
    if rec is None:
        return None
    for key in ORDER_KEYS:
        value = rec.front_matter.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    return None


def sort_key(order: float | None, is_folder: bool, name: str) -> tuple[bool, float, bool, str]:
    """Ordered pages first (by their number), then folders, then pages, each by name."""
    return (order is None, order or 0.0, not is_folder, name)


class _AnyTagLoader(yaml.SafeLoader):
    """mkdocs.yml uses ``!!python/name:`` and ``!ENV`` tags; the nav never needs them."""


def _ignore_tag(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> None:
    return None


_AnyTagLoader.add_multi_constructor("!", _ignore_tag)
_AnyTagLoader.add_multi_constructor("tag:", _ignore_tag)


def mkdocs_nav(
    text: str, content: str, pages: Mapping[NodeId, PageRecord], diagnostics: list[Diagnostic]
) -> tuple[NavItem, ...] | None:
    """The page tree of an ``mkdocs.yml`` whose ``docs_dir`` is the content folder, or None
    when it has no ``nav:`` (or is about another folder)."""
    try:
        config = yaml.load(text, Loader=_AnyTagLoader)  # a SafeLoader subclass
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        diagnostics.append(
            Diagnostic(
                MKDOCS_FILE,
                (mark.line + 1) if mark else 1,
                1,
                Level.WARNING,
                "mkdocs.yml is not valid YAML; its nav is not used",
                "mkdocs-nav",
            )
        )
        return None
    if not isinstance(config, dict) or not isinstance(config.get("nav"), list):
        return None
    docs_dir = str(config.get("docs_dir") or "docs").strip("/")
    if docs_dir != content.strip("/"):
        return None
    return tuple(_entries(config["nav"], _Reader(text, pages, diagnostics)))


@dataclass
class _Reader:
    text: str
    pages: Mapping[NodeId, PageRecord]
    diagnostics: list[Diagnostic]

    def line_of(self, path: str) -> int:
        at = self.text.find(path)
        return self.text.count("\n", 0, at) + 1 if at >= 0 else 1


def _entries(entries: list[Any], reader: _Reader) -> list[NavItem]:
    items = []
    for entry in entries:
        title, value = _title_and_value(entry)
        if isinstance(value, list):
            children = tuple(_entries(value, reader))
            items.append(NavItem(title=title or "Section", children=children, is_folder=True))
        elif isinstance(value, str):
            item = _page_item(title, value, reader)
            if item is not None:
                items.append(item)
    return items


def _title_and_value(entry: Any) -> tuple[str, Any]:
    if isinstance(entry, dict) and len(entry) == 1:
        title, value = next(iter(entry.items()))
        return str(title), value
    return "", entry


def _page_item(title: str, path: str, reader: _Reader) -> NavItem | None:
    if "://" in path or path.startswith(("mailto:", "/")):
        return None  # links out of the site: the page tree lists pages only
    node = NodeId("/" + posixpath.normpath(path).lstrip("/"))
    rec = reader.pages.get(node)
    if rec is None:
        reader.diagnostics.append(
            Diagnostic(
                MKDOCS_FILE,
                reader.line_of(path),
                1,
                Level.WARNING,
                f"the nav entry "
                f"'{path}' names no page of the content folder; it is "
                "left out of the page tree",
                "mkdocs-nav",
            )
        )
        return None
    return NavItem(title=title or rec.title, href=html_out_path(node))
