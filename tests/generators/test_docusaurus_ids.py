"""Docusaurus doc ids (sitegen/generators/docusaurus.py): path, number prefixes, front matter."""

from __future__ import annotations

import time

import pytest

from sitegen.generators.docusaurus import doc_id, strip_number_prefix


@pytest.mark.parametrize(
    ("name", "stripped"),
    [
        ("01-intro", "intro"),
        ("003 - My Doc", "My Doc"),
        ("1_a", "a"),
        ("2021-01-31-post", "2021-01-31-post"),  # a date, not a prefix
        ("7.0-release", "7.0-release"),  # a version
        ("intro", "intro"),
        ("01-", "01-"),  # nothing after the separator
        ("a1-doc", "a1-doc"),
    ],
)
def test_number_prefixes_are_taken_off_as_docusaurus_does(name: str, stripped: str) -> None:
    assert strip_number_prefix(name) == stripped


def test_a_doc_id_is_its_path_without_extension_and_prefixes() -> None:
    assert doc_id("guides/01-intro.md") == "guides/intro"
    assert doc_id("02-guides/10-deep/03-x.mdx") == "guides/deep/x"
    assert doc_id("index.md") == "index"
    assert doc_id("faq/OrganizingState.md", "organizing-state") == "faq/organizing-state"
    assert doc_id("01-a/b.md", " start ") == "a/start"
    assert doc_id("a/b.md", 3) == "a/b"  # an id that is no string is not one


def test_a_long_name_is_read_in_linear_time() -> None:
    name = "1" * 200_000 + " " * 200_000 + "-" * 200_000 + " "
    start = time.process_time()
    strip_number_prefix(name)
    assert time.process_time() - start < 1.0
