"""GitHub heading slugs (github-slugger's rules: content/reference/headings.md), numbered per page.

Pure string functions over a heading's plain text; never parses markdown or renders HTML.
"""

from __future__ import annotations

import unicodedata

#: Unicode general categories a slug keeps: letters, marks, decimal and letter numbers,
#: connector punctuation. Everything else goes, except the ASCII hyphen and the space.
_KEPT_CATEGORIES = frozenset(("Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "Pc"))


class _SlugTable(dict[int, str | None]):
    """``str.translate`` table filled lazily, one decision per code point ever seen."""

    def __missing__(self, code: int) -> str | None:
        char = chr(code)
        if char == " ":
            kept: str | None = "-"
        elif char == "-" or unicodedata.category(char) in _KEPT_CATEGORIES:
            kept = char
        else:
            kept = None
        self[code] = kept
        return kept


_TABLE = _SlugTable()


def github_slug(text: str) -> str:
    """The GitHub anchor of a heading whose plain text is ``text``, before numbering.

    Lower-cased as JavaScript's ``toLowerCase`` does (full Unicode mappings, so ``İ``
    becomes ``i`` plus a combining dot, which is a mark and stays); nothing is trimmed or
    collapsed: ``"a - b"`` is ``"a---b"``.
    """
    return text.lower().translate(_TABLE)


class Slugger:
    """Unique ids within one page, numbered the way github-slugger numbers them.

    A repeat gets ``-1``, ``-2`` … counted per original slug, skipping ids already taken:
    ``Foo, Foo, Foo-1`` gives ``foo, foo-1, foo-1-1``.
    """

    def __init__(self) -> None:
        #: Every id handed out or reserved -> how many repeats of it were numbered so far.
        self._occurrences: dict[str, int] = {}

    def reserve(self, id_: str) -> None:
        """Mark an explicit id (``{#id}``) as taken, so no generated slug collides with it."""
        self._occurrences.setdefault(id_, 0)

    def slug(self, text: str) -> str:
        original = github_slug(text)
        result = original
        while result in self._occurrences:
            self._occurrences[original] += 1
            result = f"{original}-{self._occurrences[original]}"
        self._occurrences[result] = 0
        return result
