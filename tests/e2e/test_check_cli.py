"""End to end through the CLI: ``sitegen check`` exit codes, lines, severities, baseline, JSON
and GitHub Actions annotations (content/guides/ci.md).

Fixtures ``fixtures/cycles_project`` (five kinds of problem) and ``fixtures/clean_project``
(none) were written for these tests; the expected lines are worked out by hand from them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
SOURCE = 'source = ["pkg", "web"]\n'
FINDING = re.compile(r"^\S+:\d+:\d+: (error|warning): ")

RELATION_CYCLE = (
    "content/adr/0001-one.md:3:1: {level}: 'supersedes' relations form a cycle: "
    "/adr/0001-one.md, /adr/0002-two.md. [relation-cycles]"
)
MISSING_REL = (
    "content/adr/0002-two.md:4:1: {level}: relation 'rel-depends-on' target 'gone.md' "
    "does not exist (looked for 'content/adr/gone.md'). [missing-rel-targets]"
)
BROKEN_LINK = (
    "content/index.md:3:43: {level}: link target 'nowhere.md' does not exist "
    "(looked for 'content/nowhere.md'). [broken-links]"
)
BROKEN_ANCHOR = (
    "content/index.md:5:5: {level}: link 'adr/0002-two.md#no-such-heading': "
    "no heading or line '#no-such-heading' in the target [broken-anchors]"
)
CODE_CYCLES = [
    # the fewest pairs first (content/reference/cycles.md): a -> b breaks both loops of a, b, c
    (
        "pkg/a.py:2:1: {level}: Dependency cycle of 3 files: pkg/a.py, pkg/b.py, pkg/c.py "
        "(e.g. pkg/a.py -> pkg/b.py -> pkg/a.py); removing pkg/a.py -> pkg/b.py "
        "makes them acyclic. [code-cycles]"
    ),
    (
        "pkg/r1.py:6:1: {level}: Dependency cycle of 2 files: pkg/r1.py, web/r2.js "
        "(e.g. pkg/r1.py -> web/r2.js -> pkg/r1.py); removing pkg/r1.py -> web/r2.js "
        "makes them acyclic. [code-cycles]"
    ),
    "pkg/selfish.py:2:1: {level}: pkg/selfish.py imports itself. [code-cycles]",
    (
        "web/ui.js:2:1: {level}: Dependency cycle of 2 files: pkg/bridge.py, web/ui.js "
        "(e.g. pkg/bridge.py -> web/ui.js -> pkg/bridge.py); removing web/ui.js -> pkg/bridge.py "
        "makes them acyclic. [code-cycles]"
    ),
]


def _lines(*templates: str, level: str = "error") -> list[str]:
    return [t.format(level=level) for t in templates]


ALL_ERRORS = _lines(RELATION_CYCLE, MISSING_REL, BROKEN_LINK, BROKEN_ANCHOR, *CODE_CYCLES)


def _check(root: Path, *args: str, github: bool = False) -> subprocess.CompletedProcess[str]:
    """``sitegen check`` in a subprocess, with GITHUB_ACTIONS set only when asked (the suite
    may itself run on GitHub Actions)."""
    env = {k: v for k, v in os.environ.items() if k != "GITHUB_ACTIONS"}
    if github:
        env["GITHUB_ACTIONS"] = "true"
    command = [
        sys.executable,
        "-m",
        "sitegen.commands.cli",
        "check",
        "--root",
        str(root),
        "--jobs",
        "1",
        *args,
    ]
    return subprocess.run(
        command, check=False, capture_output=True, text=True, timeout=300, env=env
    )


def _findings(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if FINDING.match(line)]


def _copy(tmp: Path, name: str) -> Path:
    root = tmp / name
    shutil.copytree(FIXTURES / name, root)
    return root


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Shared and never modified: tests that change files take their own copy."""
    return _copy(tmp_path_factory.mktemp("check"), "cycles_project")


@pytest.fixture(scope="module")
def configs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Alternative configuration files, outside the project so they are not crawled."""
    return tmp_path_factory.mktemp("configs")


def _config(folder: Path, name: str, checks: str) -> str:
    path = folder / name
    path.write_text(SOURCE + "[checks]\n" + checks, encoding="utf-8")
    return str(path)


def test_check_fails_with_every_finding_located(project: Path) -> None:
    proc = _check(project)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert _findings(proc.stdout) == ALL_ERRORS
    assert not any(line.startswith("::") for line in proc.stdout.splitlines())
    assert not (project / "site").exists()


def test_code_cycles_as_warnings_do_not_fail(project: Path, configs: Path) -> None:
    warn = _config(configs, "warn.toml", 'code-cycles = "warn"\n')
    proc = _check(project, "--config", warn)
    assert proc.returncode == 1  # the other checks still fail
    assert _findings(proc.stdout) == (
        _lines(RELATION_CYCLE, MISSING_REL, BROKEN_LINK, BROKEN_ANCHOR)
        + _lines(*CODE_CYCLES, level="warning")
    )
    only_warn = _config(
        configs,
        "only-warn.toml",
        'code-cycles = "warn"\n'
        'broken-links = "ignore"\nbroken-anchors = "ignore"\n'
        'missing-rel-targets = "ignore"\nrelation-cycles = "ignore"\n',
    )
    proc = _check(project, "--config", only_warn)
    assert proc.returncode == 0, proc.stdout
    assert _findings(proc.stdout) == _lines(*CODE_CYCLES, level="warning")


def test_ignored_check_is_not_printed(project: Path, configs: Path) -> None:
    ignore = _config(configs, "ignore.toml", 'code-cycles = "ignore"\n')
    proc = _check(project, "--config", ignore)
    assert proc.returncode == 1
    assert _findings(proc.stdout) == _lines(RELATION_CYCLE, MISSING_REL, BROKEN_LINK, BROKEN_ANCHOR)


def test_exit_0_when_everything_is_warn_or_ignore(project: Path, configs: Path) -> None:
    mixed = _config(
        configs,
        "mixed.toml",
        'broken-links = "warn"\nbroken-anchors = "warn"\n'
        'missing-rel-targets = "ignore"\ncode-cycles = "warn"\n'
        'relation-cycles = "ignore"\n',
    )
    proc = _check(project, "--config", mixed)
    assert proc.returncode == 0, proc.stdout
    assert _findings(proc.stdout) == _lines(
        BROKEN_LINK, BROKEN_ANCHOR, *CODE_CYCLES, level="warning"
    )


def test_unknown_check_name_is_a_configuration_error(project: Path, configs: Path) -> None:
    typo = _config(configs, "typo.toml", 'broken-link = "warn"\n')
    proc = _check(project, "--config", typo)
    assert proc.returncode == 2
    assert "unknown check 'broken-link'" in proc.stderr
    bad = _config(configs, "bad-severity.toml", 'code-cycles = "fatal"\n')
    assert _check(project, "--config", bad).returncode == 2


def test_format_json_lists_the_findings(project: Path) -> None:
    proc = _check(project, "--format", "json")
    assert proc.returncode == 1
    doc = json.loads(proc.stdout)
    got = [(f["check"], f["path"], f["line"], f["col"], f["level"]) for f in doc["findings"]]
    assert got == [
        ("relation-cycles", "content/adr/0001-one.md", 3, 1, "error"),
        ("missing-rel-targets", "content/adr/0002-two.md", 4, 1, "error"),
        ("broken-links", "content/index.md", 3, 43, "error"),
        ("broken-anchors", "content/index.md", 5, 5, "error"),
        ("code-cycles", "pkg/a.py", 2, 1, "error"),
        ("code-cycles", "pkg/r1.py", 6, 1, "error"),
        ("code-cycles", "pkg/selfish.py", 2, 1, "error"),
        ("code-cycles", "web/ui.js", 2, 1, "error"),
    ]
    messages = [f["message"] for f in doc["findings"]]
    # the message of each text line, without location, level and check name
    assert messages == [line.split(": error: ", 1)[1].rsplit(" [", 1)[0] for line in ALL_ERRORS]


def test_github_actions_annotations(project: Path) -> None:
    proc = _check(project, github=True)
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    assert _findings(proc.stdout) == ALL_ERRORS
    annotations = [line for line in lines if line.startswith("::error ")]
    assert len(annotations) == len(ALL_ERRORS)
    link = (
        "::error file=content/index.md,line=3,col=43,title=broken-links::link target "
        "'nowhere.md' does not exist (looked for 'content/nowhere.md')."
    )
    # each annotation follows its finding line
    assert lines[lines.index(BROKEN_LINK.format(level="error")) + 1] == link
    assert any(a.startswith("::error file=pkg/selfish.py,line=2,col=1,") for a in annotations)


def test_baseline_then_a_new_broken_link_fails_alone(tmp_path: Path) -> None:
    root = _copy(tmp_path, "cycles_project")
    proc = _check(root, "--write-baseline")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    baseline = json.loads((root / ".sitegen-baseline.json").read_text(encoding="utf-8"))
    assert len(baseline["findings"]) == len(ALL_ERRORS)
    assert not (root / "site").exists()
    proc = _check(root)
    assert proc.returncode == 0, proc.stdout
    assert _findings(proc.stdout) == []
    index = root / "content/index.md"
    index.write_text(
        index.read_text(encoding="utf-8") + "\nAnd [another](missing-too.md).\n", encoding="utf-8"
    )
    proc = _check(root)
    assert proc.returncode == 1
    assert _findings(proc.stdout) == [
        (
            "content/index.md:7:5: error: link target 'missing-too.md' does not exist "
            "(looked for 'content/missing-too.md'). [broken-links]"
        )
    ]


def test_baseline_then_a_new_cycle_fails_alone(tmp_path: Path) -> None:
    root = _copy(tmp_path, "cycles_project")
    assert _check(root, "--write-baseline").returncode == 0
    (root / "pkg/d.py").write_text("from pkg import e\n", encoding="utf-8")
    (root / "pkg/e.py").write_text("from pkg import d\n", encoding="utf-8")
    proc = _check(root)
    assert proc.returncode == 1
    # equal weights: the smaller pair d -> e is the one to remove
    assert _findings(proc.stdout) == [
        (
            "pkg/d.py:1:1: error: Dependency cycle of 2 files: pkg/d.py, pkg/e.py "
            "(e.g. pkg/d.py -> pkg/e.py -> pkg/d.py); removing pkg/d.py -> pkg/e.py makes them "
            "acyclic. [code-cycles]"
        )
    ]


def test_baseline_covers_a_shrunk_cycle_but_not_a_merged_one(tmp_path: Path) -> None:
    root = _copy(tmp_path, "cycles_project")
    assert _check(root, "--write-baseline").returncode == 0
    # b stops importing c: what is left, a <-> b, lies inside the known a/b/c cycle.
    (root / "pkg/b.py").write_text(
        '"""B."""\nfrom pkg import a\n\n\ndef g():\n    return 1\n', encoding="utf-8"
    )
    proc = _check(root)
    assert proc.returncode == 0, proc.stdout
    assert _findings(proc.stdout) == []
    # a and the self-importing module now import each other: one new, larger unit.
    (root / "pkg/a.py").write_text(
        '"""A."""\nfrom pkg import b\nimport pkg.selfish\n\n\ndef f():\n    return b.g()\n',
        encoding="utf-8",
    )
    (root / "pkg/selfish.py").write_text(
        '"""Self."""\nimport pkg.selfish\nfrom pkg import a\n', encoding="utf-8"
    )
    proc = _check(root)
    assert proc.returncode == 1
    # three pairs are needed; of the sets of three, the weakest: a -> selfish, b -> a and the
    # self-import go; a -> b (import + call, two occurrences) stays
    assert _findings(proc.stdout) == [
        (
            "pkg/a.py:3:1: error: Dependency cycle of 3 files: pkg/a.py, pkg/b.py, pkg/selfish.py "
            "(e.g. pkg/a.py -> pkg/b.py -> pkg/a.py); removing pkg/a.py -> pkg/selfish.py, "
            "pkg/b.py -> pkg/a.py, pkg/selfish.py -> pkg/selfish.py makes them acyclic. "
            "[code-cycles]"
        )
    ]


def test_clean_project_passes(tmp_path: Path) -> None:
    root = _copy(tmp_path, "clean_project")
    proc = _check(root)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert _findings(proc.stdout) == []
    assert not (root / "site").exists()
