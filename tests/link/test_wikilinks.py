"""Wikilink resolution (Obsidian's rules): exact path, unique file name, title; ambiguous and
missing targets reported like broken links, and the edges they make."""

from __future__ import annotations

from dataclasses import replace

import pytest

from sitegen.docs.markdown import extract_page
from sitegen.link.rules import SiteIndex
from sitegen.link.step import link_all
from sitegen.link.vault import VaultFiles
from sitegen.link.wiki import resolve_wikilink, wiki_names
from sitegen.records.linked import Outcome

PAGES = [
    "content/index.md",
    "content/guides/Install.md",
    "content/guides/setup.md",
    "content/ref/setup.md",
    "content/ref/deep/setup.md",
    "content/notes/Zettel one.md",
]
TITLES = {"content/guides/Install.md": "Installing sitegen", "content/notes/Zettel one.md": "Z1"}


@pytest.fixture
def index() -> SiteIndex:
    return SiteIndex(
        content="content",
        pages=set(PAGES),
        assets={"content/img/pic.png"},
        sources=set(),
        dirs={
            "content",
            "content/guides",
            "content/ref",
            "content/ref/deep",
            "content/notes",
            "content/img",
        },
    )


@pytest.mark.parametrize(
    ("target", "node", "others"),
    [
        ("Install", "/guides/Install.md", 0),  # by file name, any case
        ("install", "/guides/Install.md", 0),
        ("Installing sitegen", "/guides/Install.md", 0),  # by title
        ("Zettel one", "/notes/Zettel one.md", 0),  # spaces in the file name
        ("guides/setup", "/guides/setup.md", 0),  # a path from the content root
        ("deep/setup", "/ref/deep/setup.md", 0),  # a unique path suffix
        ("pic.png", "/img/pic.png", 0),
        ("Install#Some Heading", "/guides/Install.md", 0),
        ("setup", "/guides/setup.md", 2),  # three files named setup: the nearest, reported
    ],
)
def test_resolution(index: SiteIndex, target: str, node: str, others: int) -> None:
    found = resolve_wikilink(
        target,
        "content/guides/Install.md" if "setup" in target else "content/index.md",
        wiki_names(index, TITLES),
        index,
    )
    assert found.resolved.outcome is Outcome.INTERNAL
    assert found.resolved.node == node
    assert len(found.others) == others


def test_heading_is_named_by_its_text(index: SiteIndex) -> None:
    found = resolve_wikilink(
        "Install#Step 1: Download", "content/index.md", wiki_names(index, TITLES), index
    )
    assert found.resolved.fragment == "step-1-download"
    block = resolve_wikilink(
        "Install#^abc123", "content/index.md", wiki_names(index, TITLES), index
    )
    assert block.resolved.fragment == "^abc123"


def test_nearest_of_several_is_the_one_sharing_the_folder(index: SiteIndex) -> None:
    names = wiki_names(index, TITLES)
    from_ref = resolve_wikilink("setup", "content/ref/other.md", names, index)
    assert from_ref.resolved.node == "/ref/setup.md"
    from_deep = resolve_wikilink("setup", "content/ref/deep/x.md", names, index)
    assert from_deep.resolved.node == "/ref/deep/setup.md"


def test_missing_and_self(index: SiteIndex) -> None:
    names = wiki_names(index, TITLES)
    missing = resolve_wikilink("Nowhere", "content/index.md", names, index)
    assert missing.resolved.outcome is Outcome.MISSING
    assert missing.resolved.looked_up == "content/Nowhere.md"
    # A missing attachment is looked for as itself, a missing note with .md.
    clip = resolve_wikilink("clip.mp4#t=3", "content/index.md", names, index)
    assert clip.resolved.looked_up == "content/clip.mp4"
    release = resolve_wikilink("Release 1.5", "content/index.md", names, index)
    assert release.resolved.looked_up == "content/Release 1.5.md"
    self_link = resolve_wikilink("#Intro", "content/index.md", names, index)
    assert self_link.resolved.outcome is Outcome.SELF
    assert self_link.resolved.fragment == "intro"


def test_wikilinks_are_edges_and_problems_are_diagnostics() -> None:
    pages = {
        "content/a.md": "# A\n\n## Part\n\n[[b]] and [[b|again]] [[dup]] [[gone]] [[b#Nope]]\n",
        "content/b.md": "# B\n",
        "content/x/dup.md": "# Dup x\n",
        "content/y/dup.md": "# Dup y\n",
    }
    records = [extract_page(p, t.encode()) for p, t in sorted(pages.items())]
    index = SiteIndex(
        content="content",
        pages=set(pages),
        assets=set(),
        sources=set(),
        dirs={"content", "content/x", "content/y"},
    )
    linked = link_all(index, records, [], {})
    edges = {e.dst: (e.anchor, e.count) for e in linked.graph.edges_from("/a.md")}
    assert edges == {"/b.md": ("part", 3), "/x/dup.md": ("part", 1), "/gone.md": ("part", 1)}
    codes = sorted((d.line, d.col, d.code) for d in linked.diagnostics)
    body = pages["content/a.md"].splitlines()[4]
    assert codes == [
        (5, body.index("[[dup]]") + 1, "ambiguous-wikilink"),
        (5, body.index("[[gone]]") + 1, "broken-link"),
        (5, body.index("[[b#Nope]]") + 1, "broken-anchor"),
    ]
    assert {b.check for b in linked.broken} == {
        "ambiguous-wikilink",
        "broken-link",
        "broken-anchor",
    }


def test_a_page_written_by_hand_wins_over_a_generated_api_page_of_its_name() -> None:
    """``api = ["sitegen"]`` makes ``reference/api/sitegen/docs/anchors.md``; an author's
    ``[[anchors]]`` still means the page they wrote, with no ambiguity reported. Between
    generated pages alone, the usual rule (the nearest, reported) holds."""
    written, made = "content/syntax/anchors.md", "content/reference/api/sitegen/docs/anchors.md"
    other_made = "content/reference/api/sitegen/link/anchors.md"
    index = SiteIndex(
        content="content",
        pages={written, made, other_made, "content/index.md"},
        assets=set(),
        sources=set(),
        dirs=set(),
        generated=frozenset({made, other_made}),
    )
    names = wiki_names(index, {})
    found = resolve_wikilink("anchors", "content/reference/api/index.md", names, index)
    assert (found.found, found.others) == (written, ())
    alone = SiteIndex(
        content="content",
        pages={made, other_made, "content/index.md"},
        assets=set(),
        sources=set(),
        dirs=set(),
        generated=frozenset({made, other_made}),
    )
    found = resolve_wikilink("anchors", "content/index.md", wiki_names(alone, {}), alone)
    assert found.found == made and found.others == (other_made,)


def test_a_vault_chooses_as_obsidian_does(index: SiteIndex) -> None:
    # Three files named setup: content/guides/setup.md, content/ref/deep/setup.md and one more.
    vault = replace(index, vault=VaultFiles.of("content", sorted(index.pages)))
    names = wiki_names(vault, TITLES)
    setups = sorted(p for p in index.pages if p.endswith("/setup.md"))
    # From a note beside one of them: that one, and no warning (no other is a candidate).
    beside = resolve_wikilink("setup", setups[-1].rsplit("/", 1)[0] + "/x.md", names, vault)
    assert (beside.found, beside.others) == (setups[-1], ())
    # From elsewhere: the shortest path, the others named for the warning.
    far = resolve_wikilink("setup", "content/notes/x.md", names, vault)
    shortest = min(setups, key=lambda p: (p.count("/"), len(p), p))
    assert far.found == shortest and set(far.others) == set(setups) - {shortest}
    # Outside a vault, the nearest by shared folders is chosen, and always reported.
    plain = resolve_wikilink(
        "setup", setups[-1].rsplit("/", 1)[0] + "/x.md", wiki_names(index, TITLES), index
    )
    assert plain.found == setups[-1] and len(plain.others) == len(setups) - 1
