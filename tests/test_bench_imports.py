"""The benchmark scripts (bench/README.md) import sitegen's internals by name, and nothing
else runs them: every ``from sitegen... import name`` in bench/ must still name something, or
a rename breaks a benchmark silently (bench/code_vs_oracles.py called a function that had
been renamed)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _sitegen_imports() -> list[tuple[str, str, str]]:
    found = []
    for script in sorted(BENCH.glob("*.py")):
        for node in ast.walk(ast.parse(script.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sitegen"):
                found += [(script.name, node.module or "", alias.name) for alias in node.names]
    return found


def test_the_benchmarks_import_sitegen() -> None:
    assert len(_sitegen_imports()) > 20  # the scan finds the imports inside functions too


@pytest.mark.parametrize(("script", "module", "name"), _sitegen_imports())
def test_every_name_a_benchmark_imports_exists(script: str, module: str, name: str) -> None:
    # ``from sitegen.site import search_shards`` names a submodule: an attribute of the
    # package only once something imported it, so look for the module itself too.
    found = hasattr(importlib.import_module(module), name) or _is_module(f"{module}.{name}")
    assert found, f"bench/{script}: {module}.{name}"


def _is_module(name: str) -> bool:
    try:
        importlib.import_module(name)
    except ModuleNotFoundError:
        return False
    return True
