"""Path conversions: node ids, output paths and relative hrefs (one module owns them)."""

from __future__ import annotations

import posixpath

from hypothesis import given
from hypothesis import strategies as st

from sitegen.paths import href_between, html_out_path, raw_out_path, relative_url, source_node_id

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
