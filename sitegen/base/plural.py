"""Counts in words: "1 broken link", "2 broken links", "1 baseline entry no longer occurs".

The one place a number meets a noun or a verb, so every message agrees in number. Never
guesses beyond English's regular rules: an irregular word passes its plural explicitly.
"""

from __future__ import annotations

_SIBILANT_ENDINGS = ("s", "x", "z", "ch", "sh")
_VOWELS = "aeiou"


def plural_of(noun: str) -> str:
    """The regular English plural of the last word: ``entry`` -> ``entries``,
    ``match`` -> ``matches``, ``day`` -> ``days``, ``link`` -> ``links``."""
    if noun.endswith("y") and len(noun) > 1 and noun[-2] not in _VOWELS:
        return noun[:-1] + "ies"
    if noun.endswith(_SIBILANT_ENDINGS):
        return noun + "es"
    return noun + "s"


def counted(n: int, noun: str, plural: str = "") -> str:
    """``n`` and the noun in the right number: ``counted(1, "finding")`` is "1 finding",
    ``counted(0, "finding")`` is "0 findings"; ``plural`` for an irregular noun."""
    return f"{n} {noun if n == 1 else plural or plural_of(noun)}"


def agrees(n: int, singular: str, plural: str) -> str:
    """The verb form that agrees with ``n``: ``agrees(1, "occurs", "occur")`` is "occurs"."""
    return singular if n == 1 else plural
