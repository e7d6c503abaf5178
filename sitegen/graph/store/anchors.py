"""Each page's published anchors and the aliases that keep its old anchors working, as the store
keeps them (content/reference/store.md#anchors), and their JSON form.

Plain records only: which alias a page gets is decided by ``sitegen/link/anchor_aliases.py``.
Nothing read back is trusted: every value is checked on load, and a bad file is a ``StoreError``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sitegen.base.diagnostics import cut
from sitegen.base.paths import NodeId
from sitegen.graph.store.base import StoreError
from sitegen.state.caches import ANCHORS_VERSION as ANCHORS_VERSION
from sitegen.state.files import Unreadable, parse_json


@dataclass(frozen=True, order=True)
class Anchor:
    """One heading id a page published, with the heading's text."""

    id: str
    text: str


@dataclass(frozen=True, order=True)
class AnchorAlias:
    """An id a page published once and no heading of it has now."""

    old: str
    #: The heading id it now lands on; "" when the section was removed (a notice holds it).
    target: str
    #: The heading's text when it last had the id.
    text: str

    @property
    def removed(self) -> bool:
        return not self.target


@dataclass(frozen=True)
class PageAnchors:
    """What a page published: its heading ids in page order, and its aliases sorted by old id."""

    anchors: tuple[Anchor, ...] = ()
    aliases: tuple[AnchorAlias, ...] = ()


#: Every page's anchors, by the page's node id (independent of its URL).
AnchorBook = dict[NodeId, PageAnchors]


def dump_anchors(book: AnchorBook) -> str:
    """``anchors.json``: pages sorted by node, so the same book is the same bytes."""
    pages = {
        node: {
            "anchors": [[a.id, a.text] for a in page.anchors],
            "aliases": [[a.old, a.target, a.text] for a in page.aliases],
        }
        for node, page in sorted(book.items())
    }
    return json.dumps({"version": ANCHORS_VERSION, "pages": pages}, ensure_ascii=False) + "\n"


def load_anchors(text: str | bytes) -> AnchorBook:
    """The book in an ``anchors.json`` text; ``StoreError`` when it is not one (not JSON, a
    lone surrogate, another shape: sitegen/state/files.py)."""
    try:
        data = parse_json(text)
    except Unreadable as err:
        raise StoreError(str(err)) from None
    if not isinstance(data, dict) or data.get("version") != ANCHORS_VERSION:
        raise StoreError(f"not anchors of version {ANCHORS_VERSION}")
    pages = data.get("pages")
    if not isinstance(pages, dict):
        raise StoreError("no pages")
    try:
        return {NodeId(node): _page(node, value) for node, value in pages.items()}
    except (TypeError, ValueError) as err:
        raise StoreError(str(err)) from None


def page_anchors(anchors: list[list[Any]], aliases: list[list[Any]]) -> PageAnchors:
    """A page's anchors from rows of strings (``[id, text]``, ``[old, target, text]``), checked."""
    return PageAnchors(
        tuple(Anchor(*_strings(row, 2)) for row in anchors),
        tuple(sorted(AnchorAlias(*_strings(row, 3)) for row in aliases)),
    )


def _page(node: str, value: Any) -> PageAnchors:
    if not node.startswith("/") or type(value) is not dict:
        raise TypeError(f"page {cut(repr(node))}: expected a node id and an object")
    anchors, aliases = value.get("anchors"), value.get("aliases")
    if type(anchors) is not list or type(aliases) is not list:
        raise TypeError(f"page {cut(repr(node))}: expected lists of anchors and aliases")
    return page_anchors(anchors, aliases)


def _strings(row: Any, n: int) -> list[str]:
    if type(row) is not list or len(row) != n or not all(type(v) is str for v in row):
        raise TypeError(f"expected {n} strings, not {cut(repr(row))}")
    return row
