"""The trace of the link step (issue 20, point 6): the build records nothing, and for any
mistyped link the "Did you mean" the build reports is the suggestion step ``sitegen explain``
shows, because both run the same code (``trace_link``)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.docs.markdown import extract_page
from sitegen.link.rules import NO_TRACE, Rule, SiteIndex
from sitegen.link.step import link_all, trace_link
from sitegen.records.pages import PageRecord

NAMES = ["install", "configure", "deploy", "upgrade", "troubleshooting"]
HEADINGS = ["Getting started", "First run", "Options", "Known issues"]


def _site(page: str) -> tuple[SiteIndex, list[PageRecord]]:
    files = {
        f"content/guides/{n}.md": "# T\n\n" + "".join(f"## {h}\n\n" for h in HEADINGS)
        for n in NAMES
    }
    files["content/index.md"] = page
    index = SiteIndex(
        content="content",
        pages=set(files),
        assets=set(),
        sources=set(),
        dirs={"content", "content/guides"},
    )
    return index, [extract_page(p, t.encode()) for p, t in sorted(files.items())]


def _typo(word: str, at: int, char: str) -> str:
    at %= len(word)
    return word[:at] + char + word[at + 1 :]


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(NAMES),
    heading=st.sampled_from(HEADINGS),
    at=st.integers(0, 30),
    char=st.sampled_from("aeiouxz-"),
    broken_file=st.booleans(),
)
def test_every_did_you_mean_is_the_suggestion_step(
    name: str, heading: str, at: int, char: str, broken_file: bool
) -> None:
    slug = heading.lower().replace(" ", "-")
    href = (
        f"guides/{_typo(name, at, char)}.md"
        if broken_file
        else f"guides/{name}.md#{_typo(slug, at, char)}"
    )
    index, pages = _site(f"# Home\n\nSee [it]({href}).\n")
    linked = link_all(index, pages, [], {})
    home = next(p for p in pages if p.path == "content/index.md")
    traced = trace_link(index, pages, [], {}, None, home, home.links[0])
    said = [d.message for d in linked.diagnostics if d.path == "content/index.md"]
    assert said == [d.message for d in traced.diagnostics]
    suggested = [s.found for s in traced.steps if s.rule is Rule.SUGGESTION]
    if not said:  # the typo left a name that exists: nothing to suggest, no step
        assert suggested == []
        return
    meant = re.search(r"Did you mean '#?([^']+)'\?", said[0])
    assert suggested == [meant.group(1) if meant else ""]


def test_the_build_records_no_trace() -> None:
    index, pages = _site("# Home\n\n[a](guides/instal.md) [b](guides/install.md#nope) [[deploy]]\n")
    link_all(index, pages, [], {})
    assert NO_TRACE.steps == [] and not NO_TRACE.recording
