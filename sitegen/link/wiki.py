"""How a wikilink finds its target: Obsidian's rule of names (content/syntax/wikilinks.md).

A path that names one file, else a unique file name or title, else the nearest of several.
Works on the crawled names only; never reads files. The syntax lives in sitegen/docs/wikilinks.py.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from sitegen.base.paths import PAGE_SUFFIXES, content_relative, content_repo_path
from sitegen.docs.slug import github_slug
from sitegen.link.broken import names_a_note
from sitegen.link.rules import NO_TRACE, Rejected, Rule, SiteIndex, Trace
from sitegen.records.linked import Outcome, Resolved

#: Page files a wikilink names without their extension (``.mdx`` only exists where the
#: record reads it: sitegen/generators/).
_PAGE_EXTENSIONS = PAGE_SUFFIXES
#: A markdown link's file found by a name several files of an Obsidian vault have
#: (sitegen/link/vault.py): a warning of the build, like an ambiguous wikilink.
AMBIGUOUS_NAME = "ambiguous-file-name"


@dataclass
class WikiNames:
    """Every page and asset by the names a wikilink may use: path without extension, file
    name, title (all lower-cased), relative to the content folder."""

    content: str
    by_path: dict[str, str] = field(default_factory=dict)  # "guides/install" -> repo path
    by_name: dict[str, list[str]] = field(default_factory=dict)  # "install" -> repo paths
    by_title: dict[str, list[str]] = field(default_factory=dict)
    #: An Obsidian vault's ``aliases``: other names of a page (``[[Start here]]`` for Home.md).
    by_alias: dict[str, list[str]] = field(default_factory=dict)


def wiki_names(
    index: SiteIndex, titles: Mapping[str, str], aliases: Mapping[str, Sequence[str]] = {}
) -> WikiNames:
    names = WikiNames(index.content)
    for repo_path, names_of in sorted(aliases.items()):
        for alias in names_of:
            names.by_alias.setdefault(alias, []).append(repo_path)
    for repo_path in sorted(index.pages | index.assets):
        rel = content_relative(index.content, repo_path)
        if rel is None:
            continue
        stem, ext = posixpath.splitext(rel)
        key = (stem if ext.lower() in _PAGE_EXTENSIONS else rel).lower()
        names.by_path.setdefault(key, repo_path)
        names.by_name.setdefault(posixpath.basename(key), []).append(repo_path)
        if repo_path in titles:
            names.by_title.setdefault(titles[repo_path].strip().lower(), []).append(repo_path)
    return names


@dataclass(frozen=True)
class WikiTarget:
    resolved: Resolved
    found: str = ""  # the repository path linked to
    others: tuple[str, ...] = ()  # other paths the name also matches (ambiguous when any)


def resolve_wikilink(
    target: str, from_path: str, names: WikiNames, index: SiteIndex, trace: Trace = NO_TRACE
) -> WikiTarget:
    """Obsidian's rule: a path that names one file exactly, else the file whose name (or
    title) is unique; among several, the one nearest the linking page, reported."""
    name, _, heading = target.partition("#")
    fragment = _fragment(heading)
    written = name.strip().removesuffix(".md").lstrip("/")
    key = written.lower()
    shown = f", heading '{heading.strip()}' as '#{fragment}'" if heading.strip() else ""
    trace.step(Rule.WIKILINK, f"the name '{key}'{shown}")
    if not key:
        trace.step(Rule.SELF, "no name: the linking page itself")
        return WikiTarget(Resolved(Outcome.SELF, fragment=fragment))
    matches = _written_first(_matches(key, names, trace), index.generated, trace)
    if not matches:
        # [[clip.mp4]] looked for clip.mp4, not clip.mp4.md: only a note's name gets .md.
        note = written if written.lower().endswith(PAGE_SUFFIXES) else written + ".md"
        looked = content_repo_path(names.content, note if names_a_note(written) else written)
        return WikiTarget(Resolved(Outcome.MISSING, index.missing_node(looked), fragment, looked))
    if index.vault is not None:
        chosen, others = _obsidian_choice(matches, from_path)
    else:
        chosen = _nearest(matches, from_path)
        others = tuple(m for m in matches if m != chosen)
    trace.step(
        Rule.WIKILINK,
        "the nearest to the linking page" if others else "one file matches",
        chosen,
        (Rejected(m, f"farther from the linking page than '{chosen}'") for m in others),
    )
    node = index.node_for(chosen)
    if chosen == from_path or node is None:
        trace.step(Rule.SELF, "the target is the linking file itself: no edge", chosen)
        return WikiTarget(Resolved(Outcome.SELF, fragment=fragment), chosen)
    return WikiTarget(Resolved(Outcome.INTERNAL, node, fragment), chosen, others)


def _matches(key: str, names: WikiNames, trace: Trace) -> list[str]:
    """The files a wikilink's name matches: its path exactly, else the files of its name
    whose path ends with it, else the pages of that title."""
    exact = names.by_path.get(key)
    trace.step(Rule.WIKILINK, "a file at that path (from the content folder)", exact or "")
    if exact:
        return [exact]
    named = names.by_name.get(posixpath.basename(key), [])
    matches = _by_suffix(named, key, names.content)
    trace.step(
        Rule.WIKILINK,
        "files of that name",
        ", ".join(matches),
        (Rejected(p, f"its path does not end with '{key}'") for p in named if p not in matches),
    )
    if not matches:
        matches = names.by_title.get(key, [])
        trace.step(Rule.WIKILINK, "pages of that title", ", ".join(matches))
    if not matches and names.by_alias:
        matches = names.by_alias.get(key, [])
        trace.step(Rule.WIKILINK, "pages with that name among their aliases", ", ".join(matches))
    return matches


def page_aliases(front_matter: Mapping[str, object]) -> list[str]:
    """The names an Obsidian note's ``aliases`` (or older ``alias``) gives it, as a wikilink
    is compared: lower-cased, ``.md`` and a leading ``/`` left out. A text or a list of
    texts; anything else gives none (the vault's app ignores it too)."""
    found = []
    for key in ("aliases", "alias"):
        value = front_matter.get(key)
        values = [value] if isinstance(value, str) else value if isinstance(value, list) else []
        found += [v for v in values if isinstance(v, str)]
    names = (v.strip().removesuffix(".md").lstrip("/").lower() for v in found)
    return sorted({n for n in names if n})


def _written_first(matches: list[str], generated: frozenset[str], trace: Trace) -> list[str]:
    """Among pages of one name, those written by hand: an API page the ``api`` option made
    (``anchors`` for a module ``anchors``) never makes an author's ``[[anchors]]`` ambiguous."""
    written = [m for m in matches if m not in generated]
    if not written or len(written) == len(matches):
        return matches
    trace.step(
        Rule.WIKILINK,
        "pages written by hand before generated API pages",
        ", ".join(written),
        (Rejected(m, "a generated API page") for m in matches if m in generated),
    )
    return written


def _fragment(heading: str) -> str:
    """``[[Page#Some Heading]]`` names a heading by its text; the anchor is its slug. An id
    written as one (``#some-heading``) slugs to itself. ``[[Page#^abc]]`` names a block by
    its id, which is the anchor as written (content/syntax/obsidian.md#block-ids)."""
    heading = heading.strip()
    if heading.startswith("^"):
        return heading
    return github_slug(heading) if heading else ""


def _by_suffix(candidates: Iterable[str], key: str, content: str) -> list[str]:
    """``[[folder/Page]]`` matches the pages whose path ends with ``folder/page``."""
    out = []
    for repo_path in candidates:
        rel = (content_relative(content, repo_path) or repo_path).lower()
        stem = posixpath.splitext(rel)[0] if rel.endswith(_PAGE_EXTENSIONS) else rel
        if stem == key or stem.endswith("/" + key):
            out.append(repo_path)
    return out


def _obsidian_choice(matches: list[str], from_path: str) -> tuple[str, tuple[str, ...]]:
    """The file Obsidian links a name several files have to: the one in the linking note's
    folder, else the shortest path; and the others, none when the choice was the linking
    note's folder (Obsidian's reader sees that one; no one needs to write more of the
    path), as content/syntax/obsidian.md says."""
    here = posixpath.dirname(from_path)
    beside = sorted(m for m in matches if posixpath.dirname(m) == here)
    if beside:
        return beside[0], tuple(beside[1:])
    chosen = min(matches, key=lambda path: (path.count("/"), len(path), path))
    return chosen, tuple(m for m in matches if m != chosen)


def _nearest(matches: list[str], from_path: str) -> str:
    """The match sharing the longest folder prefix with the linking page, then the shortest."""
    here = posixpath.dirname(from_path).split("/")

    def rank(path: str) -> tuple[int, int, str]:
        there = posixpath.dirname(path).split("/")
        common = 0
        while common < min(len(here), len(there)) and here[common] == there[common]:
            common += 1
        return (-common, path.count("/"), path)

    return min(matches, key=rank)
