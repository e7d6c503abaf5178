"""What the browser tests share: where Chromium is, what a module does without it, and one
headless browser per module, started with the flags this machine's closed network needs
(content/guides/site.md is what these tests look at).

A module calls ``require_chromium()`` at import, then takes the ``browser`` fixture from
tests/e2e/conftest.py.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("SITEGEN_CHROMIUM", "/usr/bin/chromium")
#: Without the background-networking flags Chromium keeps dialling Google's hosts, which
#: this machine refuses; the sandbox needs privileges a container does not give.
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


def require_chromium() -> None:
    """Skip the calling module when Chromium or playwright is missing; under CI, fail."""
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        if os.environ.get("CI"):
            raise RuntimeError(
                "CI is set but no Chromium exists at /usr/bin/chromium: install Debian's chromium"
            )
        pytest.skip(
            "no Chromium at /usr/bin/chromium (apt-get install chromium); CI would fail here",
            allow_module_level=True,
        )
    pytest.importorskip("playwright.sync_api", reason="playwright is a test extra")


@contextmanager
def launched() -> Iterator[Any]:
    """A headless Chromium, closed on exit."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield browser
        finally:
            browser.close()
