"""The pymdownx family's inline marks as Material for MkDocs documents them: keys
``++ctrl+alt+del++`` (pymdownx.keys), ``^^insert^^`` and ``^sup^`` (pymdownx.caret),
``~~delete~~`` and ``~sub~`` (pymdownx.tilde), each read only where ``mkdocs.yml`` enables
it (content/syntax/formatting.md).

Key names come from pymdown-extensions' own key map (``pymdownx.keymap_db``, data only).
Carets and tildes are delimiters paired by markdown-it's own balancing, as emphasis is, so
they nest with it and never reach into code spans, math or footnote labels. Never reads files.
"""

from __future__ import annotations

import functools
import html
import importlib
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from weakref import WeakSet

from markdown_it import MarkdownIt
from markdown_it.common.utils import isWhiteSpace
from markdown_it.rules_inline import StateInline
from markdown_it.rules_inline.state_inline import Delimiter, Scanned
from markdown_it.token import Token

from sitegen.docs.positions import InlineRule

__all__ = ["caret_plugin", "key_names", "keys_plugin", "tilde_plugin"]

# --- keys ---------------------------------------------------------------------------------

#: One key between ``++`` and ``++`` (or between ``+`` signs): a name of word characters and
#: hyphens, or a quoted text in which a backslash escapes the next character.
_KEY = re.compile(r"""[\w-]+|"(?:[^"\\]|\\.)+"|'(?:[^'\\]|\\.)+'""")
_BACKSLASHED = re.compile(r"\\(.)")


@functools.cache
def _key_map() -> tuple[Mapping[str, str], Mapping[str, str]]:
    """pymdownx's key map: (the shown name by key, the key each alias stands for). Imported
    on the first ``++`` of the process, so a site without keys never loads it."""
    db = importlib.import_module("pymdownx.keymap_db")
    return db.keymap, db.aliases


def key_names(written: list[str]) -> list[tuple[str, str]] | None:
    """The (class, shown name) of each key as written between the ``+`` signs, as
    pymdownx.keys shows it with its default options: a known name (or alias) gets the class
    ``key-`` and its canonical name, a quoted text shows as written with no class. None when
    one name is not in the map: then the whole is no keys, as pymdownx leaves it."""
    names, aliases = _key_map()
    out: list[tuple[str, str]] = []
    for key in written:
        if key[0] in "\"'":
            out.append(("", html.unescape(_BACKSLASHED.sub(r"\1", key[1:-1])).strip()))
            continue
        canonical = aliases.get(key, key)
        shown = names.get(canonical)
        if shown is None:
            return None
        out.append((f"key-{canonical}", shown))
    return out


def _written_keys(src: str, pos: int, end: int) -> tuple[list[str], int] | None:
    """The keys of ``++a+b++`` starting at ``pos`` and where it ends; None if no such run.
    Each key is read once and a quoted one ends at its closing quote, so the work is the
    length of the run (a failed try stops at the first character that is no key)."""
    if not src.startswith("++", pos):
        return None
    at = pos + 2
    keys: list[str] = []
    while True:
        found = _KEY.match(src, at, end)
        if found is None:
            return None
        keys.append(found.group())
        at = found.end()
        if src.startswith("++", at):
            return keys, at + 2
        if at >= end or src[at] != "+":
            return None
        at += 1


def keys(state: StateInline, silent: bool) -> bool:
    """``++ctrl+alt+del++``: a ``span.keys`` of one ``kbd`` per key, ``+`` between them."""
    if state.src[state.pos] != "+":
        return False
    run = _written_keys(state.src, state.pos, state.posMax)
    if run is None:
        return False
    written, end = run
    shown = key_names(written)
    if shown is None:
        return False
    if not silent:
        state.push("keys_open", "span", 1).attrs["class"] = "keys"
        for i, (css, name) in enumerate(shown):
            if i:
                state.push("keys_separator_open", "span", 1)
                state.push("text", "", 0).content = "+"
                state.push("keys_separator_close", "span", -1)
            kbd = state.push("kbd_open", "kbd", 1)
            if css:
                kbd.attrs["class"] = css
            state.push("text", "", 0).content = name
            state.push("kbd_close", "kbd", -1)
        state.push("keys_close", "span", -1)
    state.pos = end
    return True


def keys_plugin(md: MarkdownIt) -> None:
    md.inline.ruler.before("emphasis", "sitegen_keys", keys)


# --- caret and tilde ----------------------------------------------------------------------


@dataclass(frozen=True)
class Marks:
    """A mark that is one element when single and another when doubled: ``^sup^`` and
    ``^^ins^^``. A single one may hold no whitespace but an escaped space (``^a\\ b^``),
    as pymdownx's default ``no_space`` wants."""

    marker: str
    single: str
    double: str


CARET = Marks("^", "sup", "ins")
TILDE = Marks("~", "sub", "del")
#: The inline states that pushed marks of each kind, so the pairing costs nothing elsewhere.
_MARKED: dict[str, WeakSet[StateInline]] = {CARET.marker: WeakSet(), TILDE.marker: WeakSet()}


def _delimiters(marks: Marks) -> InlineRule:
    code = ord(marks.marker)

    def delimiters(state: StateInline, silent: bool) -> bool:
        """A run of the marker: one text token and one delimiter per character, each
        opening or closing by the flanking rules of emphasis (inside words too)."""
        if silent or state.src[state.pos] != marks.marker:
            return False
        scanned = _scan(state, state.pos)
        for _ in range(scanned.length):
            state.push("text", "", 0).content = marks.marker
            state.delimiters.append(
                Delimiter(
                    marker=code,
                    length=scanned.length,  # emphasis' "rule of 3" between runs
                    token=len(state.tokens) - 1,
                    end=-1,
                    open=scanned.can_open,
                    close=scanned.can_close,
                )
            )
        state.pos += scanned.length
        _MARKED[marks.marker].add(state)
        return True

    return delimiters


def _scan(state: StateInline, start: int) -> Scanned:
    """The run at ``start``: it opens when no whitespace follows it and closes when none
    precedes it, inside words and next to punctuation alike, as pymdownx's caret and tilde
    read them by default (their ``punctuation`` option off). An escaped space is no
    whitespace here (``~a\\ b~``)."""
    src, end = state.src, start
    while end < state.posMax and src[end] == src[start]:
        end += 1
    before = src[start - 1] if start > 0 else " "
    after = src[end] if end < state.posMax else " "
    closes = not isWhiteSpace(ord(before)) or _after_escaped_space(src, start)
    return Scanned(not isWhiteSpace(ord(after)), closes, end - start)


def _after_escaped_space(src: str, start: int) -> bool:
    """Is ``src[start - 1]`` a space escaped by a backslash (not by an escaped one)?"""
    if start < 2 or src[start - 2 : start] != "\\ ":
        return False
    at = start - 2
    while at >= 0 and src[at] == "\\":
        at -= 1
    return (start - 2 - at) % 2 == 1


@dataclass(frozen=True)
class _Pair:
    opener: int  # token indexes
    closer: int
    double: bool
    outer: tuple[int, int]  # the doubled pair's outer tokens, blanked; (-1, -1) if single


def _pairs(delimiters: list[Delimiter], code: int) -> Iterator[_Pair]:
    """The balanced pairs of ``code`` in ``delimiters``; two pairs right inside each other
    are one doubled pair, as ``**`` is strong rather than two emphases."""
    i = len(delimiters) - 1
    while i >= 0:
        start = delimiters[i]
        if start.marker != code or start.end == -1:
            i -= 1
            continue
        end = delimiters[start.end]
        double = (
            i > 0
            and delimiters[i - 1].end == start.end + 1
            and delimiters[i - 1].marker == code
            and delimiters[i - 1].token == start.token - 1
            and delimiters[start.end + 1].token == end.token + 1
        )
        if double:
            outer = (delimiters[i - 1].token, delimiters[start.end + 1].token)
            yield _Pair(start.token, end.token, True, outer)
            i -= 2
        else:
            yield _Pair(start.token, end.token, False, (-1, -1))
            i -= 1


_WHITESPACE = re.compile(r"\s")
#: The marks pymdownx pairs in one pass with these (mark, caret, tilde): whitespace inside
#: one of them is whitespace inside a mark around it, where another element's is not.
_MARK_TAGS = frozenset(("mark", "ins", "del", "sup", "sub"))


def _spaced(tokens: list[Token], pairs: list[_Pair]) -> set[int]:
    """The openers of ``pairs`` whose own text (not that of an element inside: a link, an
    emphasis, a code span) holds whitespace, found in one walk over the tokens."""
    role: dict[int, int] = {}
    for pair in pairs:
        role[pair.opener] = 1
        role[pair.closer] = -1
    spaced: set[int] = set()
    frames: list[tuple[int, bool]] = [(-1, False)]  # (opener index, whitespace seen)
    for index, token in enumerate(tokens):
        nesting = role.get(index, token.nesting)
        if nesting == 1:
            frames.append((index, False))
        elif nesting == -1 and len(frames) > 1:
            opener, seen = frames.pop()
            if seen and (opener in role or tokens[opener].tag in _MARK_TAGS):
                spaced.add(opener)  # and its text is text of the mark around it
                frames[-1] = (frames[-1][0], True)
        elif not frames[-1][1] and (
            token.type in ("softbreak", "hardbreak")
            or (token.type == "text" and _WHITESPACE.search(token.content))
        ):
            frames[-1] = (frames[-1][0], True)
    return spaced


def _marks_pairs(marks: Marks) -> Callable[[StateInline], None]:
    code = ord(marks.marker)

    def pair(state: StateInline) -> None:
        """Balanced marks become the single or doubled element; a single pair whose own
        text holds whitespace stays text."""
        if state not in _MARKED[marks.marker]:
            return
        _MARKED[marks.marker].discard(state)
        lists = [state.delimiters] + [
            meta["delimiters"] for meta in state.tokens_meta if meta and "delimiters" in meta
        ]
        pairs = [p for delimiters in lists for p in _pairs(delimiters, code)]
        if not pairs:
            return
        spaced = _spaced(state.tokens, pairs)
        tokens = state.tokens
        for p in pairs:
            if not p.double and p.opener in spaced:
                continue
            tag = marks.double if p.double else marks.single
            markup = marks.marker * (2 if p.double else 1)
            opener, closer = tokens[p.opener], tokens[p.closer]
            opener.type, opener.nesting = f"{tag}_open", 1
            closer.type, closer.nesting = f"{tag}_close", -1
            for token in (opener, closer):
                token.tag, token.markup, token.content = tag, markup, ""
            for index in p.outer if p.double else ():
                tokens[index].content = ""

    return pair


def escaped_space(state: StateInline, silent: bool) -> bool:
    """``\\ `` is a space that ends no ``^sup^`` or ``~sub~`` (pymdownx's escape of it)."""
    if not state.src.startswith("\\ ", state.pos):
        return False
    if not silent:
        token = state.push("text_special", "", 0)
        token.content, token.markup, token.info = " ", "\\ ", "escape"
    state.pos += 2
    return True


def _escaped_spaces(md: MarkdownIt) -> None:
    if "sitegen_escaped_space" not in [rule.name for rule in md.inline.ruler.__rules__]:
        md.inline.ruler.before("escape", "sitegen_escaped_space", escaped_space)


def caret_plugin(md: MarkdownIt) -> None:
    _escaped_spaces(md)
    md.inline.ruler.before("emphasis", "sitegen_caret", _delimiters(CARET))
    # after emphasis and highlights: an element inside a mark is known when its text is read
    md.inline.ruler2.before("fragments_join", "sitegen_caret", _marks_pairs(CARET))


def tilde_plugin(md: MarkdownIt) -> None:
    """``~~del~~`` and ``~sub~`` in place of markdown-it's ``~~strikethrough~~`` (``<s>``).
    The rule takes strikethrough's place and name, so strikethrough's gate
    (sitegen/docs/gates.py) switches it; its pairing runs after emphasis, as the caret's."""
    _escaped_spaces(md)
    md.inline.ruler.at("strikethrough", _delimiters(TILDE))
    md.inline.ruler2.disable("strikethrough")
    md.inline.ruler2.before("fragments_join", "sitegen_tilde", _marks_pairs(TILDE))
