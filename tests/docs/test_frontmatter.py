"""Front matter (safe YAML, JSON-safe values, key lines), relations (content/reference/edges.md)."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sitegen.base.diagnostics import Level
from sitegen.docs.frontmatter import parse_front_matter, relations
from sitegen.docs.markdown import extract_page
from sitegen.records.pages import Relation


def test_mapping_and_the_line_of_each_key() -> None:
    text = "title: Hello\n# a comment\ntags: [a, b]\n'quoted key': 1\n"
    fm = parse_front_matter(text, "p.md", first_line=2)
    assert fm.data == {"title": "Hello", "tags": ["a", "b"], "quoted key": 1}
    assert fm.key_lines == {"title": 2, "tags": 4, "quoted key": 5}
    assert fm.diagnostics == []


def test_values_become_json_safe() -> None:
    text = "date: 2024-01-02\nwhen: 2024-01-02 03:04:05\nnan: .nan\n2024: year\non: yes\n"
    fm = parse_front_matter(text, "p.md")
    assert fm.data == {
        "date": "2024-01-02",
        "when": "2024-01-02T03:04:05",
        "nan": "nan",
        "2024": "year",
        "true": True,
    }
    assert json.loads(json.dumps(fm.data)) == fm.data


def test_broken_yaml_is_a_warning_on_the_broken_line() -> None:
    text = "title: ok\nother: fine\nbad: [unclosed, list\n"
    fm = parse_front_matter(text, "content/p.md", first_line=2)
    assert fm.data == {}
    (diag,) = fm.diagnostics
    assert diag.level == Level.WARNING and diag.path == "content/p.md"
    assert diag.code == "front-matter"
    assert diag.line == 4  # the list left open, not the end of the text where YAML noticed
    assert "not valid YAML" in diag.message


def test_indentation_error_points_at_its_line() -> None:
    text = "title: x\n  indented: wrong\n"
    (diag,) = parse_front_matter(text, "p.md", first_line=2).diagnostics
    assert diag.line == 3


@pytest.mark.parametrize(
    "text",
    [
        "d: 2024-13-45",
        "a: !!float abc",
        "a: !!int 0x",
        "a: !!timestamp 2024-02-30",
        "x: !!python/object:os.system",
        "a: !!binary xx",
        "k: {[1,2]: x}",
        "[" * 5000,
    ],
)
def test_values_yaml_cannot_build_are_warnings(text: str) -> None:
    fm = parse_front_matter(text, "p.md")
    assert fm.data == {}
    assert [(d.code, d.level) for d in fm.diagnostics] == [("front-matter", Level.WARNING)]


@given(st.text(alphabet=st.sampled_from(list("ab:-[]{}!&*?#|>'\" 0123456789.\n\t")), max_size=60))
def test_front_matter_never_raises(text: str) -> None:
    fm = parse_front_matter(text, "p.md")
    assert json.loads(json.dumps(fm.data)) == fm.data
    assert all(d.level == Level.WARNING for d in fm.diagnostics)


def test_a_non_mapping_is_a_warning() -> None:
    for text, kind in [("- a\n- b\n", "a list"), ("just text\n", "a str value")]:
        fm = parse_front_matter(text, "p.md")
        assert fm.data == {}
        (diag,) = fm.diagnostics
        assert diag.level == Level.WARNING and kind in diag.message


def test_empty_front_matter_is_nothing() -> None:
    fm = parse_front_matter("", "p.md")
    assert fm.data == {} and fm.diagnostics == []


def test_alias_bombs_and_cycles_are_refused() -> None:
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n" for i in range(6)
    )
    for text in [bomb, "a: &a [*a]\n"]:
        fm = parse_front_matter(text, "p.md")
        assert fm.data == {}
        assert [d.code for d in fm.diagnostics] == ["front-matter"]


def _relations(data: dict, lines: dict | None = None) -> tuple[list[Relation], list]:
    return relations(data, lines or dict.fromkeys(data, 1), "p.md")


def test_comma_separated_string_and_yaml_list() -> None:
    rels, problems = _relations(
        {"rel-supersedes": "/adr/1.md, ../b.md", "rel-depends-on": ["x.md", "y.md"]},
        {"rel-supersedes": 3, "rel-depends-on": 4},
    )
    assert rels == [
        Relation("supersedes", "/adr/1.md", 3),
        Relation("supersedes", "../b.md", 3),
        Relation("depends-on", "x.md", 4),
        Relation("depends-on", "y.md", 4),
    ]
    assert problems == []


def test_empty_and_whitespace_refs_and_the_empty_predicate_are_skipped_silently() -> None:
    rels, problems = _relations(
        {
            "rel-a": "x.md, , two words.md,  y.md ",
            "rel-b": ["", "a b"],
            "rel-": "z.md",
            "rel-c": None,
            "title": "t",
        }
    )
    assert [(r.predicate, r.ref) for r in rels] == [("a", "x.md"), ("a", "y.md")]
    assert problems == []


def test_colon_form_is_reported_with_the_hyphen_form_and_not_ingested() -> None:
    rels, problems = _relations({"rel:supersedes": "/a.md"}, {"rel:supersedes": 7})
    assert rels == []
    (diag,) = problems
    assert diag.level == Level.WARNING and diag.line == 7 and diag.path == "p.md"
    assert "'rel-supersedes'" in diag.message


def test_predicates_outside_the_key_alphabet_are_reported() -> None:
    rels, problems = _relations({"rel-Depends_On": "a.md"})
    assert rels == []
    (diag,) = problems
    assert "'rel-depends-on'" in diag.message


def test_values_that_are_not_refs_are_reported() -> None:
    rels, problems = _relations({"rel-a": {"x": 1}, "rel-b": [1, "a.md"]})
    assert rels == []
    assert len(problems) == 2


def test_any_predicate_works_and_self_references_are_left_to_the_linker() -> None:
    rels, _ = _relations({"rel-implements-2": "self.md"})
    assert rels == [Relation("implements-2", "self.md", 1)]


def test_relations_from_a_page_carry_the_file_line_of_their_key() -> None:
    data = b"---\ntitle: T\nrel-supersedes: /adr/1.md\nrel:x: a.md\n---\n# T\n"
    rec = extract_page("content/p.md", data)
    assert rec.relations == [Relation("supersedes", "/adr/1.md", 3)]
    assert [(d.line, d.code) for d in rec.diagnostics] == [(4, "relation")]


def test_broken_front_matter_still_renders_the_page() -> None:
    data = b"---\ntitle: [oops\n---\n# Real title\n\nBody [x](y.md)\n"
    rec = extract_page("content/p.md", data)
    assert rec.front_matter == {}
    assert rec.title == "Real title"
    assert [d.code for d in rec.diagnostics] == ["front-matter"]
    assert rec.diagnostics[0].line >= 2
    assert len(rec.links) == 1 and "<h1" in rec.html
