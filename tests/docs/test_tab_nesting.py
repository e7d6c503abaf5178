"""Content tabs nest as authors nest them (issue 30, point 2; content/syntax/tabs.md#nesting):
in definition lists, list items, admonitions and folds, across blank lines, and inside other
tabs. Python-Markdown with pymdownx.tabbed is the oracle: each case gives the same tab sets
(radio group, labels, each tab's words) as it does."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from html.parser import HTMLParser

import markdown
import pytest

from sitegen.docs import markdown as markdown_module
from sitegen.docs.markdown import extract_page
from sitegen.generators import Dialect

EXTENSIONS = [
    "pymdownx.tabbed",
    "pymdownx.superfences",
    "def_list",
    "admonition",
    "pymdownx.details",
    "footnotes",
]
CONFIGS = {"pymdownx.tabbed": {"alternate_style": True}}
VOID = frozenset(("input", "br", "hr", "img", "meta", "link", "source", "wbr"))


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    children: list[Element | str] = field(default_factory=list)

    def classes(self) -> list[str]:
        return self.attrs.get("class", "").split()

    def elements(self) -> list[Element]:
        return [c for c in self.children if isinstance(c, Element)]

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def words(self) -> tuple[str, ...]:
        """The words of every text inside, sorted (two labels side by side are two words)."""
        found: list[str] = []
        for child in self.children:
            found += child.split() if isinstance(child, str) else child.words()
        return tuple(sorted(found))

    def walk(self) -> list[Element]:
        found = [self]
        for child in self.elements():
            found += child.walk()
        return found


class _Tree(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("root", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(element)
        if tag not in VOID:
            self.stack.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Element(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def tree(html: str) -> Element:
    parser = _Tree()
    parser.feed(html)
    parser.close()
    return parser.root


#: One tab: its radio group, its label, and the words of its panel (nested sets' words too).
Tab = tuple[str, str, tuple[str, ...]]


def oracle_tabs(html: str) -> list[Tab]:
    """The tabs of pymdownx.tabbed's alternate style: a set holds its inputs, then a
    ``tabbed-labels`` div of labels, then a ``tabbed-content`` div of blocks, in order."""
    tabs: list[Tab] = []
    for tab_set in tree(html).walk():
        if "tabbed-set" not in tab_set.classes():
            continue
        inputs = [e for e in tab_set.elements() if e.tag == "input"]
        parts = {e.attrs.get("class", ""): e for e in tab_set.elements() if e.tag == "div"}
        labels = [e.text() for e in parts["tabbed-labels"].elements()]
        blocks = parts["tabbed-content"].elements()
        assert len(inputs) == len(labels) == len(blocks)
        for put, label, block in zip(inputs, labels, blocks, strict=True):
            tabs.append((put.attrs["name"], label, block.words()))
    return tabs


def sitegen_tabs(html: str) -> list[Tab]:
    """sitegen's tabs: a set holds input, label and panel after one another."""
    tabs: list[Tab] = []
    for tab_set in tree(html).walk():
        if "tabbed-set" not in tab_set.classes():
            continue
        parts = tab_set.elements()
        for put, label, panel in zip(parts[::3], parts[1::3], parts[2::3], strict=True):
            assert (put.tag, label.tag, panel.attrs["class"]) == ("input", "label", "tabbed-panel")
            tabs.append((put.attrs["name"], label.text(), panel.words()))
    return tabs


def render(source: str) -> str:
    return extract_page("docs/p.md", source.encode(), dialect=Dialect.PYTHON_MARKDOWN).html


CASES = {
    "definition": 'Term\n:   === "A"\n\n        text a\n\n    === "B"\n\n        text b\n',
    "definition, text first": (
        'Term\n\n:   Some text.\n\n    === "A"\n\n        ``` yaml\n        a: 1\n        ```\n\n'
        '    === "B"\n\n        ``` yaml\n        b: 2\n        ```\n'
    ),
    "definition under a comment": (
        '<!-- md:option x -->\n\n:   <!-- md:default `6` --> Text.\n\n    === "One"\n\n'
        '        one\n\n    === "Two"\n\n        two\n'
    ),
    "list item": '- item\n\n    === "C"\n\n        text c\n\n    === "D"\n\n        text d\n',
    "ordered item": '1.  step\n\n    === "E"\n\n        e\n\n    === "F"\n\n        f\n',
    "admonition": '!!! note "Title"\n\n    === "G"\n\n        g\n\n    === "H"\n\n        h\n',
    "fold, two blank lines": (
        '??? note "Title"\n\n    === "I"\n\n        i\n\n\n    === "J"\n\n        j\n'
    ),
    "open fold, three blank lines": (
        '???+ example "Title"\n\n    === "K"\n\n        k\n\n\n\n    === "L"\n\n        l\n\n'
        "    After the tabs.\n"
    ),
    "blank lines between tabs": '=== "M"\n\n    m\n\n\n\n=== "N"\n\n    n\n',
    "tabs in tabs, the outer set goes on": (
        '=== "O"\n\n    === "O1"\n\n        o1\n\n    === "O2"\n\n        o2\n\n'
        '=== "P"\n\n    p\n\n=== "Q"\n\n    q\n'
    ),
    "tabs in a fold in a list item": (
        '- item\n\n    ??? tip "Fold"\n\n        === "R"\n\n            r\n\n\n'
        '        === "S"\n\n            s\n'
    ),
    "a new set and the tab shown first": (
        '=== "T"\n\n    t\n\n===! "U"\n\n    u\n\n===+ "V"\n\n    v\n'
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_tabs_nest_as_pymdownx_nests_them(name: str) -> None:
    source = CASES[name]
    expected = oracle_tabs(
        markdown.markdown(source, extensions=EXTENSIONS, extension_configs=CONFIGS)
    )
    got = sitegen_tabs(render(source))
    assert expected, name  # the case has tabs
    assert Counter(got) == Counter(expected)


def test_the_tab_shown_first_is_the_oracle_s() -> None:
    source = '=== "A"\n\n    a\n\n===+ "B"\n\n    b\n\n===+ "C"\n\n    c\n\n=== "D"\n\n    d\n'
    oracle = tree(markdown.markdown(source, extensions=EXTENSIONS, extension_configs=CONFIGS))
    ours = tree(render(source))
    checked = [
        [e.attrs["id"] for e in t.walk() if e.tag == "input" and "checked" in e.attrs]
        for t in (oracle, ours)
    ]
    assert checked[0] == checked[1] == ["__tabbed_1_3"]


def test_a_second_tab_after_blank_lines_is_no_code_block() -> None:
    html = render('??? note "Title"\n\n    === "A"\n\n        a\n\n\n    === "B"\n\n        b\n')
    assert "<pre>" not in html and "===" not in html


def test_a_comment_is_a_term_on_mkdocs_pages_only() -> None:
    source = "<!-- md:option x -->\n\n:   Text.\n"
    assert "<dl>" in render(source)
    assert "<dl>" not in extract_page("p.md", source.encode()).html


def test_the_rules_gated_render_the_same_as_ungated() -> None:
    """The comment-term and footnote-id rules are gated (sitegen/docs/gates.py): each case,
    and a page holding all of them, extracts alike with every rule on."""
    parser = markdown_module._parser(Dialect.PYTHON_MARKDOWN)
    gates = parser.gates
    assert gates is not None
    pages = [*CASES.values(), "\n\n".join(CASES.values()) + "\nA[^1] b[^1]\n\n[^1]: Note.\n"]
    for source in pages:
        gated = render(source)
        gates.open_all()
        parser.gates = None
        try:
            ungated = render(source)
        finally:
            parser.gates = gates
        assert gated == ungated
