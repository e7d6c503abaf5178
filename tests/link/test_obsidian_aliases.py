"""An Obsidian note's ``aliases`` are other names a wikilink may use (content/syntax/obsidian.md#aliases):
``[[Start here]]`` links to the note whose aliases list "Start here"; only in a vault."""

from __future__ import annotations

from pathlib import Path

from sitegen.config import Config
from sitegen.docs.markdown import extract_page
from sitegen.generators import Dialect, Generator, SlugStyle
from sitegen.link.page_addresses import page_addresses
from sitegen.link.rules import SiteIndex
from sitegen.link.step import link_all
from sitegen.link.vault import VaultFiles
from sitegen.link.wiki import page_aliases
from sitegen.records.linked import Linked, Outcome

PAGES = {
    "content/Home.md": "---\naliases:\n  - Start here\n  - How to/Old home\n---\n# Home\n",
    "content/Other.md": "---\nalias: Elsewhere\n---\n# Other\n",
    "content/Start.md": "# Start\n\n[[start here]] [[How to/Old home]] [[Elsewhere]] [[Other]] "
    "[[Nobody]]\n",
}


def _link(vault: bool) -> Linked:
    records = [extract_page(p, t.encode()) for p, t in sorted(PAGES.items())]
    index = SiteIndex(
        content="content",
        pages=set(PAGES),
        assets=set(),
        sources=set(),
        dirs={"content"},
        vault=VaultFiles.of("content", PAGES) if vault else None,
    )
    return link_all(index, records, [], {})


def test_a_wikilink_may_name_a_note_by_one_of_its_aliases() -> None:
    linked = _link(vault=True)
    found = [(r.outcome, r.node) for r in linked.resolutions["/Start.md"]]
    assert found == [
        (Outcome.INTERNAL, "/Home.md"),
        (Outcome.INTERNAL, "/Home.md"),
        (Outcome.INTERNAL, "/Other.md"),
        (Outcome.INTERNAL, "/Other.md"),
        (Outcome.UNRESOLVED_NOTE, "/Nobody.md"),  # a note not written yet (issue 29, point 4)
    ]


def test_outside_a_vault_aliases_name_nothing() -> None:
    linked = _link(vault=False)
    outcomes = [r.outcome for r in linked.resolutions["/Start.md"]]
    assert outcomes == [Outcome.MISSING] * 3 + [Outcome.INTERNAL, Outcome.MISSING]


def test_aliases_are_texts_or_lists_of_texts() -> None:
    assert page_aliases({"aliases": ["A b", " /C.md ", 3, ""], "alias": "D"}) == ["a b", "c", "d"]
    assert page_aliases({"aliases": {"not": "a list"}}) == []


def _redirects(dialect: Dialect) -> list[str]:
    generator = Generator("Obsidian", "", SlugStyle.GITHUB, dialect=dialect)
    config = Config(root=Path("."), content="content", generator=generator)
    records = [extract_page(p, t.encode()) for p, t in sorted(PAGES.items())]
    texts = {p: t.encode() for p, t in PAGES.items()}
    addresses, problems = page_addresses(config, records, {}, texts)
    assert problems == []
    return sorted(addresses.redirects)


def test_in_a_vault_aliases_make_no_redirect_elsewhere_they_still_do() -> None:
    assert _redirects(Dialect.OBSIDIAN) == []
    assert _redirects(Dialect.NONE) == ["How to/Old home.html", "Start here.html"]
