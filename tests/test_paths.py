"""Path conversions: node ids, output paths and relative hrefs (one module owns them)."""

from __future__ import annotations

import posixpath
from pathlib import PurePosixPath

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sitegen.base.paths import (
    href_between,
    html_out_path,
    is_within,
    raw_out_path,
    relative_url,
    repo_path_within,
    source_node_id,
)

segment = st.sampled_from(["a", "b", "guides", "x y", "..a", "code"])
out_path = st.lists(segment, min_size=0, max_size=4).map(lambda parts: "/".join(parts + ["p.html"]))


@given(out_path, out_path)
def test_relative_url_agrees_with_posixpath(src: str, dst: str) -> None:
    assert relative_url(src, dst) == posixpath.relpath(dst, posixpath.dirname(src) or ".")


def test_node_to_output_paths() -> None:
    assert html_out_path("/guides/a.md") == "guides/a.html"
    assert html_out_path(source_node_id("sitegen/graph.py")) == "code/sitegen/graph.py.html"
    assert raw_out_path("/guides/a.md") == "guides/a.md"
    assert html_out_path("/img/logo.png") == "img/logo.png"


def test_href_between_percent_encodes_the_path_only() -> None:
    assert href_between("a/b.html", "a/c d#e.html", "frag") == "c%20d%23e.html#frag"


# ---------------------------------------------------------------- containment, one rule


@pytest.mark.parametrize(
    ("path", "folder", "within"),
    [
        ("docs/a.md", "docs", True),
        ("docs", "docs", True),
        ("docs/a.md", "docs/", True),  # a configured folder may end with a slash
        ("docsets/a.md", "docs", False),  # a shared prefix is not a folder
        ("doc", "docs", False),
        ("a.md", "", True),  # the root holds everything
        ("a/b.md", ".", True),
        ("docs/a.md", "docs/a", False),
    ],
)
def test_repo_path_within(path: str, folder: str, within: bool) -> None:
    assert repo_path_within(path, folder) is within


@given(
    st.lists(st.sampled_from(["a", "b", "ab"]), min_size=1, max_size=4),
    st.lists(st.sampled_from(["a", "b", "ab"]), min_size=1, max_size=3),
)
def test_repo_path_within_compares_whole_parts(path: list[str], folder: list[str]) -> None:
    expected = path[: len(folder)] == folder
    assert repo_path_within("/".join(path), "/".join(folder)) is expected
    assert is_within(PurePosixPath("/r", *path), PurePosixPath("/r", *folder)) is expected


def test_is_within_is_not_a_string_prefix() -> None:
    assert is_within(PurePosixPath("/p/site"), PurePosixPath("/p/site"))
    assert is_within(PurePosixPath("/p/site/a.html"), PurePosixPath("/p"))
    assert not is_within(PurePosixPath("/p/site-old"), PurePosixPath("/p/site"))
    assert not is_within(PurePosixPath("/p"), PurePosixPath("/p/site"))
