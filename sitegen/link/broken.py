"""The one record of a link that does not resolve: where it is written, the check it fails,
what it names and the sentence that says how to fix it.

Made by the link step only (``step.py``); the warning printed, the ``sitegen check``
finding, the broken-links page and the build's count all derive from it. Never resolves.
"""

from __future__ import annotations

from typing import NamedTuple

from sitegen.diagnostics import Diagnostic, Level

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
