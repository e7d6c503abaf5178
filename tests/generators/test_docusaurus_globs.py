"""Docusaurus's include/exclude globs as globby reads them (sitegen/base/paths.py glob_matches)."""

from __future__ import annotations

import time

import pytest

from sitegen.base.paths import MAX_GLOB_EXPANSIONS, glob_matches
from sitegen.generators.docusaurus import DEFAULT_EXCLUDE, DEFAULT_INCLUDE

REDUX = ("{api,faq,introduction}/**/*.{md,mdx}", "./FAQ.md")


@pytest.mark.parametrize(
    ("path", "matches"),
    [
        ("api/Store.md", True),
        ("api/deep/x.mdx", True),
        ("FAQ.md", True),
        ("faq.md", False),
        ("usage/x.md", False),
        ("node_modules/pkg/README.md", False),
        ("api/a.js", False),
    ],
)
def test_include_globs(path: str, matches: bool) -> None:
    assert glob_matches(REDUX, path) is matches


@pytest.mark.parametrize(
    ("path", "excluded"),
    [
        ("_partial.md", True),
        ("guide/_partial.mdx", True),
        ("_drafts/x.md", True),
        ("guide/_parts/y.md", True),
        ("guide/a_b.md", False),
        ("guide/x.test.ts", True),
        ("a.md", False),
    ],
)
def test_docusaurus_default_excludes_partials(path: str, excluded: bool) -> None:
    assert glob_matches(DEFAULT_EXCLUDE, path) is excluded
    assert glob_matches(DEFAULT_INCLUDE, "a/b.mdx") and not glob_matches(DEFAULT_INCLUDE, "a.txt")


def test_nested_braces_and_their_bound() -> None:
    assert glob_matches(("a{b,c{d,e}}",), "ace")
    many = "{a,b}" * 10  # 1,024 patterns: past the bound, nothing matches
    assert MAX_GLOB_EXPANSIONS < 2**10 and not glob_matches((many,), "a" * 10)


def test_stars_stay_fast() -> None:
    glob = "*a*a*a*a*a*a*a*a*b"
    start = time.process_time()
    assert not glob_matches((glob,), "a" * 3_000)
    assert time.process_time() - start < 1.0
