"""Anchors that last (issue 20, point 5): which heading replaced a gone one, aliases that
follow renames, notices for removed sections, and that a rebuild changes nothing."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.base.diagnostics import Level
from sitegen.base.paths import NodeId
from sitegen.docs.markdown import extract_page
from sitegen.graph.store.anchors import Anchor, AnchorAlias, PageAnchors
from sitegen.link.anchor_aliases import (
    ANCHOR_MOVED,
    aliases_of_build,
    kept_anchors,
    lasting_anchors,
)
from sitegen.records.pages import Heading


def headings(*texts: str) -> list[Heading]:
    """Headings with GitHub's ids, as a page of these ``##`` headings gets them."""
    page = "".join(f"## {t}\n\n" for t in texts)
    return extract_page("content/p.md", page.encode()).headings


def published(*texts: str) -> PageAnchors:
    return lasting_anchors(None, headings(*texts), set())


def after(before: PageAnchors, *texts: str) -> PageAnchors:
    now = headings(*texts)
    return lasting_anchors(before, now, {h.id for h in now})


def test_a_page_never_stored_gets_no_alias() -> None:
    page = published("Install", "Usage")
    assert page.anchors == (Anchor("install", "Install"), Anchor("usage", "Usage"))
    assert page.aliases == ()


def test_a_renamed_heading_keeps_its_old_id_as_an_alias() -> None:
    page = after(published("Intro", "Install it", "Usage"), "Intro", "Installing", "Usage")
    assert page.aliases == (AnchorAlias("install-it", "installing", "Install it"),)


def test_a_removed_section_gets_a_notice() -> None:
    page = after(published("Intro", "Old stuff", "Usage"), "Intro", "Usage")
    assert page.aliases == (AnchorAlias("old-stuff", "", "Old stuff"),)
    assert page.aliases[0].removed


def test_the_same_text_under_a_new_id_is_the_same_heading() -> None:
    before = published("Intro", "Setup", "Usage")
    now = extract_page("content/p.md", b"## Usage\n\n## Intro\n\n## Setup {#install}\n").headings
    page = lasting_anchors(before, now, {h.id for h in now})
    assert page.aliases == (AnchorAlias("setup", "install", "Setup"),)


def test_a_changed_count_in_one_place_pairs_by_similar_text() -> None:
    before = published("Intro", "Install on Linux", "Install on macOS", "Usage")
    page = after(before, "Intro", "Installing on macOS", "Usage")
    assert page.aliases == (
        AnchorAlias("install-on-linux", "", "Install on Linux"),
        AnchorAlias("install-on-macos", "installing-on-macos", "Install on macOS"),
    )


def test_renames_chain_so_every_old_id_lands_on_the_newest_heading() -> None:
    page = after(after(published("A one", "Keep"), "B two", "Keep"), "C three", "Keep")
    assert page.aliases == (
        AnchorAlias("a-one", "c-three", "A one"),
        AnchorAlias("b-two", "c-three", "B two"),
    )


def test_an_alias_whose_heading_is_removed_lands_on_the_notice() -> None:
    page = after(after(published("Keep", "A one"), "Keep", "B two"), "Keep")
    assert page.aliases == (AnchorAlias("a-one", "", "A one"), AnchorAlias("b-two", "", "B two"))


def test_an_old_id_taken_again_by_a_heading_is_no_alias_any_more() -> None:
    page = after(after(published("Keep", "Install"), "Keep", "Setup"), "Keep", "Install")
    assert page.aliases == (AnchorAlias("setup", "install", "Setup"),)


def test_an_old_id_the_page_has_elsewhere_needs_no_alias() -> None:
    before = published("Keep", "Install")
    now = headings("Keep")
    assert lasting_anchors(before, now, {"keep", "install"}).aliases == ()


def test_the_build_reports_each_alias_as_an_info_line_and_skips_new_pages() -> None:
    old = extract_page("content/p.md", b"# P\n\n## Intro\n\n## Gone\n")
    new = extract_page("content/p.md", b"# P\n\n## Introduction\n")
    fresh = extract_page("content/q.md", b"# Q\n")
    node = {"content/p.md": NodeId("/p.md"), "content/q.md": NodeId("/q.md")}.__getitem__
    first = aliases_of_build([old], {}, node)
    built = aliases_of_build([new, fresh], first.book, node)
    assert built.of(NodeId("/p.md")) == (
        AnchorAlias("gone", "", "Gone"),
        AnchorAlias("intro", "introduction", "Intro"),
    )
    assert built.of(NodeId("/q.md")) == ()
    assert [(d.path, d.line, d.level, d.code) for d in built.diagnostics] == [
        ("content/p.md", 1, Level.INFO, ANCHOR_MOVED),
        ("content/p.md", 3, Level.INFO, ANCHOR_MOVED),
    ]
    assert "'#intro' (\"Intro\") is now '#introduction'" in built.diagnostics[1].message
    assert "'#gone' (\"Gone\") was removed" in built.diagnostics[0].message


def test_the_store_keeps_pages_it_could_not_read_and_drops_deleted_ones() -> None:
    stored = {NodeId("/a.md"): published("A"), NodeId("/gone.md"): published("G")}
    book = {NodeId("/b.md"): published("B")}
    kept = kept_anchors(stored, book, [NodeId("/a.md"), NodeId("/b.md")])
    assert list(kept) == ["/a.md", "/b.md"] and kept[NodeId("/a.md")] == stored[NodeId("/a.md")]


# --- properties -----------------------------------------------------------------------------

WORDS = ["Intro", "Install", "Usage", "Setup", "FAQ", "Notes", "API", "Install it", "Usage 2"]
page_texts = st.lists(st.sampled_from(WORDS), max_size=7)


@settings(max_examples=150, deadline=None)
@given(st.lists(page_texts, min_size=2, max_size=5))
def test_every_id_ever_published_still_lands_and_a_rebuild_changes_nothing(builds) -> None:  # type: ignore[no-untyped-def]
    page = published(*builds[0])
    ever = {a.id for a in page.anchors}
    for texts in builds[1:]:
        page = after(page, *texts)
        ids = {a.id for a in page.anchors}
        olds = [a.old for a in page.aliases]
        assert len(olds) == len(set(olds)) and not set(olds) & ids
        for alias in page.aliases:  # an alias lands on a heading of the page, or a notice
            assert alias.removed or alias.target in ids
        assert ever <= ids | set(olds)
        ever |= ids
        assert after(page, *texts) == page  # the same store and headings: the same aliases


# --- the link step ----------------------------------------------------------------------------


def test_a_link_to_an_old_anchor_resolves_with_an_info_line_and_nothing_broken() -> None:
    from sitegen.link.rules import SiteIndex
    from sitegen.link.step import link_all

    pages = {
        "content/p.md": b"# P\n\n## Installing\n",
        "content/q.md": b"[a](p.md#install) [b](p.md#gone) [c](p.md#never)\n",
    }
    records = [extract_page(p, t) for p, t in sorted(pages.items())]
    old = {
        NodeId("/p.md"): PageAnchors(
            (Anchor("p", "P"), Anchor("installing", "Installing")),
            (AnchorAlias("gone", "", "Gone"), AnchorAlias("install", "installing", "Install")),
        )
    }
    index = SiteIndex(
        content="content", pages=set(pages), assets=set(), sources=set(), dirs={"content"}
    )
    index.old_anchors = old
    linked = link_all(index, records, [], {})
    assert [b.target for b in linked.broken] == ["p.md#never"]
    moved = [(d.line, d.col, d.level) for d in linked.diagnostics if d.code == ANCHOR_MOVED]
    assert moved == [(1, 1, Level.INFO), (1, 19, Level.INFO)]
    assert [r.fragment for r in linked.resolutions[NodeId("/q.md")]] == ["install", "gone", "never"]
