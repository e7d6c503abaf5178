"""Links inside every block syntax sitegen adds (callouts, admonitions, ``///`` blocks, tabs,
containers) and wikilinks: found where they were written, with their section and label."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitegen.docs.markdown import extract_page
from tests.docs.test_positions import Doc, line

PAGES = ["Page", "guides/Page", "Other page", "a.md"]


@st.composite
def text_line(draw: st.DrawFn, doc: Doc) -> None:
    """A line of words and links (test_positions' kinds), sometimes with a wikilink."""
    draw(line(doc))
    if draw(st.booleans()):
        doc.write(" ")
        target = draw(st.sampled_from(PAGES))
        form = draw(
            st.sampled_from(
                [
                    f"[[{target}]]",
                    f"[[{target}|an alias]]",
                    f"[[{target}#Some heading]]",
                    "![[pic.png]]",
                ]
            )
        )
        doc.link("wikilink", form)


def body(draw: st.DrawFn, doc: Doc, indent: str, lines: int) -> None:
    for _ in range(lines):
        doc.write("\n" + indent)
        draw(text_line(doc))


@st.composite
def new_block(draw: st.DrawFn, doc: Doc) -> None:
    kind = draw(
        st.sampled_from(["alert", "callout", "admonition", "slash", "tabs", "container", "heading"])
    )
    lines = draw(st.integers(1, 3))
    if kind == "alert":
        doc.write("> [!" + draw(st.sampled_from(["NOTE", "WARNING", "tip", "faq"])) + "]")
        body(draw, doc, draw(st.sampled_from(["> ", ">"])), lines)
    elif kind == "callout":  # an Obsidian title holds links too
        doc.write(
            "> [!"
            + draw(st.sampled_from(["info", "bug"]))
            + draw(st.sampled_from(["", "-", "+"]))
            + "] "
        )
        draw(text_line(doc))
        body(draw, doc, "> ", lines)
    elif kind == "admonition":
        doc.write(draw(st.sampled_from(["!!!", "???", "???+"])) + " note")
        body(draw, doc, "    ", lines)
    elif kind == "slash":
        doc.write("/// " + draw(st.sampled_from(["note", "details", "warning"])) + " | ")
        draw(line(doc))
        body(draw, doc, "", lines)
        doc.write("\n///")
    elif kind == "tabs":
        for k in range(draw(st.integers(1, 3))):
            doc.write(("\n\n" if k else "") + f'=== "Tab {k}"\n')
            body(draw, doc, "    ", lines)
    elif kind == "container":
        doc.write("::: " + draw(st.sampled_from(["tip", "warning", "details"])) + " ")
        draw(line(doc))
        body(draw, doc, "", lines)
        doc.write("\n:::")
    else:
        doc.write("## ")
        draw(line(doc))


@st.composite
def documents(draw: st.DrawFn) -> Doc:
    doc = Doc(newline=draw(st.sampled_from(["\n", "\r\n"])))
    for _ in range(draw(st.integers(1, 5))):
        draw(new_block(doc))
        doc.write("\n\n")
    for ref in doc.refs:
        doc.write(f"[{ref}]: /{ref}.md\n")
    return doc


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_links_in_new_blocks_are_found_where_they_were_written(doc: Doc) -> None:
    data = doc.data()
    rec = extract_page("content/blocks.md", data)
    got = [
        (link.offset, "wikilink" if link.kind == "wikilink" else link.kind) for link in rec.links
    ]
    assert got == doc.links
    headings = [(h.offset, h.id) for h in rec.headings]
    for link in rec.links:
        breaks = [m.end() for m in re.finditer(rb"\r\n?|\n", data[: link.offset])]
        assert (link.line, link.column) == (
            len(breaks) + 1,
            link.offset - (breaks[-1] if breaks else 0) + 1,
        )
        above = [id_ for offset, id_ in headings if offset <= link.offset]
        assert link.anchor == (above[-1] if above else "")


def test_a_link_in_each_block_has_its_label_and_place() -> None:
    text = (
        '# Top\n\n> [!NOTE]\n> see [the note](n.md)\n\n!!! tip "Title [t](t.md)"\n'
        "    body [adm](a.md)\n\n/// details | Sum\ninside [sl](s.md)\n///\n\n"
        '=== "One"\n    in [tab](tb.md)\n\n::: warning\nin [box](b.md)\n:::\n\n'
        "## After\n\n[[Page|the page]]\n"
    )
    data = text.encode()
    rec = extract_page("content/x.md", data)
    found = {
        link.label: (link.href, link.anchor, data[link.offset :].split(b"\n")[0])
        for link in rec.links
    }
    assert found == {
        "the note": ("n.md", "top", b"[the note](n.md)"),
        "t": ("t.md", "top", b'[t](t.md)"'),
        "adm": ("a.md", "top", b"[adm](a.md)"),
        "sl": ("s.md", "top", b"[sl](s.md)"),
        "tab": ("tb.md", "top", b"[tab](tb.md)"),
        "box": ("b.md", "top", b"[box](b.md)"),
        "the page": ("Page", "after", b"[[Page|the page]]"),
    }
