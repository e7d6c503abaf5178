"""The one record of a link that does not resolve: where it is written, the check it fails,
what it names and the sentence that says how to fix it.

Made by the link step only (``step.py``); the warning printed, the ``sitegen check``
finding, the broken-links page and the build's count all derive from it. Never resolves.
"""

from __future__ import annotations

import posixpath
import re
from typing import NamedTuple

from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.base.paths import PAGE_SUFFIXES

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

#: The end of a file name that makes it a file rather than a note: a dot, a letter, then
#: letters and digits (``.png``, ``.pdf``, ``.mp4``, ``.canvas``). ``Release 1.5`` or
#: ``Mr. Smith`` names a note, as Obsidian reads it (it adds ``.md`` to such a name).
_FILE_EXTENSION = re.compile(r"\.[a-z][a-z0-9]{0,9}")


def names_a_note(path: str) -> bool:
    """Whether a link's path (its fragment left out) names a note of a vault: a name with no
    file extension or a page's (``Example``, ``Example.md``), not an attachment
    (``diagram.png``) nor a folder (``guides/``). A missing attachment stays a broken link."""
    path = path.strip()
    if not path or path.endswith("/"):
        return False
    ext = posixpath.splitext(posixpath.basename(path))[1].lower()
    return ext in PAGE_SUFFIXES or _FILE_EXTENSION.fullmatch(ext) is None


def unresolved_message(written: str) -> str:
    """The ``unresolved-note`` info line (``written`` is the link's note as written)."""
    return (
        f"'{written}' names no note of the vault; shown as unresolved text, as Obsidian "
        "Publish does"
    )


def loopback_message(what: str, written: str) -> str:
    """The ``loopback-link`` finding's sentence (``what`` is "link" or "relation 'rel-x'")."""
    return (
        f"{what} to '{written}' points at a loopback or private host that only your own "
        "machine or network can reach; it stays in the page but is no edge of graph.md or "
        "graph.json"
    )


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
