"""Rules that cost nothing on a page without their syntax: before a page is parsed, each rule
whose marker does not occur anywhere in the page's text is switched off for that page.

markdown-it tries every block rule at every line (and every core rule walks every token), so
the 20 rules the extra syntaxes add cost a page that uses none of them about half of
markdown-it's own block parse (bench/README.md, "Where the time goes"). A marker is a
*necessary* condition: each rule below can match only where its marker stands in the source
text (nested content, titles and snippets are parts of that text), so a page renders the same
bytes with its rules gated or not (tests/docs/test_gates.py checks every shipped page).
Never parses anything itself.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markdown_it.ruler import Ruler

#: A test of a page's text: does the marker of a rule occur in it?
Marker = Callable[[str], bool]


def _any(*markers: str) -> Marker:
    return lambda text: any(m in text for m in markers)


#: A definition's ``:`` or ``~`` begins a line, after indentation and quote markers only.
_DEFINITION = re.compile(r"^[ \t>]*[:~]", re.MULTILINE)
_MATH = _any("$", "\\(", "\\[", "\\begin")
_CONTAINER = _any(":::")
_ADMONITION = _any("!!!", "???")
_TABS = _any("===")
#: Tabs come from ``===`` blocks, ``/// tab`` blocks and ``::: code-group`` containers.
_ANY_TABS = _any("===", "///", ":::")
_ATTRS = _any("{")
_FOOTNOTE = _any("[^")
#: An emoji or icon shortcode ``:name:`` (sitegen/docs/emoji.py): ``:`` alone is in every
#: time and URL. Linear: each ``:`` scans the word after it, and words do not overlap.
_SHORTCODE_TEXT = re.compile(r":[+\-\w]+:")


def _shortcode(text: str) -> bool:
    return _SHORTCODE_TEXT.search(text) is not None


#: An element's ``markdown`` attribute (sitegen/docs/mdinhtml.py); HTML's names ignore case.
_MARKDOWN_WORD = re.compile("markdown", re.IGNORECASE)


def _markdown_attribute(text: str) -> bool:
    return "<" in text and _MARKDOWN_WORD.search(text) is not None


#: A code annotation's marker ``(1)`` (sitegen/docs/annotations.py).
_ANNOTATION_MARKER = re.compile(r"\(\d+\)")


def _annotation(text: str) -> bool:
    return _ANNOTATION_MARKER.search(text) is not None


#: A definition under a line holding one HTML comment (Python-Markdown's reading).
_COMMENT_TERM: Marker = lambda text: "<!--" in text and _DEFINITION.search(text) is not None  # noqa: E731

#: (ruler, rule name, marker). A rule a parser does not have is left out; a name ending in
#: ``*`` stands for every rule that starts with it (one container rule per callout type).
GATES: tuple[tuple[str, str, Marker], ...] = (
    ("block", "front_matter", lambda text: text.startswith("---")),
    ("block", "table", _any("|")),
    ("block", "attr", _ATTRS),
    ("block", "admonition", _ADMONITION),
    ("block", "container_*", _CONTAINER),
    ("block", "sitegen_slash_block", _any("///")),
    ("block", "sitegen_content_tab", _TABS),
    ("block", "math_block", _any("$$")),
    ("block", "amsmath", _any("\\begin")),
    ("block", "footnote_def", _FOOTNOTE),
    ("block", "html_block", _any("<")),
    ("block", "sitegen_md_in_html", _markdown_attribute),
    ("block", "deflist", lambda text: _DEFINITION.search(text) is not None),
    ("block", "sitegen_comment_term", _COMMENT_TERM),
    ("block", "sitegen_toc", _any("[[")),
    ("block", "sitegen_comment_block", _any("%%")),
    ("inline", "math_inline", _any("$")),
    ("inline", "sitegen_math_parens", _any("\\(", "\\[")),
    # ``~`` not ``~~``: in the TILDE dialect the rule of that name also reads ``~sub~``
    ("inline", "strikethrough", _any("~")),
    ("inline", "sitegen_caret", _any("^")),
    ("inline", "sitegen_keys", _any("++")),
    ("inline", "sitegen_escaped_space", _any("\\ ")),
    ("inline", "sitegen_wikilink", _any("[[")),
    ("inline", "sitegen_comment", _any("%%")),
    ("inline", "sitegen_highlight", _any("==")),
    ("inline", "footnote_ref", _FOOTNOTE),
    ("inline", "html_inline", _any("<")),
    ("inline", "autolink", _any("<")),
    ("inline", "entity", _any("&")),
    ("inline", "attr", _ATTRS),
    ("inline", "sitegen_emoji", _shortcode),
    ("core", "sitegen_code_groups", _CONTAINER),
    ("core", "sitegen_tab_sets", _ANY_TABS),
    ("core", "sitegen_admonitions", _ADMONITION),
    ("core", "sitegen_containers", _CONTAINER),
    ("core", "sitegen_alerts", _any("[!")),
    ("core", "attr", _ATTRS),
    ("core", "sitegen_paragraph_attrs", _ATTRS),
    ("core", "sitegen_attr_list_trailing", _ATTRS),
    ("core", "sitegen_attr_list_report", _ATTRS),
    ("core", "sitegen_directive_links", _CONTAINER),
    ("core", "sitegen_embeds", _any("![[")),
    ("core", "sitegen_block_ids", _any("^")),
    ("core", "sitegen_toc_paragraphs", _any("[TOC]")),
    ("core", "sitegen_math", _MATH),
    ("core", "footnote_tail", _FOOTNOTE),
    ("core", "sitegen_footnote_ids", _FOOTNOTE),
    ("core", "sitegen_shortcode_paragraphs", _any("<!--")),
    ("core", "sitegen_shortcodes", _any("<!--")),
    ("core", "sitegen_unknown_icons", _shortcode),
    ("core", "sitegen_fence_attributes", _ATTRS),
    ("core", "sitegen_code_annotations", _annotation),
)


@dataclass
class RuleGates:
    """The gated rules of one parser, by ruler, and which of them are off right now."""

    rulers: dict[str, Ruler]  # type: ignore[type-arg]
    gates: list[tuple[str, str, Marker]]
    off: dict[str, frozenset[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, md: MarkdownIt) -> RuleGates:
        """The gates of ``GATES`` that apply to ``md``'s rules (build once, after every
        plugin is registered)."""
        rulers: dict[str, Ruler] = {  # type: ignore[type-arg]
            "block": md.block.ruler,
            "inline": md.inline.ruler,
            "core": md.core.ruler,
        }
        gates = [
            (ruler, name, marker)
            for ruler, pattern, marker in GATES
            for name in _names(rulers[ruler], pattern)
        ]
        return cls(rulers, gates, {ruler: frozenset() for ruler in rulers})

    def fit(self, text: str) -> None:
        """Switch on the gated rules whose marker occurs in ``text``, and off the others.
        A ruler is recompiled only when its set changes, which pages of one kind rarely do."""
        absent: dict[str, set[str]] = {ruler: set() for ruler in self.rulers}
        seen: dict[Marker, bool] = {}
        for ruler, name, marker in self.gates:
            if marker not in seen:
                seen[marker] = marker(text)
            if not seen[marker]:
                absent[ruler].add(name)
        for ruler, names in absent.items():
            wanted = frozenset(names)
            if wanted != self.off[ruler]:
                self._switch(ruler, wanted)

    def open_all(self) -> None:
        """Every gated rule on again (a parse whose text ``fit`` did not see)."""
        for ruler in self.rulers:
            if self.off[ruler]:
                self._switch(ruler, frozenset())

    def _switch(self, ruler: str, off: frozenset[str]) -> None:
        target = self.rulers[ruler]
        if self.off[ruler] - off:
            target.enable(sorted(self.off[ruler] - off))
        if off:
            target.disable(sorted(off))
        self.off[ruler] = off


def _names(ruler: Ruler, pattern: str) -> Iterable[str]:  # type: ignore[type-arg]
    names = [rule.name for rule in ruler.__rules__ if rule.enabled]
    if pattern.endswith("*"):
        return [n for n in names if n.startswith(pattern[:-1])]
    return [n for n in names if n == pattern]
