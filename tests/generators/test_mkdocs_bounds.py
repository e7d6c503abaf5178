"""``mkdocs.yml`` as a reader of hostile input (sitegen/generators/mkdocs.py, read through
sitegen/base/yamldata.py; its nav by sitegen/site/navigation.py): a file too large, too deep or
full of aliases is one warning with a place, the build goes on with MkDocs' defaults, and
nothing over the size limit is parsed (issue 27, defect 17: 500 levels were an internal error, and a 4 MB file was parsed
for 79 s while the build said it was skipped)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings

from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.base.yamldata import MAX_CHARACTERS
from sitegen.generators import find_generator, mkdocs_generator, mkdocs_nav_spec
from sitegen.site.navigation import mkdocs_nav
from tests.safety.linear import grows_linearly
from tests.safety.yaml_shapes import GROWING, REFUSED, yaml_texts


def _read(text: str) -> list[Diagnostic]:
    """What a build reads of an ``mkdocs.yml``: the generator, then the page tree."""
    mkdocs_generator(text, "docs")
    diagnostics: list[Diagnostic] = []
    mkdocs_nav(mkdocs_nav_spec(text), "docs", {}, diagnostics)
    return diagnostics


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_an_mkdocs_yml_over_a_bound_is_one_warning_at_its_place(name: str) -> None:
    text, said = REFUSED[name]
    found = mkdocs_generator(text, "docs")
    assert found is not None and found.docs_dir == "docs"  # MkDocs' defaults
    (diag,) = _read(text)
    assert (diag.path, diag.level, diag.code) == ("mkdocs.yml", Level.WARNING, "mkdocs-nav")
    assert said in diag.message and diag.message.endswith("its nav is not used")
    assert 1 <= diag.line <= 1 + text.count("\n") and len(diag.message) < 200


def test_a_huge_mkdocs_yml_is_read_to_the_limit_and_never_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    nav = "".join(f"  - Page {i}: p{i}.md\n" for i in range(200_000))  # about 4.6 MB
    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text("site_name: X\nnav:\n" + nav, encoding="utf-8")

    def parse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a file over the limit was parsed")

    monkeypatch.setattr(yaml, "parse", parse)
    monkeypatch.setattr(yaml, "load", parse)
    found = find_generator(tmp_path, "docs")
    assert found is not None and found.name == "MkDocs"
    text = found.source("mkdocs.yml") or ""
    assert len(text) == MAX_CHARACTERS + 1  # never held whole
    diagnostics: list[Diagnostic] = []
    assert mkdocs_nav(mkdocs_nav_spec(text), "docs", {}, diagnostics) is None
    assert [d.message for d in diagnostics] == [
        "mkdocs.yml is longer than 1,000,000 characters, the limit; its nav is not used"
    ]


@settings(deadline=None, max_examples=40)
@given(yaml_texts())
def test_any_hostile_mkdocs_yml_is_read_or_one_warning(text: str) -> None:
    diagnostics = _read(text)
    assert len(diagnostics) <= 1
    assert all(d.line >= 1 and len(d.message) < 300 for d in diagnostics)


@pytest.mark.parametrize("name", sorted(GROWING))
def test_a_hostile_mkdocs_yml_is_read_in_linear_time(name: str) -> None:
    ok, said = grows_linearly(_read, GROWING[name], 1_000, 60_000)
    assert ok, said
