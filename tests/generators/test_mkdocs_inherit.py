"""``INHERIT`` in an ``mkdocs.yml`` is followed as MkDocs follows it (mergedeep's replace:
tables merged, other values replaced), inside the root only (sitegen/generators/mkdocs.py)."""

from __future__ import annotations

from pathlib import Path

from sitegen.generators import Dialect
from sitegen.generators.mkdocs import find_mkdocs

PARENT = """\
site_name: English
theme:
  name: material
  features: [content.code.annotate]
  palette: {primary: teal}
markdown_extensions:
  - pymdownx.keys
  - markdown_include_variants
plugins: [search, blog]
"""
CHILD = """\
INHERIT: ../en/mkdocs.yml
site_name: Español
theme:
  palette: {primary: red}
plugins: [search]
"""


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


def test_a_translation_inherits_the_english_configuration(tmp_path: Path) -> None:
    _write(tmp_path, {"docs/en/mkdocs.yml": PARENT, "docs/es/mkdocs.yml": CHILD})
    (tmp_path / "docs/es/docs").mkdir(parents=True)
    found = find_mkdocs(tmp_path, "docs/es/docs")
    assert found is not None
    assert found.config_file == "docs/es/mkdocs.yml" and found.docs_dir == "docs/es/docs"
    assert found.title == "Español"  # the file's own value wins
    assert Dialect.KEYS in found.dialect and Dialect.INCLUDE_VARIANTS in found.dialect
    assert Dialect.ANNOTATE_ALL in found.dialect  # theme merged key by key: features kept
    assert found.blog is None  # a list is replaced, not merged: the blog plugin is gone
    assert [rel for rel, _ in found.sources] == ["docs/es/mkdocs.yml", "docs/en/mkdocs.yml"]


def test_the_merge_is_mkdocs_own(tmp_path: Path) -> None:
    """The same two files through MkDocs' own loader, as the oracle of the merge."""
    from mkdocs.utils.yaml import yaml_load

    _write(tmp_path, {"docs/en/mkdocs.yml": PARENT, "docs/es/mkdocs.yml": CHILD})
    with (tmp_path / "docs/es/mkdocs.yml").open("rb") as file:
        theirs = yaml_load(file)
    assert theirs["theme"] == {
        "name": "material",
        "features": ["content.code.annotate"],
        "palette": {"primary": "red"},
    }
    found = find_mkdocs(tmp_path, "docs/es/docs")
    assert found is not None and found.nav is not None
    ours = found.nav.data  # type: ignore[attr-defined]
    assert ours == theirs


def test_a_loop_and_a_file_outside_the_root_are_not_followed(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "site/mkdocs.yml": "INHERIT: ../other/mkdocs.yml\nsite_name: A\n",
            "other/mkdocs.yml": "INHERIT: ../site/mkdocs.yml\nsite_name: B\nmarkdown_extensions: [pymdownx.keys]\n",
            "out/mkdocs.yml": "INHERIT: ../../elsewhere.yml\nsite_name: C\n",
        },
    )
    (tmp_path / "site/docs").mkdir(parents=True)
    (tmp_path / "out/docs").mkdir(parents=True)
    looped = find_mkdocs(tmp_path, "site/docs")
    assert looped is not None and looped.title == "A" and Dialect.KEYS in looped.dialect
    outside = find_mkdocs(tmp_path, "out/docs")
    assert outside is not None and outside.title == "C"
    assert [rel for rel, _ in outside.sources] == ["out/mkdocs.yml"]


def test_a_missing_parent_leaves_the_file_as_it_is(tmp_path: Path) -> None:
    _write(tmp_path, {"mkdocs.yml": "INHERIT: base.yml\nsite_name: Alone\n"})
    (tmp_path / "docs").mkdir()
    found = find_mkdocs(tmp_path, "docs")
    assert found is not None and found.title == "Alone"
