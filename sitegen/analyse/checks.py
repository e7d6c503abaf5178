"""The checks of ``sitegen check``, each declared once as a ``Check``, in one ordered tuple.

A check's name, its default severity, where its findings come from and its sentence in the
docs' table (content/guides/configuration.md#checks, content/guides/ci.md) are one object:
the defaults, the names the ``checks`` option accepts and the summary's "checked …" list
are derived from ``CHECKS`` plus the checks of the loaded plugins, which go through the same
shape (content/guides/plugins.md). Never evaluates severities (sitegen/analyse/check.py
does) and never writes anything.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sitegen.analyse.check import (
    ANCHOR_MOVED,
    BROKEN_ANCHORS,
    BROKEN_LINKS,
    CODE_CYCLES,
    MISSING_LINKS,
    MISSING_REL_TARGETS,
    RELATION_CYCLES,
    STALE_DOC,
    Finding,
    Locator,
    anchor_moved_findings,
    code_cycle_findings,
    link_findings,
    missing_link_findings,
    relation_cycle_findings,
)
from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.base.paths import NodeId, page_node_of
from sitegen.config import SEVERITIES, ConfigError
from sitegen.records.linked import BROKEN_ANCHOR, BROKEN_LINK, LOOPBACK_LINK, MISSING_REL_TARGET

if TYPE_CHECKING:
    from sitegen.records.result import BuildResult

#: The diagnostic code of a plugin's check that raised (content/guides/plugins.md).
PLUGIN_FAILED = "plugin-failed"


@dataclass(frozen=True)
class Check:
    """One check of ``sitegen check`` (content/guides/ci.md#what-sitegen-check-does).

    ``findings`` reads the finished build and returns the check's findings (each with
    ``check == name``); ``doc`` is the sentence of its row in the docs' table of checks.
    ``options`` are the configuration options it reads itself (beyond the build's); a
    plugin's check carries its distribution's ``version`` and its ``plugin``'s name, which
    the diagnostic names when it raises.
    """

    name: str
    default_severity: str
    findings: Callable[[BuildResult], Iterable[Finding]]
    doc: str
    options: tuple[str, ...] = ()
    version: str = ""
    #: The plugin that adds it ("" for sitegen's own), set by the plugin loader.
    plugin: str = ""

    def __post_init__(self) -> None:
        if self.default_severity not in SEVERITIES:
            raise ValueError(
                f"check '{self.name}': default severity must be one of "
                f"{', '.join(SEVERITIES)}, not {self.default_severity!r}"
            )


# --- the built-in checks' findings, from the finished build ---------------------------------


def _links_of(kind: str) -> Callable[[BuildResult], list[Finding]]:
    """The findings of one kind of broken link (sitegen/link/broken.py)."""

    def findings(result: BuildResult) -> list[Finding]:
        linked = result.linked
        return link_findings(b for b in linked.broken + linked.loopback if b.check == kind)

    return findings


def _code_cycles(result: BuildResult) -> list[Finding]:
    assert result.cycles is not None, "the analysis runs before the checks"
    return code_cycle_findings(result.cycles.code)


def _relation_cycles(result: BuildResult) -> list[Finding]:
    assert result.cycles is not None, "the analysis runs before the checks"
    return relation_cycle_findings(result.cycles.relations, _rel_sources(result))


def _rel_sources(result: BuildResult) -> Locator:
    """Where a page's relations are declared: its file, at the first rel- key's line."""
    content = result.config.content_rel
    where = {
        page_node_of(content, p.path): (p.path, min((r.line for r in p.relations), default=1), 1)
        for p in result.pages
    }
    return lambda node: where.get(NodeId(node), (node, 1, 1))


def _missing_links(result: BuildResult) -> list[Finding]:
    from sitegen.analyse.insight import node_paths  # numpy and scipy: only when needed

    if result.insight is None:
        return []
    path_of = node_paths(result)
    return missing_link_findings(
        (path_of.get(m.a, m.a), m.a, m.b, m.reason) for m in result.insight.relatedness.missing
    )


def _stale_docs(result: BuildResult) -> list[Finding]:
    from sitegen.analyse.stale import stale_findings  # it imports this package's Finding

    return stale_findings(result.stale) if result.stale is not None else []


def _anchors_moved(result: BuildResult) -> list[Finding]:
    return anchor_moved_findings(result.diagnostics)


#: Every check of sitegen, in the order the summary names them and the docs list them.
CHECKS: tuple[Check, ...] = (
    Check(
        BROKEN_LINKS,
        "error",
        _links_of(BROKEN_LINK),
        "links to pages or files that do not exist",
    ),
    Check(
        BROKEN_ANCHORS,
        "error",
        _links_of(BROKEN_ANCHOR),
        "`#fragment`s that match no heading id or line of the target",
    ),
    Check(
        MISSING_REL_TARGETS,
        "error",
        _links_of(MISSING_REL_TARGET),
        "`rel-` refs that resolve to nothing",
    ),
    Check(
        CODE_CYCLES,
        "error",
        _code_cycles,
        "dependency cycles in the code graph",
        options=("cycles_include",),
    ),
    Check(
        RELATION_CYCLES,
        "error",
        _relation_cycles,
        "loops of one typed relation, such as a `supersedes` loop",
        options=("content",),
    ),
    # Off by default: a suggestion to link, not an error (content/guides/related-pages.md).
    Check(
        MISSING_LINKS,
        "ignore",
        _missing_links,
        "strongly related pages that link neither way "
        "([missing links](related-pages.md#missing-links))",
    ),
    # Off by default: a link to a loopback or private host is kept as the author wrote it
    # (content/guides/linking.md#links-to-your-own-machine).
    Check(
        LOOPBACK_LINK,
        "ignore",
        _links_of(LOOPBACK_LINK),
        "links to your own machine or network, kept in the page but no edge "
        "([links to your own machine](linking.md#links-to-your-own-machine))",
    ),
    # Pages whose documented code changed after them: a reminder (content/guides/stale-pages.md).
    Check(
        STALE_DOC,
        "info",
        _stale_docs,
        "pages whose documented code changed after them ([stale pages](stale-pages.md))",
    ),
    # A heading's old anchor kept working by an alias or a notice (content/syntax/anchors.md):
    # said, never failing, unless a project wants its links kept up to date.
    Check(
        ANCHOR_MOVED,
        "info",
        _anchors_moved,
        "old heading anchors kept working by an alias or a removal notice, and links written "
        "to them ([anchors that last](../syntax/anchors.md#anchors-that-last))",
    ),
)

#: The checks of ``sitegen check`` and their default severity, in ``CHECKS``' order.
DEFAULT_CHECKS: dict[str, str] = {c.name: c.default_severity for c in CHECKS}


def all_checks(extra: Sequence[Check] = ()) -> tuple[Check, ...]:
    """sitegen's checks, then the plugins' ``extra`` ones (a name taken twice is the first's)."""
    seen: set[str] = set()
    out = []
    for c in (*CHECKS, *extra):
        if c.name not in seen:
            seen.add(c.name)
            out.append(c)
    return tuple(out)


def validate_checks(
    given: Mapping[str, str], extra: Sequence[Check] = (), origin: str = ""
) -> None:
    """Every check the ``checks`` option names exists among sitegen's and the loaded plugins'
    checks, with a severity it knows; else a ``ConfigError`` (exit code 2) prefixed with the
    file that set it. Called once the plugins are loaded (content/guides/configuration.md#checks).
    """
    names = [c.name for c in all_checks(extra)]
    where = f"{origin}: " if origin else ""
    for check, severity in given.items():
        if check not in names:
            raise ConfigError(f"{where}unknown check '{check}'; valid: {', '.join(names)}")
        if severity not in SEVERITIES:
            raise ConfigError(
                f"{where}check '{check}': severity must be one of {', '.join(SEVERITIES)}"
            )


def severities_of(given: Mapping[str, str], extra: Sequence[Check] = ()) -> dict[str, str]:
    """The severity of every check, in the checks' order: the ``checks`` option's over the
    defaults. What ``evaluate`` takes; its keys are the checks that ran."""
    return {c.name: given.get(c.name, c.default_severity) for c in all_checks(extra)}


def run_checks(
    result: BuildResult, extra: Sequence[Check] = ()
) -> tuple[list[Finding], list[Diagnostic]]:
    """Every check's findings on the finished build, sorted, and one diagnostic per plugin
    check that raised (it is skipped; sitegen's own checks never are: a raise is a bug)."""
    findings: list[Finding] = []
    failed: list[Diagnostic] = []
    for check in all_checks(extra):
        if not check.plugin:
            findings += check.findings(result)
            continue
        try:
            findings += check.findings(result)
        except Exception as exc:  # noqa: BLE001 - a plugin's bug is one line, not a crash
            failed.append(plugin_failed(result, check, exc))
    return sorted(findings), failed


def plugin_failed(result: BuildResult, check: Check, exc: BaseException) -> Diagnostic:
    """The one line a plugin's check that raised is: at the file that names the plugins."""
    where = result.config.set_by.get("plugins", "") or "."
    return Diagnostic(
        where,
        1,
        1,
        Level.WARNING,
        f"plugin '{check.plugin}': check '{check.name}' failed and was skipped "
        f"({type(exc).__name__}: {exc})",
        PLUGIN_FAILED,
    )
