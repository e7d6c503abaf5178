"""How a typed relation reads from the page it points at: ``supersedes`` is "Superseded by"
(content/guides/relations.md). Words only: never looks at the graph or renders anything.
"""

from __future__ import annotations

PLAIN_HEADING = "Linked from"

#: Predicates whose human form, seen from the target, is not made by the rules below.
#: "Depends on this" (content/guides/backlinks.md) wins over "Depended on by".
_FIXED_HEADINGS = {
    "supersedes": "Superseded by",
    "depends-on": "Depends on this",
    "implements": "Implemented by",
    "see-also": "See also",
    "related": "Related",
    "related-to": "Related",
    "relates-to": "Related",
    "refers-to": "Referred to by",
    "breaks": "Broken by",
    "overrides": "Overridden by",
    "writes": "Written by",
    "embeds": "Embedded by",
}


_NOT_VERB_ENDINGS = ("ss", "us", "is", "as", "os")


def _participle(verb_s: str) -> str | None:
    """``supersedes`` -> ``superseded``; ``fixes`` -> ``fixed``; None when not a verb form."""
    if len(verb_s) < 4 or not verb_s.endswith("s") or verb_s.endswith(_NOT_VERB_ENDINGS):
        return None
    if verb_s.endswith("ies"):
        return verb_s[:-3] + "ied"
    if verb_s.endswith(("xes", "ches", "shes", "sses", "zzes")):
        return verb_s[:-2] + "ed"
    stem = verb_s[:-1]
    if stem.endswith(("mit", "rol")):  # commits -> committed, controls -> controlled
        return stem + stem[-1] + "ed"
    return stem + "d" if stem.endswith("e") else stem + "ed"


def relation_heading(predicate: str) -> str:
    """The heading of a typed relation as the target page reads it.

    A third-person verb becomes passive (``replaces`` -> "Replaced by"); a phrase is put in
    words followed by "this" (``part-of`` -> "Part of this"), which reads the right way round
    from the target, like "Depends on this" (content/guides/backlinks.md); others capitalized.
    """
    if predicate in _FIXED_HEADINGS:
        return _FIXED_HEADINGS[predicate]
    words = predicate.replace("_", "-").split("-")
    words = [w for w in words if w]
    if not words:
        return PLAIN_HEADING
    if len(words) == 1:
        participle = _participle(words[0])
        return participle.capitalize() + " by" if participle else words[0].capitalize()
    return " ".join(words).capitalize() + " this"
