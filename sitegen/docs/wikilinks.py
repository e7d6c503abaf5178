"""Wikilinks of Obsidian and Quartz: ``[[Page]]``, ``[[Page|alias]]``, ``[[Page#Heading]]``,
``![[image.png]]``, parsed as links of kind "wikilink" and resolved by name (content/syntax/wikilinks.md).

The inline rule makes ordinary link and image tokens, so positions, labels and sections are
recorded as for any link. Resolution works on the crawled names only; never reads files.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline

from sitegen.docs.blocks import report
from sitegen.docs.links import Outcome, Resolved, SiteIndex
from sitegen.docs.positions import SOURCE
from sitegen.docs.slug import github_slug

KIND = "wikilink"
IMAGE_EXTENSIONS = (".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".avif", ".bmp")
_PAGE_EXTENSIONS = (".md", ".markdown")
_EMBED = "sitegen_embed"


def find_closer(state: StateInline, closer: str, start: int) -> int:
    """Where ``closer`` next occurs at or after ``start`` before ``state.posMax``, or -1.

    Each search is remembered as (from, found): it answers any later query between the two,
    so many openers with no closer stay linear. The inline state may move back (a link's
    label is parsed after the link), hence the range check rather than a single answer.
    """
    known: dict[str, tuple[int, int]] = state.__dict__.setdefault("_sitegen_closers", {})
    since, end = known.get(closer, (-1, -2))
    if not (since <= start and (end == -1 or start <= end)):
        end = state.src.find(closer, start)
        known[closer] = (start, end)
    return end if 0 <= end and end + len(closer) <= state.posMax else -1


def wikilink(state: StateInline, silent: bool) -> bool:
    src, pos = state.src, state.pos
    embed = src.startswith("![[", pos)
    if not embed and not src.startswith("[[", pos):
        return False
    start = pos + (3 if embed else 2)
    end = find_closer(state, "]]", start)
    inner = src[start:end] if end >= 0 else ""
    if not inner.strip() or "\n" in inner or "[" in inner or "]" in inner:
        return False
    target, _, alias = inner.partition("|")
    target, alias = target.strip(), alias.strip()
    if not silent:
        _push(state, target, alias, embed, pos)
    state.pos = end + 2
    return True


def _push(state: StateInline, target: str, alias: str, embed: bool, pos: int) -> None:
    name = target.partition("#")[0]
    if embed and name.lower().endswith(IMAGE_EXTENSIONS):
        token = state.push("image", "img", 0)
        alt = alias if alias and not alias.isdigit() else posixpath.basename(name)
        token.attrs = {"src": target, "alt": ""}
        if alias.isdigit():  # ![[image.png|200]]: Obsidian's width
            token.attrs["width"] = alias
        text = state.push("text", "", 0)
        state.tokens.pop()
        text.content = alt
        token.children, token.content = [text], alt
        return
    opener = state.push("link_open", "a", 1)
    opener.attrs = {"href": target, "class": "wikilink"}
    if embed:
        opener.meta[_EMBED] = target
    text = state.push("text", "", 0)
    text.content = alias or target.replace("#", " > ").lstrip(" >")
    state.push("link_close", "a", -1)


def report_embeds(state: StateCore) -> None:
    """Core rule after ``inline``: a page embed ``![[Page]]`` is a warning at its place."""
    for token in state.tokens:
        for child in token.children or () if token.type == "inline" else ():
            if _EMBED in child.meta:
                report(
                    state,
                    child.meta.get(SOURCE, -1),
                    f"embedding the page "
                    f"'![[{child.meta[_EMBED]}]]' is not supported; it is shown as a link",
                    "unsupported-syntax",
                )


# --- resolution ---------------------------------------------------------------------------


@dataclass
class WikiNames:
    """Every page and asset by the names a wikilink may use: path without extension, file
    name, title (all lower-cased), relative to the content folder."""

    content: str
    by_path: dict[str, str] = field(default_factory=dict)  # "guides/install" -> repo path
    by_name: dict[str, list[str]] = field(default_factory=dict)  # "install" -> repo paths
    by_title: dict[str, list[str]] = field(default_factory=dict)


def wiki_names(index: SiteIndex, titles: Mapping[str, str]) -> WikiNames:
    names = WikiNames(index.content)
    for repo_path in sorted(index.pages | index.assets):
        rel = _relative(index.content, repo_path)
        if rel is None:
            continue
        stem, ext = posixpath.splitext(rel)
        key = (stem if ext.lower() in _PAGE_EXTENSIONS else rel).lower()
        names.by_path.setdefault(key, repo_path)
        names.by_name.setdefault(posixpath.basename(key), []).append(repo_path)
        if repo_path in titles:
            names.by_title.setdefault(titles[repo_path].strip().lower(), []).append(repo_path)
    return names


def _relative(content: str, repo_path: str) -> str | None:
    if not content:
        return repo_path
    return repo_path[len(content) + 1 :] if repo_path.startswith(content + "/") else None


@dataclass(frozen=True)
class WikiTarget:
    resolved: Resolved
    found: str = ""  # the repository path linked to
    others: tuple[str, ...] = ()  # other paths the name also matches (ambiguous when any)


def resolve_wikilink(target: str, from_path: str, names: WikiNames, index: SiteIndex) -> WikiTarget:
    """Obsidian's rule: a path that names one file exactly, else the file whose name (or
    title) is unique; among several, the one nearest the linking page, reported."""
    name, _, heading = target.partition("#")
    fragment = "" if heading.startswith("^") else _fragment(heading)
    written = name.strip().removesuffix(".md").lstrip("/")
    key = written.lower()
    if not key:
        return WikiTarget(Resolved(Outcome.SELF, fragment=fragment))
    exact = names.by_path.get(key)
    matches = (
        [exact]
        if exact
        else _by_suffix(names.by_name.get(posixpath.basename(key), []), key, names.content)
    )
    if not matches:
        matches = names.by_title.get(key, [])
    if not matches:
        looked = (
            posixpath.join(names.content, written + ".md") if names.content else written + ".md"
        )
        return WikiTarget(Resolved(Outcome.MISSING, index.missing_node(looked), fragment, looked))
    chosen = _nearest(matches, from_path)
    node = index.node_for(chosen)
    if chosen == from_path or node is None:
        return WikiTarget(Resolved(Outcome.SELF, fragment=fragment), chosen)
    others = tuple(m for m in matches if m != chosen)
    return WikiTarget(Resolved(Outcome.INTERNAL, node, fragment), chosen, others)


def _fragment(heading: str) -> str:
    """``[[Page#Some Heading]]`` names a heading by its text; the anchor is its slug. An id
    written as one (``#some-heading``) slugs to itself."""
    return github_slug(heading.strip()) if heading.strip() else ""


def _by_suffix(candidates: Iterable[str], key: str, content: str) -> list[str]:
    """``[[folder/Page]]`` matches the pages whose path ends with ``folder/page``."""
    out = []
    for repo_path in candidates:
        rel = (_relative(content, repo_path) or repo_path).lower()
        stem = posixpath.splitext(rel)[0] if rel.endswith(_PAGE_EXTENSIONS) else rel
        if stem == key or stem.endswith("/" + key):
            out.append(repo_path)
    return out


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
