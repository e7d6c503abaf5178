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
from collections.abc import Iterator, MutableMapping
from typing import Any
from weakref import WeakKeyDictionary, WeakSet

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from mdit_py_plugins.attrs.parse import ParseError, parse

from sitegen.docs.blocks import report
from sitegen.docs.positions import ENV_SOURCE, PLACES, InlineRule, PageText, to_place
from sitegen.docs.sanitize import ATTRIBUTES, author_classes

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


# --- attr_list: Python-Markdown's lists after inline elements (the ATTR_LIST dialect) ------

#: One item of a list as attr_list reads it: ``.class``, ``#id``, ``key=value``,
#: ``key="value"``, ``key='value'`` or a bare ``key``; items are separated by spaces. An
#: unquoted word holds none of the characters that begin inline markup: attr_list reads the
#: text up to the next element only, so ``*a*{ .x *b*}`` is no list there either.
_WORD = r"[^ \n=}{\[\]<>`*]+"
_ITEM = rf"""{_WORD}(?:="[^"\n]*"|='[^'\n]*'|={_WORD})?"""
#: A list right after an element: ``{``, an optional ``:``, items, ``}`` on the same line.
#: The first ``}`` outside quotes ends it (attr_list's reads to the line's last one and puts
#: back what it could not use, so ``*a*{.x} and {b}`` loses its braces there).
ATTR_LIST = re.compile(rf"\{{:?[ ]*({_ITEM}(?:[ ]+{_ITEM})*)[ ]*\}}")
_ITEMS = re.compile(rf"""({_WORD})(?:="([^"\n]*)"|='([^'\n]*)'|=({_WORD}))?""")
#: The longest list read (a try costs at most this much, so a page of them stays linear).
MAX_ATTR_LIST = 1024
#: Tokens complete when pushed, that a list sets right away (an icon is an ``emoji``).
_WHOLE = frozenset(("image", "code_inline", "emoji"))
#: Closing tokens pushed with their opening by one rule, whose opening a list sets.
_CLOSED_BY_RULE = frozenset(("link_close", "keys_close"))
#: Closing tokens that a pairing after the inline parse makes of a delimiter: a list after
#: such a delimiter waits for the pairing (emphasis, strong, highlight, the pymdownx marks).
_CLOSED_BY_PAIRING = frozenset(
    ("em_close", "strong_close", "mark_close", "ins_close", "del_close", "sup_close")
    + ("sub_close", "s_close")
)
_DELIMITER_MARKERS = frozenset(map(ord, "*_=^~"))
#: Token meta key of a list waiting for its delimiter to be paired: its items.
_WAITING = "sitegen_attr_list"
#: The inline states holding a waiting list, so the pairing pass costs nothing elsewhere.
_HAS_WAITING: WeakSet[StateInline] = WeakSet()
#: Key in ``env`` of the attributes left out on the page: (placed token, name).
_LEFT_OUT = "sitegen_attr_list_left_out"
#: What a list may not set whatever the element: an address (the emitter owns those) and
#: ``name`` (it overwrites document properties), as in raw HTML.
_NEVER = frozenset(("href", "src", "srcset", "cite", "name"))

Item = tuple[str, str | None]


def attr_list(state: StateInline, silent: bool) -> bool:
    """``{ .class #id key=value }`` right after an inline element sets its attributes, as
    Python-Markdown's attr_list does: after a link, an image, a code span, an icon, keys,
    and after the closing mark of emphasis, strong, a highlight, ``^^ins^^`` and the like.
    After text it is text."""
    src, start = state.src, state.pos
    if src[start] != "{" or state.pending or not state.tokens:
        return False
    found = ATTR_LIST.match(src, start, min(state.posMax, start + MAX_ATTR_LIST))
    if found is None:
        return False
    target = _element_before(state.tokens)
    if target is None and not _after_closing_delimiter(state):
        return False
    if not silent:
        parsed = _items(found.group(1))
        place = Token("attr_list", "", 0)
        to_place(state, place, [start])
        if target is not None:
            _set_attributes(state.env, target, parsed, place)
        else:  # the delimiter is paired after the parse: wait for it in a text token
            waiting = state.push("text", "", 0)
            waiting.content = found.group()
            waiting.meta[_WAITING] = (parsed, place)
            _HAS_WAITING.add(state)
    state.pos = found.end()
    return True


def _items(text: str) -> list[Item]:
    """The (name, value) of each item; a bare name has the value None."""
    out: list[Item] = []
    for item in _ITEMS.finditer(text):
        value = next((v for v in item.groups()[1:] if v is not None), None)
        out.append((item.group(1), value))
    return out


def _element_before(tokens: list[Token]) -> Token | None:
    """The element the last token ends, when it is one a list sets now."""
    last = tokens[-1]
    if last.type in _WHOLE:
        return last
    if last.type in _CLOSED_BY_RULE:
        return _target(tokens)
    return None


def _after_closing_delimiter(state: StateInline) -> bool:
    """Is the last token a delimiter of emphasis or a mark that may close?"""
    if not state.delimiters or state.tokens[-1].type != "text":
        return False
    last = state.delimiters[-1]
    return last.token == len(state.tokens) - 1 and last.close and last.marker in _DELIMITER_MARKERS


def attach_waiting(state: StateInline) -> None:
    """Each waiting list after a closing mark (empty text between, as strong leaves) sets
    that element's opening; one after anything else stays the text it is. One walk."""
    if state not in _HAS_WAITING:
        return
    _HAS_WAITING.discard(state)
    openings: list[Token] = []
    closed: Token | None = None  # the opening of the element that just closed
    for token in state.tokens:
        if token.nesting == 1:
            openings.append(token)
            closed = None
        elif token.nesting == -1:
            opening = openings.pop() if openings else None
            closed = opening if token.type in _CLOSED_BY_PAIRING else None
        elif _WAITING in token.meta:
            parsed, place = token.meta.pop(_WAITING)
            if closed is not None:
                _set_attributes(state.env, closed, parsed, place)
                token.content = ""
            closed = None
        elif token.type != "text" or token.content:
            closed = None


def _set_attributes(
    env: MutableMapping[str, Any], token: Token, items: list[Item], place: Token
) -> None:
    """Set ``items`` on ``token``: classes added but the theme's, the last id, and the other
    attributes raw HTML may have on that element; the rest is left out and reported."""
    allowed = (ATTRIBUTES["*"] | ATTRIBUTES.get(token.tag, set())) - _NEVER
    classes: list[str] = []
    for name, value in items:
        key = name.lower()
        if name[0] in ".#" or key == "class":
            given = name[1:] if name[0] in ".#" else value or ""
            if name[0] == "#" and given:
                token.attrs["id"] = given
            elif name[0] != "#":
                classes.extend(given.split())
        elif key == "alt" and token.type == "image":  # rendered from the children
            token.children = [Token("text", "", 0, content=value or "")]
        elif key in allowed:
            token.attrs[key] = value or ""
        else:
            env.setdefault(_LEFT_OUT, []).append((place, key))
    added = author_classes(" ".join(classes))
    if added:
        before = token.attrs.get("class")
        token.attrs["class"] = f"{before} {added}" if before else added


def report_left_out(state: StateCore) -> None:
    """One warning per attribute a list set and sitegen left out, at its first place on
    the page, counting the others (content/syntax/formatting.md#attribute-lists)."""
    left_out = state.env.pop(_LEFT_OUT, None)
    if not left_out:
        return
    first: dict[str, int] = {}
    count: dict[str, int] = {}
    for place, name in left_out:
        places = place.meta.get(PLACES) or [None]
        first.setdefault(name, places[0] if places[0] is not None else 0)
        count[name] = count.get(name, 0) + 1
    for name, index in first.items():
        more = count[name] - 1
        report(
            state,
            index,
            f"the attribute list sets '{name}', which sitegen leaves out: a list may set "
            "id, class, title, lang, dir, align, aria-label and aria-hidden, and alt, width, "
            "height and loading on an image (content/syntax/formatting.md#attribute-lists)"
            + (f" ({more} more on this page)" if more else ""),
            "attribute-list",
        )


#: The blocks whose last line a trailing list sets, as attr_list sets them.
_TRAILING_OWNERS = frozenset(("heading_open", "dt_open", "th_open", "td_open"))


def trailing_lists(state: StateCore) -> None:
    """``## Title { .class #id data-search-exclude }``: a list ending a heading, a term or a
    table cell after a space sets it, in attr_list's grammar (bare words too), before sitegen's own reading
    of ``{#id .class}`` (sitegen/docs/markdown.py) would leave a bare word as text."""
    tokens = state.tokens
    for i, token in enumerate(tokens[:-1]):
        inline = tokens[i + 1]
        if (
            token.type not in _TRAILING_OWNERS
            or inline.type != "inline"
            or "{" not in inline.content
        ):
            continue
        children = inline.children
        if not children or children[-1].type != "text":
            continue
        text = children[-1].content
        end = len(text.rstrip(" "))
        # the last " {" of the line's end: one try per block (a value holding " {" is none)
        start = text.rfind(" {", max(0, end - MAX_ATTR_LIST), end)
        found = ATTR_LIST.fullmatch(text, start + 1, end) if start >= 0 else None
        if found is None:
            continue
        place = Token("attr_list", "", 0)
        place.meta[PLACES] = [_source_index(state, inline, found.group())]
        _set_attributes(state.env, token, _items(found.group(1)), place)
        children[-1].content = text[:start].rstrip(" ")


def _source_index(state: StateCore, inline: Token, written: str) -> int | None:
    """Where ``written`` ends the lines of ``inline`` in the page's text (None if unknown)."""
    source = state.env.get(ENV_SOURCE)
    if not isinstance(source, PageText) or not inline.map:
        return None
    first, end = inline.map
    start = source.line_starts[first]
    stop = source.line_end(max(first, end - 1))
    found = source.text.rfind(written, start, stop)
    return found if found >= 0 else None


def attr_list_plugin(md: MarkdownIt) -> None:
    """Python-Markdown's attr_list in place of the attrs plugin's inline rule (and gated as
    it is, on ``{``); lists after closing marks are set once the marks are paired, and lists
    ending headings, terms and cells once the inline parse is done."""
    md.inline.ruler.at("attr", attr_list)
    md.inline.ruler2.before("fragments_join", "sitegen_attr_list", attach_waiting)
    md.core.ruler.after("inline", "sitegen_attr_list_trailing", trailing_lists)
    md.core.ruler.after("sitegen_attr_list_trailing", "sitegen_attr_list_report", report_left_out)
