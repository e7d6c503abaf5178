"""The tags of a fragment of a page's own HTML, read in one pass as a browser's tokenizer
reads them: start tags with their attributes, end tags, and the text between.

Never builds a tree and never decides what is allowed (the sanitizer does). Every scan moves
forward: a construct that never closes (``<!--``, ``<a id="…``) swallows the rest of the
fragment, as in a browser, so no position is scanned twice (content/guides/safety.md#time-linear-in-the-input).
"""

from __future__ import annotations

import html as html_lib
import re
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from functools import lru_cache

#: Where markup may start: a comment, a declaration or processing instruction, an end tag, a
#: start tag. A ``<`` followed by anything else is text.
_MARKUP = re.compile(r"<(?:(?P<comment>!--)|(?P<bogus>[!?])|(?P<end>/)|(?=[A-Za-z]))")
#: ``-->`` closes a comment, and so does ``--!>`` (the HTML standard's tokenizer).
_COMMENT_END = re.compile(r"--!?>")
_TAG_NAME = re.compile(r"[^\t\n\f\r />]*")
#: One attribute: separators, a name (which may begin with ``=``), an optional value. A
#: quoted value's closing quote is optional here so that the pattern never backtracks over
#: an unterminated value (the caller treats that as the end of the fragment).
_ATTRIBUTE = re.compile(
    r"[\t\n\f\r /]*(?P<name>=?[^\t\n\f\r />=]*)"
    r"(?:[\t\n\f\r ]*=[\t\n\f\r ]*(?P<value>\"[^\"]*\"?|'[^']*'?|[^\t\n\f\r >]*))?"
)
#: Elements whose content is text, never tags, up to their own end tag (the HTML standard's
#: raw text and escapable raw text elements, and the frames and embeds read as such).
_QUOTES = ('"', "'")
RAW_TEXT = frozenset(
    {"script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes"}
)


@dataclass(frozen=True, slots=True)
class StartTag:
    name: str  # lowercased
    attrs: list[tuple[str, str | None]]  # names lowercased, values with references decoded
    start: int  # the ``<``
    end: int  # after the ``>``


@dataclass(frozen=True, slots=True)
class EndTag:
    name: str  # lowercased
    start: int


@dataclass(frozen=True, slots=True)
class Text:
    text: str  # character references decoded
    start: int


Event = StartTag | EndTag | Text


def html_events(html: str) -> Iterator[Event]:
    """The start tags, end tags and text of ``html`` in order; comments and declarations are
    skipped, and whatever is left open at the end (a comment, a tag) is dropped."""
    pos = 0
    while pos < len(html):
        found = _MARKUP.search(html, pos)
        if found is None:
            yield Text(html_lib.unescape(html[pos:]), pos)
            return
        if found.start() > pos:
            yield Text(html_lib.unescape(html[pos : found.start()]), pos)
        if found.group("comment"):
            pos = _after_comment(html, found.end())
        elif found.group("bogus"):
            pos = _after(html, ">", found.end())
        elif found.group("end"):
            pos = yield from _end_tag(html, found.start())
        else:
            tag = _start_tag(html, found.start())
            if tag is None:
                return
            yield tag
            pos = tag.end
            if tag.name in RAW_TEXT:
                pos = yield from _raw_text(html, tag)


def _after(html: str, close: str, start: int) -> int:
    """The position after the first ``close`` from ``start``; the end when there is none."""
    at = html.find(close, start)
    return len(html) if at < 0 else at + len(close)


def _after_comment(html: str, start: int) -> int:
    # `<!-->` and `<!--->` are whole (empty) comments.
    for abrupt in (">", "->"):
        if html.startswith(abrupt, start):
            return start + len(abrupt)
    found = _COMMENT_END.search(html, start)
    return len(html) if found is None else found.end()


def _end_tag(html: str, start: int) -> Generator[Event, None, int]:
    """``</name …>``: read as a start tag is (a quoted ``>`` does not end it), attributes
    dropped. ``</>`` is nothing, and ``</`` before anything but a letter a bogus comment."""
    after = start + 2
    if html.startswith(">", after):
        return after + 1
    if not html[after : after + 1].isascii() or not html[after : after + 1].isalpha():
        return _after(html, ">", after)
    tag = _start_tag(html, start + 1)
    if tag is None:
        return len(html)
    yield EndTag(tag.name, start)
    return tag.end


def _start_tag(html: str, start: int) -> StartTag | None:
    """The tag whose ``<`` is at ``start``, or None when it never closes."""
    name_match = _TAG_NAME.match(html, start + 1)
    assert name_match is not None  # the pattern matches the empty string
    pos = name_match.end()
    attrs: list[tuple[str, str | None]] = []
    seen: set[str] = set()
    while pos < len(html):
        if html[pos] == ">":
            return StartTag(name_match.group().lower(), attrs, start, pos + 1)
        found = _ATTRIBUTE.match(html, pos)
        assert found is not None  # every part of the pattern may be empty
        value = found.group("value")
        if value is not None and value[:1] in _QUOTES and (len(value) < 2 or value[-1] != value[0]):
            return None  # an unterminated quoted value runs to the end
        name = found.group("name").lower()
        if name and name not in seen:  # a browser keeps the first of a repeated attribute
            seen.add(name)
            attrs.append((name, None if value is None else _attribute_value(value)))
        pos = found.end() if found.end() > pos else pos + 1
    return None


def _attribute_value(value: str) -> str:
    if value[:1] in _QUOTES:
        value = value[1:-1]
    return html_lib.unescape(value)


def _raw_text(html: str, tag: StartTag) -> Generator[Event, None, int]:
    """The text of a raw text element up to its end tag (or the end of the fragment)."""
    found = _raw_text_end(tag.name).search(html, tag.end)
    stop = len(html) if found is None else found.start()
    if stop > tag.end:
        yield Text(html[tag.end : stop], tag.end)
    return stop


@lru_cache(maxsize=len(RAW_TEXT))
def _raw_text_end(name: str) -> re.Pattern[str]:
    return re.compile(rf"</{re.escape(name)}(?=[\t\n\f\r />]|$)", re.IGNORECASE)
