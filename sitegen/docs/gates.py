"""Rules that cost nothing on a page without their syntax: before a page is parsed, each rule
whose marker does not occur anywhere in the page's text is switched off for that page.

markdown-it tries every block rule at every line (and every core rule walks every token), so
the 20 rules the extra syntaxes add cost a page that uses none of them about half of
markdown-it's own block parse (bench/README.md, "Where the time goes"). A marker is a
*necessary* condition: each rule can match only where its marker stands in the source text
(nested content, titles and snippets are parts of that text), so a page renders the same
bytes with its rules gated or not (tests/docs/test_gates.py checks every shipped page).

Which rule has which marker is not listed here: each syntax declares its markers in
``sitegen/docs/registry.py``, and the rules it adds are found by comparing the parser's rules
before and after it is installed, so no rule can be left without a gate
(content/syntax/index.md). Never parses anything itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markdown_it.ruler import Ruler

#: A test of a page's text: does the marker of a rule occur in it?
Marker = Callable[[str], bool]
#: A gated rule: (ruler, rule name, marker).
Gate = tuple[str, str, Marker]
#: markdown-it's rule chains by the names the gates use: block, inline, inline pairing
#: (``ruler2``, run after the inline parse) and core.
RULERS = ("block", "inline", "inline2", "core")


def any_of(*markers: str) -> Marker:
    """The marker "one of these strings occurs in the text"."""
    return lambda text: any(m in text for m in markers)


def rulers_of(md: MarkdownIt) -> dict[str, Ruler]:  # type: ignore[type-arg]
    """``md``'s rule chains by name (``RULERS``)."""
    return {
        "block": md.block.ruler,
        "inline": md.inline.ruler,
        "inline2": md.inline.ruler2,
        "core": md.core.ruler,
    }


@dataclass
class RuleGates:
    """The gated rules of one parser, by ruler, and which of them are off right now."""

    rulers: dict[str, Ruler]  # type: ignore[type-arg]
    gates: list[Gate]
    off: dict[str, frozenset[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, md: MarkdownIt, gates: Sequence[Gate]) -> RuleGates:
        """The ``gates`` of ``md``'s rules (built once, after every syntax is installed); a
        gate naming a rule ``md`` does not run is left out."""
        rulers = rulers_of(md)
        running = {ruler: _enabled(chain) for ruler, chain in rulers.items()}
        kept = [(ruler, name, marker) for ruler, name, marker in gates if name in running[ruler]]
        return cls(rulers, kept, {ruler: frozenset() for ruler in rulers})

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


def _enabled(ruler: Ruler) -> set[str]:  # type: ignore[type-arg]
    return {rule.name for rule in ruler.__rules__ if rule.enabled}
