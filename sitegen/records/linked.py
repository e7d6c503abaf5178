"""What the link step gives the stages after it: the document graph of one crawl, how each
link resolved, the broken links, the API entries the pages show, the embeds and the old
anchors kept working (content/guides/linking.md, content/reference/edges.md).

Made by ``link_all`` in sitegen/link/step.py (and ``aliases_of_build`` in
sitegen/link/anchor_aliases.py); plain records, never a resolution rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import NamedTuple

from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.base.paths import NodeId
from sitegen.graph.model import Edge, Graph
from sitegen.graph.store.anchors import AnchorAlias, AnchorBook
from sitegen.records.api import ApiModel, canonical_of

# --- how a link resolved (the rules: sitegen/link/rules.py) --------------------------------


class Outcome(StrEnum):
    INTERNAL = "internal"  # a page, asset or source file of the site
    EXTERNAL = "external"  # an absolute URL
    MISSING = "missing"  # a local target that does not exist
    OUTSIDE = "outside"  # a local target outside the project root (a missing node)
    SELF = "self"  # the linking file itself: no edge, fragment checked
    LOOPBACK = "loopback"  # a loopback or private host: kept in the page, no edge
    IGNORED = "ignored"  # mailto:, tel:, empty …: not an edge
    UNRESOLVED = "unresolved"  # an autoref nothing knows: its text, not a link
    TEMPLATE = "template"  # {{ x.url }}, {% url %}: the generator's to fill in, kept as written
    #: A vault's note that no file holds yet: shown as text, a missing node, not broken.
    UNRESOLVED_NOTE = "unresolved-note"


@dataclass(frozen=True, slots=True)
class Resolved:
    outcome: Outcome
    node: NodeId | None = None
    fragment: str = ""
    #: For MISSING: the repository path that was looked up.
    looked_up: str = ""
    #: The old address of the redirect the link went through ("" for none).
    via: str = ""
    #: The URL the link is published with when it is not the one written: an autoref found
    #: in an inventory (with its fragment, which the external node drops).
    url: str = ""
    #: For a file an Obsidian vault found by name: the other files of that name (the link is
    #: ambiguous when any).
    others: tuple[str, ...] = ()


# --- broken links (the sentences: sitegen/link/broken.py) ----------------------------------


#: The kinds of broken link (``BrokenLink.check``), each also the code of its diagnostic.
BROKEN_LINK = "broken-link"
BROKEN_ANCHOR = "broken-anchor"
MISSING_REL_TARGET = "missing-rel-target"
BROKEN_AUTOREF = "broken-autoref"
AMBIGUOUS_WIKILINK = "ambiguous-wikilink"


#: Not broken: a link to a loopback or private host, which stays in the page as written but
#: makes no edge. Kept apart from the broken ones (``Linked.loopback``), never a warning: the
#: ``loopback-link`` check (default ``ignore``) reports it to whoever asks.
LOOPBACK_LINK = "loopback-link"


#: Not broken either: in an Obsidian vault, a link to a note that no file of the vault holds
#: is an *unresolved link*, a placeholder for a note still to write (Obsidian creates it when
#: the link is clicked; Obsidian Publish shows the text, styled, with no href). One info line
#: each, never a warning nor a ``sitegen check`` error (content/guides/obsidian.md).
UNRESOLVED_NOTE = "unresolved-note"


class BrokenLink(NamedTuple):
    """One broken link, anchor, relation target or cross-reference, or an ambiguous wikilink.

    A tuple, so the records sort by place first (path, line, column) wherever they are listed.
    """

    #: The linking file, repository-relative; 1-based line and column of the link.
    path: str
    line: int
    col: int
    #: Which kind it is: ``broken-link``, ``broken-anchor``, ``missing-rel-target``, …
    check: str
    #: The destination as written (``guide.md#setup``, ``[[Page]]``, ``pkg.Model``).
    target: str
    #: The full sentence: what is wrong and, where one is close, what was meant.
    message: str

    def diagnostic(self) -> Diagnostic:
        """The warning the build prints for it (``--strict`` and severities see its check)."""
        return Diagnostic(self.path, self.line, self.col, Level.WARNING, self.message, self.check)

    @property
    def is_broken_link(self) -> bool:
        """Whether the build's summary counts it as a broken link (an anchor is not one)."""
        return self.check != BROKEN_ANCHOR


# --- the API entries the pages show (sitegen/link/api_entries.py) --------------------------


class Via:
    """How a name found its entry, in the words ``sitegen explain`` prints."""

    ID = "the id of an entry"
    CANONICAL = "the object an alias names, shown at its own path"
    OTHER_PATH = "the object, shown under another path"


@dataclass(frozen=True, slots=True)
class ApiEntry:
    """One object shown on one page: the page, the id of its heading or hidden root, and the
    canonical path of the object (what an alias or a re-export stands for)."""

    page: NodeId
    id: str
    canonical: str

    @property
    def where(self) -> str:
        return f"{self.page}#{self.id}"


@dataclass
class ApiEntries:
    """Every entry of the site, by the id it is shown with and by its object's canonical
    path; when several pages show one object, the entry at the object's own path wins, then
    the first page by path (the same entry on every build)."""

    by_id: dict[str, ApiEntry] = field(default_factory=dict)
    by_canonical: dict[str, ApiEntry] = field(default_factory=dict)
    model: ApiModel = field(default_factory=ApiModel)
    #: Every entry of every page, by (page, id): what a link that lands on one names.
    by_place: dict[tuple[NodeId, str], ApiEntry] = field(default_factory=dict)
    _pages: dict[NodeId, list[ApiEntry]] | None = field(default=None, repr=False, compare=False)

    def __bool__(self) -> bool:
        return bool(self.by_id)

    def find(self, dotted: str) -> tuple[ApiEntry | None, str, str]:
        """The entry a dotted name means, how it was found (a ``Via``), and the canonical
        path the name stands for ("" when the model does not know it)."""
        exact = self.by_id.get(dotted)
        canonical = canonical_of(self.model, dotted) or ""
        if exact is not None:
            return exact, Via.ID, canonical
        found = self.by_canonical.get(canonical) if canonical else None
        if found is None:
            return None, "", canonical
        return found, Via.CANONICAL if found.id == canonical else Via.OTHER_PATH, canonical

    def entries(self) -> list[ApiEntry]:
        """Every entry of every page, by page then id."""
        return sorted(self.by_place.values(), key=lambda e: (e.page, e.id))

    def on_page(self, page: NodeId) -> list[ApiEntry]:
        """The entries of one page, by id."""
        if self._pages is None:
            self._pages = {}
            for entry in self.entries():
                self._pages.setdefault(entry.page, []).append(entry)
        return self._pages.get(page, [])


# --- embeds shown transcluded (sitegen/link/embeds.py) -------------------------------------


@dataclass(frozen=True)
class Embed:
    """One embed the site shows transcluded: link ``index`` of the host page shows
    ``part`` of the page ``target`` (its HTML with the target's link marks)."""

    index: int
    target: NodeId
    fragment: str  # "" for the whole page, a heading id, or ``^`` and a block id
    part: str


@dataclass
class Embeds:
    """Every transcluded embed, by host page and link index, and what is wrong with others."""

    by_host: dict[NodeId, dict[int, Embed]] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)


# --- old anchors kept working (sitegen/link/anchor_aliases.py) -----------------------------


@dataclass(frozen=True)
class AliasesOfBuild:
    """What this build publishes of old anchors: every page's anchors and aliases (what the
    store keeps next), and the info lines naming each alias."""

    book: AnchorBook = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def of(self, node: NodeId) -> tuple[AnchorAlias, ...]:
        page = self.book.get(node)
        return page.aliases if page else ()


# --- the link step's output ----------------------------------------------------------------


@dataclass
class Linked:
    """The document graph of one crawl, per source, plus how each page's links resolved."""

    graph: Graph
    #: Node id of every page/source the crawl read -> its outgoing edges (possibly none).
    edges_by_source: dict[NodeId, list[Edge]]
    #: Page node id -> the resolution of each of its links, by link index.
    resolutions: dict[NodeId, list[Resolved]]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: Every broken link, anchor, relation target and cross-reference, in the order found.
    broken: list[BrokenLink] = field(default_factory=list)
    #: Every link to a loopback or private host (kept in its page, no edge), in the order
    #: found: the ``loopback-link`` check's findings, never a warning of the build.
    loopback: list[BrokenLink] = field(default_factory=list)
    #: The Python objects the pages' ``:::`` blocks show, and which page shows each
    #: (sitegen/link/api_entries.py); empty without blocks.
    api: ApiModel | None = None
    entries: ApiEntries = field(default_factory=ApiEntries)
    #: The embeds the site shows transcluded (sitegen/link/embeds.py).
    embeds: Embeds = field(default_factory=Embeds)
