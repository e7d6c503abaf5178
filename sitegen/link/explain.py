"""Why a link resolved as it did (``sitegen explain PAGE:LINE[:COL]``): the link at a place,
its trace from the link step, as text or as JSON (content/guides/linking.md).

Never resolves anything itself: every step comes from the rules the build applies
(``trace_link`` in sitegen/link/step.py), so the two cannot drift apart.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sitegen.base.diagnostics import quoted
from sitegen.link.step import TracedLink
from sitegen.records.pages import Link, PageRecord

#: A line or column of more digits names no place of any file sitegen reads; the number is
#: refused before int() is asked (which refuses over 4,300 digits: an internal error).
MAX_DIGITS = 9
#: How much of what the user typed a message repeats: a 5,000-digit number is not echoed whole.
SHOWN_CHARS = 80


@dataclass(frozen=True)
class Place:
    """``PAGE:LINE[:COL]`` as written: 1-based line, column in bytes (0: not given)."""

    page: str
    line: int
    column: int = 0

    @classmethod
    def parse(cls, text: str) -> Place | str:
        """The place ``text`` names, or why it names none (a sentence for the user).

        The page is the shortest prefix that leaves ``:LINE`` or ``:LINE:COL`` (a page path
        may hold colons), found with two ``rpartition`` calls, in time linear in ``text``."""
        text = text.strip()
        page, _, last = text.rpartition(":")
        before, _, line = page.rpartition(":")
        numbers = [last]
        if before and _is_number(line):  # PAGE:LINE:COL
            page, numbers = before, [line, last]
        bad = f"'{shown(text)}' is not PAGE:LINE[:COL] (for example content/index.md:12:5)"
        if not page or not all(_is_number(n) for n in numbers):
            return bad
        if any(len(n.lstrip("0")) > MAX_DIGITS for n in numbers):
            return f"{bad}: a line or column has at most {MAX_DIGITS} digits"
        values = [int(n.lstrip("0") or "0") for n in numbers]
        if min(values) < 1:
            return bad
        return cls(page, values[0], values[1] if len(values) == 2 else 0)

    def __str__(self) -> str:
        return f"{self.page}:{self.line}" + (f":{self.column}" if self.column else "")


def _is_number(text: str) -> bool:
    return text.isascii() and text.isdigit()


def shown(text: str) -> str:
    """``text`` as a message repeats it: a number cut to 20 digits and the
    whole to ``SHOWN_CHARS`` characters, each cut marked with '…'."""
    return quoted(text, SHOWN_CHARS)


def link_at(rec: PageRecord, line: int, column: int = 0) -> Link | None:
    """The link written at ``line``: without a column its first one, with a column the last
    one that starts at or before it (a link is named by any column inside it); None when no
    link starts on that line (or none before the column)."""
    on_line = sorted((x for x in rec.links if x.line == line), key=lambda x: x.column)
    if column:
        on_line = [x for x in on_line if x.column <= column]
        return on_line[-1] if on_line else None
    return on_line[0] if on_line else None


def link_lines(rec: PageRecord) -> list[int]:
    """The lines of the page where a link starts, for a message that found none."""
    return sorted({x.line for x in rec.links})


def explanation(path: str, link: Link, traced: TracedLink) -> dict[str, Any]:
    """The trace as plain data: what ``--json`` prints and what the text is made from."""
    res = traced.resolved
    return {
        "page": path,
        "line": link.line,
        "column": link.column,
        "link": {"href": link.href, "label": link.label, "kind": str(link.kind)},
        "steps": [
            {
                "rule": str(step.rule),
                "says": step.says,
                "found": step.found,
                "rejected": [{"candidate": r.candidate, "why": r.why} for r in step.rejected],
            }
            for step in traced.steps
        ],
        "result": {
            "outcome": str(res.outcome),
            "node": res.node or "",
            "fragment": res.fragment,
            "via": res.via,
            "url": res.url,
            "edge": traced.edge,
        },
        "diagnostics": [
            {"level": str(d.level), "code": d.code, "message": d.message}
            for d in traced.diagnostics
        ],
    }


def explanation_json(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def explanation_text(data: dict[str, Any]) -> str:
    """The trace for a reader: the link, each rule in order with what it found and the
    candidates it rejected, the result, and what the build reports about the link."""
    link = data["link"]
    label = f": {link['label']}" if link["label"] else ""
    lines = [
        f"{data['page']}:{data['line']}:{data['column']}: link '{link['href']}' "
        f"({link['kind']}{label})"
    ]
    for n, step in enumerate(data["steps"], 1):
        found = f" -> {step['found']}" if step["found"] else ""
        lines.append(f"  {n}. {step['rule']}: {step['says']}{found}")
        lines.extend(f"       rejected {r['candidate']}: {r['why']}" for r in step["rejected"])
    lines.append(f"  result: {_result_words(data['result'])}")
    lines.extend(f"  {d['level']}: {d['message']}" for d in data["diagnostics"])
    return "\n".join(lines) + "\n"


def _result_words(result: dict[str, Any]) -> str:
    words = str(result["outcome"])
    target = result["url"] or result["node"]
    if target:
        words += f" {target}"
    if result["fragment"] and not result["url"]:
        words += f" #{result['fragment']}"
    if result["via"]:
        words += f" (through the redirect at {result['via']})"
    return words + ("" if result["edge"] else "; no edge")
