"""The syntax registry (sitegen/docs/registry.py): every rule of every parser belongs to one
syntax and is gated by its markers unless that syntax declares it always on; the sanitizer
trusts exactly the rules the syntaxes declare; a plugin's syntax goes through the same path
and enters the parser cache and the page-cache key (content/syntax/index.md)."""

from __future__ import annotations

from functools import reduce
from operator import or_

import pytest
from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline

from sitegen.config import OPTION_REBUILD, Rebuild
from sitegen.docs import markdown
from sitegen.docs.gates import RULERS, any_of, rulers_of
from sitegen.docs.registry import SYNTAXES, Syntax, SyntaxInstallError
from sitegen.docs.sanitize import trusted_core_rules
from sitegen.generators import Dialect, SlugStyle

ALL = reduce(or_, Dialect)
#: Every flag alone, every flag but MDX's, and all of them.
DIALECTS = [
    Dialect.NONE,
    *(d for d in Dialect if d != Dialect.NONE),
    reduce(or_, (d for d in Dialect if d != Dialect.MDX)),
    ALL,
]
#: The rules that run on every page whatever its text: a new one is a decision, not a slip.
ALWAYS_ON = {
    ("autorefs", "inline", "sitegen_autoref"),
    ("callouts", "core", "sitegen_titles"),
    ("kramdown-attributes", "core", "sitegen_kramdown_attributes"),
    ("task-lists", "core", "github-tasklists"),
    ("unsupported", "core", "sitegen_unsupported"),
    *(
        ("commonmark", ruler, name)
        for ruler, names in {
            "block": "blockquote code fence heading hr lheading list paragraph reference",
            "core": "block inline normalize text_join",
            "inline": "backticks emphasis escape image link newline text",
            "inline2": "balance_pairs emphasis fragments_join",
        }.items()
        for name in names.split()
    ),
    *(
        ("mdx", ruler, name)
        for ruler, names in {
            "block": "sitegen_mdx_comment sitegen_mdx_esm sitegen_mdx_jsx",
            "core": "sitegen_mdx sitegen_mdx_embeds sitegen_mdx_looks",
            "inline": "sitegen_mdx_comment sitegen_mdx_jsx",
        }.items()
        for name in names.split()
    ),
}


def _ids(dialect: Dialect) -> str:
    return str(dialect.value)


def _built(dialect: Dialect, extra: tuple[Syntax, ...] = ()) -> markdown._Markdown:
    md = markdown._build_parser(dialect, extra)
    assert md.installed is not None and md.gates is not None
    return md


# --- (1) every rule belongs to exactly one syntax, and is gated unless declared always on ----


@pytest.mark.parametrize("dialect", DIALECTS, ids=_ids)
def test_every_rule_that_runs_has_one_owner_and_a_gate_or_a_declaration(dialect: Dialect) -> None:
    md = _built(dialect)
    assert md.installed is not None and md.gates is not None
    owners = md.installed.owners
    by_name = {s.name: s for s in SYNTAXES}
    running = {
        (ruler, rule.name)
        for ruler, chain in rulers_of(md).items()
        for rule in chain.__rules__
        if rule.enabled
    }
    assert running == set(owners)  # none unowned, and an owner per rule (a mapping: one)
    gated = {(ruler, name) for ruler, name, _ in md.gates.gates}
    for (ruler, name), owner in owners.items():
        if (ruler, name) not in gated:
            assert by_name[owner].marker(ruler, name) is None
            assert (owner, ruler, name) in ALWAYS_ON, (owner, ruler, name)
    assert {ruler for ruler, _, _ in md.gates.gates} <= set(RULERS)


def test_the_always_on_list_names_rules_that_exist() -> None:
    found: set[tuple[str, str, str]] = set()
    for dialect in (Dialect.NONE, ALL):
        md = _built(dialect)
        assert md.installed is not None and md.gates is not None
        gated = {(ruler, name) for ruler, name, _ in md.gates.gates}
        found |= {(owner, *key) for key, owner in md.installed.owners.items() if key not in gated}
    assert found == ALWAYS_ON


def test_every_marker_a_syntax_names_gates_a_rule_it_adds() -> None:
    used: dict[str, set[str]] = {}
    for dialect in DIALECTS:
        md = _built(dialect)
        assert md.installed is not None
        for (ruler, name), owner in md.installed.owners.items():
            used.setdefault(owner, set()).add(f"{ruler}:{name}")
    for entry in SYNTAXES:
        if isinstance(entry.markers, dict):
            for pattern in entry.markers:
                assert any(
                    entry.marker(*rule.split(":")) is entry.markers[pattern]
                    for rule in used.get(entry.name, ())
                ), (entry.name, pattern)


def test_the_built_in_names_are_unique_and_the_order_is_the_install_order() -> None:
    names = [s.name for s in SYNTAXES]
    assert len(names) == len(set(names))
    assert names[0] == "commonmark" and names[-1] == "mdx"


def test_a_rule_a_syntax_replaces_is_gated_by_that_syntax() -> None:
    # tilde's ~sub~ takes strikethrough's rule and name (sitegen/docs/pymdownx.py)
    md = _built(Dialect.TILDE)
    assert md.installed is not None
    assert md.installed.owners[("inline", "strikethrough")] == "tilde"
    assert ("inline2", "strikethrough") not in md.installed.owners  # switched off by tilde
    plain = _built(Dialect.NONE)
    assert plain.installed is not None
    assert plain.installed.owners[("inline", "strikethrough")] == "strikethrough"


# --- (2) a syntax's rule is gated by its marker ---------------------------------------------

CALLS: list[str] = []


def _shout(state: StateInline, silent: bool) -> bool:
    """``%!word`` becomes the word in capitals."""
    CALLS.append(state.src)
    if not state.src.startswith("%!", state.pos):
        return False
    end = state.pos + 2
    while end < state.posMax and state.src[end].isalpha():
        end += 1
    if not silent:
        state.push("text", "", 0).content = state.src[state.pos + 2 : end].upper()
    state.pos = end
    return True


def _install_shout(md: MarkdownIt) -> None:
    md.inline.ruler.before("text", "test_shout", _shout)


SHOUT = Syntax("test-shout", _install_shout, any_of("%!"), version="1.0")


def test_a_plugin_syntax_runs_only_on_pages_with_its_marker() -> None:
    CALLS.clear()
    without = markdown.extract_page("p.md", b"plain words, no mark\n", extra=(SHOUT,))
    assert CALLS == []
    assert without.html == markdown.extract_page("p.md", b"plain words, no mark\n").html
    with_it = markdown.extract_page("p.md", b"say %!hello now\n", extra=(SHOUT,))
    assert CALLS
    assert "say HELLO now" in with_it.html
    parser = markdown._parser(Dialect.NONE, (SHOUT,))
    assert parser.installed is not None
    assert parser.installed.owners[("inline", "test_shout")] == "test-shout"


def test_a_rule_no_marker_covers_stops_the_build_naming_the_syntax() -> None:
    half = Syntax("test-half", _install_shout, {"inline:other": any_of("%!")})
    with pytest.raises(SyntaxInstallError) as raised:
        markdown._build_parser(Dialect.NONE, (half,))
    assert raised.value.name == "test-half"
    assert isinstance(raised.value.cause, LookupError)
    assert "test_shout" in str(raised.value)
    declared = Syntax("test-declared", _install_shout, {"inline:test_shout": None})
    md = _built(Dialect.NONE, (declared,))
    assert md.gates is not None
    assert ("inline", "test_shout") not in {(r, n) for r, n, _ in md.gates.gates}


# --- (3) the sanitizer trusts exactly the registry's declarations ---------------------------


@pytest.mark.parametrize("dialect", DIALECTS, ids=_ids)
def test_the_sanitizer_trusts_exactly_the_declared_rules(dialect: Dialect) -> None:
    md = _built(dialect)
    assert md.installed is not None
    declared = frozenset().union(*(s.trusted for s in SYNTAXES if s.applies(dialect)))
    assert trusted_core_rules(md) == declared == md.installed.trusted
    assert declared == {"github-tasklists"}


def _badge(state: StateCore) -> None:
    for token in state.tokens:
        if token.type == "inline" and token.children and "%badge" in token.content:
            badge = token.children[0].__class__("html_inline", "", 0)
            badge.content = '<span class="badge" onclick="x()">B</span>'
            token.children.append(badge)


def _install_badge(md: MarkdownIt) -> None:
    md.core.ruler.push("test_badge", _badge)


def test_a_plugin_syntax_s_trusted_rule_is_rendered_as_it_is() -> None:
    trusting = Syntax(
        "test-badge", _install_badge, any_of("%badge"), trusted=frozenset({"test_badge"})
    )
    cleaned = Syntax("test-badge", _install_badge, any_of("%badge"), version="2")
    page = b"a %badge here\n"
    assert 'onclick="x()"' in markdown.extract_page("p.md", page, extra=(trusting,)).html
    assert "onclick" not in markdown.extract_page("p.md", page, extra=(cleaned,)).html
    md = _built(Dialect.NONE, (trusting,))
    assert trusted_core_rules(md) == {"github-tasklists", "test_badge"}


def test_a_syntax_may_trust_only_a_rule_it_adds() -> None:
    thief = Syntax("test-thief", _install_shout, None, trusted=frozenset({"github-tasklists"}))
    with pytest.raises(SyntaxInstallError, match="test-thief"):
        markdown._build_parser(Dialect.NONE, (thief,))


# --- (4) extra syntaxes: the parser cache, the record key, a failing install ----------------


def test_extra_syntaxes_have_parsers_of_their_own_cached_by_name_and_version() -> None:
    plain = markdown.parser_for(Dialect.NONE)
    assert plain is markdown.MARKDOWN
    shouting = markdown.parser_for(Dialect.NONE, (SHOUT,))
    assert shouting is not plain
    assert markdown.parser_for(Dialect.NONE, (SHOUT,)) is shouting
    same_name = Syntax("test-shout", _install_shout, any_of("%!"), version="1.0")
    assert markdown.parser_for(Dialect.NONE, (same_name,)) is shouting
    newer = Syntax("test-shout", _install_shout, any_of("%!"), version="1.1")
    assert markdown.parser_for(Dialect.NONE, (newer,)) is not shouting
    assert markdown.parser_for(Dialect.MDX, (SHOUT,)) is not shouting
    # the built-ins' rules are all there, the extra one after them
    names = [r.name for r in shouting.inline.ruler.__rules__]
    assert names == ["test_shout", *(r.name for r in plain.inline.ruler.__rules__)]


def test_extra_syntaxes_enter_the_record_key_by_name_and_version() -> None:
    h = "0" * 64
    assert markdown.record_key(h, SlugStyle.GITHUB) == h  # unchanged without them
    assert markdown.record_key(h, SlugStyle.GITHUB, extra=()) == h
    one = markdown.record_key(h, SlugStyle.GITHUB, extra=(SHOUT,))
    assert one != h
    newer = Syntax("test-shout", _install_shout, any_of("%!"), version="1.1")
    assert markdown.record_key(h, SlugStyle.GITHUB, extra=(newer,)) != one
    other = Syntax("test-other", _install_shout, any_of("%!"), version="1.0")
    assert markdown.record_key(h, SlugStyle.GITHUB, extra=(other,)) != one
    assert markdown.record_key(h, SlugStyle.MKDOCS, Dialect.PYTHON_MARKDOWN, (SHOUT,)) != (
        markdown.record_key(h, SlugStyle.MKDOCS, Dialect.PYTHON_MARKDOWN)
    )
    record = markdown.extract_page("p.md", b"# T\n", extra=(SHOUT,))
    assert record.content_hash != markdown.extract_page("p.md", b"# T\n").content_hash


def _broken(md: MarkdownIt) -> None:
    md.inline.ruler.before("no_such_rule", "test_broken", _shout)


def test_a_failing_install_raises_one_error_naming_the_syntax_and_caches_nothing() -> None:
    broken = Syntax("test-broken", _broken, None, version="0.1")
    for _ in range(2):  # nothing half-built is kept: the second try fails the same way
        with pytest.raises(SyntaxInstallError) as raised:
            markdown.parser_for(Dialect.NONE, (broken,))
        assert raised.value.name == "test-broken"
        assert isinstance(raised.value.cause, KeyError)
        assert "test-broken" in str(raised.value)
    with pytest.raises(SyntaxInstallError):
        markdown.extract_page("p.md", b"text\n", extra=(broken,))
    assert markdown.extract_page("p.md", b"text\n").html == "<p>text</p>\n"


def test_a_plugin_syntax_may_not_take_a_built_in_name() -> None:
    twin = Syntax("tables", _install_shout, any_of("%!"))
    with pytest.raises(SyntaxInstallError, match="'tables'"):
        markdown._build_parser(Dialect.NONE, (twin,))


def test_a_syntax_under_a_flag_is_installed_only_with_it() -> None:
    flagged = Syntax("test-flagged", _install_shout, any_of("%!"), Dialect.KEYS)
    assert "test_shout" not in [
        r.name for r in _built(Dialect.NONE, (flagged,)).inline.ruler.__rules__
    ]
    keys = _built(Dialect.KEYS, (flagged,))
    assert "test_shout" in [r.name for r in keys.inline.ruler.__rules__]


def test_each_syntax_declares_options_of_the_config_and_what_they_rebuild() -> None:
    for entry in SYNTAXES:
        assert isinstance(entry.rebuild, Rebuild), entry.name
        assert set(entry.options) <= set(OPTION_REBUILD), entry.name
        assert entry.version == "" and entry.fork_safe, entry.name  # the built-ins'
