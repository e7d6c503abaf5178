"""Files found by name in an Obsidian vault (content/syntax/obsidian.md#files-found-by-name):
a markdown image or link whose path names no file from its page is the file of that name
anywhere in the vault, the shortest path of several (with a warning); only in a vault."""

from __future__ import annotations

from sitegen.docs.markdown import extract_page
from sitegen.link.rules import Rule, SiteIndex, Trace, resolve
from sitegen.link.step import link_all
from sitegen.link.vault import VaultFiles
from sitegen.records.linked import Linked, Outcome

ASSETS = {
    "content/Attachments/diagram.png",
    "content/Attachments/old/diagram.png",
    "content/Attachments/deep/er/chart.png",
    "content/files/manual.pdf",
}
PAGE = (
    "# A\n\n![d](diagram.png) ![c](chart.png) [m](manual.pdf) [m2](files/manual.pdf)\n\n"
    "[n](../Other%20note.md) ![x](missing.png)\n"
)
PAGES = {"content/notes/a.md": PAGE, "content/deep/Other note.md": "# Other\n"}


def _index(vault: bool) -> SiteIndex:
    files = VaultFiles.of("content", [*PAGES, *ASSETS]) if vault else None
    return SiteIndex(
        content="content",
        pages=set(PAGES),
        assets=set(ASSETS),
        sources=set(),
        dirs={"content", "content/notes", "content/deep", "content/Attachments"},
        vault=files,
    )


def _link(vault: bool) -> Linked:
    records = [extract_page(p, t.encode()) for p, t in sorted(PAGES.items())]
    return link_all(_index(vault), records, [], {})


def test_a_vault_finds_images_files_and_notes_by_name() -> None:
    linked = _link(vault=True)
    found = [(r.outcome, r.node) for r in linked.resolutions["/notes/a.md"]]
    assert found == [
        (Outcome.INTERNAL, "/Attachments/diagram.png"),  # the shorter of two
        (Outcome.INTERNAL, "/Attachments/deep/er/chart.png"),
        (Outcome.INTERNAL, "/files/manual.pdf"),
        (Outcome.INTERNAL, "/files/manual.pdf"),
        (Outcome.INTERNAL, "/deep/Other note.md"),
        (Outcome.MISSING, "/notes/missing.png"),
    ]
    problems = sorted((d.line, d.code) for d in linked.diagnostics)
    assert problems == [(3, "ambiguous-file-name"), (5, "broken-link")]
    ambiguous = next(d for d in linked.diagnostics if d.code == "ambiguous-file-name")
    assert "content/Attachments/old/diagram.png" in ambiguous.message
    assert "shortest path, 'content/Attachments/diagram.png'" in ambiguous.message


def test_other_projects_name_files_by_their_path_only() -> None:
    linked = _link(vault=False)
    outcomes = [r.outcome for r in linked.resolutions["/notes/a.md"]]
    assert outcomes == [Outcome.MISSING] * 6


def test_explain_shows_the_step_by_name() -> None:
    trace = Trace()
    res = resolve("diagram.png", "content/notes/a.md", _index(vault=True), trace)
    assert res.others == ("content/Attachments/old/diagram.png",)
    [step] = [s for s in trace.steps if s.rule is Rule.BY_NAME]
    assert step.found == "content/Attachments/diagram.png"
    assert [r.candidate for r in step.rejected] == ["content/Attachments/old/diagram.png"]
