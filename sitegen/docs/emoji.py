"""pymdownx.emoji's shortcodes: ``:smile:`` as its Unicode character, and with Material's index
``:material-file-tree:`` as the icon's inline SVG from the installed theme (content/syntax/emoji.md).

Emoji names come from pymdown-extensions' Twemoji index (``pymdownx.twemoji_db``, data only);
icons from the ``.icons`` folder of the installed ``mkdocs-material`` or ``zensical`` package,
found without importing it. Reads nothing of the project and runs nothing; an icon file is
published only when it is a plain ``<svg>`` of paths (``safe_svg``).
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import importlib.util
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from markdown_it.utils import OptionsDict

from sitegen.base.plural import agrees
from sitegen.docs.blocks import report
from sitegen.docs.positions import PLACES, InlineRule, to_place

__all__ = ["SHORTCODE", "emoji_plugin", "icon_roots", "icon_svg", "safe_svg"]

#: A shortcode as pymdownx.emoji reads it (its ``RE_EMOJI``): ``:name:``, the name of word
#: characters, ``+`` and ``-``. A time such as 10:30:00 reads ``:30:``, a name in no index.
SHORTCODE = re.compile(r":[+\-\w]+:")
#: The class pymdownx.emoji gives an emoji of the Twemoji index, and Material an icon.
CLASS = "twemoji"
#: Key in ``env`` of the icon shortcodes of the page that were not found, in order.
_UNKNOWN = "sitegen_unknown_icons"
#: Material's icon sets: a shortcode starting with one is meant as an icon, so one that
#: is not found is a warning (the sets an installed theme has count too).
ICON_SETS = ("material", "fontawesome", "octicons", "simple")
#: The ``.icons`` folder inside each theme package that ships Material's icons, by
#: distribution, in the order they are looked up.
_THEMES = (("mkdocs-material", "material"), ("zensical", "zensical"))
#: The largest icon file read (Material's largest is 53 kB); a larger one is not an icon.
MAX_SVG_BYTES = 128 * 1024
#: Folders below ``.icons`` a shortcode may descend (``fontawesome/brands/github.svg``: 2).
_MAX_DEPTH = 4
#: A name the renderer writes as an attribute of the span.
_ATTRIBUTE_NAME = re.compile(r"[A-Za-z][\w:.-]*")
#: Shortcodes named in the one warning of a page; the rest are counted.
_NAMED = 5


# --- the emoji index ----------------------------------------------------------------------


@functools.cache
def _twemoji() -> tuple[Mapping[str, Mapping[str, Any]], Mapping[str, str]]:
    """pymdownx's Twemoji index: (emoji by shortcode, shortcode of each alias). Imported on
    the first shortcode of the process, so a site without emoji never loads it."""
    db = importlib.import_module("pymdownx.twemoji_db")
    return db.emoji, db.aliases


def emoji_char(code: str) -> str | None:
    """The character(s) of the emoji ``code`` (``:smile:`` or an alias such as
    ``:thumbsup:``) as pymdownx.emoji writes them by default (its ``alt`` "unicode"), None
    when the index has no such emoji."""
    emoji, aliases = _twemoji()
    found = emoji.get(aliases.get(code, code))
    points = found.get("unicode_alt", found.get("unicode")) if found else None
    if not isinstance(points, str):
        return None
    return "".join(chr(int(point, 16)) for point in points.split("-"))


# --- the icon sets ------------------------------------------------------------------------


@functools.cache
def icon_roots() -> tuple[Path, ...]:
    """The ``templates/.icons`` folders of the installed ``mkdocs-material`` and
    ``zensical`` packages, found from their installed files, never imported (a theme's
    ``__init__`` is code of its own)."""
    roots = []
    for distribution, package in _THEMES:
        root = _package_folder(distribution, package)
        if root is not None and (root / "templates" / ".icons").is_dir():
            roots.append(root / "templates" / ".icons")
    return tuple(roots)


def _package_folder(distribution: str, package: str) -> Path | None:
    try:
        return Path(str(importlib.metadata.distribution(distribution).locate_file(package)))
    except importlib.metadata.PackageNotFoundError:
        pass
    try:  # a package installed without metadata (a source checkout on the path)
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    places = list(spec.submodule_search_locations or ()) if spec is not None else []
    return Path(places[0]) if places else None


def icon_sets_key() -> str:
    """What a page's icons depend on besides its bytes: the icon folders found and the
    versions of their packages (part of the record's cache key, sitegen/docs/markdown.py)."""
    return _sets_key(icon_roots())


@functools.lru_cache(maxsize=8)
def _sets_key(roots: tuple[Path, ...]) -> str:
    parts = [str(root) for root in roots]
    for distribution, _ in _THEMES:
        try:
            parts.append(f"{distribution}={importlib.metadata.version(distribution)}")
        except importlib.metadata.PackageNotFoundError:
            pass
    return "|".join(parts)


def icon_svg(code: str) -> str | None:
    """The SVG of the icon ``code`` (``:fontawesome-brands-github:``) from the installed
    icon sets: the file whose path below ``.icons``, its ``/`` written ``-``, is the name
    (Material's rule); None when no set has it or its file is no plain SVG."""
    return _icon_in(icon_roots(), code[1:-1])


@functools.lru_cache(maxsize=4096)
def _icon_in(roots: tuple[Path, ...], name: str) -> str | None:
    for root in roots:
        found = _find_file(root, name, 0)
        if found is not None:
            return _read_svg(found)
    return None


def _find_file(folder: Path, name: str, depth: int) -> Path | None:
    """``folder/name.svg``, or the file of the rest of ``name`` in a subfolder whose name
    starts it (``brands-github`` in ``brands/``): one listing per folder, no glob of the
    14,000 files."""
    file = folder / f"{name}.svg"
    if file.is_file():
        return file
    if depth >= _MAX_DEPTH:
        return None
    for sub in _subfolders(folder):
        if name.startswith(f"{sub}-"):
            found = _find_file(folder / sub, name[len(sub) + 1 :], depth + 1)
            if found is not None:
                return found
    return None


@functools.lru_cache(maxsize=256)
def _subfolders(folder: Path) -> tuple[str, ...]:
    try:
        with os.scandir(folder) as entries:
            names = [e.name for e in entries if e.is_dir() and not e.name.startswith(".")]
    except OSError:
        return ()
    return tuple(sorted(names))


def _read_svg(file: Path) -> str | None:
    try:
        with file.open("rb") as handle:
            data = handle.read(MAX_SVG_BYTES + 1)
    except OSError:
        return None
    if len(data) > MAX_SVG_BYTES:
        return None
    try:
        text = data.decode("utf-8").strip()
    except UnicodeDecodeError:
        return None
    return text if safe_svg(text) else None


@functools.lru_cache(maxsize=8)
def _known_sets(roots: tuple[Path, ...]) -> frozenset[str]:
    """The first words of icon shortcodes: Material's sets and the folders of those
    installed."""
    return frozenset(ICON_SETS).union(*(_subfolders(root) for root in roots))


# --- what an icon file may hold -----------------------------------------------------------

_ATTRIBUTE = re.compile(r'\s+([A-Za-z][\w:-]*)="([^"<>&]*)"')
_SVG_OPEN = re.compile(r"<svg(?=[\s>/])")
_PATH_OPEN = re.compile(r"<path(?=[\s>/])")
_TAG_END = re.compile(r"\s*(/?)>")
_PATH_CLOSE = re.compile(r"\s*</path\s*>")
_SVG_CLOSE = re.compile(r"</svg\s*>")
#: A comment (Font Awesome's licence line): no ``<``, ``>`` inside, closed by ``-->``.
_COMMENT = re.compile(r"<!--[^<>]*-->")
_SPACE = re.compile(r"\s+")
_NUMBERS = re.compile(r"[\d\s.,+eE-]+")
_LENGTH = re.compile(r"[\d.]+(?:px|em|rem|%)?")
_PATH_DATA = re.compile(r"[MmZzLlHhVvCcSsQqTtAaEe\d\s.,+-]*")
_COLOR = re.compile(r"#[0-9A-Fa-f]{3,8}|[A-Za-z]+")
_RULE = re.compile(r"nonzero|evenodd")
_OPACITY = re.compile(r"[\d.]+%?")
#: The attributes of each element and the values each may take: geometry and paint only,
#: no event handler, no link, no style but the paint declarations of ``_STYLES``.
_SVG_ATTRIBUTES: dict[str, re.Pattern[str]] = {
    "xmlns": re.compile(re.escape("http://www.w3.org/2000/svg")),
    "viewBox": _NUMBERS,
    "width": _LENGTH,
    "height": _LENGTH,
    "fill": _COLOR,
    "aria-hidden": re.compile(r"true|false"),
}
_PAINT: dict[str, re.Pattern[str]] = {
    "fill": _COLOR,
    "fill-rule": _RULE,
    "clip-rule": _RULE,
    "fill-opacity": _OPACITY,
    "opacity": _OPACITY,
}
_PATH_ATTRIBUTES: dict[str, re.Pattern[str]] = {"d": _PATH_DATA, **_PAINT}


def safe_svg(text: str) -> bool:
    """Whether ``text`` is one ``<svg>`` holding only ``<path>`` elements and comments, each
    attribute one of geometry or paint with a value of its kind: what may be published as
    sitegen's own markup, since no HTML cleaner sees it. Linear: each part is matched once."""
    at = _element(text, 0, _SVG_OPEN, _SVG_ATTRIBUTES)
    if at is None or text.startswith("/>", at - 2):
        return False
    while at < len(text):
        if (space := _SPACE.match(text, at)) is not None:
            at = space.end()
        elif (comment := _COMMENT.match(text, at)) is not None:
            at = comment.end()
        elif (close := _SVG_CLOSE.match(text, at)) is not None:
            return close.end() == len(text)
        else:
            end = _element(text, at, _PATH_OPEN, _PATH_ATTRIBUTES)
            if end is None:
                return False
            if not text.startswith("/>", end - 2):  # <path ...></path>
                closed = _PATH_CLOSE.match(text, end)
                if closed is None:
                    return False
                end = closed.end()
            at = end
    return False


def _element(
    text: str, at: int, opening: re.Pattern[str], allowed: Mapping[str, re.Pattern[str]]
) -> int | None:
    """The end of the start tag at ``at`` whose attributes ``allowed`` all takes."""
    found = opening.match(text, at)
    if found is None:
        return None
    at = found.end()
    while (attribute := _ATTRIBUTE.match(text, at)) is not None:
        name, value = attribute.groups()
        if not _allowed(name, value, allowed):
            return None
        at = attribute.end()
    end = _TAG_END.match(text, at)
    return end.end() if end is not None else None


def _allowed(name: str, value: str, allowed: Mapping[str, re.Pattern[str]]) -> bool:
    if name == "style" and allowed is _PATH_ATTRIBUTES:
        declarations = [d for d in value.split(";") if d.strip()]
        return all(_paint(d) for d in declarations)
    pattern = allowed.get(name)
    return pattern is not None and pattern.fullmatch(value) is not None


def _paint(declaration: str) -> bool:
    """``fill-opacity: 0.5``: a paint property and a value of its kind."""
    name, colon, value = declaration.partition(":")
    pattern = _PAINT.get(name.strip())
    return bool(colon) and pattern is not None and pattern.fullmatch(value.strip()) is not None


# --- parsing and rendering ----------------------------------------------------------------


def _shortcodes(icons: bool) -> InlineRule:
    """The inline rule at a ``:``: a shortcode of the index becomes an ``emoji`` token; one
    of no index stays text and is consumed whole, as pymdownx.emoji consumes it, so its
    closing ``:`` opens no other (``:foo:smile:`` stays text)."""

    def shortcode(state: StateInline, silent: bool) -> bool:
        if state.src[state.pos] != ":":
            return False
        found = SHORTCODE.match(state.src, state.pos, state.posMax)
        if found is None:
            return False
        code = found.group()
        char = emoji_char(code)
        svg = icon_svg(code) if icons and char is None else None
        if not silent:
            if char is None and svg is None:
                unknown = icons and code[1:-1].split("-", 1)[0] in _known_sets(icon_roots())
                if unknown:  # its own text token, so that its place in the page is found
                    text = state.push("text", "", 0)
                    text.content = code
                    to_place(state, text, [state.pos])
                    state.env.setdefault(_UNKNOWN, []).append((code, text))
                else:
                    state.pending += code
            else:
                token = state.push("emoji", "span", 0)
                token.markup = code
                token.content = char or ""
                token.meta["svg"] = svg
        state.pos = found.end()
        return True

    return shortcode


def render_emoji(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: Any
) -> str:
    """``<span class="twemoji …">`` around the emoji or the icon's SVG: the class Material
    gives both, then the classes and other attributes an attribute list put on the token
    (``:material-clock-fast:{ .lg .middle }``). An emoji has its shortcode as title, as
    pymdownx.emoji's default ``title: short`` gives it; an icon has none, as Material's."""
    token = tokens[idx]
    attrs = dict(token.attrs)
    classes = [CLASS] + [c for c in str(attrs.pop("class", "")).split() if c != CLASS]
    svg = token.meta.get("svg")
    if svg is None:
        attrs.setdefault("title", token.markup)
    rest = "".join(
        f' {name}="{escapeHtml(str(value))}"'
        for name, value in attrs.items()
        if _ATTRIBUTE_NAME.fullmatch(name)  # an attribute list's keys are checked; to be sure
    )
    inner = svg if isinstance(svg, str) else escapeHtml(token.content)
    return f'<span class="{escapeHtml(" ".join(classes))}"{rest}>{inner}</span>'


def report_unknown_icons(state: StateCore) -> None:
    """One warning per page naming the icon shortcodes shown as text, at the first one."""
    found: list[tuple[str, Token]] = state.env.get(_UNKNOWN) or []
    if not found:
        return
    names = list(dict.fromkeys(code for code, _ in found))
    said = ", ".join(names[:_NAMED])
    if len(names) > _NAMED:
        said += f" and {len(names) - _NAMED} more"
    many = len(names) > 1
    if icon_roots():
        why = f"no icon set of the installed Material theme has {'them' if many else 'it'}"
        why += " (check the name)" if not many else " (check the names)"
    else:
        why = (
            "Material's icon sets are not installed where sitegen runs "
            "(install mkdocs-material or zensical next to sitegen to show them)"
        )
    noun = "shortcodes" if many else "shortcode"
    message = f"the icon {noun} {said} {agrees(len(names), 'is', 'are')} shown as text: {why}"
    places = [p for _, token in found for p in token.meta.get(PLACES) or () if p is not None]
    report(state, min(places, default=0), message, "unknown-icon")


def emoji_plugin(md: MarkdownIt, icons: bool) -> None:
    """Shortcodes of the Twemoji index, and with ``icons`` those of Material's icon sets
    (content/syntax/emoji.md)."""
    md.inline.ruler.before("emphasis", "sitegen_emoji", _shortcodes(icons))
    md.add_render_rule("emoji", render_emoji)
    if icons:
        md.core.ruler.after("inline", "sitegen_unknown_icons", report_unknown_icons)
