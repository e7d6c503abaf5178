"""Docusaurus: its ``docusaurus.config.*`` and ``sidebars.*`` read as literals, never run
(content/guides/docusaurus.md), and the names it gives a doc (its id).

A doc's id is its path under the docs folder without the extension, the number prefix of
each segment taken off (``01-intro.md`` -> ``intro``), front matter ``id`` replacing the
last segment: the name a sidebar and a link give it.
"""

from __future__ import annotations

import posixpath
import re

#: ``7.0-foo``, ``2021-11-foo``: a version or a date, never a number prefix (Docusaurus'
#: ``numberPrefix.ts``: issues 4640 and 4653).
_IGNORED_PREFIX = re.compile(r"\d+[-_.]\d+")
#: ``01-intro``, ``003 - My doc``: the number, its separator, then a name that does not start
#: with a separator. Each run is bounded by what follows it, so the match is linear.
_NUMBER_PREFIX = re.compile(r"\d+[ \t]*[-_.]+[ \t]*(?=[^-_.\s])")


def strip_number_prefix(name: str) -> str:
    """``01-intro`` -> ``intro``; a name without a number prefix (``2021-01-31-post``,
    ``intro``) is kept."""
    if _IGNORED_PREFIX.match(name):
        return name
    found = _NUMBER_PREFIX.match(name)
    return name[found.end() :] if found is not None else name


def strip_path_number_prefixes(path: str) -> str:
    """Each segment of ``path`` without its number prefix: ``01-guide/02-a`` -> ``guide/a``."""
    return "/".join(strip_number_prefix(part) for part in path.split("/"))


def doc_id(path: str, front_matter_id: object = None) -> str:
    """The id Docusaurus gives the doc at ``path`` (relative to the docs folder):
    ``guides/01-intro.md`` -> ``guides/intro``; a string front matter ``id`` replaces the
    last segment (``id: start`` -> ``guides/start``), as Docusaurus' ``docs.ts`` does."""
    folder, name = posixpath.split(path.strip("/"))
    stem = posixpath.splitext(name)[0]
    given = front_matter_id.strip() if isinstance(front_matter_id, str) else ""
    base = given or strip_number_prefix(stem)
    prefix = strip_path_number_prefixes(folder) if folder else ""
    return f"{prefix}/{base}" if prefix else base
