"""The search index (sitegen.site.search): sections split at headings, plain text only, and a
script that no content can break out of."""

from __future__ import annotations

import json

from sitegen.site.search import INDEX_GLOBAL, Section, page_sections, search_index_script


def test_sections_split_at_headings_without_permalinks_or_tags() -> None:
    html = (
        "<p>Before &amp; <b>intro</b></p>\n"
        '<h1 id="title">Title<a class="permalink" href="#title" aria-label="Permalink">#</a></h1>\n'
        '<p>Lead.</p>\n<h2 id="a-b">A &lt;b&gt;<a class="permalink" href="#a-b">#</a></h2>\n'
        '<ul><li>one</li>\n<li>two</li></ul>\n<h3 id="empty">Empty</h3>\n'
    )
    assert page_sections(html) == [
        Section("", "", "Before & intro"),
        Section("Title", "", "Lead."),  # the h1 is the page's top: no fragment
        Section("A <b>", "a-b", "one two"),
        Section("Empty", "empty", ""),
    ]


def test_the_script_is_one_assignment_that_content_cannot_close() -> None:
    from sitegen.docs.markdown import extract_page
    from sitegen.paths import NodeId

    rec = extract_page(
        "content/x.md", "# X\n\nA \\</script>\\<script>alert(1)\\</script> \u2028 line\n".encode()
    )
    script = search_index_script({NodeId("/x.md"): rec}, [])
    assert script.startswith(f"window.{INDEX_GLOBAL}=") and script.endswith(";\n")
    assert "</script" not in script.lower() and "\u2028" not in script
    data = json.loads(script[len(f"window.{INDEX_GLOBAL}=") : -2])
    assert data["pages"] == [["x.html", "X"]]
    assert "</script><script>alert(1)</script>" in data["sections"][0][3]
