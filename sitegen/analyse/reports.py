"""The cycle reports: ``/cycles.md``, ``sitegen cycles`` text and ``--json``, and each file's
cycle membership (content/reference/cycles.md); ``/cycles.html``'s view, with its hrefs, is
``sitegen.site.cycles_view``.

Pure formatting of a ``CycleReport``: never analyses, never reads or writes files.
"""

from __future__ import annotations

import json
import math
from typing import Any

from sitegen.analyse.cycles import UNIT_WORDS
from sitegen.base.plural import counted
from sitegen.graph.dependencies import DepEdge
from sitegen.records.analysis import CodeCycles, CycleReport, CyclicUnit, ReExport


def membership(result: CycleReport) -> dict[str, list[int]]:
    """For each file in a cycle (a member itself, or a file of a member package or crate),
    the indices (into ``result.code.cyclic``) of its cycles."""
    out: dict[str, list[int]] = {}
    for index, unit in enumerate(result.code.cyclic):
        for member in unit.members:
            for path in result.code.files_of(member):
                out.setdefault(path, []).append(index)
    return dict(sorted(out.items()))


# --- JSON (``sitegen cycles --json``) -------------------------------------------------------


def cycles_json(result: CycleReport) -> dict[str, Any]:
    """The JSON contract: code cycles with edges and guidance, deploy order, independent
    files, and relation cycles per predicate. Confidence is ``null`` when not finite."""
    code = result.code
    return {
        "code": {
            "cyclic": [_unit_json(u, code) for u in code.cyclic],
            "deploy_order": list(code.deploy_order),
            "independent": list(code.independent),
            "symbol_cyclic": [_unit_json(u) for u in code.symbol_cyclic],
            "internal_cycles": [
                {"unit": c.unit, "unit_kind": c.kind, "members": list(c.members)}
                for c in code.internal
            ],
            "units": {
                u: {"kind": code.kind_of(u), "files": list(code.files_of(u))}
                for u in code.unit_files
            },
            "files": code.file_count,
            "unit_count": code.unit_count,
            "edges": code.edge_count,
            "left_out": dict(code.left_out),
            "included": list(code.included),
        },
        "relations": {p: [list(m) for m in units] for p, units in sorted(result.relations.items())},
    }


def render_cycles_json(result: CycleReport) -> str:
    return json.dumps(cycles_json(result), indent=2, ensure_ascii=False) + "\n"


def _unit_json(unit: CyclicUnit, code: CodeCycles | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "members": list(unit.members),
        "self_loop": unit.self_loop,
        "edges": [_edge_json(e) for e in unit.edges],
        "break": [_break_json(unit, s, d) for s, d in unit.breaks],
        "cycle": list(unit.example),
    }
    if code is not None:  # unit level: what each member is
        out["unit_kind"] = unit.kind
        out["member_kinds"] = {m: code.kind_of(m) for m in unit.members}
    return out


def _break_json(unit: CyclicUnit, src: str, dst: str) -> dict[str, Any]:
    out: dict[str, Any] = {"src": src, "dst": dst}
    found = unit.reexport(src, dst)
    if found is not None:
        out["reexport"] = {
            "package": found.dotted,
            "names": list(found.names),
            "importers": list(found.importers),
        }
    return out


def _edge_json(edge: DepEdge) -> dict[str, Any]:
    out: dict[str, Any] = {
        "src": edge.src,
        "dst": edge.dst,
        "kind": str(edge.kind),
        "confidence": edge.confidence if math.isfinite(edge.confidence) else None,
        "line": edge.line,
        "count": edge.count,
    }
    if edge.context:
        out["context"] = edge.context
    if edge.src_file:
        out.update(src_file=edge.src_file, dst_file=edge.dst_file)
    return out


# --- shared wording -------------------------------------------------------------------------


def confidence_text(value: float) -> str:
    return f"{value:g}" if math.isfinite(value) else "unknown"


def unit_title(unit: CyclicUnit) -> str:
    if unit.self_loop:
        return f"{unit.members[0]} depends on itself"
    return f"{len(unit.members)} {UNIT_WORDS.get(unit.kind, 'units')}"


def edge_kind_words(edge: DepEdge) -> str:
    """``import``, or ``import (deferred)`` / ``reference (type-only)`` for a dependency whose
    import runs later or never."""
    return f"{edge.kind} ({edge.context})" if edge.context else str(edge.kind)


def _edge_words(edge: DepEdge) -> str:
    """``import, line 3, confidence 0.9, x2``."""
    parts = [edge_kind_words(edge)]
    if edge.line > 0:
        parts.append(f"line {edge.line}")
    parts.append(f"confidence {confidence_text(edge.confidence)}")
    if edge.count > 1:
        parts.append(f"x{edge.count}")
    return ", ".join(parts)


def reexport_words(reexport: ReExport, most: int = 5) -> str:
    """What removing a package's re-export breaks, as a clause: ``removing it breaks `from
    pkg import A, B` for 2 importers: a.py, b.py`` (the first ``most`` names and files)."""
    names = _first(list(reexport.names), most)
    statement = _code_span(f"from {reexport.dotted} import {names}")
    if not reexport.importers:
        return (
            f"it is a re-export of the package: removing it breaks {statement} for code "
            "outside the project (no file here imports these names from the package)"
        )
    files = _first(list(reexport.importers), most)
    return (
        f"it is a re-export of the package: removing it breaks {statement} for "
        f"{counted(len(reexport.importers), 'importer')}: {files}"
    )


def _first(items: list[str], most: int) -> str:
    shown = ", ".join(items[:most])
    return shown + (f" and {len(items) - most} more" if len(items) > most else "")


def break_words(unit: CyclicUnit, src: str, dst: str) -> str:
    """`` (…: removing it breaks …)`` after a pair the guidance removes, when that pair is a
    package's re-export; "" otherwise."""
    found = unit.reexport(src, dst)
    return f"; {reexport_words(found)}" if found is not None else ""


def pair_edges(unit: CyclicUnit, src: str, dst: str) -> list[DepEdge]:
    return [e for e in unit.edges if (e.src, e.dst) == (src, dst)]


# --- plain text (``sitegen cycles``) --------------------------------------------------------


def render_cycles_text(result: CycleReport) -> str:
    code = result.code
    lines = [summary_sentence(result)]
    for index, unit in enumerate(code.cyclic, 1):
        listed = "" if unit.self_loop else ": " + ", ".join(unit.members)
        lines.append(f"cycle {index}: {unit_title(unit)}{listed}")
        lines.extend(_unit_text(unit))
    if code.deploy_order:
        lines.append("deployment order (dependencies first):")
        lines.extend(f"  {i}. {path}" for i, path in enumerate(code.deploy_order, 1))
    if code.independent:
        lines.append(
            "independent files (no dependencies either way): " + ", ".join(code.independent)
        )
    for unit in code.symbol_cyclic:
        kind = "recursion" if unit.self_loop else "mutual recursion"
        lines.append(f"{kind}: {', '.join(unit.members)}")
    for c in code.internal:
        lines.append(
            f"inside {KIND_NOUN.get(c.kind, c.kind)} {c.unit} (allowed): " + ", ".join(c.members)
        )
    for predicate, units in sorted(result.relations.items()):
        for members in units:
            lines.append(f"relation cycle [{predicate}]: {', '.join(members)}")
    return "\n".join(lines) + "\n"


def _unit_text(unit: CyclicUnit) -> list[str]:
    lines = [f"  e.g. {' -> '.join(unit.example)}"]
    lines.extend(f"  {e.src} -> {e.dst} ({_edge_words(e)})" for e in unit.edges)
    lines.extend(f"  break: remove {s} -> {d}{break_words(unit, s, d)}" for s, d in unit.breaks)
    return lines


def _units_phrase(code: CodeCycles) -> str:
    """`` (3 Go packages, 1 Rust crate)`` when some units are not single files."""
    counts: dict[str, int] = {}
    for kind in code.unit_kinds.values():
        counts[kind] = counts.get(kind, 0) + 1
    parts = [counted(n, KIND_NOUN.get(kind, kind)) for kind, n in sorted(counts.items())]
    return f" ({', '.join(parts)})" if parts else ""


KIND_NOUN = {"package": "Go package", "crate": "Rust crate"}


def summary_sentence(result: CycleReport) -> str:
    code = result.code
    in_cycles = sum(len(code.files_of(m)) for u in code.cyclic for m in u.members)
    relation_cycles = sum(len(units) for units in result.relations.values())
    return (
        f"{counted(code.file_count, 'file')}{_units_phrase(code)}, "
        f"{counted(code.edge_count, 'dependency edge')}: "
        f"{counted(len(code.cyclic), 'cyclic unit')} ({counted(in_cycles, 'file')}), "
        f"{counted(len(code.deploy_order), 'acyclic unit')} "
        f"({len(code.independent)} independent); "
        f"{counted(len(code.symbol_cyclic), 'recursive symbol group')}; "
        f"{counted(relation_cycles, 'relation cycle')}."
    ) + left_out_sentence(code)


def left_out_sentence(code: CodeCycles) -> str:
    """`` Left out: 2 deferred and 1 type-only dependency (cycles_include puts them back).``
    — Python imports that run later or never, not part of the cycles; "" when none."""
    if not code.left_out:
        return ""
    counts = [f"{n} {context}" for context, n in sorted(code.left_out.items())]
    total = sum(code.left_out.values())
    noun = "dependency" if total == 1 else "dependencies"
    pronoun = "it" if total == 1 else "them"
    return (
        f" Left out: {' and '.join(counts)} {noun} (the cycles_include option puts {pronoun} back)."
    )


# --- markdown (``/cycles.md``) --------------------------------------------------------------


def _code_span(text: str) -> str:
    fence = "``" if "`" in text else "`"
    pad = " " if "`" in text else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def render_cycles_md(result: CycleReport) -> str:
    code = result.code
    out = ["# Cycles", "", summary_sentence(result), ""]
    out += ["## Code cycles", ""]
    if not code.cyclic:
        out += ["No file depends on itself, directly or through other files.", ""]
    for index, unit in enumerate(code.cyclic):
        out += _unit_md(index, unit)
    out += [
        "## Deployment order",
        "",
        (
            "Acyclic files, each after the files it depends on: "
            "the preferred candidates for deploying on their own."
        ),
        "",
    ]
    out += [f"{i}. {_code_span(p)}" for i, p in enumerate(code.deploy_order, 1)] or ["None."]
    out += [
        "",
        "## Independent files",
        "",
        ", ".join(_code_span(p) for p in code.independent) or "None.",
        "",
    ]
    out += _recursion_md(code.symbol_cyclic)
    out += _internal_md(code)
    out += _relations_md(result.relations)
    return "\n".join(out).rstrip("\n") + "\n"


def _unit_md(index: int, unit: CyclicUnit) -> list[str]:
    out = [
        f"### Cycle {index + 1}: {unit_title(unit)}",
        "",
        "Members: " + ", ".join(_code_span(m) for m in unit.members) + ".",
        "",
        "Example: " + " → ".join(_code_span(m) for m in unit.example) + ".",
        "",
        "| From | To | Kind | Line | Confidence | Count | Break |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    breaks = set(unit.breaks)
    for e in unit.edges:
        cells = [
            _code_span(e.src),
            _code_span(e.dst),
            edge_kind_words(e),
            str(e.line or ""),
            confidence_text(e.confidence),
            str(e.count),
            "yes" if (e.src, e.dst) in breaks else "",
        ]
        out.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    out += ["", "Refactor guidance: removing these dependencies makes the files acyclic:", ""]
    for src, dst in unit.breaks:
        words = "; ".join(_edge_words(e) for e in pair_edges(unit, src, dst))
        out.append(
            f"- {_code_span(src)} → {_code_span(dst)} ({words}){break_words(unit, src, dst)}"
        )
    return out + [""]


def _recursion_md(units: tuple[CyclicUnit, ...]) -> list[str]:
    out = ["## Recursion", ""]
    if not units:
        return out + ["No symbol refers to itself, directly or through others.", ""]
    for unit in units:
        kind = "Recursion" if unit.self_loop else "Mutual recursion"
        out.append(f"- {kind}: " + ", ".join(_code_span(m) for m in unit.members))
    return out + [""]


def _internal_md(code: CodeCycles) -> list[str]:
    """Loops among the files of one Go package or Rust crate: allowed, so information only."""
    if not code.internal:
        return []
    out = [
        "## Inside packages and crates",
        "",
        (
            "Files of one Go package or Rust crate compile together, so these loops are "
            "allowed; they are listed for information and never fail `sitegen check`."
        ),
        "",
    ]
    for c in code.internal:
        out.append(
            f"- {KIND_NOUN.get(c.kind, c.kind)} {_code_span(c.unit)}: "
            + ", ".join(_code_span(m) for m in c.members)
        )
    return out + [""]


def _relations_md(relations: dict[str, list[list[str]]]) -> list[str]:
    out = ["## Relation cycles", ""]
    if not relations:
        return out + ["No typed relations."]
    for predicate, units in sorted(relations.items()):
        if not units:
            out.append(f"- `{predicate}`: no cycles.")
        for members in units:
            out.append(f"- `{predicate}`: " + ", ".join(_code_span(m) for m in members))
    return out
