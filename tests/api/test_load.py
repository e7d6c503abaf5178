"""load_api: the fixture project of tests/api/loadfix.py read into the model, its warnings,
the installed package it reaches, and the cache that makes a second build read nothing."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import griffe
import pytest

from sitegen.api.cache import FILE_NAME, SCHEMA
from sitegen.api.load import MAX_DOCSTRING, griffe_version, load_api
from sitegen.base.diagnostics import Diagnostic
from sitegen.config import Config
from sitegen.generators import mkdocs_generator
from sitegen.records.api import ApiKind, ApiModel, Expression, TypeRef
from sitegen.records.crawl import Crawl

from .loadfix import crawled, make_project, write

PAGE = "docs/index.md"
NEEDED = {
    "fixpkg.Widget": (PAGE, 3),
    "fixpkg.Gadget": (PAGE, 5),
    "fixpkg.core": (PAGE, 7),
    "nspkg.inner.mod": (PAGE, 9),
}


class Project:
    def __init__(self, tmp: Path) -> None:
        self.config, self.site = make_project(tmp)
        self.root = self.config.root
        self.cache = tmp / ".sitegen"

    def load(
        self, needed: dict[str, tuple[str, int]] | None = None, found: Crawl | None = None
    ) -> tuple[ApiModel, list[Diagnostic]]:
        return load_api(
            self.config,
            found if found is not None else crawled(self.config),
            NEEDED if needed is None else needed,
            self.cache,
            dependency_paths=[str(self.site)],
        )


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return Project(tmp_path)


@pytest.fixture
def visits(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The module names griffe visits (each visit is one file parsed)."""
    seen: list[str] = []
    real: Callable[..., griffe.Module] = griffe.visit

    def counting(name: str, *args: Any, **kwargs: Any) -> griffe.Module:
        seen.append(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(griffe, "visit", counting)
    return seen


def test_a_re_export_is_an_alias_to_the_definition(project: Project) -> None:
    model, _ = project.load()
    assert model.aliases["fixpkg.Widget"] == "fixpkg.core.Widget"
    assert ("Widget", "fixpkg.core.Widget") in model.objects["fixpkg"].members
    found = model.get("fixpkg.Widget")
    assert found is not None and found.canonical == "fixpkg.core.Widget"
    assert model.target("fixpkg.Widget.create") == "fixpkg.core.Widget.create"
    # An imported name is an alias too, with griffe's first hop.
    assert model.aliases["fixpkg.core.Thing"] == "fixpkg.other.Thing"
    assert model.aliases["fixpkg.public_helper"] == "fixpkg.util.helper"


def test_members_in_source_order_without_inherited_ones(project: Project) -> None:
    model, _ = project.load()
    widget = model.objects["fixpkg.core.Widget"]
    assert widget.member_names() == [
        "size",
        "__init__",
        "area",
        "create",
        "stat",
        "fetch",
        "pick",
        "_private",
    ]
    assert "base_method" not in widget.member_names()
    assert [b.text for b in widget.bases] == ["Base", "Generic[T]"]
    assert [base.canonical for base in model.bases_of(widget)] == ["fixpkg.core.Base"]


def test_kinds_and_labels(project: Project) -> None:
    model, _ = project.load()
    widget = "fixpkg.core.Widget"
    assert model.objects[f"{widget}.area"].kind is ApiKind.ATTRIBUTE
    assert "property" in model.objects[f"{widget}.area"].labels
    assert "classmethod" in model.objects[f"{widget}.create"].labels
    assert "staticmethod" in model.objects[f"{widget}.stat"].labels
    assert "async" in model.objects[f"{widget}.fetch"].labels
    assert model.objects[f"{widget}.__init__"].labels == ()
    assert model.objects[widget].kind is ApiKind.CLASS
    assert model.objects["fixpkg.core"].kind is ApiKind.MODULE
    assert model.objects["fixpkg.core.make_widget"].kind is ApiKind.FUNCTION


def test_parameters_with_kinds_defaults_and_annotations(project: Project) -> None:
    model, _ = project.load()
    init = model.objects["fixpkg.core.Widget.__init__"].parameters
    assert [(p.name, p.kind) for p in init] == [
        ("self", "positional or keyword"),
        ("size", "positional or keyword"),
        ("name", "keyword-only"),
    ]
    size, name = init[1], init[2]
    assert size.default == Expression(
        "DEFAULT_SIZE", (TypeRef("DEFAULT_SIZE", "fixpkg.core.DEFAULT_SIZE"),)
    )
    assert size.annotation is not None and size.annotation.text == "int"
    assert name.default == Expression("None")
    assert name.annotation is not None and name.annotation.text == "str | None"
    stat = model.objects["fixpkg.core.Widget.stat"].parameters
    assert [(p.name, p.kind) for p in stat] == [
        ("a", "positional-only"),
        ("b", "positional or keyword"),
    ]
    assert stat[1].default == Expression("2")
    create = model.objects["fixpkg.core.Widget.create"]
    assert [(p.name, p.kind, p.default) for p in create.parameters[1:]] == [
        ("args", "variadic positional", None),
        ("kwargs", "variadic keyword", None),
    ]
    assert create.returns is not None and create.returns.text == "Widget"


def test_type_refs_name_what_the_annotation_refers_to(project: Project) -> None:
    model, _ = project.load()
    pick = model.objects["fixpkg.core.Widget.pick"]
    things = pick.parameters[1].annotation
    assert things is not None and things.text == "list[Thing]"
    assert [(r.text, r.path) for r in things.names] == [
        ("list", "list"),
        ("Thing", "fixpkg.other.Thing"),
    ]
    assert pick.returns is not None
    assert TypeRef("Thing", "fixpkg.other.Thing") in pick.returns.names
    generic = model.objects["fixpkg.core.Widget"].bases[1]
    assert TypeRef("Generic", "typing.Generic") in generic.names


def test_docstrings_lines_files_and_flags(project: Project) -> None:
    model, _ = project.load()
    widget = model.objects["fixpkg.core.Widget"]
    assert widget.file == "src/fixpkg/core.py"
    assert (widget.lineno, widget.endlineno) == (20, 53)
    assert widget.docstring is not None
    assert widget.docstring.text == "A widget.\n\nArgs:\n    size: How big."
    assert widget.docstring.line == 21
    assert not model.objects["fixpkg.core.Widget._private"].is_public
    assert model.objects["fixpkg.core.Widget.create"].is_public
    assert model.objects["fixpkg"].exports == (
        "Widget",
        "make_widget",
        "public_helper",
        "Gadget",
        "VERSION",
    )
    assert model.objects["fixpkg.core.Widget.area"].decorators == ()
    assert model.objects["fixpkg.core.Widget.create"].decorators == ("classmethod",)


def test_nothing_is_imported_or_run(project: Project) -> None:
    model, _ = project.load()  # core.py ends with ``raise SystemExit``
    assert "fixpkg.core.make_widget" in model.objects
    assert not {"fixpkg", "extdep", "nspkg"} & set(sys.modules)


def test_a_namespace_package_is_read_as_griffe_reads_it(project: Project) -> None:
    model, _ = project.load()
    assert model.objects["nspkg"].kind is ApiKind.MODULE
    assert model.objects["nspkg.inner"].member_names() == ["mod"]
    assert model.objects["nspkg.inner.mod.leaf"].file == "src/nspkg/inner/mod.py"


def test_an_installed_package_the_aliases_reach_is_read_as_external(project: Project) -> None:
    model, _ = project.load()
    gadget = model.get("fixpkg.Gadget")
    assert gadget is not None and gadget.canonical == "extdep.things.Gadget"
    assert gadget.external and gadget.file == ""
    assert model.objects["extdep.things.Gadget.spin"].external
    # Needing only the package, its ``__all__`` leads into extdep; ``hiddendep`` is
    # imported by fixpkg but not exported: never read.
    model, _ = project.load({"fixpkg": (PAGE, 1)})
    assert "extdep.things.Gadget" in model.objects
    assert model.aliases["fixpkg.Unused"] == "hiddendep.Unused"
    assert not any(path.startswith("hiddendep") for path in model.objects)
    # Needed directly, it is read.
    model, _ = project.load({"fixpkg.Unused": (PAGE, 1)})
    assert model.get("fixpkg.Unused") is not None


def test_an_installed_package_that_is_absent_leaves_the_alias(project: Project) -> None:
    model, diagnostics = load_api(
        project.config, crawled(project.config), NEEDED, None, dependency_paths=[]
    )
    assert model.aliases["fixpkg.Gadget"] == "extdep.things.Gadget"
    assert model.get("fixpkg.Gadget") is None
    assert not any("extdep" in d.message for d in diagnostics)


def test_a_syntax_error_is_one_warning_and_the_rest_loads(project: Project) -> None:
    model, diagnostics = project.load()
    broken = [d for d in diagnostics if d.path == "src/fixpkg/broken.py"]
    assert [d.format() for d in broken] == [
        "src/fixpkg/broken.py:3:10: warning: invalid syntax: "
        "this module is left out of the API reference"
    ]
    assert "fixpkg.broken" not in model.objects
    assert "broken" not in model.objects["fixpkg"].member_names()
    assert "fixpkg.core.Widget" in model.objects


def test_a_missing_package_is_one_warning_where_it_is_named(project: Project) -> None:
    needed = {**NEEDED, "nopkg.Thing": ("docs/api.md", 4), "nopkg.Other": ("docs/api.md", 8)}
    model, diagnostics = project.load(needed)
    missing = [d for d in diagnostics if "nopkg" in d.message]
    assert [(d.path, d.line) for d in missing] == [("docs/api.md", 4)]
    assert "no Python module named nopkg" in missing[0].message
    assert "fixpkg.core.Widget" in model.objects


def test_a_cycle_of_aliases_is_one_warning_and_no_hang(project: Project) -> None:
    needed = {**NEEDED, "fixpkg.cyc_a.Loop": (PAGE, 11)}
    model, diagnostics = project.load(needed)
    cycles = [d for d in diagnostics if "cycle" in d.message]
    assert len(cycles) == 1
    assert (cycles[0].path, cycles[0].line) == ("src/fixpkg/cyc_a.py", 1)
    assert "fixpkg.cyc_a.Loop -> fixpkg.cyc_b.Loop -> fixpkg.cyc_a.Loop" in cycles[0].message
    assert model.get("fixpkg.cyc_a.Loop") is None


def test_a_huge_docstring_is_cut_with_a_warning(project: Project) -> None:
    text = "x" * (MAX_DOCSTRING + 10)
    write(project.root, {"src/otherpkg/__init__.py": f'"""{text}"""\n\nVALUE = 1\n'})
    model, diagnostics = project.load({"otherpkg": (PAGE, 1)})
    doc = model.objects["otherpkg"].docstring
    assert doc is not None and len(doc.text) == MAX_DOCSTRING
    [warning] = [d for d in diagnostics if "docstring" in d.message]
    assert warning.path == "src/otherpkg/__init__.py"
    assert f"{MAX_DOCSTRING + 10:,} characters" in warning.message


def test_an_excluded_file_is_not_in_the_model(project: Project) -> None:
    assert (project.root / "src/fixpkg/secret.py").is_file()
    model, _ = project.load()
    assert not any(path.startswith("fixpkg.secret") for path in model.objects)
    assert "secret" not in model.objects["fixpkg"].member_names()
    # The same file, not excluded, is read (so the test above can fail).
    project.config = Config(root=project.root, source=("src",), content="docs")
    model, _ = project.load()
    assert "fixpkg.secret.SECRET" in model.objects


def test_a_second_load_reads_nothing_and_gives_the_same_model(
    project: Project, visits: list[str]
) -> None:
    found = crawled(project.config)
    first, first_diagnostics = project.load(found=found)
    assert visits and (project.cache / FILE_NAME).is_file()
    visits.clear()
    second, second_diagnostics = project.load(found=found)
    assert visits == []
    assert second.objects == first.objects
    assert second.aliases == first.aliases
    assert second_diagnostics == first_diagnostics  # the syntax error is still reported


def test_an_edit_reads_again_only_the_package_it_is_in(project: Project, visits: list[str]) -> None:
    needed = {**NEEDED, "otherpkg": (PAGE, 1)}
    project.load(needed)
    # A page and a module of another package: fixpkg is not read again.
    write(project.root, {"docs/index.md": "# Changed\n", "src/otherpkg/__init__.py": "B = 2\n"})
    visits.clear()
    model, _ = project.load(needed)
    assert visits == ["otherpkg"]
    assert "otherpkg.B" in model.objects and "otherpkg.VALUE" not in model.objects
    # A module of fixpkg: fixpkg is read again, and the change shows.
    write(project.root, {"src/fixpkg/util.py": "def helper2() -> None:\n    pass\n"})
    visits.clear()
    model, _ = project.load(needed)
    assert "fixpkg" in visits and "otherpkg" not in visits
    assert "fixpkg.util.helper2" in model.objects and "fixpkg.util.helper" not in model.objects


def test_an_edit_of_an_installed_package_reads_it_again(
    project: Project, visits: list[str]
) -> None:
    project.load()
    write(project.site, {"extdep/things.py": "class Gadget:\n    def turn(self) -> None: ...\n"})
    visits.clear()
    model, _ = project.load()
    assert visits == ["extdep", "things"]
    assert "extdep.things.Gadget.turn" in model.objects


@pytest.mark.parametrize(
    "content",
    [
        b"not json at all",
        # Valid JSON of this schema and version, with a value of the wrong type.
        json.dumps({"schema": SCHEMA, "griffe": griffe_version(), "packages": {"x": 3}}).encode(),
        b"[1, 2]",
    ],
)
def test_a_corrupt_cache_is_set_aside_and_healed(
    project: Project, visits: list[str], content: bytes
) -> None:
    found = crawled(project.config)
    expected, _ = project.load(found=found)
    (project.cache / FILE_NAME).write_bytes(content)
    visits.clear()
    model, diagnostics = project.load(found=found)
    assert visits  # read again
    assert model.objects == expected.objects
    [aside] = [d for d in diagnostics if d.code == "cache"]
    assert aside.path == ".sitegen/api.json"
    assert "the API cache cannot be read" in aside.message
    assert (project.cache / (FILE_NAME + ".unreadable")).read_bytes() == content
    visits.clear()
    project.load(found=found)  # healed: the rewritten cache is used
    assert visits == []


def test_a_cache_of_another_griffe_version_is_a_quiet_miss(
    project: Project, visits: list[str]
) -> None:
    found = crawled(project.config)
    project.load(found=found)
    path = project.cache / FILE_NAME
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["griffe"] = "0.0.1"
    path.write_text(json.dumps(doc), encoding="utf-8")
    visits.clear()
    _, diagnostics = project.load(found=found)
    assert visits
    assert not [d for d in diagnostics if d.code == "cache"]


def test_mkdocstrings_paths_and_preload_modules_of_mkdocs_yml(project: Project) -> None:
    text = (
        "site_name: x\nplugins:\n  - search\n  - mkdocstrings:\n      handlers:\n"
        "        python:\n          paths: [lib]\n"
        "          options:\n            preload_modules: [hiddendep]\n"
    )
    write(project.root, {"mkdocs.yml": text, "lib/libpkg/__init__.py": "def f() -> None: ...\n"})
    generator = mkdocs_generator(text, "docs")
    assert generator is not None
    # The whole root is crawled: only mkdocs.yml's ``paths`` makes ``lib/`` a search folder.
    project.config = Config(root=project.root, content="docs", generator=generator)
    model, _ = project.load({"libpkg.f": (PAGE, 1)})
    assert model.objects["libpkg.f"].file == "lib/libpkg/__init__.py"
    assert "hiddendep.Unused" in model.objects  # preloaded, though nothing reaches it
    assert not any(path.startswith("fixpkg") for path in model.objects)
