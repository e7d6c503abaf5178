"""The habits CONTRIBUTING.md promises are pinned where they act: the checks CI runs before
the tests, the same checks on each commit, mypy strict, the dev extra, the README's commands,
the layer table of ARCHITECTURE.md#layers, and the slow marker that makes the fast loop."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHECKS = (
    "ruff check sitegen tests bench",
    "ruff format --check sitegen tests bench",
    "mypy",
    "lint-imports",
)


def _pyproject() -> dict[str, object]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _readme_command(marker: str) -> str:
    blocks = re.findall(r"```sh\n(.*?)\n```", (ROOT / "README.md").read_text(encoding="utf-8"))
    (command,) = [b for b in blocks if marker in b]
    return command


def test_ci_runs_every_check_before_the_readmes_test_command() -> None:
    lines = [
        line.strip()
        for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    test_command = _readme_command("pytest")
    assert lines[-1] == test_command  # verbatim, and last
    at = [lines.index(check) for check in CHECKS]
    assert at == sorted(at), "the checks run in this order"
    assert lines.index("pip install -q -e '.[dev]'") < at[0]


def test_each_commit_runs_the_same_checks() -> None:
    config = (ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    entries = re.findall(r"entry: (\S+(?: \S+)?)", config)
    assert [e.split(" --")[0] for e in entries] == [
        "ruff check",
        "ruff format",
        "mypy",
        "lint-imports",
    ]
    assert "language: system" in config and "repo: local" in config


def test_mypy_is_strict_and_the_dev_extra_holds_every_tool() -> None:
    tool = _pyproject()["tool"]
    assert isinstance(tool, dict)
    assert tool["mypy"]["strict"] is True
    assert tool["mypy"]["files"] == ["sitegen"]
    assert tool["ruff"]["lint"]["select"], "a rule set is chosen, not ruff's default of the day"
    project = _pyproject()["project"]
    assert isinstance(project, dict)
    dev = " ".join(project["optional-dependencies"]["dev"])
    for tool_name in ("sitegen[test]", "ruff", "mypy", "import-linter", "pre-commit"):
        assert tool_name in dev


def test_the_layer_table_of_architecture_md_is_the_contract() -> None:
    contract = _pyproject()["tool"]["importlinter"]["contracts"][0]["layers"]  # type: ignore[index]
    declared = {m.strip() for layer in contract for m in re.split(r"[|:]", layer)}
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    table = text.split("## Layers", 1)[1].split("\n## ", 1)[0]
    # the table's second column (a module of a package split into layers has two dots)
    modules = [re.split(r"(?<!\\)\|", row)[2] for row in table.splitlines() if row.count("|") > 3]
    documented = {m for col in modules for m in re.findall(r"`(sitegen(?:\.\w+)*)`", col)}
    assert documented == declared


@pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff comes with the dev extra")
def test_the_tree_is_formatted_and_lint_free() -> None:
    for args in (["check", "-q"], ["format", "--check", "-q"]):
        proc = subprocess.run(
            ["ruff", *args, "sitegen", "tests", "bench"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        assert proc.returncode == 0, proc.stdout + proc.stderr


def _collect(*marker: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", *marker, "tests/e2e"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_fast_loop_leaves_out_every_end_to_end_test() -> None:
    everything = _collect()
    assert everything.returncode == 0 and "tests/e2e/" in everything.stdout
    fast = _collect("-m", "not slow")
    assert fast.returncode == 5, fast.stdout  # pytest's "no tests collected"
    assert "tests/e2e/" not in fast.stdout
