"""ARCHITECTURE.md and CONTRIBUTING.md are true to the code (issue 31, point 7): every module
path and dotted module they name exists, every name they give beside a module in "Where each
rule lives" is defined in that module, and each "the one place" sentence holds (the thing it
names happens in that module and nowhere else in the package)."""

from __future__ import annotations

import ast
import functools
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = ("ARCHITECTURE.md", "CONTRIBUTING.md")
_PATH = re.compile(r"`(sitegen/[\w/]+\.(?:py|scm))`")
_FOLDER = re.compile(r"`(sitegen/[\w/]+/)`")
_DOTTED = re.compile(r"`(sitegen(?:\.\w+)+)`")
_CODE_SPAN = re.compile(r"`([^`]+)`")
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?")


def _text(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_module_path_named_exists(document: str) -> None:
    missing = sorted({p for p in _PATH.findall(_text(document)) if not (ROOT / p).exists()})
    assert missing == [], f"{document} names modules that do not exist"


def _importable(dotted: str) -> bool:
    try:
        importlib.import_module(dotted)
        return True
    except ImportError:
        parent, _, attribute = dotted.rpartition(".")
        try:
            return hasattr(importlib.import_module(parent), attribute)
        except ImportError:
            return False


@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_dotted_module_named_imports(document: str) -> None:
    missing = sorted({d for d in _DOTTED.findall(_text(document)) if not _importable(d)})
    assert missing == [], f"{document} names modules that do not import"


@functools.cache
def _defined(path: str) -> frozenset[str]:
    """The names a module defines at its top (functions, classes, assignments) and the
    methods and class attributes of its classes, as ``Class.name`` and ``name``."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        if isinstance(node, ast.ClassDef):
            for inner in node.body:
                if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    names |= {inner.name, f"{node.name}.{inner.name}"}
                elif isinstance(inner, ast.AnnAssign) and isinstance(inner.target, ast.Name):
                    names |= {inner.target.id, f"{node.name}.{inner.target.id}"}
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign):
            targets = [node.target]
        names |= {t.id for t in targets if isinstance(t, ast.Name)}
    return frozenset(names)


def _rule_rows() -> list[tuple[str, list[str], list[str]]]:
    """Each row of "Where each rule lives": the rule, the module paths, the names in it."""
    table = _text("ARCHITECTURE.md").split("## Where each rule lives", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in table.splitlines():
        cells = line.split(" | ")
        if len(cells) < 3 or not line.startswith("| "):
            continue
        rule, modules = cells[0], cells[1]
        paths = _PATH.findall(modules) + [
            str(p.relative_to(ROOT))
            for folder in _FOLDER.findall(modules)
            for p in sorted((ROOT / folder).glob("*.py"))
        ]
        names = [
            span
            for span in _CODE_SPAN.findall(rule + " " + modules)
            if _IDENTIFIER.fullmatch(span) and not span.startswith("sitegen")
        ]
        rows.append((rule, paths, names))
    return rows


def test_every_name_in_the_rule_table_is_defined_where_it_says() -> None:
    """``Trace`` in `sitegen/link/rules.py`: a name given in a row is defined in one of that
    row's modules (file names and options written as code are not names)."""
    wrong = []
    for rule, paths, names in _rule_rows():
        python = [p for p in paths if p.endswith(".py")]
        if not python:
            continue
        for name in names:
            if "." in name and not name[0].isupper():  # a file name such as ``wiki.py``
                continue
            if name.islower() and "_" not in name and name not in _all_defined(python):
                continue  # a word of the rule (``nav``, ``layout``) rather than a name
            if not any(name in _defined(p) for p in python):
                wrong.append(f"{name} ({rule[2:40]}…): not in {', '.join(python)}")
    assert wrong == []


def _all_defined(paths: list[str]) -> frozenset[str]:
    return frozenset().union(*(_defined(p) for p in paths))


def _sources() -> dict[str, str]:
    return {
        str(p.relative_to(ROOT)): p.read_text(encoding="utf-8")
        for p in sorted((ROOT / "sitegen").rglob("*.py"))
    }


#: "The one place" sentences: what the sentence names, the pattern that does it, and the one
#: module (or modules) allowed to. A second module doing it makes the sentence false.
ONE_PLACE = [
    (
        "gitrun: the one module that starts a program",
        r"^\s*(import subprocess|from subprocess )",
        {"sitegen/base/gitrun.py"},
    ),
    (
        "yamldata: the one bounded YAML reader",
        r"\byaml\.(safe_load|load|compose|parse|scan)\(",
        {"sitegen/base/yamldata.py"},
    ),
    (
        "grammars: the one place tree-sitter grammars are loaded",
        r"^\s*import tree_sitter_\w+|[\"']tree_sitter_[a-z]+[\"']",
        {"sitegen/base/grammars.py"},
    ),
    (
        "paths: path kinds and their conversions in one module",
        r"^(class RepoPath|class NodeId|"
        r"class OutPath|RepoPath = |NodeId = |OutPath = )",
        {"sitegen/base/paths.py"},
    ),
    (
        "fsutil: atomic writes, a temporary file renamed over its target",
        r"token_hex\(\d\)\}\.tmp|mkstemp\(|NamedTemporaryFile\(",
        {"sitegen/base/fsutil.py"},
    ),
    (
        "site/writer.py: the site folder swapped in whole",
        r"os\.replace\(self\.tmp",
        {"sitegen/site/writer.py"},
    ),
]


@pytest.mark.parametrize(("claim", "pattern", "allowed"), ONE_PLACE, ids=[c[0] for c in ONE_PLACE])
def test_each_one_place_sentence_holds(claim: str, pattern: str, allowed: set[str]) -> None:
    regex = re.compile(pattern, re.MULTILINE)
    doing = {path for path, text in _sources().items() if regex.search(text)}
    assert doing, f"{claim}: nothing does it any more; the sentence is stale"
    assert doing <= allowed, f"{claim}: also done in {sorted(doing - allowed)}"
