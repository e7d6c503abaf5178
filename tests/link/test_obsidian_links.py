"""Obsidian's links into a page (content/syntax/obsidian.md): ``[[Page#^block-id]]`` to a
block's id, checked as an anchor like a heading's id."""

from __future__ import annotations

from sitegen.docs.markdown import extract_page
from sitegen.link.rules import SiteIndex
from sitegen.link.step import link_all
from sitegen.records.linked import Linked


def _link(pages: dict[str, str]) -> Linked:
    records = [extract_page(p, t.encode()) for p, t in sorted(pages.items())]
    index = SiteIndex(
        content="content", pages=set(pages), assets=set(), sources=set(), dirs={"content"}
    )
    return link_all(index, records, [], {})


def _problems(linked: Linked) -> list[tuple[int, str]]:
    return sorted((d.line, d.code) for d in linked.diagnostics)


def test_a_block_id_is_an_anchor_that_wikilinks_reach() -> None:
    linked = _link(
        {
            "content/a.md": "# A\n\n[[b#^para-1]] [[b#^item2]] [[b#^tbl]] [[#^here]]\n\n"
            "Mine. ^here\n",
            "content/b.md": "# B\n\nA paragraph. ^para-1\n\n- one\n- two ^item2\n\n"
            "| x |\n|---|\n| 1 |\n\n^tbl\n",
        }
    )
    assert _problems(linked) == []
    fragments = [r.fragment for r in linked.resolutions["/a.md"]]
    assert fragments == ["^para-1", "^item2", "^tbl", "^here"]


def test_a_missing_block_id_is_a_broken_anchor() -> None:
    linked = _link({"content/a.md": "# A\n\n[[b#^nope]]\n", "content/b.md": "# B\n\nText ^yes\n"})
    assert _problems(linked) == [(3, "broken-anchor")]


NESTED = (
    "# Guide\n\n## Linux\n\n### Install\n\nOn Linux.\n\n## Windows\n\n### Install\n\n"
    "On Windows.\n\n#### Notes\n"
)


def test_a_nested_heading_link_reaches_the_heading_under_its_parents() -> None:
    linked = _link(
        {
            "content/a.md": "# A\n\n[[b#Windows#Install]] [[b#Linux#Install]] "
            "[[b#Guide#Windows#Notes]] [[b#Windows#Notes]]\n",
            "content/b.md": NESTED,
        }
    )
    assert _problems(linked) == []
    fragments = [r.fragment for r in linked.resolutions["/a.md"]]
    assert fragments == ["install-1", "install", "notes", "notes"]


def test_a_nested_heading_link_to_no_such_heading_is_a_broken_anchor() -> None:
    linked = _link(
        {
            "content/a.md": "# A\n\n[[b#Linux#Notes]]\n\n[[b#Windows#Gone]]\n\n[[b#Windows#Notes]]\n",
            "content/b.md": NESTED,
        }
    )
    assert _problems(linked) == [(3, "broken-anchor"), (5, "broken-anchor")]
