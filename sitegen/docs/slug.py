"""Heading slugs as each generator makes them (content/reference/headings.md#slug-styles),
numbered per page: GitHub's (github-slugger, the default), VitePress's (@mdit-vue/shared),
Python-Markdown's toc slugify (MkDocs) and pymdownx.slugs.

Pure string functions over a heading's text; never parses markdown or renders HTML.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from typing import Protocol

from sitegen.generators import SlugStyle

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


# --- VitePress ----------------------------------------------------------------------------

#: What JavaScript's ``\s`` matches (ECMAScript WhiteSpace and LineTerminator), which is not
#: Python's: U+FEFF is in it, U+001C-U+001F and U+0085 are not.
_JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
#: Each run of spaces and of these marks becomes one hyphen.
_VITEPRESS_SEPARATORS = re.compile(
    "[" + _JS_SPACE + r"~`!@#$%^&*()\-_+=\[\]{}|\\;:\"'\u201c\u201d\u2018\u2019<>,.?/" + "]+"
)
#: Combining diacritical marks (U+0300-U+036F), dropped after NFKD: ``é`` becomes ``e``.
_COMBINING = re.compile("[\u0300-\u036f]")
_CONTROLS = re.compile("[\u0000-\u001f]")
_HYPHENS = re.compile("-{2,}")


def vitepress_slug(text: str) -> str:
    """The id VitePress gives a heading whose text is ``text``, before numbering.

    Compatibility-decomposed, accents dropped, controls dropped; every run of spaces and
    ASCII punctuation (and curly quotes) becomes one ``-``, trimmed at both ends; a leading
    ASCII digit gets ``_`` before it; then lower-cased. Other symbols and emoji stay.
    """
    slug = _COMBINING.sub("", unicodedata.normalize("NFKD", text))
    slug = _VITEPRESS_SEPARATORS.sub("-", _CONTROLS.sub("", slug))
    slug = _HYPHENS.sub("-", slug).strip("-")
    if slug[:1].isascii() and slug[:1].isdigit():
        slug = "_" + slug
    return slug.lower()


# --- Python-Markdown and pymdownx ---------------------------------------------------------

#: Python-Markdown's toc keeps word characters, whitespace and hyphens.
_NOT_TOC_CHAR = re.compile(r"[^\w\s-]")
_TOC_SEPARATORS = re.compile(r"[-\s]+")
#: pymdownx.slugs drops anything that looks like a tag, then all but words, ``-`` and spaces.
_TAG = re.compile(r"</?[^>]*>")
_NOT_PYMDOWNX_CHAR = re.compile(r"[^\w\- ]")


def toc_slug(text: str, unicode: bool = False) -> str:
    """The id Python-Markdown's toc extension (MkDocs' default) gives a heading whose text
    is ``text``, before numbering: without ``unicode``, compatibility-decomposed and cut
    to ASCII (``é`` becomes ``e``, ``ß`` goes); then all but word characters, whitespace
    and hyphens dropped, trimmed, lower-cased, and each run of whitespace and hyphens made
    one ``-``."""
    if not unicode:
        text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    slug = _NOT_TOC_CHAR.sub("", text).strip().lower()
    return _TOC_SEPARATORS.sub("-", slug)


def pymdownx_slug(text: str, lower: bool = True) -> str:
    """The id pymdownx.slugs' ``slugify(case="lower")`` gives (``case="none"`` without
    ``lower``), before numbering: NFC, tags dropped, trimmed, then all but word characters,
    hyphens and spaces dropped and each space made a ``-``, with no collapsing."""
    slug = _TAG.sub("", unicodedata.normalize("NFC", text)).strip()
    if lower:
        slug = slug.lower()
    return _NOT_PYMDOWNX_CHAR.sub("", slug).replace(" ", "-")


# --- numbering ----------------------------------------------------------------------------


class PageSlugger(Protocol):
    """Unique ids within one page, as one generator numbers its repeats."""

    def reserve(self, id_: str) -> None:
        """Mark an explicit id (``{#id}``) as taken, so no generated slug collides with it."""

    def slug(self, text: str) -> str:
        """The id of the next heading whose text is ``text``."""


class Slugger:
    """Numbered the way github-slugger numbers: a repeat gets ``-1``, ``-2`` … counted per
    original slug, skipping ids already taken: ``Foo, Foo, Foo-1`` gives ``foo, foo-1,
    foo-1-1``. markdown-it-anchor (VitePress) tries ``-1``, ``-2`` … from 1 each time,
    which gives the same ids."""

    def __init__(self, slugify: Callable[[str], str] = github_slug) -> None:
        self._slugify = slugify
        #: Every id handed out or reserved -> how many repeats of it were numbered so far.
        self._occurrences: dict[str, int] = {}

    def reserve(self, id_: str) -> None:
        self._occurrences.setdefault(id_, 0)

    def slug(self, text: str) -> str:
        original = self._slugify(text)
        result = original
        while result in self._occurrences:
            self._occurrences[original] += 1
            result = f"{original}-{self._occurrences[original]}"
        self._occurrences[result] = 0
        return result


#: An id that already ends in ``_<number>``: Python-Markdown counts that number up.
_NUMBERED = re.compile(r"(.*)_([0-9]+)")


class PythonMarkdownSlugger:
    """Numbered the way Python-Markdown's toc numbers: a repeat, or an empty slug, gets
    ``_1``; an id that ends in ``_<n>`` already becomes ``_<n+1>`` (``Foo, Foo, Foo``
    gives ``foo, foo_1, foo_2``, and an emoji-only heading ``_1``)."""

    def __init__(self, slugify: Callable[[str], str]) -> None:
        self._slugify = slugify
        self._taken: set[str] = set()
        #: A taken id -> an id further on its chain of numbers, all taken between: the
        #: thousandth "Foo" skips to ``foo_999`` instead of trying ``foo_1`` to ``foo_998``.
        self._further: dict[str, str] = {}

    def reserve(self, id_: str) -> None:
        self._taken.add(id_)

    def slug(self, text: str) -> str:
        id_ = self._slugify(text)
        passed = []
        while id_ in self._taken or not id_:
            passed.append(id_)
            id_ = self._further.get(id_) or _next_number(id_)
        for taken in passed:
            self._further[taken] = id_
        self._taken.add(id_)
        return id_


def _next_number(id_: str) -> str:
    """``foo`` -> ``foo_1``, ``foo_1`` -> ``foo_2``: Python-Markdown's next try."""
    numbered = _NUMBERED.fullmatch(id_)
    return f"{numbered[1]}_{int(numbered[2]) + 1}" if numbered else f"{id_}_1"


def slugger(style: SlugStyle, taken: Iterable[str] = ()) -> PageSlugger:
    """A fresh slugger for one page in ``style``, with the explicit ids ``taken``."""
    made: PageSlugger
    if style == SlugStyle.GITHUB:
        made = Slugger()
    elif style == SlugStyle.VITEPRESS:
        made = Slugger(vitepress_slug)
    elif style in (SlugStyle.MKDOCS, SlugStyle.MKDOCS_UNICODE):
        made = PythonMarkdownSlugger(
            lambda text: toc_slug(text, unicode=style == SlugStyle.MKDOCS_UNICODE)
        )
    else:
        made = PythonMarkdownSlugger(
            lambda text: pymdownx_slug(text, lower=style == SlugStyle.PYMDOWNX)
        )
    for id_ in taken:
        made.reserve(id_)
    return made
