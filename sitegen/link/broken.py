"""What the link step says of a link that does not resolve: whether a wikilink's name is a
note's (``names_a_note``), and the sentences of an unresolved note and a loopback link.

The record of such a link, ``BrokenLink``, is in sitegen/records/linked.py; the link step
(``step.py``) makes it, and the warning printed, the ``sitegen check`` finding, the
broken-links page and the build's count all derive from it. Never resolves.
"""

from __future__ import annotations

import posixpath
import re

from sitegen.base.paths import PAGE_SUFFIXES

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
