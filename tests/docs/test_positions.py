"""Random documents: every link extracted where it was written, and nothing else extracted."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitegen.docs.markdown import extract_page
from sitegen.docs.positions import PageText

WORDS = [
    "alpha",
    "beta",
    "café",
    "日本語",
    "x😀y",
    "ünï",
    "a_b",
    "1st",
    "&amp;",
    "*em*",
    "`code`",
    "`[no](code.md)`",
    "tab\tsep",
    "Ωmega",
]
LABEL_WORDS = ["one", "two", "café", "日本", "ü", "*em*", "`c`", "x y"]
DESTS = ["a.md", "../b/c.md", "/root.md", "d.md#frag", "e%20f.md", "日本.md"]


@dataclass
class Doc:
    """A document being written, with the byte offset and kind of every real link in it."""

    newline: str
    parts: list[str] = field(default_factory=list)
    size: int = 0
    links: list[tuple[int, str]] = field(default_factory=list)
    refs: list[str] = field(default_factory=list)

    def write(self, text: str) -> None:
        text = text.replace("\n", self.newline)
        self.parts.append(text)
        self.size += len(text.encode())

    def link(self, kind: str, text: str) -> None:
        self.links.append((self.size, kind))
        self.write(text)

    def data(self) -> bytes:
        return "".join(self.parts).encode()


@st.composite
def inline_item(draw: st.DrawFn, doc: Doc) -> None:
    """One word or one link (of any kind), written to ``doc``."""
    choice = draw(st.integers(0, 7))
    label = " ".join(draw(st.lists(st.sampled_from(LABEL_WORDS), min_size=1, max_size=3)))
    dest = draw(st.sampled_from(DESTS))
    if choice == 0:
        doc.link("inline", f"[{label}]({dest})")
    elif choice == 1:
        doc.link("image", f"![{label}]({dest})")
    elif choice == 2:
        doc.link("autolink", f"<https://example.org/{len(doc.links)}>")
    elif choice == 3:
        ref = f"r{len(doc.refs)}"
        doc.refs.append(ref)
        form = draw(st.sampled_from([f"[{label}][{ref}]", f"[{ref}][]", f"[{ref}]"]))
        doc.link("reference", form)
    elif choice == 4:
        doc.write("*")
        doc.link("inline", f"[{label}]({dest})")
        doc.write("*")
    else:
        doc.write(draw(st.sampled_from(WORDS)))


@st.composite
def line(draw: st.DrawFn, doc: Doc, in_table: bool = False) -> None:
    doc.write(draw(st.sampled_from(["Start", "Then", "Über"])))
    for _ in range(draw(st.integers(0, 4))):
        doc.write(draw(st.sampled_from([" ", "  ", "\t"])))
        if in_table and draw(st.booleans()):
            doc.write("x\\|y")
        else:
            draw(inline_item(doc))
    doc.write(draw(st.sampled_from(["", "", " ", "  ", "\t"])))


@st.composite
def block(draw: st.DrawFn, doc: Doc) -> None:
    kind = draw(st.sampled_from(["para", "heading", "list", "quote", "table", "fence"]))
    prefix = draw(st.sampled_from(["", "> ", "> > ", "- ", "1. "])) if kind == "table" else ""
    continuation = prefix if prefix.startswith(">") else " " * len(prefix)
    if kind == "para":
        for k in range(draw(st.integers(1, 3))):
            doc.write("\n" if k else "")
            doc.write(draw(st.sampled_from(["", " ", "   "])))
            draw(line(doc))
    elif kind == "heading":
        doc.write("#" * draw(st.integers(1, 6)) + " ")
        draw(line(doc))
    elif kind == "list":
        for k in range(draw(st.integers(1, 3))):
            doc.write("\n" if k else "")
            doc.write(draw(st.sampled_from(["- ", "* ", "1. ", "  - ", "-\t"])))
            draw(line(doc))
    elif kind == "quote":
        for k in range(draw(st.integers(1, 3))):
            doc.write("\n" if k else "")
            doc.write(draw(st.sampled_from(["> ", "> > ", ">", ">\t"])))
            draw(line(doc))
    elif kind == "table":
        doc.write(f"{prefix}| h1 | h2 |\n{continuation}|----|:--:|")
        for _ in range(draw(st.integers(1, 3))):
            doc.write(f"\n{continuation}| ")
            draw(line(doc, in_table=True))
            doc.write(" | ")
            draw(line(doc, in_table=True))
            doc.write(" |")
    else:
        doc.write("```\n[no](fenced.md)\n```")


@st.composite
def documents(draw: st.DrawFn) -> Doc:
    doc = Doc(newline=draw(st.sampled_from(["\n", "\r\n"])))
    if draw(st.booleans()):
        doc.write("---\ntitle: Random\n---\n")
    for _ in range(draw(st.integers(1, 6))):
        draw(block(doc))
        doc.write("\n\n")
    for ref in doc.refs:
        doc.write(f"[{ref}]: /{ref}.md\n")
    return doc


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_every_link_is_found_where_it_was_written(doc: Doc) -> None:
    data = doc.data()
    rec = extract_page("content/random.md", data)
    assert [(link.offset, link.kind) for link in rec.links] == doc.links
    for link in rec.links:
        before = data[: link.offset]
        breaks = [m.end() for m in re.finditer(rb"\r\n?|\n", before)]
        assert link.line == len(breaks) + 1
        assert link.column == link.offset - (breaks[-1] if breaks else 0) + 1


@given(st.text())
def test_source_positions_match_the_encoded_prefix(text: str) -> None:
    data = text.encode("utf-8", "surrogatepass")
    source = PageText(data)
    if source.bad_byte is not None:
        return  # lone surrogates: covered by the invalid UTF-8 tests
    normalized = text.replace("\r\n", "\n").replace("\r", "\n").removeprefix("\ufeff")
    assert len(source.text) == len(normalized)
    for index in range(0, len(source.text) + 1, max(1, len(source.text) // 7)):
        pos = source.position(index)
        # The same characters, with the line ends the file really had, before the index.
        assert (
            data[pos.offset :].decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
            == normalized[index:]
        )


MARKDOWNISH = st.text(
    alphabet=st.sampled_from(list("[]()<>!*_`\\|#-:>\n\r\t ax1é日😀{}^~&;\x00")), max_size=120
)


@given(st.one_of(MARKDOWNISH.map(lambda t: t.encode("utf-8")), st.binary(max_size=120)))
def test_any_bytes_extract_without_error_and_positions_agree(data: bytes) -> None:
    rec = extract_page("content/any.md", data)
    for link in rec.links:
        assert data[link.offset : link.offset + 1] == {"image": b"!", "autolink": b"<"}.get(
            link.kind, b"["
        )
        breaks = [m.end() for m in re.finditer(rb"\r\n?|\n", data[: link.offset])]
        assert (link.line, link.column) == (
            len(breaks) + 1,
            link.offset - (breaks[-1] if breaks else 0) + 1,
        )
    assert [link.offset for link in rec.links] == sorted(link.offset for link in rec.links)
