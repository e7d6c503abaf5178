"""The attrs plugin's inline rule (a ``{.class}`` list after a link, image or code span),
reading only the ``{…}`` it parses instead of the rest of the page.

The plugin parses ``state.src[state.pos:]``, a copy of the rest of the text, and scans that
copy for its last ``%``, wherever the rule is tried: after each link, image or code span
that is not followed by another one. A paragraph of such links was quadratic (``'[[]()' * n``
took about 5 times markdown-it's own parse at 1.6 MB). Here the rule is tried only at a
``{``, on the attribute list alone, found by parsing windows that double in size; the
plugin's own rule then runs on that list, so what it accepts and sets is unchanged, but for
the theme's own classes, which an attribute list may not give, as raw HTML may not
(``author_classes`` in sitegen/docs/sanitize.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from weakref import WeakKeyDictionary

from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from mdit_py_plugins.attrs.parse import ParseError, parse

from sitegen.docs.positions import InlineRule
from sitegen.docs.sanitize import author_classes

#: What can begin a list the plugin's parse accepts: ``{`` and then a space, ``}``, an id,
#: a class, a comment or a key (a superset: ``\s`` and ``\w`` hold its characters).
_MAY_START = re.compile(r"\{[\s}#%.\w:-]")
#: The first window parsed; an attribute list is rarely longer.
_FIRST_WINDOW = 64
#: ``state.src.rfind("%")`` per inline state, found once (the parser reads it, see below).
_LAST_PERCENT: WeakKeyDictionary[StateInline, int] = WeakKeyDictionary()


def bounded_attrs(rule: InlineRule) -> InlineRule:
    """The attrs plugin's inline ``rule``, run on the attribute list that starts here only."""

    def bounded(state: StateInline, silent: bool) -> bool:
        src, start = state.src, state.pos
        # O(1) refusals first, as the plugin's own: attributes follow a token, not text
        if state.pending or not state.tokens or not _MAY_START.match(src, start):
            return False
        try:
            end = _attributes_end(state, start)
        except ParseError:
            return False
        # On the list alone the plugin's parse ends at the same ``}``: a comment that a ``%``
        # closes is closed inside the list. It moves only ``pos``, put back after it.
        target = _target(state.tokens)
        before = target.attrs.get("class") if target is not None else None
        state.src, state.pos = src[start:end], 0
        try:
            matched = rule(state, silent)
            used = state.pos
        finally:
            state.src, state.pos = src, start
        if matched:
            state.pos = start + used
            if target is not None and not silent:
                keep_author_classes(target, None if before is None else str(before))
        return matched

    return bounded


def _target(tokens: list[Token]) -> Token | None:
    """The token the plugin gives a list to: the last one, or the opening of the link or
    span it closes (the token before it at the same level, as the plugin finds it)."""
    last = tokens[-1]
    if last.nesting != -1:
        return last
    for token in _before(tokens):
        if token.level == last.level:
            return token
    return None


def _before(tokens: list[Token]) -> Iterator[Token]:
    """The tokens before the last, nearest first, without copying the list."""
    for i in range(len(tokens) - 2, -1, -1):
        yield tokens[i]


def keep_author_classes(token: Token, before: str | None) -> None:
    """Take the theme's classes out of those an attribute list added to ``token``, whose
    classes were ``before`` (the plugins append theirs after a space)."""
    value = token.attrs.get("class")
    if value is None or value == before:
        return
    added = str(value)[len(before) + 1 :] if before else str(value)
    kept = " ".join(c for c in (before, author_classes(added)) if c)
    if kept:
        token.attrs["class"] = kept
    else:
        del token.attrs["class"]


def _attributes_end(state: StateInline, start: int, first_window: int = _FIRST_WINDOW) -> int:
    """Where the attribute list starting at ``start`` ends (after its ``}``), as
    ``parse(state.src[start:])`` finds it; raises ``ParseError`` where that would.

    ``parse`` reads the text one character at a time, and otherwise only where its last
    ``%`` is (a comment ends at a ``}`` with no ``%`` after it). A window gives the same
    answer when the parse stops inside it and the window's last ``%`` says the same; a ``%``
    appended to the window stands for one beyond it. A parse that reaches the window's end
    is tried again on a window twice the size, so the work is about what ``parse`` reads.
    """
    src = state.src
    size = first_window
    while True:
        stop = start + size
        if stop >= len(src):
            used, _ = parse(src[start:])
            return start + used + 1
        last_percent = _LAST_PERCENT.get(state)
        if last_percent is None:
            last_percent = _LAST_PERCENT[state] = src.rfind("%")
        window = src[start:stop] + ("%" if last_percent >= stop else "")
        try:
            used, _ = parse(window)
        except ParseError as error:
            if error.pos < size:  # it failed on the page's own text
                raise
            size *= 2
            continue
        return start + used + 1
