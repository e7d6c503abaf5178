"""Outputs and caches of another sitegen's code are never reused: the code's own hash is part
of the build's fingerprint, of every output's key and of the page cache's version."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen import __version__
from sitegen.build import BuildOptions, build
from sitegen.config import load_config
from sitegen.state import remembered as incremental
from sitegen.state.ownership import OUTPUT_MARKER


def test_the_code_version_names_the_release_and_the_code() -> None:
    version = incremental.code_version()
    assert version.startswith(__version__ + "+") and len(version) == len(__version__) + 17


def test_other_code_rebuilds_every_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "content").mkdir()
    (tmp_path / "content/index.md").write_text("# Home\n")
    config = load_config(tmp_path)
    build(config, BuildOptions(jobs=1, quiet=True))
    marker = tmp_path / "site" / OUTPUT_MARKER
    first = incremental.SiteRecord.read(marker).keys["index.html"]
    again = build(config, BuildOptions(jobs=1, quiet=True))
    assert again.unchanged  # same code, same input: nothing is redone
    from sitegen.site import emit

    for module in (incremental, emit):  # every user of the code's version
        monkeypatch.setattr(module, "code_version", lambda: __version__ + "+other")
    other = build(config, BuildOptions(jobs=1, quiet=True))
    assert not other.unchanged
    assert incremental.load_state(tmp_path / ".sitegen", clean=False).pages  # saved anew
    # The page's key changed, so it was rendered again rather than taken from the old site.
    assert incremental.SiteRecord.read(marker).keys["index.html"] != first
