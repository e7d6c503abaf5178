"""Every markdown syntax sitegen reads, in one ordered tuple ``SYNTAXES``: the one place a
syntax is registered (content/syntax/index.md). The parser of a dialect, the marker gates
of its rules (sitegen/docs/gates.py) and the rules whose HTML the sanitizer trusts
(sitegen/docs/sanitize.py) are all derived from it, and a plugin's syntax goes through the
same path as a built-in one (``install_syntaxes``).

The rules a syntax adds are found by comparing the parser's rule chains before and after its
``install``, and each is gated by the syntax's ``markers``: a rule cannot be left without a
gate, and a rule no marker covers stops the build of the parser (``SyntaxInstallError``).
Never parses a page itself.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase

from markdown_it import MarkdownIt
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin
from mdit_py_plugins.tasklists import tasklists_plugin

from sitegen.config import Rebuild
from sitegen.docs import syntax
from sitegen.docs.attributes import attr_list_plugin
from sitegen.docs.blockids import block_ids_plugin
from sitegen.docs.blocks import blocks_plugin, comment_terms
from sitegen.docs.callouts import callouts_plugin
from sitegen.docs.comments import comments_plugin
from sitegen.docs.fences import fences_plugin
from sitegen.docs.footnotes import python_markdown_footnotes
from sitegen.docs.gates import RULERS, Gate, Marker, any_of, rulers_of
from sitegen.docs.highlight import highlight_plugin
from sitegen.docs.kramdown import kramdown_attributes
from sitegen.docs.mdinhtml import md_in_html_plugin
from sitegen.docs.mdx import mdx_plugin
from sitegen.docs.nesting import limit_nesting
from sitegen.docs.pymdownx import caret_plugin, keys_plugin, tilde_plugin
from sitegen.docs.sanitize import trust_core_rule
from sitegen.docs.shortcodes import may_call, project_shortcodes_plugin, shortcodes_plugin
from sitegen.docs.toc import toc_plugin
from sitegen.generators import Dialect

__all__ = [
    "PLUGIN",
    "SYNTAXES",
    "Installed",
    "Markers",
    "Syntax",
    "SyntaxInstallError",
    "install_syntaxes",
    "syntaxes_key",
]

#: The diagnostic code of everything said about a plugin: that it could not be loaded, or
#: that its syntax raised on a page (content/guides/plugins.md).
PLUGIN = "plugin"

#: What gates a syntax's rules: one marker for all of them; a marker per rule, keyed by
#: ``"ruler:rule"`` glob patterns (``"block:container_*"``; the first key that matches
#: counts, and a value of None keeps that rule always on); or None, every rule always on.
Markers = Marker | Mapping[str, Marker | None] | None


class SyntaxInstallError(Exception):
    """The syntax ``name`` could not be installed on a parser: its ``install`` raised
    (``cause``), or it added a rule its markers do not cover, trusted a rule it did not add,
    or took a name already installed. The parser is then not built."""

    def __init__(self, name: str, cause: BaseException) -> None:
        super().__init__(f"the markdown syntax {name!r} could not be installed: {cause}")
        self.name = name
        self.cause = cause


@dataclass(frozen=True)
class Syntax:
    """One markdown syntax: what it installs on a parser, and the markers without which a
    page cannot use it (content/syntax/index.md)."""

    #: Unique among the installed syntaxes: "callouts", "tabs", a plugin's own name.
    name: str
    #: Registers its rules (and render rules) on the parser.
    install: Callable[[MarkdownIt], None]
    #: May a page's text use it (``Markers``)? A rule of a page without its marker is off.
    markers: Markers
    #: Flags that must all be set for it to be installed; NONE: on every parser.
    dialect: Dialect = Dialect.NONE
    #: Core rules it adds whose HTML tokens are sitegen's own (rendered as they are), not
    #: the author's raw HTML (content/guides/site.md, "Raw HTML").
    trusted: frozenset[str] = frozenset()
    #: The config options it reads.
    options: tuple[str, ...] = ()
    #: What a change of it (or of its version) redoes (content/guides/builds.md).
    rebuild: Rebuild = Rebuild.PAGES
    #: A plugin's distribution version ("" for the built-ins): part of the page-cache key.
    version: str = ""
    #: Whether its rules may run in forked workers.
    fork_safe: bool = True

    def applies(self, dialect: Dialect) -> bool:
        """Is it installed on the parser of ``dialect``?"""
        return dialect & self.dialect == self.dialect

    def marker(self, ruler: str, rule: str) -> Marker | None:
        """The marker of one rule it added (None: always on); ``LookupError`` when its
        markers name none for that rule."""
        markers = self.markers
        if not isinstance(markers, Mapping):
            return markers
        key = f"{ruler}:{rule}"
        if key in markers:
            return markers[key]
        for pattern, marker in markers.items():
            if fnmatchcase(key, pattern):
                return marker
        raise LookupError(f"its markers name no marker for the {ruler} rule {rule!r}")


@dataclass(frozen=True)
class Installed:
    """What installing the syntaxes made of a parser: which syntax owns each rule that runs
    (the one that added it or last replaced its function), the gates of those rules, and the
    core rules whose HTML is trusted."""

    owners: Mapping[tuple[str, str], str]
    gates: tuple[Gate, ...]
    trusted: frozenset[str]


def syntaxes_key(extra: Sequence[Syntax]) -> tuple[tuple[str, str], ...]:
    """The names and versions of ``extra`` syntaxes: what parsers are cached by and what
    enters a page's record key (a plugin's new version extracts its pages again)."""
    return tuple((s.name, s.version) for s in extra)


#: Each chain's rules as (name, function, on?), in order.
_Snapshot = dict[str, list[tuple[str, object, bool]]]


def _snapshot(md: MarkdownIt) -> _Snapshot:
    return {
        ruler: [(rule.name, rule.fn, rule.enabled) for rule in chain.__rules__]
        for ruler, chain in rulers_of(md).items()
    }


def _take_owners(
    owners: dict[tuple[str, str], Syntax], entry: Syntax, before: _Snapshot, after: _Snapshot
) -> None:
    """Make ``entry`` the owner of each rule its install added, switched on or replaced;
    a rule it switched off has no owner."""
    for ruler, rules in after.items():
        if rules == before[ruler]:
            continue
        known = set(before[ruler])
        for rule in rules:
            if rule in known:
                continue
            name, _, on = rule
            if on:
                owners[(ruler, name)] = entry
            else:
                owners.pop((ruler, name), None)


def install_syntaxes(md: MarkdownIt, dialect: Dialect, syntaxes: Iterable[Syntax]) -> Installed:
    """Install on ``md`` (a new parser) every one of ``syntaxes`` that applies to
    ``dialect``, in order, each on the rules of those before it: every rule markdown-it
    ships is switched off first, so CommonMark's own rules are a syntax too.

    Raises ``SyntaxInstallError`` naming the syntax whose install fails, whose added rule
    has no marker, whose trusted rule it did not add, or whose name is taken."""
    md.options[syntax.DIALECT_OPTION] = dialect
    for chain in rulers_of(md).values():
        chain.disable([rule.name for rule in chain.__rules__ if rule.enabled])
    owners: dict[tuple[str, str], Syntax] = {}
    before = _snapshot(md)
    installed: set[str] = set()
    trusted: set[str] = set()
    for entry in syntaxes:
        if not entry.applies(dialect):
            continue
        if entry.name in installed:
            raise SyntaxInstallError(entry.name, ValueError("a syntax of that name is installed"))
        installed.add(entry.name)
        try:
            entry.install(md)
        except Exception as error:
            raise SyntaxInstallError(entry.name, error) from error
        after = _snapshot(md)
        _take_owners(owners, entry, before, after)
        before = after
        for name in sorted(entry.trusted):
            if owners.get(("core", name)) is not entry:
                raise SyntaxInstallError(
                    entry.name, LookupError(f"it trusts the core rule {name!r}, not one it adds")
                )
            trust_core_rule(md, name)
            trusted.add(name)
            before = _snapshot(md)
    return Installed(
        {key: entry.name for key, entry in owners.items()}, _gates(md, owners), frozenset(trusted)
    )


def _gates(md: MarkdownIt, owners: Mapping[tuple[str, str], Syntax]) -> tuple[Gate, ...]:
    """The gate of each rule that runs, in the chains' order (no marker: no gate)."""
    gates: list[Gate] = []
    chains = rulers_of(md)
    for ruler in RULERS:
        for rule in chains[ruler].__rules__:
            owner = owners.get((ruler, rule.name))
            if owner is None:
                continue
            try:
                marker = owner.marker(ruler, rule.name)
            except LookupError as error:
                raise SyntaxInstallError(owner.name, error) from error
            if marker is not None:
                gates.append((ruler, rule.name, marker))
    return tuple(gates)


# --- markers ----------------------------------------------------------------------------------
# Each is a necessary condition: a rule can match only where its marker stands in the
# source text (nested content, titles and snippets are parts of that text).

#: A definition's ``:`` or ``~`` begins a line, after indentation and quote markers only.
_DEFINITION = re.compile(r"^[ \t>]*[:~]", re.MULTILINE)
_MATH = any_of("$", "\\(", "\\[", "\\begin")
_CONTAINER = any_of(":::")
_ADMONITION = any_of("!!!", "???")
_ATTRS = any_of("{")
_FOOTNOTE = any_of("[^")
_HTML = any_of("<")
_HOOK_SHORTCODE = any_of("<!--")
_ESCAPED_SPACE = any_of("\\ ")
#: ``~`` not ``~~``: in the TILDE dialect the strikethrough rule also reads ``~sub~``.
_TILDE = any_of("~")
#: An emoji or icon shortcode ``:name:`` (sitegen/docs/emoji.py): ``:`` alone is in every
#: time and URL. Linear: each ``:`` scans the word after it, and words do not overlap.
_SHORTCODE_TEXT = re.compile(r":[+\-\w]+:")
#: An element's ``markdown`` attribute (sitegen/docs/mdinhtml.py); HTML's names ignore case.
_MARKDOWN_WORD = re.compile("markdown", re.IGNORECASE)
#: A code annotation's marker ``(1)`` (sitegen/docs/annotations.py).
_ANNOTATION_MARKER = re.compile(r"\(\d+\)")


def _front_matter(text: str) -> bool:
    return text.startswith("---")


def _definition(text: str) -> bool:
    return _DEFINITION.search(text) is not None


def _comment_term(text: str) -> bool:
    """A definition under a line holding one HTML comment (Python-Markdown's reading)."""
    return "<!--" in text and _DEFINITION.search(text) is not None


def _shortcode(text: str) -> bool:
    return _SHORTCODE_TEXT.search(text) is not None


def _markdown_attribute(text: str) -> bool:
    return "<" in text and _MARKDOWN_WORD.search(text) is not None


def _annotation(text: str) -> bool:
    return _ANNOTATION_MARKER.search(text) is not None


def _footnotes(md: MarkdownIt) -> None:
    # No ^[inline] footnotes: they are parsed as a separate text, off the page's positions.
    footnote_plugin(md, inline=False)


def _task_lists(md: MarkdownIt) -> None:
    tasklists_plugin(md, label=True)


def _kramdown_attributes(md: MarkdownIt) -> None:
    # first after the inline parse: an attribute line is gone before any rule reads the text
    md.core.ruler.after("inline", "sitegen_kramdown_attributes", kramdown_attributes)


#: The built-in syntaxes, in install order (a rule placed "after inline" by a later one
#: runs before those placed there earlier). Each cites its page in content/syntax/.
SYNTAXES: tuple[Syntax, ...] = (
    # CommonMark, with html on as CommonMark says: the renderer cleans it (content/guides/site.md)
    Syntax(
        "commonmark",
        syntax.commonmark_rules,
        {
            "block:html_block": _HTML,
            "inline:html_inline": _HTML,
            "inline:autolink": _HTML,
            "inline:entity": any_of("&"),
            "*": None,
        },
    ),
    Syntax("tables", syntax.tables, any_of("|")),
    Syntax("strikethrough", syntax.strikethrough, _TILDE),
    # 20 dropped lists deeper than 9 levels without a word; adds no rule
    Syntax("nesting-limit", limit_nesting, None),
    Syntax("front-matter", front_matter_plugin, _front_matter),
    Syntax("footnotes", _footnotes, _FOOTNOTE),
    # its checkboxes are ours, not raw HTML (content/syntax/lists.md)
    Syntax("task-lists", _task_lists, None, trusted=frozenset({"github-tasklists"})),
    Syntax("attributes", syntax.attributes, _ATTRS),  # content/syntax/anchors.md
    Syntax(  # content/syntax/callouts.md
        "callouts",
        callouts_plugin,
        {
            "block:admonition": _ADMONITION,
            "core:sitegen_admonitions": _ADMONITION,
            "block:container_*": _CONTAINER,
            "core:sitegen_containers": _CONTAINER,
            "core:sitegen_alerts": any_of("[!"),
            "core:sitegen_titles": None,  # a title of any callout, from any family
        },
    ),
    Syntax(  # content/syntax/tabs.md: /// blocks, === tabs, ::: code-group
        "tabs",
        blocks_plugin,
        {
            "block:sitegen_slash_block": any_of("///"),
            "block:sitegen_content_tab": any_of("==="),
            "block:container_code-group": _CONTAINER,
            "core:sitegen_code_groups": _CONTAINER,
            "core:sitegen_tab_sets": any_of("===", "///", ":::"),
        },
    ),
    Syntax("definition-lists", deflist_plugin, _definition),  # content/syntax/lists.md
    # Python-Markdown's readings (content/syntax/material.md)
    Syntax("comment-terms", comment_terms, _comment_term, Dialect.PYTHON_MARKDOWN),
    Syntax("footnote-ids", python_markdown_footnotes, _FOOTNOTE, Dialect.PYTHON_MARKDOWN),
    # a hook's <!-- md:x --> shown as text: content/syntax/unsupported.md
    Syntax("hook-shortcodes", shortcodes_plugin, _HOOK_SHORTCODE, Dialect.PYTHON_MARKDOWN),
    # a project's templates, {{< name >}} and mapped comments: content/syntax/shortcodes.md
    # (no-ops on a page extracted without the project's shortcodes)
    Syntax(
        "shortcodes",
        project_shortcodes_plugin,
        may_call,
        options=("shortcodes", "shortcode_comments"),
        rebuild=Rebuild.SITE,
    ),
    Syntax(  # highlighted fences and math: content/syntax/code.md, math.md
        "fences",
        fences_plugin,
        {
            "block:math_block": any_of("$$"),
            "block:amsmath": any_of("\\begin"),
            "inline:math_inline": any_of("$"),
            "inline:sitegen_math_parens": any_of("\\(", "\\["),
            "core:sitegen_math": _MATH,
        },
    ),
    Syntax(  # content/syntax/toc.md
        "toc",
        toc_plugin,
        {"block:sitegen_toc": any_of("[["), "core:sitegen_toc_paragraphs": any_of("[TOC]")},
    ),
    Syntax("comments", comments_plugin, any_of("%%")),  # content/syntax/obsidian.md
    Syntax("highlights", highlight_plugin, any_of("==")),  # content/syntax/formatting.md
    Syntax("block-ids", block_ids_plugin, any_of("^")),  # content/syntax/obsidian.md
    Syntax(  # content/syntax/wikilinks.md
        "wikilinks",
        syntax.wikilinks,
        {"inline:sitegen_wikilink": any_of("[["), "core:sitegen_embeds": any_of("![[")},
    ),
    Syntax("unsupported", syntax.unsupported, None),  # content/syntax/unsupported.md
    Syntax(  # content/syntax/autorefs.md
        "autorefs",
        syntax.autorefs,
        {"inline:sitegen_autoref": None, "core:sitegen_directive_links": _CONTAINER},
    ),
    # the pymdownx family's, each under its flag (content/syntax/material.md)
    Syntax("emoji", syntax.emoji, _shortcode, Dialect.EMOJI),  # content/syntax/emoji.md
    Syntax("keys", keys_plugin, any_of("++"), Dialect.KEYS),  # content/syntax/formatting.md
    Syntax(
        "caret",
        caret_plugin,
        {"inline:sitegen_escaped_space": _ESCAPED_SPACE, "*": any_of("^")},
        Dialect.CARET,
    ),
    Syntax(  # takes strikethrough's place and name, and its marker
        "tilde",
        tilde_plugin,
        {"inline:sitegen_escaped_space": _ESCAPED_SPACE, "*": _TILDE},
        Dialect.TILDE,
    ),
    # after the marks it may follow: content/syntax/formatting.md#attribute-lists
    Syntax("attr-list", attr_list_plugin, _ATTRS, Dialect.ATTR_LIST),
    Syntax("md-in-html", md_in_html_plugin, _markdown_attribute, Dialect.MD_IN_HTML),
    # in the dialects that have them: content/syntax/code.md#fence-attributes
    Syntax("fence-attributes", syntax.fence_attributes, _ATTRS),
    # last of the pymdownx family: content/syntax/code.md#code-annotations
    Syntax("annotations", syntax.code_annotations, _annotation, Dialect.ANNOTATIONS),
    Syntax("paragraph-attributes", syntax.paragraph_attributes, _ATTRS),  # anchors.md
    Syntax("kramdown-attributes", _kramdown_attributes, None),  # content/syntax/anchors.md
    Syntax("mdx", mdx_plugin, None, Dialect.MDX),  # content/syntax/docusaurus.md
)
