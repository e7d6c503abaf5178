"""What a page documents (issue 23, point 1): each way a page points at code, with its kind,
its place in the page and the documented lines; built on a small project of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.analyse.stale import documents_of_build
from sitegen.build import BuildOptions, build
from sitegen.config import load_config
from sitegen.records.stale import DocRef

pytestmark = pytest.mark.slow  # a whole build

CODE = """def helper():
    return 1


class Parser:
    @staticmethod
    def feed(data):
        return data


def _private():
    return 2
"""

PAGE = """---
rel-documents: ../pkg/core.py
---
# Kinds

A [file](../pkg/core.py), [a line](../pkg/core.py#L1), [a range](../pkg/core.py#L2-L3),
[a plain line](../pkg/core.py#L2), [feed][core.Parser.feed] and [private][core._private].

::: core.Parser

--8<-- "pkg/core.py"

  --8<-- "pkg/core.py:5:7"

[nowhere](../pkg/core.py#L99) and [a page](other.md).

<<< ../pkg/core.py

<!--@include: ../pkg/core.py{5,7}-->

<<< ../pkg/core.py#main

--8<-- "content/part.txt"
"""


def test_every_kind_with_its_place_and_lines(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    for rel, text in {
        "content/kinds.md": PAGE,
        "content/other.md": "# Other\n",
        "content/part.txt": "A part of the content, not code.\n",
        "pkg/core.py": CODE,
        "sitegen.toml": 'source = ["pkg"]\n',
    }.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    result = build(load_config(root), BuildOptions(write_site=False, quiet=True, jobs=1))
    page = "content/kinds.md"
    core = "pkg/core.py"
    assert documents_of_build(result)[page] == [
        DocRef(page, 2, 1, "relation", core),  # the rel- key's line
        DocRef(page, 6, 3, "link", core),
        DocRef(page, 6, 27, "line link", core, "helper", 1, 2),
        DocRef(page, 6, 56, "range link", core, "", 2, 3),
        DocRef(page, 7, 1, "line link", core, "", 2, 2),
        DocRef(page, 7, 36, "autoref", core, "Parser.feed", 7, 8),  # the def line on
        DocRef(page, 7, 65, "autoref", core, "_private", 11, 12, public=False),
        DocRef(page, 9, 1, "directive", core, "Parser", 5, 8),
        DocRef(page, 11, 1, "snippet", core),
        DocRef(page, 13, 3, "snippet range", core, "", 5, 7),
        DocRef(page, 17, 1, "code import", core),
        DocRef(page, 19, 1, "include range", core, "", 5, 7),
        # a named region: which lines it holds is not guessed, so it documents nothing;
        # an asset of the content (part.txt) is content, not code: nothing either
    ]
