"""``sitegen check``: findings of the checks, severities, the baseline, and the output.

Pure functions over findings the build already computed (content/guides/ci.md); the baseline is
the only thing read or written here, and only through ``load_baseline`` / ``write_baseline``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from sitegen.analyse.cycles import UNIT_WORDS
from sitegen.analyse.reports import reexport_words
from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.base.fsutil import write_atomically
from sitegen.base.plural import agrees, counted
from sitegen.config import ConfigError
from sitegen.records.analysis import CodeCycles, CyclicUnit
from sitegen.records.linked import (
    BROKEN_ANCHOR,
    BROKEN_LINK,
    LOOPBACK_LINK,
    MISSING_REL_TARGET,
    BrokenLink,
)

BROKEN_LINKS = "broken-links"
BROKEN_ANCHORS = "broken-anchors"
MISSING_REL_TARGETS = "missing-rel-targets"
CODE_CYCLES = "code-cycles"
RELATION_CYCLES = "relation-cycles"
MISSING_LINKS = "missing-links"
#: An old heading anchor kept by an alias or a notice, or a link written to one
#: (sitegen/link/anchor_aliases.py): the diagnostic code is the check's name.
ANCHOR_MOVED = "anchor-moved"
#: Pages whose documented code changed after them (sitegen/analyse/stale.py finds them).
STALE_DOC = "stale-doc"
#: Checks whose findings are cycles: a cycle in the baseline also covers any smaller cycle
#: inside it, so breaking part of a known cycle never fails the check.
CYCLE_CHECKS = (CODE_CYCLES, RELATION_CYCLES)
BASELINE_FILE = ".sitegen-baseline.json"
BASELINE_VERSION = 1


@dataclass(frozen=True, order=True)
class Finding:
    """One problem found by a check, at a source position.

    ``key`` is its stable identity for the baseline: no line numbers, so editing a file
    above a known problem does not make it new. ``members`` holds a cycle's sorted members.
    """

    check: str
    path: str
    line: int
    col: int
    message: str
    key: str
    members: tuple[str, ...] = ()


@dataclass(frozen=True)
class Baseline:
    """Known findings: ``(check, key)`` pairs, and the members of known cycles."""

    keys: frozenset[tuple[str, str]] = frozenset()
    #: ``(check, key, members)`` of each known cycle.
    cycles: tuple[tuple[str, str, tuple[str, ...]], ...] = ()

    def knows(self, finding: Finding) -> bool:
        if (finding.check, finding.key) in self.keys:
            return True
        return any(_covers(entry, finding) for entry in self.cycles)

    def stale(self, findings: Iterable[Finding]) -> int:
        """Entries that no finding matches or (for cycles) lies inside: fixed debt."""
        current = list(findings)
        present = {(f.check, f.key) for f in current}
        unmatched = self.keys - present
        covering = {
            (check, key)
            for check, key, members in self.cycles
            if any(_covers((check, key, members), f) for f in current)
        }
        return len(unmatched - covering)


def _covers(entry: tuple[str, str, tuple[str, ...]], finding: Finding) -> bool:
    check, _, members = entry
    return (
        check == finding.check
        and check in CYCLE_CHECKS
        and bool(finding.members)
        and set(finding.members) <= set(members)
    )


@dataclass(frozen=True)
class Result:
    """A finding as evaluated: its level (``error``/``warning``) and whether it is known debt."""

    finding: Finding
    level: Level
    baselined: bool


@dataclass(frozen=True)
class CheckOutcome:
    """What ``sitegen check`` ends with: the exit code, the lines to print (the summary
    last), every evaluated finding, and the counts the summary names."""

    exit_code: int
    lines: list[str]
    results: list[Result] = field(default_factory=list)
    ignored: int = 0
    stale_baseline: int = 0
    summary: str = ""
    #: Checks that could not run, by name, with why (stale-doc in a shallow clone).
    unchecked: dict[str, str] = field(default_factory=dict)


# --- findings -------------------------------------------------------------------------------


#: The check each kind of broken link fails. The other kinds (an ambiguous wikilink, a
#: cross-reference that names no symbol) are warnings of the build, no check's findings.
LINK_CHECKS = {
    BROKEN_LINK: BROKEN_LINKS,
    BROKEN_ANCHOR: BROKEN_ANCHORS,
    MISSING_REL_TARGET: MISSING_REL_TARGETS,
    LOOPBACK_LINK: LOOPBACK_LINK,  # off by default: such a link is kept as written
}


def link_findings(broken: Iterable[BrokenLink]) -> list[Finding]:
    """One finding per broken link, anchor or relation target, with the linker's sentence.

    The key names the linking file and the target as written, never a line number."""
    return sorted(
        Finding(
            LINK_CHECKS[b.check],
            b.path,
            max(b.line, 1),
            max(b.col, 1),
            b.message,
            f"{b.path} -> {b.target}",
        )
        for b in broken
        if b.check in LINK_CHECKS
    )


def code_cycle_findings(code: CodeCycles) -> list[Finding]:
    """One finding per file-level cyclic unit, placed at the first edge the guidance breaks."""
    return sorted(_code_cycle_finding(unit) for unit in code.cyclic)


Locator = Callable[[str], tuple[str, int, int]]


def relation_cycle_findings(
    relations: Mapping[str, list[list[str]]], locate: Locator | None = None
) -> list[Finding]:
    """One finding per cyclic unit of a predicate, placed by ``locate(node_id)`` (the file,
    line and column that declares the first member's relation); default: the node id, 1, 1."""
    where = locate or (lambda node: (node, 1, 1))
    out = []
    for predicate in sorted(relations):
        for members in relations[predicate]:
            path, line, col = where(members[0])
            listed = ", ".join(members)
            out.append(
                Finding(
                    RELATION_CYCLES,
                    path,
                    max(line, 1),
                    max(col, 1),
                    f"'{predicate}' relations form a cycle: {listed}.",
                    f"{predicate}: {listed}",
                    tuple(members),
                )
            )
    return sorted(out)


def missing_link_findings(pairs: Iterable[tuple[str, str, str, str]]) -> list[Finding]:
    """One finding per missing link ``(path of a, node a, node b, reason)``, at a's file."""
    return sorted(
        Finding(
            MISSING_LINKS,
            path,
            1,
            1,
            f"'{a}' and '{b}' are strongly related ({reason}) but neither links to the other.",
            f"{a} <-> {b}",
        )
        for path, a, b, reason in pairs
    )


def anchor_moved_findings(diagnostics: Iterable[Diagnostic]) -> list[Finding]:
    """One finding per ``anchor-moved`` info line of the build: an alias, a removed section's
    notice, or a link written to an old anchor. The key is the file and the sentence, which
    names the anchors and no line."""
    return sorted(
        Finding(ANCHOR_MOVED, d.path, d.line, d.col, d.message, f"{d.path}: {d.message}")
        for d in diagnostics
        if d.code == ANCHOR_MOVED
    )


def _code_cycle_finding(unit: CyclicUnit) -> Finding:
    """At the first edge the guidance removes: in its file (a package's or crate's edge
    names the file it is written in) and line."""
    src, dst = unit.breaks[0]
    evidence = min(
        (
            (e.src_file or e.src, e.line)
            for e in unit.edges
            if (e.src, e.dst) == (src, dst) and e.line > 0
        ),
        default=(src, 1),
    )
    if unit.self_loop:
        message = f"{src} imports itself."
    else:
        example = " -> ".join(unit.example)
        fixes = ", ".join(f"{s} -> {d}" for s, d in unit.breaks)
        words = UNIT_WORDS.get(unit.kind, "units")
        message = (
            f"Dependency cycle of {len(unit.members)} {words}: {', '.join(unit.members)} "
            f"(e.g. {example}); removing {fixes} makes them acyclic."
        )
        for found in unit.reexports:
            message += f" {found.package} -> {found.module}: {reexport_words(found)}."
    return Finding(
        CODE_CYCLES, evidence[0], evidence[1], 1, message, ", ".join(unit.members), unit.members
    )


# --- evaluation -----------------------------------------------------------------------------


def evaluate(
    findings: Iterable[Finding],
    severities: Mapping[str, str],
    baseline: Baseline | None = None,
    github_actions: bool | None = None,
    unchecked: Mapping[str, str] | None = None,
) -> CheckOutcome:
    """Apply severities and the baseline; exit 1 when a new error-level finding exists.

    ``severities`` holds every check's severity (``checks.severities_of(config.checks,
    extra)``): its keys, in order, are the checks the summary says ran; a finding of a check
    it does not name counts as ``error``. Known (baselined) findings are counted, not
    printed. ``github_actions=None`` reads the ``GITHUB_ACTIONS`` environment variable.
    ``unchecked`` names the checks that could not run and why; the summary says so instead
    of listing them as checked.
    """
    known = baseline or Baseline()
    annotate = (
        os.environ.get("GITHUB_ACTIONS") == "true" if github_actions is None else github_actions
    )
    unique = sorted(set(findings), key=lambda f: (f.path, f.line, f.col, f.check, f.key))
    results, ignored = [], 0
    for finding in unique:
        severity = severities.get(finding.check, "error")
        if severity == "ignore":
            ignored += 1
            continue
        level = _LEVELS.get(severity, Level.WARNING)
        results.append(Result(finding, level, known.knows(finding)))
    lines = [line for r in results if not r.baselined for line in _output_lines(r, annotate)]
    failed = any(r.level == Level.ERROR and not r.baselined for r in results)
    stale = known.stale(unique)
    skipped = dict(unchecked or {})
    summary = _summary(results, ignored, stale, failed, severities, skipped)
    return CheckOutcome(
        1 if failed else 0, [*lines, summary], results, ignored, stale, summary, skipped
    )


_LEVELS = {"error": Level.ERROR, "info": Level.INFO}


def format_json(outcome: CheckOutcome) -> str:
    """``sitegen check --format json``: every evaluated finding and the totals."""
    findings = [
        {
            "check": r.finding.check,
            "path": r.finding.path,
            "line": r.finding.line,
            "col": r.finding.col,
            "level": str(r.level),
            "message": r.finding.message,
            "key": r.finding.key,
            "baselined": r.baselined,
        }
        for r in outcome.results
    ]
    counts = {
        "error": _count(outcome.results, Level.ERROR),
        "warning": _count(outcome.results, Level.WARNING),
        "baselined": sum(r.baselined for r in outcome.results),
        "ignored": outcome.ignored,
        "stale_baseline": outcome.stale_baseline,
    }
    data: dict[str, object] = {
        "exit_code": outcome.exit_code,
        "summary": outcome.summary,
        "counts": counts,
        "findings": findings,
    }
    if outcome.unchecked:  # a key only when a check could not run: the format stays as it was
        data["unchecked"] = dict(sorted(outcome.unchecked.items()))
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def github_annotation(level: Level, finding: Finding, end_line: int = 0) -> str:
    """``::error file=…,line=…,col=…,title=…::message``, escaped per GitHub's workflow commands
    (with ``endLine`` when the finding spans lines up to ``end_line``)."""
    command = {Level.ERROR: "error", Level.INFO: "notice"}.get(level, "warning")
    span = (("endLine", end_line),) if end_line > finding.line else ()
    props = ",".join(
        f"{name}={_escape_property(str(value))}"
        for name, value in (
            ("file", finding.path),
            ("line", finding.line),
            *span,
            ("col", finding.col),
            ("title", finding.check),
        )
    )
    return f"::{command} {props}::{_escape_data(finding.message)}"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _output_lines(result: Result, annotate: bool) -> list[str]:
    f = result.finding
    # One line per finding even if a message carries a newline: the format is line-based.
    message = " ".join(f.message.splitlines())
    lines = [f"{f.path}:{f.line}:{f.col}: {result.level}: {message} [{f.check}]"]
    if annotate:
        lines.append(github_annotation(result.level, f))
    return lines


def _count(results: list[Result], level: Level) -> int:
    return sum(1 for r in results if r.level == level and not r.baselined)


def _summary(
    results: list[Result],
    ignored: int,
    stale: int,
    failed: bool,
    severities: Mapping[str, str],
    unchecked: Mapping[str, str],
) -> str:
    errors, warnings = _count(results, Level.ERROR), _count(results, Level.WARNING)
    known = sum(r.baselined for r in results)
    ran = [c for c, level in severities.items() if level != "ignore" and c not in unchecked]
    text = (
        f"sitegen check {'failed' if failed else 'passed'}: {counted(errors, 'error')}, "
        f"{counted(warnings, 'warning')}, {known} known in the baseline, "
        f"{ignored} ignored; checked {', '.join(ran) or 'nothing'}."
    )
    for name, why in sorted(unchecked.items()):
        text += f" Not checked: {name}, because {why}."
    if stale:
        text += (
            f" {counted(stale, 'baseline entry')} no longer "
            f"{agrees(stale, 'occurs', 'occur')}; rewrite the baseline."
        )
    return text


# --- baseline -------------------------------------------------------------------------------


def write_baseline(findings: Iterable[Finding], path: Path) -> None:
    """Record ``findings`` as known debt, atomically (``write_atomically``), sorted."""
    entries = sorted({(f.check, f.key): f for f in findings}.items())
    data = {
        "version": BASELINE_VERSION,
        "findings": [
            {
                "check": check,
                "key": key,
                "path": f.path,
                "message": f.message,
                **({"members": list(f.members)} if f.members else {}),
            }
            for (check, key), f in entries
        ],
    }
    write_atomically(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def load_baseline(path: Path) -> Baseline:
    """The baseline at ``path``; empty when the file does not exist.

    Raises ``ConfigError`` (exit code 2) when it exists but is not a baseline.
    """
    if not path.is_file():
        return Baseline()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("version") != BASELINE_VERSION:
            raise ValueError(f"expected version {BASELINE_VERSION}")
        entries = [
            (str(e["check"]), str(e["key"]), tuple(str(m) for m in e.get("members", ())))
            for e in data["findings"]
        ]
    except (ValueError, KeyError, TypeError, RecursionError) as exc:
        raise ConfigError(
            f"{path}: not a sitegen baseline ({exc}); rewrite it or delete it"
        ) from exc
    return Baseline(
        frozenset((check, key) for check, key, _ in entries),
        tuple(sorted(e for e in entries if e[2] and e[0] in CYCLE_CHECKS)),
    )
