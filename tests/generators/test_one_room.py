"""One room per ecosystem (issue 29, point 1; ARCHITECTURE.md#generators): what a generator
is and what its configuration says is known inside sitegen/generators/ only. Code outside the
package asks the record's fields, never compares a generator's name (which is for display),
and never reads a generator's configuration again.

The names are those the family modules give their records and their output folders, found in
their source, so a new family is covered as soon as it is written."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import sitegen

PACKAGE = Path(sitegen.__file__).resolve().parent
GENERATORS = PACKAGE / "generators"
#: The family modules' readers of a configuration: called outside the package, they would
#: be a second reading of a file the record already holds.
READERS = frozenset({"read_mkdocs_yml", "mkdocs_docs_dir", "read_configs", "jekyll_config"})


def _calls_of(tree: ast.AST, names: set[str]) -> Iterator[ast.Call]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if called in names:
                yield node


def generator_names() -> set[str]:
    """The names the family modules give: ``Generator("MkDocs", …)`` and the tool of each
    ``OutputFolder(…, "MkDocs", …)``."""
    names: set[str] = set()
    for path in sorted(GENERATORS.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for call in _calls_of(tree, {"Generator"}):
            first = call.args[0] if call.args else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                names.add(first.value)
        for call in _calls_of(tree, {"OutputFolder"}):
            tool = call.args[1] if len(call.args) > 1 else None
            if isinstance(tool, ast.Constant) and isinstance(tool.value, str):
                names.add(tool.value)
    return names


def _outside() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if GENERATORS not in p.parents)


def _strings(node: ast.AST) -> set[str]:
    """The string constants of a comparison's operand (one, or a tuple/list/set of them)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return {s for item in node.elts for s in _strings(item)}
    return set()


def name_comparisons(tree: ast.AST, names: set[str]) -> list[int]:
    """The lines comparing something with a generator's name (``found.name == "MkDocs"``,
    ``"Jekyll" != tool``, ``gen.name in ("MkDocs", "VitePress")``)."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(_strings(op) & names for op in operands):
                lines.append(node.lineno)
    return lines


def test_the_families_name_themselves() -> None:
    assert {"MkDocs", "VitePress", "Jekyll"} <= generator_names()


def test_no_module_outside_the_generators_compares_a_generators_name() -> None:
    names = generator_names()
    found = []
    for path in _outside():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"{path.relative_to(PACKAGE)}:{line}" for line in name_comparisons(tree, names)]
    assert found == [], "ask a field of the Generator record instead (ARCHITECTURE.md#generators)"


def test_no_module_outside_the_generators_reads_a_configuration_again() -> None:
    found = []
    for path in _outside():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "sitegen.generators"
            ):
                found += [
                    f"{path.relative_to(PACKAGE)}: {a.name}"
                    for a in node.names
                    if a.name in READERS
                ]
    assert found == [], "the family module reads it once, into the record"


def test_the_checks_see_a_comparison() -> None:
    """The scan finds the shapes it is about (it cannot pass by finding nothing at all)."""
    code = (
        'if found.name == "MkDocs":\n    pass\n'
        'ok = "Jekyll" != gen.name\n'
        'many = gen.name in ("VitePress", "X")\n'
        'fine = path.name == "index.html"\n'
    )
    assert name_comparisons(ast.parse(code), {"MkDocs", "Jekyll", "VitePress"}) == [1, 3, 4]
