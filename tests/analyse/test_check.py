"""``sitegen check`` logic: finding keys, severities, baseline, exit codes, output formats."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sitegen.analyse.check import (
    Baseline,
    Finding,
    code_cycle_findings,
    evaluate,
    format_json,
    github_annotation,
    link_findings,
    load_baseline,
    relation_cycle_findings,
    write_baseline,
)
from sitegen.analyse.checks import DEFAULT_CHECKS
from sitegen.analyse.cycles import analyse_code_cycles
from sitegen.base.diagnostics import Level
from sitegen.config import ConfigError
from sitegen.graph.dependencies import DepEdge
from sitegen.records.linked import BrokenLink

ALL_ERROR = dict(DEFAULT_CHECKS)


def broken(check: str = "broken-link", line: int = 3, target: str = "content/x.md") -> BrokenLink:
    message = f"Link to '{target}' points to no page or file."
    return BrokenLink("content/a.md", line, 5, check, target, message)


def link(line: int = 3, target: str = "content/x.md") -> Finding:
    return link_findings([broken(line=line, target=target)])[0]


def cycle(*members: str) -> Finding:
    return Finding("code-cycles", members[0], 1, 1, "cycle", ", ".join(members), members)


# --- findings and keys ----------------------------------------------------------------------


def test_broken_link_key_has_no_line_number() -> None:
    assert link(line=3).key == link(line=40).key == "content/a.md -> content/x.md"
    assert link(target="x.md#setup").key == "content/a.md -> x.md#setup"
    assert (link().path, link().line, link().col) == ("content/a.md", 3, 5)


def test_each_kind_of_broken_link_makes_the_finding_of_its_check() -> None:
    kinds = ["broken-link", "broken-anchor", "missing-rel-target"]
    found = link_findings([broken(kind, target=f"{kind}.md") for kind in kinds])
    assert [(f.check, f.key) for f in found] == [
        ("broken-anchors", "content/a.md -> broken-anchor.md"),
        ("broken-links", "content/a.md -> broken-link.md"),
        ("missing-rel-targets", "content/a.md -> missing-rel-target.md"),
    ]
    assert found[0].message == "Link to 'broken-anchor.md' points to no page or file."


def test_warnings_that_no_check_owns_make_no_finding() -> None:
    assert link_findings([broken("ambiguous-wikilink"), broken("broken-autoref")]) == []


def test_a_finding_says_what_the_diagnostic_says() -> None:
    record = broken("broken-anchor", target="b.md#intro")
    (finding,) = link_findings([record])
    diagnostic = record.diagnostic()
    assert (finding.path, finding.line, finding.col, finding.message) == (
        diagnostic.path,
        diagnostic.line,
        diagnostic.col,
        diagnostic.message,
    )
    assert diagnostic.code == "broken-anchor" and diagnostic.level == Level.WARNING


def test_code_cycle_finding_sits_on_the_edge_to_break() -> None:
    code = analyse_code_cycles(
        ["a.py", "b.py", "c.py"],
        [
            DepEdge("a.py", "b.py", "import", 0.9, 3),
            DepEdge("b.py", "a.py", "import", 0.5, 8),
            DepEdge("c.py", "c.py", "import", 0.9, 2),
        ],
    )
    loop, self_loop = code_cycle_findings(code)
    assert (loop.check, loop.path, loop.line, loop.key) == ("code-cycles", "b.py", 8, "a.py, b.py")
    assert loop.members == ("a.py", "b.py")
    assert loop.message == (
        "Dependency cycle of 2 files: a.py, b.py (e.g. a.py -> b.py -> a.py); "
        "removing b.py -> a.py makes them acyclic."
    )
    assert (self_loop.path, self_loop.line, self_loop.message) == (
        "c.py",
        2,
        "c.py imports itself.",
    )


def test_relation_cycle_finding_uses_the_locator() -> None:
    found = relation_cycle_findings(
        {"supersedes": [["/a.md", "/b.md"]], "see-also": []}, lambda node: ("content" + node, 2, 1)
    )
    assert found == [
        Finding(
            "relation-cycles",
            "content/a.md",
            2,
            1,
            "'supersedes' relations form a cycle: /a.md, /b.md.",
            "supersedes: /a.md, /b.md",
            ("/a.md", "/b.md"),
        )
    ]


# --- evaluation -----------------------------------------------------------------------------


def test_new_error_fails() -> None:
    outcome = evaluate([link()], ALL_ERROR, Baseline(), github_actions=False)
    assert outcome.exit_code == 1
    assert outcome.lines[0] == (
        "content/a.md:3:5: error: Link to 'content/x.md' points to no page or file. [broken-links]"
    )
    assert outcome.lines[-1].startswith("sitegen check failed: 1 error, 0 warnings, 0 known")


def test_no_findings_pass_with_a_summary() -> None:
    outcome = evaluate([], ALL_ERROR, None, github_actions=False)
    assert outcome.exit_code == 0
    assert outcome.lines == [
        (
            "sitegen check passed: 0 errors, 0 warnings, 0 known in the baseline, 0 ignored; "
            "checked broken-links, broken-anchors, missing-rel-targets, code-cycles, relation-cycles, stale-doc, "
            "anchor-moved."
        )
    ]


def test_warn_is_printed_but_does_not_fail() -> None:
    outcome = evaluate([link()], {**ALL_ERROR, "broken-links": "warn"}, github_actions=False)
    assert outcome.exit_code == 0
    assert ": warning: " in outcome.lines[0]


def test_ignore_is_neither_printed_nor_failing() -> None:
    outcome = evaluate([link()], {**ALL_ERROR, "broken-links": "ignore"}, github_actions=False)
    assert outcome.exit_code == 0
    assert len(outcome.lines) == 1 and "1 ignored; checked broken-anchors," in outcome.lines[0]


def test_baselined_error_does_not_fail_even_after_the_line_moved() -> None:
    baseline = Baseline(frozenset({("broken-links", link(line=3).key)}))
    outcome = evaluate([link(line=30)], ALL_ERROR, baseline, github_actions=False)
    assert outcome.exit_code == 0
    assert outcome.lines[-1].startswith("sitegen check passed: 0 errors, 0 warnings, 1 known")
    assert len(outcome.lines) == 1


def test_only_new_findings_fail_next_to_known_ones() -> None:
    baseline = Baseline(frozenset({("broken-links", link().key)}))
    outcome = evaluate(
        [link(), link(target="content/new.md")], ALL_ERROR, baseline, github_actions=False
    )
    assert outcome.exit_code == 1
    assert [line for line in outcome.lines if "error:" in line] == [
        (
            "content/a.md:3:5: error: Link to 'content/new.md' points to no page or file. "
            "[broken-links]"
        )
    ]


def test_same_key_in_another_check_is_not_known() -> None:
    baseline = Baseline(frozenset({("broken-anchors", link().key)}))
    assert evaluate([link()], ALL_ERROR, baseline, github_actions=False).exit_code == 1


def test_a_shrunk_cycle_stays_known_and_a_grown_one_is_new() -> None:
    baseline = Baseline(
        frozenset({("code-cycles", "a.py, b.py, c.py")}),
        (("code-cycles", "a.py, b.py, c.py", ("a.py", "b.py", "c.py")),),
    )
    shrunk = evaluate([cycle("a.py", "b.py")], ALL_ERROR, baseline, github_actions=False)
    assert (shrunk.exit_code, shrunk.stale_baseline) == (0, 0)
    grown = evaluate(
        [cycle("a.py", "b.py", "c.py", "d.py")], ALL_ERROR, baseline, github_actions=False
    )
    assert (grown.exit_code, grown.stale_baseline) == (1, 1)


def test_fixed_baseline_entries_are_reported_as_stale() -> None:
    baseline = Baseline(frozenset({("broken-links", "content/a.md -> content/gone.md")}))
    outcome = evaluate([], ALL_ERROR, baseline, github_actions=False)
    assert outcome.exit_code == 0
    assert outcome.stale_baseline == 1
    assert outcome.lines[-1].endswith(" 1 baseline entry no longer occurs; rewrite the baseline.")


def test_output_is_sorted_and_deduplicated() -> None:
    later = link_findings([BrokenLink("content/z.md", 1, 1, "broken-link", "q.md", "gone")])[0]
    outcome = evaluate([later, link(), link()], ALL_ERROR, github_actions=False)
    assert [line.split(":")[0] for line in outcome.lines[:-1]] == ["content/a.md", "content/z.md"]


# --- GitHub annotations ---------------------------------------------------------------------


def test_annotation_format_pinned() -> None:
    finding = Finding("broken-links", "docs/a,b:c.md", 3, 5, "100% broken\r\nreally", "k")
    assert github_annotation(Level.ERROR, finding) == (
        "::error file=docs/a%2Cb%3Ac.md,line=3,col=5,title=broken-links::100%25 broken%0D%0Areally"
    )
    assert github_annotation(Level.WARNING, finding).startswith("::warning file=docs/a%2Cb%3Ac.md,")


def test_annotations_follow_each_line_under_github_actions() -> None:
    outcome = evaluate([link()], {**ALL_ERROR, "broken-links": "warn"}, github_actions=True)
    assert outcome.lines[:2] == [
        (
            "content/a.md:3:5: warning: Link to 'content/x.md' points to no page or file. "
            "[broken-links]"
        ),
        (
            "::warning file=content/a.md,line=3,col=5,title=broken-links::Link to 'content/x.md' "
            "points to no page or file."
        ),
    ]


def test_github_actions_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    assert any(line.startswith("::error ") for line in evaluate([link()], ALL_ERROR).lines)
    monkeypatch.setenv("GITHUB_ACTIONS", "false")
    assert not any(line.startswith("::") for line in evaluate([link()], ALL_ERROR).lines)


# --- JSON -----------------------------------------------------------------------------------


def test_format_json() -> None:
    baseline = Baseline(frozenset({("broken-links", link().key)}))
    outcome = evaluate(
        [link(), cycle("a.py", "b.py")],
        {**ALL_ERROR, "code-cycles": "warn"},
        baseline,
        github_actions=False,
    )
    data = json.loads(format_json(outcome))
    assert data["exit_code"] == 0
    assert data["counts"] == {
        "error": 0,
        "warning": 1,
        "baselined": 1,
        "ignored": 0,
        "stale_baseline": 0,
    }
    assert [(f["check"], f["level"], f["baselined"]) for f in data["findings"]] == [
        ("code-cycles", "warning", False),
        ("broken-links", "error", True),
    ]
    assert data["summary"] == outcome.lines[-1]


# --- baseline file --------------------------------------------------------------------------


def test_baseline_round_trip_is_deterministic(tmp_path: Path) -> None:
    findings = [link(), link(target="content/y.md"), cycle("a.py", "b.py")]
    first, second = tmp_path / "one.json", tmp_path / "two.json"
    write_baseline(findings, first)
    write_baseline(findings[::-1] + findings, second)
    assert first.read_bytes() == second.read_bytes()
    baseline = load_baseline(first)
    assert baseline.keys == {
        ("broken-links", "content/a.md -> content/x.md"),
        ("broken-links", "content/a.md -> content/y.md"),
        ("code-cycles", "a.py, b.py"),
    }
    assert baseline.cycles == (("code-cycles", "a.py, b.py", ("a.py", "b.py")),)
    assert evaluate(findings, ALL_ERROR, baseline, github_actions=False).exit_code == 0
    assert sorted(tmp_path.iterdir()) == [first, second]  # no temp file left behind


def test_missing_baseline_is_empty(tmp_path: Path) -> None:
    assert load_baseline(tmp_path / ".sitegen-baseline.json") == Baseline()


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[]",
        '{"version": 2, "findings": []}',
        '{"version": 1, "findings": [{"check": "x"}]}',
    ],
)
def test_malformed_baseline_is_a_configuration_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / ".sitegen-baseline.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match="not a sitegen baseline"):
        load_baseline(path)
