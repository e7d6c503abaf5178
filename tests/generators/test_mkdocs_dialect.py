"""What an ``mkdocs.yml``'s ``markdown_extensions`` and theme turn on (sitegen/generators/mkdocs.py
``markdown_dialect``; content/syntax/material.md)."""

from __future__ import annotations

from sitegen.generators import Dialect
from sitegen.generators.mkdocs import mkdocs_generator

MATERIAL = """\
site_name: x
theme:
  name: material
  features: [content.code.annotate]
markdown_extensions:
  - attr_list
  - markdown.extensions.md_in_html
  - pymdownx.emoji:
      emoji_index: !!python/name:material.extensions.emoji.twemoji
      emoji_generator: !!python/name:material.extensions.emoji.to_svg
  - pymdownx.tabbed:
      alternate_style: true
      combine_header_slug: true
      slugify: !!python/object/apply:pymdownx.slugs.slugify
        kwds:
          case: lower
  - pymdownx.keys
  - pymdownx.mark
  - pymdownx.caret
  - pymdownx.tilde
  - markdown_include_variants
"""


def _dialect(text: str) -> Dialect:
    found = mkdocs_generator(text, "docs")
    assert found is not None
    return found.dialect


def test_each_enabled_extension_sets_its_flag() -> None:
    dialect = _dialect(MATERIAL)
    for flag in (
        Dialect.PYTHON_MARKDOWN,
        Dialect.EMOJI,
        Dialect.ICONS,
        Dialect.KEYS,
        Dialect.MARK,
        Dialect.CARET,
        Dialect.TILDE,
        Dialect.ATTR_LIST,
        Dialect.MD_IN_HTML,
        Dialect.INCLUDE_VARIANTS,
        Dialect.TAB_SLUGS,
        Dialect.TAB_SLUGS_COMBINED,
        Dialect.ANNOTATIONS,
        Dialect.ANNOTATE_ALL,
    ):
        assert flag in dialect, flag


def test_plain_mkdocs_reads_python_markdown_ids_only() -> None:
    assert _dialect("site_name: x\n") == Dialect.PYTHON_MARKDOWN


def test_emoji_without_materials_index_has_no_icons() -> None:
    dialect = _dialect("markdown_extensions:\n  - pymdownx.emoji\n  - pymdownx.tabbed\n")
    assert Dialect.EMOJI in dialect
    assert Dialect.ICONS not in dialect
    assert Dialect.TAB_SLUGS not in dialect


def test_material_without_the_feature_annotates_marked_blocks_only() -> None:
    dialect = _dialect("theme: material\n")
    assert Dialect.ANNOTATIONS in dialect
    assert Dialect.ANNOTATE_ALL not in dialect


def test_the_extra_bundles_bring_attr_list_and_md_in_html() -> None:
    for bundle in ("extra", "markdown.extensions.extra", "pymdownx.extra"):
        dialect = _dialect(f"markdown_extensions:\n  - {bundle}\n")
        assert Dialect.ATTR_LIST in dialect and Dialect.MD_IN_HTML in dialect, bundle


def test_site_name_is_the_sites_title() -> None:
    found = mkdocs_generator("site_name: My Docs\n", "docs")
    assert found is not None and found.title == "My Docs"
    bare = mkdocs_generator("theme: material\n", "docs")
    assert bare is not None and bare.title == ""
