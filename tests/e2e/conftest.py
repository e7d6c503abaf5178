"""A small fixture project written for the end-to-end tests, and a CLI runner."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

PAGES = {
    "content/index.md": """---
title: Home
---
# Home

Start with [the install guide](guides/install.md#step-1-download) and
[Getting started](guides/install.md "title") or read the [ADRs](adr/).
""",
    "content/guides/install.md": """# Install

Intro text.

## Step 1: download

Get it. See [home](../index.md) and [home again](../index.md) and [](../index.md).

## Setup

Read [the ADR](../adr/0002-new.md#decision), [a missing page](instal.md),
[a broken anchor](../index.md#nowhere), [\\<script>alert(1)\\</script>](../adr/0001-old.md)
and [local](http://localhost:8000/x) and [mail](mailto:x@y.z) and [ext](HTTPS://Example.COM:443/a#b).
The [model](../../pkg/core.py#L2) is code.
""",
    "content/adr/index.md": "# Decisions\n\n- [Old](0001-old.md)\n- [New](0002-new.md)\n",
    "content/adr/0001-old.md": "---\ntitle: ADR 0001 old\n---\n# ADR 0001\n\nOld.\n",
    "content/adr/0002-new.md": """---
title: ADR 0002 new
rel-supersedes: 0001-old.md
rel-depends-on: [../guides/install.md, " ", 0002-new.md]
rel:typo: 0001-old.md
---
# ADR 0002

## Decision

We decided.
""",
    "pkg/core.py": 'import os\n\ndef run():\n    """See [install](../content/guides/install.md#setup)."""\n    return os.getcwd()\n',
    "sitegen.toml": 'title = "Fixture"\nsource = ["pkg"]\n',
}


def write_project(root: Path, pages: dict[str, str | bytes] = PAGES) -> Path:
    for rel, text in pages.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
    return root


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return write_project(tmp_path / "proj")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every end-to-end test is slow (whole builds, servers, browsers): the fast loop,
    ``python -m pytest -m "not slow"``, skips this folder."""
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.slow)


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sitegen.commands.cli", *args],
        cwd=cwd,
        check=False,  # the callers read the exit code
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for a browser test module (tests/e2e/browser.py)."""
    from tests.e2e.browser import launched

    with launched() as b:
        yield b
