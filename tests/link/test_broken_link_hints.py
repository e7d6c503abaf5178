"""A broken link's "Did you mean" names files as links from the content root write them:
pages of the content folder relative to it, a README outside it from the project root."""

from __future__ import annotations

from sitegen.docs.markdown import extract_page
from sitegen.link.rules import SiteIndex
from sitegen.link.step import link_all

PAGES = {
    "content/index.md": "# Home\n\n[a](guid.md) and [b](../pkg/READMEE.md)\n",
    "content/guide.md": "# Guide\n",
    "pkg/README.md": "# Package\n",
}


def test_hints_name_pages_inside_and_outside_the_content_folder() -> None:
    records = [extract_page(p, t.encode()) for p, t in sorted(PAGES.items())]
    index = SiteIndex(
        content="content", pages=set(PAGES), assets=set(), sources=set(), dirs={"content", "pkg"}
    )
    messages = [d.message for d in link_all(index, records, [], {}).diagnostics]
    assert messages == [
        (
            "link target 'guid.md' does not exist (looked for 'content/guid.md'). "
            "Did you mean 'guide.md'?"
        ),
        (
            "link target '../pkg/READMEE.md' does not exist (looked for 'pkg/READMEE.md'). "
            "Did you mean 'pkg/README.md'?"
        ),
    ]
